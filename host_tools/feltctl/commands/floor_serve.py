# `feltctl floor serve` (also `feltctl floor-serve`; host tools): the floor server -- subscribes to a
# room on the broker, checks and stores every table message in SQLite or PostgreSQL, serves the dashboard and
# the broadcast overlay (feltctl.room.floor_server; hardware/floor.md).
import time

from felt.errors import FeltError
from feltctl.board.signing import KeyStore

HELP = "the floor server: subscribe to a room, store it (SQLite or PostgreSQL), serve the dashboard and overlay"


def add_arguments(p):
    p.add_argument("--broker", default="mqtt://127.0.0.1:1883", help="the room's broker")
    p.add_argument("--room", default="room1", help="the room's name in the topics")
    p.add_argument("--tables", required=True, help="table names, comma-separated (their feed.pub in the key store)")
    p.add_argument("--keys", default=None, help="key store folder (default $FELT_KEYS or ~/.felt/keys)")
    p.add_argument("--floor", default=None, help="this desk's floor key name (for confirm/reject)")
    p.add_argument("--db", default="floor.sqlite",
                   help="the store: a SQLite file, or postgresql://USER[:PASSWORD]@HOST[:PORT]/DATABASE")
    p.add_argument("--http", type=int, default=8080, help="the dashboard's port on 127.0.0.1 (0: any free one)")
    p.add_argument("--duration", type=float, default=None, help="stop after this many seconds")


def run(args):
    from feltctl.room.floor_server import Floor, serve_http
    from feltctl.room.store import open_store

    store = KeyStore(args.keys)
    names = [t for t in args.tables.split(",") if t]
    if not names:
        raise FeltError("name the room's tables: --tables T1,T2 (each needs its feed.pub in the key store)")
    pubs = dict((t, store.feed_public(t)) for t in names)
    key_for = None
    if args.floor:
        key_for = lambda table: store.role_key(table, "floor-" + args.floor)  # noqa: E731
    db = open_store(args.db)
    floor = Floor(args.broker, args.room, pubs, db, args.floor, key_for).start()
    srv = serve_http(floor, args.http)
    print("floor: room %s on %s, %d tables; dashboard http://127.0.0.1:%d/ overlay /overlay?table=%s" % (
        args.room, args.broker, len(names), srv.server_port, names[0]), flush=True)
    end = None if args.duration is None else time.monotonic() + args.duration
    try:
        while end is None or time.monotonic() < end:
            time.sleep(0.2)
    except KeyboardInterrupt:
        pass
    srv.shutdown()
    floor.close()
    db.close()
    print("floor: %s" % floor.stats)
    return 0
