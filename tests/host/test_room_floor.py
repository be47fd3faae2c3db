# The floor server (issue 15 items 3 and 5): tables on a real Mosquitto, `feltctl floor serve`'s
# Floor storing into SQLite and (each test again) PostgreSQL, forged and replayed messages refused
# and alerted, hands stored sealed and completed by the reveal after the broadcast delay, the
# dashboard's HTTP API and its server-sent events, a slow subscriber that never holds the floor up, and a confirm posted to
# the dashboard reaching the table as a floor command over MQTT.
import json
import socket
import threading
import time
import urllib.request

import pytest

from felt.room import ack, message
from felt.room.desk_link import RoomDesk
from felt.security.auth import FloorGate
from felt.security.floordesk import FloorDesk
from feltctl.room.broker import BrokerError, Mosquitto, find_mosquitto
from feltctl.room.floor_server import CLIENT_QUEUE, Floor, equity, serve_http
from feltctl.room.mqtt import TableLink
from feltctl.room.store import fill_phh, open_store
from felt.engine.cards import parse_cards

from room_kit import FLOOR, HAND, OWNER, acks, SimTable, nonces

try:
    find_mosquitto()
except BrokerError as e:
    pytest.skip("MOSQUITTO MISSING: %s" % e, allow_module_level=True)


@pytest.fixture
def room(store_where):
    # every test on this fixture runs on each store backend (SQLite, PostgreSQL: conftest.store_where)
    b = Mosquitto(persistence=True).start()
    store = open_store(store_where)
    floor = Floor(b.url, "room1", {"t1": message.public_key(OWNER)}, store, "alice", lambda t: FLOOR,
                  client_id="floor-%d" % b.port, replay_s=0.5).start()
    yield b, floor, store
    floor.close()
    store.close()
    b.close()


def _until(pred, pump, timeout_s=15.0):
    end = time.monotonic() + timeout_s
    while time.monotonic() < end:
        pump()
        if pred():
            return True
        time.sleep(0.01)
    return False


def _table(b, folder):
    t = SimTable(folder=folder, delay_ms=2000)
    gate = FloorGate("t1", {"alice": FLOOR}, nonces())
    desk = RoomDesk(FloorDesk(gate, t.sim.table, t.feed, {"alice": FLOOR}, "t1"))
    link = TableLink(b.url, t.box, "room1", "t1", inbox=desk.inbox, acks=acks())
    desk.reply = link.reply

    def pump():
        t.sim.run("wait 5")
        desk.step(t.sim.hal.ticks_ms())
        link.pump()
    assert link.connected.wait(5)
    return t, link, pump


def test_floor_stores_the_hand_sealed_then_revealed_and_refuses_forged_and_replayed(room, tmp_path):
    b, floor, store = room
    t, link, pump = _table(b, str(tmp_path / "ob"))
    for line in HAND:
        t.sim.run(line)
        link.pump()
    assert _until(lambda: floor.stats["accepted"] >= t.box.last_seq, link.pump), (floor.stats, t.box.last_seq)
    hands = store.hands()
    assert [(h["table"], h["hand"], h["sealed"]) for h in hands] == [("t1", 1, 1)]
    phh = store.hand(hands[0]["id"])["phh"]
    assert "'d dh p3 ??'" in phh and "Kc" not in phh  # seat 1 (p3) folded: sealed until the reveal
    t.sim.run("wait 2500")  # the broadcast delay passes on the table's clock: the reveal goes out
    # (the store is revealed first, the overlay's view a moment later: both awaited)
    assert _until(lambda: store.hand(hands[0]["id"])["sealed"] == 0 and floor.snapshot()["tables"]["t1"]["reveal"],
                  link.pump)
    phh = store.hand(hands[0]["id"])["phh"]
    assert "'d dh p3 Kc'" in phh and "'d dh p3 2s'" in phh, phh
    snap = floor.snapshot()
    assert snap["tables"]["t1"]["reveal"]["seats"]["seat1"]["cards"] == "Kc2s"
    assert snap["tables"]["t1"]["state"]["phase"] == "over"
    # a forged message (signed with another key) on the table's topic: refused and alerted
    fake = message.make("t1", "room1", "t1", "state", 10 ** 6, 0, {"phase": "over"})
    message.sign(message.signer(b"\x99" * 32), fake)
    link.c.publish(message.topic("room1", "t1", "state"), message.encode(fake), qos=1)
    # a recorded genuine message published again later: refused as a replay and alerted
    time.sleep(0.6)  # longer ago than the floor's replay window (0.5 s here, 30 s by default)
    seq, kind = [(s, k) for s, k, _p in t.sent if k == "event"][0]
    link.c.publish(message.topic("room1", "t1", kind), _genuine(t, seq), qos=1)
    assert _until(lambda: floor.stats["refused"] >= 2, link.pump), floor.stats
    alerts = [a["text"] for a in store.floor_alerts()]
    assert any("forged or altered" in a for a in alerts), alerts
    assert any("replayed message refused" in a for a in alerts), alerts
    assert floor.stats["replayed"] == 1
    assert snap["tables"]["t1"]["state"]["phase"] == floor.snapshot()["tables"]["t1"]["state"]["phase"]
    link.close()


def test_a_floor_that_subscribes_after_the_table_published_stores_every_seq(tmp_path, store_where):
    # the broker acknowledges what a table publishes before any floor has subscribed, and drops
    # it (non-retained, no session to keep it for): the table's outbox keeps every message until
    # the floor's `stored` acknowledgement names it, so a floor started later still gets all
    b = Mosquitto(persistence=True).start()
    store = open_store(store_where)
    floor = None
    try:
        t, link, pump = _table(b, str(tmp_path / "ob"))
        for line in HAND:
            t.sim.run(line)
            link.pump()
        n = t.box.last_seq
        time.sleep(0.5)
        link.pump()
        assert t.box.count() == n  # the broker's PUBACKs took nothing out of the outbox
        floor = Floor(b.url, "room1", {"t1": message.public_key(OWNER)}, store, "alice", lambda t: FLOOR,
                      client_id="floor-late").start()
        assert _until(lambda: t.box.count() == 0, pump, timeout_s=20), (t.box.count(), floor.stats)
        assert [s for s, _k in store.messages("t1")] == list(range(1, n + 1))
        assert link.resent > 0 and floor.stats["refused"] == 0
        assert [h["hand"] for h in store.hands()] == [1]
        link.close()
    finally:
        if floor is not None:
            floor.close()
        store.close()
        b.close()


@pytest.mark.parametrize("session", ["kept", "lost"])
def test_the_floor_server_restarted_mid_hand_loses_nothing(tmp_path, store_where, session):
    # the floor server goes away mid-hand (its store closed) and comes back on the same store: with
    # its persistent session kept by the broker the messages of meanwhile wait there; with the
    # session lost (another client id: a broker that lost it) the tables send them again, because
    # nothing left their outboxes without the floor's acknowledgement
    b = Mosquitto(persistence=True).start()
    floors = []
    try:
        t, link, pump = _table(b, str(tmp_path / "ob"))

        def start(client_id):
            f = Floor(b.url, "room1", {"t1": message.public_key(OWNER)}, open_store(store_where), "alice",
                      lambda t: FLOOR, client_id=client_id).start()
            floors.append(f)
            return f
        first = start("floor-restart")
        for line in HAND[:12]:
            t.sim.run(line)
            link.pump()
        assert _until(lambda: t.box.count() == 0, pump), (t.box.count(), first.stats)
        upto = t.box.last_seq
        floors.remove(first)
        first.close()
        first.store.close()
        for line in HAND[12:]:
            t.sim.run(line)
            link.pump()
        assert t.box.count() == t.box.last_seq - upto  # nobody acknowledged these
        again = start("floor-restart" if session == "kept" else "floor-other")
        assert _until(lambda: t.box.count() == 0, pump, timeout_s=20), (t.box.count(), again.stats)
        n = t.box.last_seq
        assert [s for s, _k in again.store.messages("t1")] == list(range(1, n + 1))
        assert [h["hand"] for h in again.store.hands()] == [1]
        link.close()
    finally:
        for f in floors:
            f.close()
            f.store.close()
        b.close()


def _genuine(t, seq):
    # the exact payload the table published as `seq` (kept by the test's own copy of the outbox log)
    for s, _k, p in t.sent:
        if s == seq:
            return p
    raise AssertionError("seq %d not published" % seq)


def test_slow_subscriber_is_resynchronised_and_never_holds_the_floor(room):
    b, floor, store = room
    slow = floor.subscribe()  # never read
    fast = floor.subscribe()
    got = []
    stop = []

    def reader():
        while not stop:
            try:
                got.append(fast.get(timeout=0.1))
            except Exception:
                pass
    th = threading.Thread(target=reader, daemon=True)
    th.start()
    srv = serve_http(floor, 0)
    s = socket.create_connection(("127.0.0.1", srv.server_port))  # an SSE client that never reads
    s.sendall(b"GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
    t = SimTable(name="t1")
    start = time.monotonic()
    n = CLIENT_QUEUE + 500
    signer = message.signer(OWNER)
    from feltctl.room.keys import FastSigner
    signer = FastSigner(OWNER)
    for i in range(1, n + 1):
        msg = message.sign(signer, message.make("t1", "room1", "t1", "event", i, i, {"text": "x" * 200}))
        assert floor.take(("room1", "t1", "event"), message.encode(msg), time.time()) == "accepted"
    took = time.monotonic() - start
    end = time.monotonic() + 5
    while not fast.empty() and time.monotonic() < end:
        time.sleep(0.01)
    time.sleep(0.2)
    stop.append(1)
    th.join(2)
    assert floor.stats["lagged"] >= 1  # the one that never reads was dropped and told to resync
    assert json.loads(slow.get_nowait())["type"] == "resync"
    assert len(got) == n and '"resync"' not in "".join(got), len(got)  # the reading one got every event
    assert took < 20, took
    s.close()
    srv.shutdown()
    del t


def test_dashboard_api_and_a_confirm_over_mqtt(room, tmp_path):
    b, floor, store = room
    t, link, pump = _table(b, str(tmp_path / "ob"))
    srv = serve_http(floor, 0)
    base = "http://127.0.0.1:%d" % srv.server_port
    t.sim.run("hand")
    t.sim.run("draw Ah to seat 3")  # DEAL-8 proposal
    aid = t.sim.table.pending()[0].id
    assert _until(lambda: (floor.snapshot()["tables"].get("t1", {}).get("state") or {}).get("pending"), pump)
    snap = json.loads(urllib.request.urlopen(base + "/api/snapshot", timeout=5).read())
    assert [p["id"] for p in snap["tables"]["t1"]["state"]["pending"]] == [aid]
    page = urllib.request.urlopen(base + "/", timeout=5).read().decode()
    assert "EventSource" in page and "Confirm" in page
    answer = {}

    def post():
        req = urllib.request.Request(base + "/api/ruling", data=json.dumps(
            {"table": "t1", "alert": aid, "decision": "confirm"}).encode(), headers={"Content-Type": "application/json"})
        answer["r"] = json.loads(urllib.request.urlopen(req, timeout=20).read())
    th = threading.Thread(target=post)
    th.start()
    while th.is_alive():
        pump()
    assert answer["r"]["ok"] is True and answer["r"]["cmd"] == "ruling"
    assert t.sim.table.pending() == []
    srv.shutdown()
    link.close()


def test_overlay_equity_from_the_engine_evaluator():
    holes = {"seat1": parse_cards("AhAd"), "seat2": parse_cards("KcKd")}
    eq = equity(holes, parse_cards("2c7h9s"))
    assert eq["seat1"] > 85 and abs(eq["seat1"] + eq["seat2"] - 100) < 0.2, eq
    assert equity(holes, parse_cards("2c7h9sJd3s")) == {"seat1": 100.0, "seat2": 0.0}


def test_fill_phh_puts_revealed_cards_in_deal_order():
    phh = "actions = [\n  'd dh p1 ??',\n  'd dh p2 Kd',\n  'd dh p1 ??',\n]\nseats = [3, 1]\n"
    assert "'d dh p1 As'" in fill_phh(phh, {"seat3": "As2c"}) and "'d dh p1 2c'" in fill_phh(phh, {"seat3": "As2c"})


def test_floor_demo_every_message_reaches_the_floor(capsys):
    from feltctl import cli

    assert cli.main(["floor", "demo", "--tables", "2", "--seconds", "3", "--http", "0", "--every-ms", "50"]) == 0
    out = capsys.readouterr().out
    assert "dashboard: http://127.0.0.1:" in out and "0 refused" in out, out


def test_issue15_the_floor_signs_its_acknowledgements_and_without_a_floor_key_sends_none(tmp_path):
    # the floor's `stored` acknowledgement carries the HMAC of its floor key on that table
    # (felt.room.ack); a floor server without one cannot acknowledge (every table would refuse an
    # unsigned one): it sends nothing and says so once, as a floor alert
    sent = []

    class _Client:
        def publish(self, topic, payload, qos=0):
            sent.append((topic, payload))

    store = open_store(str(tmp_path / "f.sqlite"))
    try:
        f = Floor("mqtt://127.0.0.1:1", "room1", {"t1": message.public_key(OWNER)}, store, "alice", lambda t: FLOOR)
        f.c = _Client()
        for seq in (1, 2, 3, 5):
            f._acked("t1", seq)
        assert f.flush_acks() == 1
        assert sent == [("felt/room1/t1/stored", ack.payload(FLOOR, "t1", "alice", "1-3 5"))]
        assert acks().verify(*ack.split_payload(sent[0][1]), last_seq=5) == [(1, 3), (5, 5)]
        bare = Floor("mqtt://127.0.0.1:1", "room1", {"t1": message.public_key(OWNER)}, store)
        bare.c = _Client()
        del sent[:]
        for _i in range(2):
            bare._acked("t1", 1)
            assert bare.flush_acks() == 0
        assert sent == []
        said = [a["text"] for a in store.floor_alerts(10) if "no floor key" in a["text"]]
        assert len(said) == 1, said
    finally:
        store.close()


def test_issue15_audit_records_stored_verified_and_shown_with_a_broken_chain_alerted(room, tmp_path):
    # issue 15 item 3: the floor stores the tables' audit records. The table's signed audit chain
    # (its device key) goes out record by record through the outbox; the floor checks each
    # record's signature with the table's public key and its link to the record before, stores it
    # with that verdict, and the dashboard shows the table's trail. A record whose text was edited
    # (bad signature) or that does not follow the one before (a rewritten chain, signed again) is
    # a floor alert on the dashboard.
    from felt.room import setup
    from felt.security import audit as al
    from felt.security import secrecy
    b, floor, store = room
    t = SimTable(folder=str(tmp_path / "ob"), delay_ms=2000)
    log = al.AuditLog(al.MemStore(), key=al.signer(OWNER))
    log.append("boot", "powered up (before the room)", who="board")
    setup.publish_audit(log, t.pub)
    t.sim.rt.alert_sinks.append(secrecy.Hooks(t.feed, t.sim.table, t.sim.hal.ticks_ms, log).auditor)
    gate = FloorGate("t1", {"alice": FLOOR}, nonces(), audit=log)  # floor commands are audited
    desk = RoomDesk(FloorDesk(gate, t.sim.table, t.feed, {"alice": FLOOR}, "t1"))
    link = TableLink(b.url, t.box, "room1", "t1", inbox=desk.inbox, acks=acks())
    desk.reply = link.reply
    srv = serve_http(floor, 0)
    base = "http://127.0.0.1:%d" % srv.server_port

    def pump():
        t.sim.run("wait 5")
        desk.step(t.sim.hal.ticks_ms())
        link.pump()
    try:
        assert link.connected.wait(5)
        done = {}
        th = threading.Thread(target=lambda: done.setdefault("r", floor.command("t1", "stack 2 2500", timeout_s=10)))
        th.start()
        while th.is_alive():
            pump()
        assert done["r"].opts["cmd"] == "stack"
        for line in HAND[:10] + ["draw Ah to seat 3"] + HAND[10:]:  # a DEAL-8 alert mid-hand, audited
            t.sim.run(line)
            link.pump()
        n = log.seq
        assert n >= 4, log.store.lines()

        def trail():
            return store.audit_trail("t1")
        assert _until(lambda: len(trail()) >= n and t.box.count() == 0, pump), (len(trail()), n, floor.stats)
        got = sorted(trail(), key=lambda a: a["seq"])
        assert [a["seq"] for a in got] == list(range(1, n + 1))
        assert [a["status"] for a in got] == ["linked"] * n, got
        kinds = [a["kind"] for a in got]
        assert kinds[0] == "boot" and "floor" in kinds and "alert" in kinds, kinds
        assert [a for a in got if a["kind"] == "floor"][0]["text"] == "stack 2 2500"
        assert [a for a in got if a["kind"] == "floor"][0]["who"] == "alice"
        shown = json.loads(urllib.request.urlopen(base + "/api/audit?table=t1", timeout=5).read())
        assert [a["seq"] for a in shown] == list(range(n, 0, -1))  # the dashboard's trail, newest first
        assert "Audit trail" in urllib.request.urlopen(base + "/", timeout=5).read().decode()
        assert not [a for a in store.floor_alerts() if "audit" in a["text"]]
        # the table's log edited after the fact: a record's text changed (its signature no longer
        # verifies), and a chain rewritten and signed again (the next record does not follow it)
        log.on_record = None  # published by hand below, as a table with an edited log would
        forged = log.append("alert", "seat 2 called", who="table").line.replace("seat 2 called", "seat 2 folded")
        body = "%d\t%d\tboard\tfloor\tstack 3 99999\t%s" % (n + 2, t.sim.hal.ticks_ms(), "0" * 64)
        rewritten = body + "\t" + al.hexlify(al.signer(OWNER).sign(al.record_message(body)))
        t.pub.audit(forged)
        t.pub.audit(rewritten)
        assert _until(lambda: len(trail()) >= n + 2, pump), (len(trail()), floor.stats)
        status = dict((a["seq"], a["status"]) for a in trail())
        assert (status[n + 1], status[n + 2]) == ("bad-signature", "broken"), status
        want = ["audit record %d of t1: its signature does not verify" % (n + 1),
                "audit chain of t1 broken at record %d" % (n + 2)]

        def alerted():  # (the verdict is stored a moment before its alert)
            texts = [a["text"] for a in store.floor_alerts()]
            return all(any(w in x for x in texts) for w in want)
        assert _until(alerted, pump), store.floor_alerts()
        snap = json.loads(urllib.request.urlopen(base + "/api/snapshot", timeout=5).read())
        assert any("audit chain of t1 broken" in a["text"] for a in snap["floor_alerts"])  # on the dashboard
    finally:
        srv.shutdown()
        link.close()
