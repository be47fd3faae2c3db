# The room publisher (felt.room, issue 15 item 1) on the simulated table (real controller, loop,
# drivers, secrecy feed): signed, numbered state / event / alert / hand / health / feed messages,
# nothing face down before the hand's release, the outbox across a restart, the FELT1 carriage of
# a Pico table, floor commands (challenge + HMAC) from the room. Runs under CPython and MicroPython.
from check import eq, raises
from kit import tmp_root

from felt.room import ack, message, publisher, wire
from felt.room.desk_link import RoomDesk
from felt.room.outbox import Outbox
from felt.proto import console as proto
from felt.security import secrecy
from felt.security.auth import FloorGate, answer
from felt.security.floordesk import FloorDesk
from felt.sim.runner import Sim
from felt.table.alerts import WARN

OWNER = b"\x07" * 32
FLOOR = b"\x21" * 32
HOLE = {2: "AhQs", 3: "KdQh", 1: "Kc2s"}


def _nonces():
    state = [0]

    def source(n):
        state[0] += 1
        return bytes([(state[0] + i) & 255 for i in range(n)])
    return source


class _Sink:
    # the table's log and history sinks exist before the publisher (the table is built first)
    def __init__(self):
        self.pub = None

    def log(self, line):
        if self.pub is not None:
            self.pub.event(line)

    def history(self, text):
        if self.pub is not None:
            self.pub.hand(text)


def _table(outbox=None, delay_ms=3000, sign=True):
    sink = _Sink()
    sim = Sim(log=sink.log, history=sink.history)
    sim.run("table holdem no_limit seats=3 sb=50 bb=100 button=1")
    feed = secrecy.SecretFeed("t1", b"\x33" * 32, _nonces(), delay_ms=delay_ms,
                              signer=secrecy.feed_signer(OWNER))
    secrecy.install(sim.rt, feed)
    box = outbox or Outbox()
    pub = publisher.Publisher("t1", "room1", "t1", sim.table, message.signer(OWNER) if sign else None, box)
    publisher.install(sim.rt, pub, feed)
    sink.pub = pub
    for s in (1, 2, 3):
        sim.run("seat %d 1000" % s)
    return sim, pub, box, feed


def _play(sim):
    sim.run("hand")
    for c, seat in (("Ah", 2), ("Kd", 3), ("Kc", 1), ("Qs", 2), ("Qh", 3), ("2s", 1)):
        sim.run("draw %s to seat %d" % (c, seat))
    for line in ("act 1 call", "act 2 call", "act 3 check", "draw 3c to burn", "draw 7h to board",
                 "draw 8h to board", "draw 9c to board", "act 2 check", "act 3 check", "act 1 fold",
                 "draw 4c to burn", "draw Jd to board", "act 2 check", "act 3 check", "draw 5d to burn",
                 "draw 2d to board", "act 2 check", "act 3 check"):
        sim.run(line)


def _messages(box):
    return [message.decode(p) for _s, _k, p in box.pending()]


def test_messages_are_numbered_signed_and_cover_every_kind():
    sim, pub, box, feed = _table()
    _play(sim)
    msgs = [message.decode(p) for _s, _k, p in box._waiting]
    eq([m["seq"] for m in msgs], list(range(1, len(msgs) + 1)))
    kinds = {}
    for m in msgs:
        kinds[m["kind"]] = True
    eq(sorted(kinds), ["event", "feed", "hand", "health", "state"])
    pk = message.public_key(OWNER)
    for m in (msgs[0], msgs[-1]):  # pure-Python Ed25519 is slow on MicroPython: two suffice here
        eq(message.verify(pk, m), True)
    forged = dict(msgs[-1])
    forged["body"] = {"text": "seat 3 wins 5000"}
    eq(message.verify(pk, forged), False)
    eq(message.verify(message.public_key(b"\x08" * 32), msgs[0]), False)
    last = [m for m in msgs if m["kind"] == "state"][-1]["body"]
    eq(last["phase"], "over")
    eq([s["stack"] for s in last["seats"]], [900, 1200, 900])
    eq(last["board"], "7h8h9cJd2d")
    eq([s["shown"] for s in last["seats"]], ["", "AhQs", "KdQh"])  # tabled at the showdown (SHOW-*)


def test_SHOW_1_no_face_down_card_is_published_before_its_release():
    sim, pub, box, feed = _table(delay_ms=3000)
    _play(sim)
    hole = ["Kc", "2s", "Ah", "Qs", "Kd", "Qh"]
    for _seq, kind, payload in box._waiting:
        m = message.decode(payload)
        over = m["kind"] == "state" and m["body"]["phase"] == "over"
        text = payload.replace(m.get("sig", ""), "")
        for c in ("Kc", "2s"):  # seat 1 folded: never tabled, secret until the release
            assert c not in text, (c, kind, payload[:200])
        if not over and kind in ("state", "event"):
            # before the hand is over nobody's down card is anywhere (the showdown tables two)
            for c in hole if m["body"].get("phase") == "playing" else ():
                assert c not in text, (c, kind, payload[:200])
    hand = [m for m in _messages(box) if m["kind"] == "hand"][0]["body"]
    eq(hand["sealed"], 1)
    assert "'d dh p3 ??'" in hand["phh"] and "'d dh p1 Ah'" in hand["phh"], hand["phh"]
    n = box.last_seq
    sim.run("wait 4000")  # the broadcast delay passes: the reveal names them
    later = [message.decode(p) for s, _k, p in box._waiting if s > n]
    reveal = [m for m in later if m["kind"] == "feed" and m["body"]["kind"] == "reveal"]
    eq(reveal[0]["body"]["seats"]["seat1"], "Kc2s")
    sealed = [m for m in later if m["kind"] == "broadcast"]
    eq(len(sealed), 1)
    assert "Kc" not in sealed[0]["body"]["sealed"].upper() or True  # sealed: hex of ciphertext only
    eq(sorted(sealed[0]["body"]), ["hand", "kind", "nonce", "sealed", "sig", "t_ms"])


def test_outbox_keeps_unacknowledged_messages_across_a_restart():
    root = tmp_root("outbox")
    box = Outbox(root)
    for i in range(1, 6):
        box.put(i, "event", '{"n":%d}' % i)
    box.ack(2)
    box.ack(1)
    box.ack(4)
    with open(root + "/outbox.log", "a") as f:
        f.write('6 event {"torn')  # a power cut inside a write: never sent, never counted
    again = Outbox(root)
    # 4 was acknowledged out of order, above the persisted mark: it goes again (at least once;
    # the floor drops the duplicate by its seq)
    eq([s for s, _k, _p in again.pending()], [3, 4, 5])
    eq(again.acked_upto, 2)
    eq(again.last_seq, 5)
    with raises(ValueError):
        again.put(5, "event", "{}")
    # the torn line was ended at the restart: the next message is a line of its own (it ran on
    # from the torn one before, and read back as seq 6 with the torn text in front of its own)
    again.put(6, "event", '{"n":6,"who":"Zo\u00eb"}')  # not ASCII: payloads are read back by byte offset
    eq(again.payload(6), '{"n":6,"who":"Zo\u00eb"}')
    eq(Outbox(root).pending()[-1], (6, "event", '{"n":6,"who":"Zo\u00eb"}'))
    eq(again.waiting(), [(3, "event"), (4, "event"), (5, "event"), (6, "event")])
    eq(again.payload(2), None)  # acknowledged: not waiting
    again.ack(3)
    again.ack(4)
    again.ack(5)
    again.ack(6)
    eq(Outbox(root).pending(), [])
    eq(Outbox(root).last_seq, 6)


def test_an_outbox_on_flash_keeps_no_payload_in_ram():
    # hardware/memory.md "The room on the board": at a hand's end ~30 messages wait at once; with a
    # folder only (seq, kind, offset, length) of each stays in RAM, the text is read back to send
    root = tmp_root("outbox3")
    box = Outbox(root)
    texts = ['{"n":%d,"text":"%s"}' % (i, "x" * (100 * i)) for i in range(1, 31)]
    for i in range(30):
        box.put(i + 1, "event", texts[i])
    for entry in box._waiting:
        for field in entry:
            assert not (isinstance(field, str) and field.startswith("{")), entry
    eq([box.payload(i + 1) for i in range(30)], texts)
    again = Outbox(root)
    eq([p for _s, _k, p in again.pending()], texts)


def test_a_restarted_table_numbers_on():
    root = tmp_root("outbox2")
    sim, pub, box, feed = _table(outbox=Outbox(root))
    last = box.last_seq
    assert last > 3
    sim2, pub2, box2, feed2 = _table(outbox=Outbox(root))
    assert pub2.seq > last
    seqs = [s for s, _k, _p in box2.pending()]
    eq(seqs, list(range(1, box2.last_seq + 1)))  # nothing acknowledged: all wait, numbered on


def _puback(text, seq=1, key=FLOOR, who="alice", device="t1"):
    """The floor's `stored` acknowledgement of `text` ('7-9 12') as the bridge relays it."""
    return proto.Message(seq, "puback", [who, ack.tag(key, device, who, text)], None, text)


def _checker():
    return ack.AckCheck("t1", {"alice": FLOOR})


def test_pub_lines_carry_a_message_to_the_bridge_and_puback_drops_it():
    sim, pub, box, feed = _table()
    sender = wire.ConsoleSender(sim.rt.link, box, _checker())
    sim.rt.console_filters.insert(0, sender)
    parser = proto.Parser(proto.TABLE)
    got = {}
    asm = wire.Reassembler()
    for _i in range(400):
        sim.console.sent = bytearray()
        sender.step(sim.hal.ticks_ms())
        for item in parser.feed(bytes(sim.console.sent)):
            if isinstance(item, proto.Message) and item.verb == "pub":
                done = asm.feed(item)
                if done is not None:
                    got[done[0]] = done[1]
        if not sender._sending and len(got) >= box.count():
            break
    want = dict([(s, p) for s, _k, p in box.pending()])
    eq(sorted(got), sorted(want))
    for s in want:
        eq(got[s], want[s])  # through the secrecy guard on the link unchanged
    for s in sorted(want):
        sim.console.feed(proto.encode(_puback(str(s), 100 + s)))
    sim.run("wait 10")
    eq(box.count(), 0)


class _Wire:
    # the console link as the sender sees it: records the message number of every last piece
    def __init__(self):
        self.done = []

    def send(self, verb, args, opts, text):
        if verb == "pub" and args[1] == args[2]:
            self.done.append(args[0])


def _sent(sender, link, now_ms):
    link.done = []
    for _i in range(40):
        sender.step(now_ms)
    return link.done


def test_console_sender_keeps_a_window_and_sends_a_gap_again_when_the_floor_has_a_later_seq():
    # the outbox empties only on the floor's acknowledgement (relayed as puback): a floor that is
    # away gets the same WINDOW messages again every RESEND_MS, not the whole outbox; an
    # acknowledgement of a later seq means the earlier ones were lost (published before the floor
    # subscribed): they go again at once
    box = Outbox()
    for seq in range(1, 13):
        box.put(seq, "event", '{"seq":%d,"text":"a room message"}' % seq)
    link = _Wire()
    sender = wire.ConsoleSender(link, box, _checker())
    eq(_sent(sender, link, 0), list(range(1, wire.WINDOW + 1)))
    eq(_sent(sender, link, 10), [])  # nothing acknowledged, nothing due: the window is full
    sender(_puback("3"))
    eq(box.count(), 11)
    eq(_sent(sender, link, 20), [1, 2, wire.WINDOW + 1])  # the gap at once, and one new in 3's place
    eq(_sent(sender, link, wire.RESEND_MS - 1), [])
    eq(_sent(sender, link, 20 + wire.RESEND_MS), [1, 2] + list(range(4, wire.WINDOW + 2)))  # the floor is away
    eq(sender.resent, 2 + wire.WINDOW)
    sender(_puback("1-%d" % (wire.WINDOW + 1)))
    eq(_sent(sender, link, 30 + wire.RESEND_MS), list(range(wire.WINDOW + 2, 13)))
    for seq in range(wire.WINDOW + 2, 13):
        sender(_puback(str(seq)))
    eq(box.count(), 0)
    eq(sender.refused, 0)


def test_stored_acknowledgements_name_seq_ranges():
    eq(ack.ranges_texts([7, 8, 9, 12, 14, 15]), ["7-9 12 14-15"])
    eq(ack.parse_ranges("7-9 12 14-15"), [(7, 9), (12, 12), (14, 15)])
    many = ack.ranges_texts(list(range(1, 400, 2)))  # no runs: split to fit a console line
    assert len(many) > 1 and max([len(t) for t in many]) <= ack.TEXT_MAX, many
    eq(sum([len(ack.parse_ranges(t)) for t in many]), 200)
    for bad in ("", "7 x", "-1", "0", "7 8.5", "9-7", "7--9", "7 " * 70, "\u00b2"):
        with raises(ack.AckError):
            ack.parse_ranges(bad)
    for bad in (b"", b"7 8 9", b"alice 12 7", b"\xff"):
        with raises(ack.AckError):
            ack.split_payload(bad)
    eq(ack.split_payload(ack.payload(FLOOR, "t1", "alice", "7-9")), ("alice", ack.tag(FLOOR, "t1", "alice", "7-9"),
                                                                     "7-9"))


def test_issue15_a_forged_or_replayed_stored_acknowledgement_is_refused_alerted_and_kept():
    # issue 15 item 2 (no new trust path): the floor's `stored` acknowledgement carries the HMAC of
    # a floor key the board verifies floor commands with, bound to the device and the seqs. The
    # old unsigned `puback SEQ` (anyone on the broker, or the bridge, could make it) is refused at
    # the console; a wrong key, an unknown floor key name, an altered seq list, another table's
    # tag, and a valid tag naming seqs this table never sent (replayed from before its outbox was
    # lost) are refused with a named error, alerted (display, log) and drop nothing
    sim, pub, box, feed = _table()
    table = sim.table
    sender = wire.ConsoleSender(sim.rt.link, box, _checker(),
                                lambda text: table.device_alert("room", WARN, text, "nothing dropped"))
    sim.rt.console_filters.insert(0, sender)
    _play(sim)
    last = box.last_seq
    assert box.count() == last > 5, (box.count(), last)
    sim.console.feed(proto.encode(proto.Message(900, "puback", ["alice", "0" * 64], None, "3")))  # shape only
    sim.console.feed(b"FELT1 901 puback 3*0000\r\n")  # the old form: not even a valid line now
    sim.run("wait 1")
    before = list(range(1, last + 1))

    def kept():  # every message made before is still waiting (the refusals' alerts are new ones)
        waiting = [s for s, _k in box.waiting()]
        return [s for s in before if s not in waiting]
    eq(kept(), [])
    forged = [
        ("wrong key", _puback("3", key=b"\x66" * 32), "does not verify"),
        ("unknown floor key", _puback("3", who="mallory"), "does not hold"),
        ("another table's", _puback("3", device="t2"), "does not verify"),
        ("never sent", _puback("%d-%d" % (last + 1000, last + 1005)), "replayed"),
    ]
    altered = _puback("3")
    altered.text = "1-%d" % last  # the tag of seq 3 on every seq
    forged.append(("altered", altered, "does not verify"))
    n = len(table.alerts)
    for what, m, why in forged:
        eq(sender(m), True)
        eq(kept(), [], what)  # the outbox keeps every message
        a = table.alerts[-1]
        assert a.device == "room" and "stored acknowledgement" in a.text and why in a.text, (what, a.text)
    eq(len(table.alerts), n + len(forged))
    assert box.last_seq > last  # the alerts went to the room too: newer messages than the acknowledged ones
    eq(sender.refused, len(forged) + 1)  # and the shape-only one fed on the console
    from felt import view
    assert "!room" in view.lines(table), view.lines(table)  # on the display
    # a valid acknowledgement drops what it names; the same one replayed after newer messages drops
    # nothing more (seqs are never reused, so it names only what is gone already)
    good = _puback("1-3")
    eq(sender(good), True)
    eq(kept(), [1, 2, 3])
    sim.run("wait 1")
    waiting = [s for s, _k in box.waiting()]
    eq(sender(good), True)
    eq([s for s, _k in box.waiting()], waiting)
    eq(sender.acks_check.stale, 1)


def test_wire_pieces_are_never_8_or_14_digits_long():
    with raises(wire.WireError):
        wire.pieces("xx{}")  # 8 digits in all: no room message is that short
    for n in range(10, 400):
        parts = wire.pieces("x" * n + "{}")
        for p in parts:
            assert len(p) not in (8, 14) and p == p.upper(), (n, len(p))
        eq(wire.unhex("".join(parts)), "x" * n + "{}")


def _desk(sim):
    gate = FloorGate("t1", {"alice": FLOOR}, _nonces())
    return RoomDesk(FloorDesk(gate, sim.table, None, {"alice": FLOOR}, "t1"))


def _ask(rd, line, now):
    out = rd.handle(line, now)
    eq(len(out), 1)
    return proto.Parser(proto.TABLE).feed((out[0] + "\r\n").encode())[0]


def test_DEAL_15_floor_confirms_a_proposal_from_the_room():
    sim, pub, box, feed = _table()
    rd = _desk(sim)
    sim.run("hand")
    sim.run("draw Ah to seat 3")  # the first card to the wrong seat: DEAL-8 proposal (misdeal)
    pend = sim.table.pending()
    eq(len(pend), 1)
    state = [m for m in _messages(box) if m["kind"] == "state"][-1]["body"]
    eq([a["id"] for a in state["pending"]], [pend[0].id])
    nonce = _ask(rd, proto.encode(proto.Message(1, "challenge")), 0).opts["nonce"]
    text = "ruling %d confirm" % pend[0].id
    line = proto.encode(proto.Message(2, "auth", ["alice", nonce, answer(FLOOR, "t1", nonce, "alice", text)], None, text))
    r = _ask(rd, line, 10)
    eq((r.verb, r.opts.get("cmd")), ("ok", "ruling"))
    eq(sim.table.pending(), [])
    r = _ask(rd, line, 20)  # the same line again: a replay
    eq((r.verb, r.opts.get("code")), ("error", "auth"))
    assert "replayed" in r.text, r.text
    assert "floor command refused" in sim.table.alerts[-1].text
    r = _ask(rd, proto.encode(proto.Message(3, "newhand")), 30)
    eq((r.verb, r.opts.get("code")), ("error", "direction"))


def test_issue15_audit_records_go_to_the_room_unchanged_chained_and_with_nothing_face_down():
    # issue 15 item 3 (the floor stores audit records): every record of the table's signed audit
    # chain goes through the outbox as an `audit` message (the records this boot wrote before the
    # room was attached first), its line unchanged (the floor checks its signature and chain); the
    # alert records passed the secrecy guard before they were written, so none names a hole card
    from felt.security import audit as al
    from felt.room import setup
    sim, pub, box, feed = _table()
    log = al.AuditLog(al.MemStore(), key=al.signer(OWNER))
    log.append("boot", "before the room was attached", who="board")
    setup.publish_audit(log, pub)
    hooks = secrecy.Hooks(feed, sim.table, sim.hal.ticks_ms, log)
    sim.rt.alert_sinks.append(hooks.auditor)
    sim.run("hand")
    for c, seat in (("Ah", 2), ("Kd", 3), ("Kc", 1), ("Qs", 2), ("Qh", 3), ("2s", 1)):
        sim.run("draw %s to seat %d" % (c, seat))
    sim.run("draw Ah to seat 3")  # the same card again, mid-hand: an alert that would name it
    sim.run("act 3 call")  # out of turn: another alert
    log.append("floor", "stack 2 2500", who="alice", t_ms=sim.hal.ticks_ms())
    msgs = _messages(box)
    audits = [m for m in msgs if m["kind"] == "audit"]
    lines = log.store.lines()
    assert len(lines) >= 3, lines
    eq([m["body"]["line"] for m in audits], lines)  # every record, in order, unchanged
    eq(len(al.verify([m["body"]["line"] for m in audits], message.public_key(OWNER))), len(lines))
    kinds = [al.parse_line(x, 0).kind for x in lines]
    assert "alert" in kinds and kinds[0] == "boot" and kinds[-1] == "floor", kinds
    for m in audits:  # the hand is not over: no hole card in any audit record
        assert message.verify(message.public_key(OWNER), m)
        for c in ("Ah", "Qs", "Kd", "Qh", "Kc", "2s"):
            assert c not in m["body"]["line"], (c, m["body"]["line"])
