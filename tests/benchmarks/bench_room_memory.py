# Benchmark (not a test): the RAM the room costs a Pico table (issue 15; hardware/memory.md, "The
# room on the board"): felt.room's publisher, outbox and console sender (felt.room.wire) on the
# emulated 32-bit board (the WebAssembly port, firmware from the ROMFS image, a fixed heap) and the
# 64-bit unix port. The same driver runs twice on each port: a ten-seat table with its secrecy feed
# (the peer, no room) and the same table with the room attached as a Pico has it (every message
# signed with the board's Ed25519 key, kept in the outbox on the board's file system, sent as `pub`
# lines, acknowledged by `puback` after each main-loop step as the bridge relays the floor's
# acknowledgement). Printed: the room's import cost
# (felt.room.message/publisher/outbox/wire), the live heap after each hand in both runs and the
# difference, and the highest live heap between main-loop steps.
# usage: python tests/benchmarks/bench_room_memory.py [--hands N] [--ports wasm,unix] [--ram KB]
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "host_tools"))

from feltctl.board import romfs  # noqa: E402

DRIVER = r'''
import gc

OWNER = b"\x07" * 32


class Sink:
    # the table's log and history sinks exist before the publisher (the table is built first)
    def __init__(self):
        self.pub = None

    def log(self, line):
        if self.pub is not None:
            self.pub.event(line)

    def history(self, text):
        if self.pub is not None:
            self.pub.hand(text)


def nonces():
    state = [0]

    def source(n):
        state[0] += 1
        return bytes([(state[0] * 7 + i) & 255 for i in range(n)])
    return source


def fresh_folder(path):
    import os
    for name in ("outbox.log", "outbox.ack", "outbox.ack.new"):
        try:
            os.remove(path + "/" + name)
        except OSError:
            pass
    return path


FLOOR = b"\x21" * 32  # the floor key "alice" the acknowledgements are signed with (felt.room.ack)


def ack(sim, sender, proto):
    """The bridge's part: the console's lines taken, every message sent acknowledged (puback, with
    the floor's HMAC as the bridge relays it)."""
    sim.console.sent = bytearray()
    n = 0
    if sender is not None:
        from felt.room.ack import tag
        for seq in list(sender._sent_ms):
            text = str(seq)
            sender(proto.Message(0, "puback", ["alice", tag(FLOOR, "t1", "alice", text)], None, text))
            n += 1
    return n


def main(argv):
    hands = int(argv[0])
    room = argv[1] == "room"
    gc.collect()
    yield
    from felt.sim.runner import Sim
    from felt.sim import autoplay
    from felt.security import secrecy
    from felt.proto import console as proto
    gc.collect()
    yield
    m0 = gc.mem_alloc()
    if room:
        from felt.room import ack as room_ack, message, publisher, outbox, wire
        gc.collect()
        yield
        print("IMPORT %d" % (gc.mem_alloc() - m0))
    sink = Sink()
    sim = Sim(log=sink.log, history=sink.history)
    yield
    sim.run("table omaha8 limit seats=10 sb=10 bb=20 small_bet=20 big_bet=40 button=1")
    yield
    feed = secrecy.SecretFeed("t1", b"\x33" * 32, nonces(), delay_ms=1000, signer=secrecy.feed_signer(OWNER))
    secrecy.install(sim.rt, feed)
    sender = None
    box = None
    if room:
        box = outbox.Outbox(fresh_folder(argv[2]))  # on the board's file system, as on a Pico
        pub = publisher.Publisher("t1", "room1", "t1", sim.table, message.signer(OWNER), box)
        publisher.install(sim.rt, pub, feed)
        sink.pub = pub
        sender = wire.ConsoleSender(sim.rt.link, box, room_ack.AckCheck("t1", {"alice": FLOOR}))
        sim.rt.console_filters.insert(0, sender)
        sim.rt.after_step.append(sender.step)
    for s in range(1, 11):
        for _s in sim.run_steps("seat %d 1000000" % s):
            ack(sim, sender, proto)
            gc.collect()
            yield
    sim.console.sent = bytearray()
    gc.collect()
    yield
    print("START %d %d" % (gc.mem_alloc() - m0, box.count() if box else 0))
    import sys
    print("MODULES %s" % " ".join(sorted(sys.modules)))
    rng = autoplay.Lcg(7)
    peak = 0
    sent = 0
    where = ""
    for i in range(hands):
        for steps in (autoplay.calling_hand(sim, autoplay.shuffled(rng)), None):
            if steps is None:
                steps = sim.run_steps("clear")
            for _s in steps:
                sent += ack(sim, sender, proto)
                gc.collect()
                yield
                m = gc.mem_alloc() - m0
                if m > peak:
                    peak = m
                    # what the room holds at that moment: messages waiting, the one on the line
                    where = "%d %d %d" % (i + 1, box.count() if box else 0,
                                          len(sender._sending[1]) if sender and sender._sending else 0)
        if sim.table.state != "over" or sim.table.alerts:
            raise SystemExit("BROKEN %s %r" % (sim.table.state, sim.table.alerts[:2]))
        gc.collect()
        yield
        print("HAND %d %d %d %d" % (i + 1, gc.mem_alloc() - m0, box.count() if box else 0, sent))
    print("PEAK %d %s" % (peak, where))
    print("DONE")
'''


def run(port, hands, mode, ram_kb):
    folder = tempfile.mkdtemp(prefix="bench_room_memory_")
    driver = os.path.join(folder, "bench_room_memory_driver.py")  # a fixed name: the image cache key
    with open(driver, "w") as f:
        f.write(DRIVER)
    try:
        if port == "wasm":
            from feltctl import wasm_micropython

            # the heap may grow: one main-loop step at a hand's end signs several messages (a PHH of
            # a few KB among them) in pure-Python Ed25519/SHA-512, more garbage than 8 MB, and this
            # port collects only between steps (a board collects inside a step); what stays live is
            # measured after gc.collect() between steps
            p = wasm_micropython.run_board("bench_room_memory_driver", [str(hands), mode, "/tmp/felt_bench_room"],
                                           ram=ram_kb * 1024,
                                           extra=[driver], timeout_s=3600, fixed_heap=False)
        else:
            p = subprocess.run(romfs.command("bench_room_memory_driver", [str(hands), mode, os.path.join(folder, "room")],
                                             ram=ram_kb * 1024,
                                             extra=[driver]), capture_output=True, text=True, timeout=3600, cwd=HERE)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    out = {"hands": [], "done": False}
    for line in p.stdout.splitlines():
        w = line.split()
        if w and w[0] in ("IMPORT", "START", "PEAK"):
            out[w[0]] = int(w[1])
            out[w[0] + "_more"] = w[2:]
        elif w and w[0] == "MODULES":
            out["modules"] = w[1:]
        elif w and w[0] == "HAND":
            out["hands"].append((int(w[2]), int(w[3]), int(w[4])))
        elif w and w[0] == "DONE":
            out["done"] = True
    if not out["done"]:
        raise SystemExit("%s %s run failed (exit %s):\n%s\n%s" % (port, mode, p.returncode, p.stdout[-1500:],
                                                                 p.stderr[-1500:]))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--hands", type=int, default=3)
    ap.add_argument("--ports", default="wasm,unix")
    # large: a measure of what stays live, not a limit (the WebAssembly port collects only between
    # main-loop steps, and one step signs several messages in pure-Python Ed25519)
    ap.add_argument("--ram", type=int, default=8192, metavar="KB", help="heap beside the image")
    a = ap.parse_args()
    for port in a.ports.split(","):
        peer = run(port, a.hands, "peer", a.ram)
        room = run(port, a.hands, "room", a.ram)
        print("%s: room import (felt.room message, publisher, outbox, wire) %d B" % (port, room["IMPORT"]))
        print("%s: table built, seated: peer %d B, with the room %d B (+%d; %s messages waiting)" % (
            port, peer["START"], room["START"], room["START"] - peer["START"], room["START_more"][0]))
        for i in range(len(peer["hands"])):
            p, r = peer["hands"][i][0], room["hands"][i][0]
            print("%s: after hand %d: peer %d B, with the room %d B (+%d; outbox %d waiting, %d acknowledged so far)"
                  % (port, i + 1, p, r, r - p, room["hands"][i][1], room["hands"][i][2]))
        print("%s: modules loaded at the start with the room and not without: %s" % (
            port, " ".join(sorted(set(room["modules"]) - set(peer["modules"])))))
        print("%s: highest live heap between main-loop steps: peer %d B, with the room %d B (+%d); ratio %.2f "
              "(in hand %s, %s messages waiting, the one on the line in %s pieces)" % (
                  port, peer["PEAK"], room["PEAK"], room["PEAK"] - peer["PEAK"], room["PEAK"] * 1.0 / peer["PEAK"],
                  room["PEAK_more"][0], room["PEAK_more"][1], room["PEAK_more"][2]))


if __name__ == "__main__":
    main()
