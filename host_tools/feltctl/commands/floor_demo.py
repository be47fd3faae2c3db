# `feltctl floor demo` (also `feltctl floor-demo`; `make demo-floor`; host tools): the room on one
# machine -- a Mosquitto of its own on a free local port, a few headless engine tables publishing
# to it (feltctl.room.engine_table: the real controller, engine, publisher and signatures), and the
# floor server with its dashboard and overlay. Every few hands a table's dealer misdeals: the
# proposal waits on the dashboard for Confirm or Reject (a floor command over MQTT). Ends with the
# floor's counts and checks that every message the tables made was taken.
import random
import sys
import tempfile
import time

from felt.room import message
from feltctl.room.broker import Mosquitto
from feltctl.room.engine_table import EngineTable, owner_key
from feltctl.room.floor_server import Floor, serve_http
from feltctl.room.store import SqliteStore

HELP = "the room on this machine: a broker, a few tables and the floor's dashboard (make demo-floor)"
FLOOR = b"felt-demo-floor-key-0123456789ab"  # the demo's floor key (made up: not for a real room)


def add_arguments(p):
    p.add_argument("--tables", type=int, default=4)
    p.add_argument("--seconds", type=float, default=60.0, help="how long the tables play (0: until Ctrl-C)")
    p.add_argument("--http", type=int, default=8080, help="the dashboard's port on 127.0.0.1 (0: any free one)")
    p.add_argument("--every-ms", type=float, default=400.0, help="one input per table this often")
    p.add_argument("--auto-confirm-s", type=float, default=20.0,
                   help="a proposal nobody rules on is confirmed by the demo's floor after this long")
    p.add_argument("--db", default=None, help="the SQLite file (default: a temporary one)")
    p.add_argument("--delay-ms", type=int, default=15000,
                   help="the broadcast delay: hole cards reach the overlay this long after a hand (house default 30 min)")


def run(args):
    db = args.db or tempfile.mktemp(prefix="felt-floor-demo-", suffix=".sqlite")
    names = ["table%d" % (i + 1) for i in range(args.tables)]
    broker = Mosquitto(persistence=True).start()
    floor = Floor(broker.url, "demo", dict((n, message.public_key(owner_key(n))) for n in names), SqliteStore(db),
                  "demo", lambda table: FLOOR, client_id="felt-floor-demo").start()
    srv = serve_http(floor, args.http)
    rng = random.Random(15)
    tables = [EngineTable(n, "demo", broker.url, rng, {"demo": FLOOR}, misdeal_every=3, delay_ms=args.delay_ms)
              for n in names]
    base = "http://127.0.0.1:%d" % srv.server_port
    print("room demo: broker %s, %d tables, store %s" % (broker.url, len(tables), db))
    print("  dashboard: %s/   overlay: %s/overlay?table=table1" % (base, base), flush=True)
    start = time.monotonic()
    waiting = {}
    try:
        while not args.seconds or time.monotonic() - start < args.seconds:
            for tb in tables:
                tb.step()
                _auto_confirm(floor, tb, waiting, args.auto_confirm_s)
            time.sleep(args.every_ms / 1000.0)
    except KeyboardInterrupt:
        pass
    for _ in range(100):  # the last messages go out
        for tb in tables:
            tb.step() if tb.t.pending() else tb.link.pump()
        if floor.stats["accepted"] >= sum(tb.box.last_seq for tb in tables):
            break
        time.sleep(0.05)
    made = sum(tb.box.last_seq for tb in tables)
    counts = floor.store.counts()
    hands = sum(tb.t.hand_no for tb in tables)
    print("room demo: %d hands, %d messages made, %d taken by the floor (%d duplicates dropped, %d refused), "
          "%d hands stored" % (hands, made, floor.stats["accepted"], floor.stats["duplicates"], floor.stats["refused"],
                               counts["hands"]))
    for tb in tables:
        tb.close()
    srv.shutdown()
    floor.close()
    broker.close()
    if floor.stats["accepted"] != made:
        print("room demo: NOT every message reached the floor", file=sys.stderr)
        return 1
    return 0


def _auto_confirm(floor, tb, waiting, after_s):
    # a proposal nobody clicked on: the demo's floor confirms it, by the same path as the button
    pend = tb.t.pending()
    if not pend:
        waiting.pop(tb.name, None)
        return
    since = waiting.setdefault(tb.name, time.monotonic())
    if time.monotonic() - since < after_s:
        return
    import threading

    aid = pend[0].id
    waiting[tb.name] = time.monotonic() + 3600  # once
    th = threading.Thread(target=lambda: _try(floor, tb.name, "ruling %d confirm" % aid), daemon=True)
    th.start()


def _try(floor, table, text):
    try:
        floor.command(table, text)
        print("floor: %s on %s (no one had ruled)" % (text, table), flush=True)
    except Exception as e:  # the dashboard got there first, or the table refused: said, not fatal
        print("floor: %s on %s not done: %s" % (text, table, e), flush=True)
