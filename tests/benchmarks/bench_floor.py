# Benchmark (not a test; issue 15 item 6): 100 headless engine tables -- the real controller and
# engine (felt.table.controller.Table driven by direct inputs: shoe reads, antenna arrivals, actions;
# no drivers, no HAL) with the real publisher, signed messages and outbox -- publish to one local
# Mosquitto, each over its own MQTT connection (paho-mqtt, QoS 1), while `feltctl floor serve`'s
# Floor runs in its own process (signature checks, seq, SQLite, server-sent events). A client on
# the dashboard's event stream measures the latency from a table's message (stamped with the wall
# clock when the table made it) to the dashboard. Reported: messages/s through the floor, p50/p99
# latency, the floor process's CPU (% of one core) and peak memory, the broker's CPU. Goal: p99
# under 200 ms for 100 tables on this 2-core machine.
# Peer, measured in the same run on the same broker: the bare MQTT path -- the same number of
# unsigned messages of the same size, the same rate and connections, to a plain paho subscriber
# (no signature check, no store, no HTTP). The ratio floor/peer says what the floor adds.
# --store postgresql: the floor stores into PostgreSQL (a server of the bench's own, feltctl.room.pgserver)
# instead of SQLite.
# Usage: python tests/benchmarks/bench_floor.py [--tables 100] [--seconds 20] [--every-ms 1000] [--store sqlite|postgresql]
import argparse
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path[:0] = [os.path.join(REPO, "firmware"), os.path.join(REPO, "host_tools")]

from felt.room import message  # noqa: E402
from feltctl.room.broker import Mosquitto  # noqa: E402
from feltctl.room.engine_table import EngineTable, owner_key  # noqa: E402
from feltctl.room.mqtt import client  # noqa: E402


FLOOR = b"\x21" * 32  # the bench floor's key "bench" on every table: its `stored` acknowledgements are signed


def owner(i):
    return owner_key("b%d" % i)


# ---- the floor, in its own process ------------------------------------------------------------------
def serve(args):
    from feltctl.room.floor_server import Floor, serve_http
    from feltctl.room.store import open_store

    pubs = dict(("b%d" % i, message.public_key(owner(i))) for i in range(args.tables))
    store = open_store(args.db or os.path.join(args.dir, "floor.sqlite"))
    floor = Floor(args.broker, "bench", pubs, store, "bench", lambda table: FLOOR, client_id="bench-floor").start()
    srv = serve_http(floor, 0)
    print(json.dumps({"http": srv.server_port}), flush=True)
    sys.stdin.readline()  # until the parent closes our stdin
    print(json.dumps({"stats": floor.stats, "counts": store.counts()}), flush=True)
    floor.close()


def proc_cpu_s(pid):
    with open("/proc/%d/stat" % pid) as f:
        w = f.read().rsplit(")", 1)[1].split()
    return (int(w[11]) + int(w[12])) / os.sysconf("SC_CLK_TCK")


def proc_mem_kb(pid, key="VmHWM"):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    return 0


# ---- the dashboard's event stream, timed ------------------------------------------------------------
def sse_latencies(port, lat, stop, since, kinds=("event", "state", "alert", "hand")):
    """Latencies (ms) of the messages made at or after since[0] (wall-clock ms; the warm-up's seating
    messages wait for the first connection and are not counted)."""
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(b"GET /events HTTP/1.1\r\nHost: bench\r\n\r\n")
    buf = b""
    s.settimeout(0.5)
    while not stop:
        try:
            data = s.recv(65536)
        except socket.timeout:
            continue
        if not data:
            break
        now = time.time() * 1000
        buf += data
        while b"\n\n" in buf:
            block, buf = buf.split(b"\n\n", 1)
            for line in block.split(b"\n"):
                if line.startswith(b"data: "):
                    ev = json.loads(line[6:])
                    if ev.get("type") == "msg" and ev["kind"] in kinds and since and ev["t_ms"] >= since[0]:
                        lat.append(now - ev["t_ms"])
    s.close()


def percentile(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(len(xs) * p / 100.0))] if xs else float("nan")


def run_tables(tables, seconds, every_ms):
    """Each table makes one input every `every_ms` (staggered); returns inputs made."""
    start = time.monotonic()
    n = len(tables)
    due = [start + (i * every_ms / 1000.0) / n for i in range(n)]
    inputs = 0
    while time.monotonic() - start < seconds:
        i = min(range(n), key=lambda k: due[k])
        wait = due[i] - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        tables[i].step()
        inputs += 1
        due[i] += every_ms / 1000.0
    for _ in range(50):  # let the outboxes drain
        for tb in tables:
            tb.link.pump()
        time.sleep(0.02)
    return inputs


def bare_peer(url, conns, seconds, rate, size):
    """The peer: unsigned payloads of `size` bytes at `rate` messages/s over `conns` connections,
    to a plain subscriber; returns (messages received, p50, p99 ms)."""
    lat = []
    sub = client("bench-peer-sub", url)
    ready = threading.Event()
    sub.on_connect = lambda c, u, f, rc, p: c.subscribe("peer/#", qos=1)
    sub.on_subscribe = lambda *a: ready.set()
    sub.on_message = lambda c, u, m: lat.append(time.time() * 1000 - float(m.payload[:16]))
    from feltctl.room.broker import parse_url
    host, port = parse_url(url)
    sub.connect(host, port)
    sub.loop_start()
    ready.wait(5)
    pubs = []
    for i in range(conns):
        c = client("bench-peer-%d" % i, url)
        c.connect(host, port)
        c.loop_start()
        pubs.append(c)
    time.sleep(0.5)
    pad = b"x" * max(0, size - 16)
    start = time.monotonic()
    k = 0
    while time.monotonic() - start < seconds:
        due = start + k / rate
        wait = due - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        pubs[k % conns].publish("peer/%d/event" % (k % conns), b"%16.3f" % (time.time() * 1000) + pad, qos=1)
        k += 1
    time.sleep(1.0)
    for c in pubs + [sub]:
        c.disconnect()
        c.loop_stop()
    return len(lat), percentile(lat, 50), percentile(lat, 99), k


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tables", type=int, default=100)
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--every-ms", type=float, default=1000.0, help="one input per table this often")
    ap.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--broker", default=None, help=argparse.SUPPRESS)
    ap.add_argument("--dir", default=None, help=argparse.SUPPRESS)
    ap.add_argument("--db", default=None, help=argparse.SUPPRESS)
    ap.add_argument("--store", choices=("sqlite", "postgresql"), default="sqlite", help="the floor's store")
    args = ap.parse_args()
    if args.serve:
        return serve(args)
    work = tempfile.mkdtemp(prefix="felt-bench-floor-")
    broker = Mosquitto().start()
    pg = None
    try:
        db = []
        if args.store == "postgresql":
            from feltctl.room.pgserver import PostgresServer

            pg = PostgresServer().start()
            db = ["--db", pg.create_database("bench")]
        fl = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--serve", "--broker", broker.url, "--dir", work,
                               "--tables", str(args.tables)] + db, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True)
        port = json.loads(fl.stdout.readline())["http"]
        time.sleep(0.5)
        lat = []
        stop = []
        since = []
        th = threading.Thread(target=sse_latencies, args=(port, lat, stop, since), daemon=True)
        th.start()
        rng = random.Random(15)
        tables = [EngineTable("b%d" % i, "bench", broker.url, rng, {"bench": FLOOR}) for i in range(args.tables)]
        for tb in tables:
            tb.link.connected.wait(5)
            tb.link.pump()  # the seating messages go before the clock starts
        time.sleep(1.0)
        since.append(time.time() * 1000)
        seq0 = sum(tb.box.last_seq for tb in tables)
        cpu0, bcpu0, t0 = proc_cpu_s(fl.pid), proc_cpu_s(broker.proc.pid), time.monotonic()
        inputs = run_tables(tables, args.seconds, args.every_ms)
        time.sleep(1.0)
        wall = time.monotonic() - t0
        cpu1, bcpu1 = proc_cpu_s(fl.pid), proc_cpu_s(broker.proc.pid)
        mem = proc_mem_kb(fl.pid)
        stop.append(1)
        fl.stdin.close()
        final = json.loads(fl.stdout.readline())
        fl.wait(10)
        made = sum(tb.box.last_seq for tb in tables)
        if final["stats"]["accepted"] != made:
            print("floor: NOT every message arrived: %d made, %d accepted" % (made, final["stats"]["accepted"]))
        for tb in tables:
            tb.link.close()
        rate = (made - seq0) / wall  # made in the measured window, every one accepted (checked above)
        p50, p99 = percentile(lat, 50), percentile(lat, 99)
        print("floor (%s store): %d tables, one input each every %.0f ms, %.0f s: %d inputs, %d messages made, "
              "%d accepted (%d duplicates, %d refused, %d gaps), %d stored"
              % (args.store, args.tables, args.every_ms, args.seconds, inputs, made, final["stats"]["accepted"],
                 final["stats"]["duplicates"], final["stats"]["refused"], final["stats"]["gaps"],
                 final["counts"]["messages"]))
        print("floor: %.0f messages/s; table -> dashboard latency p50 %.1f ms, p99 %.1f ms over %d events "
              "(goal p99 < 200 ms: %s)" % (rate, p50, p99, len(lat), "met" if p99 < 200 else "NOT met"))
        print("floor process: CPU %.0f %% of one core, peak RSS %.1f MB; broker CPU %.0f %%"
              % (100 * (cpu1 - cpu0) / wall, mem / 1024.0, 100 * (bcpu1 - bcpu0) / wall))
        size = sum(tb.bytes for tb in tables) // max(1, made)
        n, q50, q99, sent = bare_peer(broker.url, min(args.tables, 100), min(args.seconds, 10.0), max(rate, 1.0), size)
        print("peer (bare MQTT, same broker, %.0f msg/s of %d bytes, %d connections, no floor): %d/%d received, "
              "p50 %.1f ms, p99 %.1f ms" % (max(rate, 1.0), size, min(args.tables, 100), n, sent, q50, q99))
        print("ratio floor/peer: p50 %.1fx, p99 %.1fx" % (p50 / q50 if q50 else float("nan"),
                                                          p99 / q99 if q99 else float("nan")))
    finally:
        broker.close()
        if pg is not None:
            pg.close()


if __name__ == "__main__":
    sys.exit(main())
