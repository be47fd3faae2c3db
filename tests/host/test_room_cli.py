# The room's commands as a person runs them (issue 15 items 1-3 and 5): `feltctl bridge` on a Pico
# table's console (a simulated board behind socket://) and `feltctl floor serve` as separate
# processes on a real Mosquitto, the floor's keys from a key store. The bridge runs first and the
# table publishes before the floor server has ever subscribed: the broker acknowledges those
# messages and, having no subscriber yet, drops them. The table's outbox keeps every message until
# the floor's own `stored` acknowledgement names it, so the floor still ends with every seq, once
# (this failed with 53-60 of 66 stored while the outbox emptied on the broker's PUBACKs). Then a
# Confirm posted to the dashboard goes back through the bridge to the table, which applies it.
import json
import os
import signal
import subprocess
import sys
import time
import urllib.request

import pytest

from felt.room import message
from felt.security.auth import FloorGate
from felt.security.floordesk import FloorDesk
from feltctl.board.signing import KeyStore
from feltctl.room.broker import BrokerError, Mosquitto, find_mosquitto
from feltctl.room.store import open_store

from room_kit import HAND, PicoOnSocket, SimTable, nonces

try:
    find_mosquitto()
except BrokerError as e:
    pytest.skip("MOSQUITTO MISSING: %s" % e, allow_module_level=True)

FELTCTL = [sys.executable, "-m", "feltctl.cli"]


@pytest.fixture
def broker():
    b = Mosquitto(persistence=True).start()
    yield b
    b.close()


@pytest.fixture
def procs():
    """Processes the test starts; ended (by their own ids) however the test ends."""
    started = []
    yield started
    for p in started:
        if p.poll() is None:
            p.send_signal(signal.SIGINT)  # the commands end on Ctrl-C, closing their broker sessions
    for p in started:
        try:
            p.wait(10)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait(5)


def _get(url):
    return json.loads(urllib.request.urlopen(url, timeout=5).read())


def _stored_seqs(where, table):
    # read as another process would (the server's own connection is in its process)
    db = open_store(where)
    try:
        return [s for s, _k in db.messages(table)]
    finally:
        db.close()


def _until(pred, timeout_s):
    end = time.monotonic() + timeout_s
    while time.monotonic() < end:
        if pred():
            return True
        time.sleep(0.1)
    return False


def test_bridge_before_floor_serve_every_message_stored_once_and_a_confirm_applied(broker, procs, tmp_path,
                                                                                     store_where):
    # --db a SQLite file, and again a postgresql:// URL (conftest.store_where)
    store = KeyStore(str(tmp_path / "keys"))
    store.create("p1", ["alice"])
    keys = store.load("p1")
    seed = bytes(range(32))  # the board's device signing key: made on the board, its public half kept
    store.set_device_public("p1", message.public_key(seed))  # feed.pub, as at provisioning
    t = SimTable(name="p1", owner=seed)
    gate = FloorGate("p1", keys.floor, nonces())
    pico = PicoOnSocket(t, FloorDesk(gate, t.sim.table, t.feed, keys.floor, "p1"), floor_keys=keys.floor,
                        todo=HAND + ["hand", "draw Qc to seat 1"])  # hand 2: the first card to the wrong seat
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    # SIGINT at its default in the children: background test runs ignore it, and procs ends them by it
    start = dict(stdout=subprocess.PIPE, text=True, env=env,
                 preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    procs.append(subprocess.Popen(FELTCTL + ["bridge", pico.url, "--broker", broker.url, "--room", "room1",
                                             "--table", "p1", "--duration", "60"], stderr=subprocess.STDOUT, **start))
    bridge = procs[-1]
    assert "bridge: socket://" in bridge.stdout.readline()
    # the table publishes (and the broker acknowledges) with no floor subscribed yet
    assert _until(lambda: pico.sender.acks + len(pico.sender._sent_ms) >= 8, 20), "the table sent nothing"
    db_path = store_where
    procs.append(subprocess.Popen(FELTCTL + ["floor", "serve", "--broker", broker.url, "--room", "room1",
                                             "--tables", "p1", "--keys", store.root, "--floor", "alice",
                                             "--db", db_path, "--http", "0", "--duration", "60"], **start))
    serve = procs[-1]
    line = serve.stdout.readline()
    assert "dashboard http://127.0.0.1:" in line, line
    base = line.split("dashboard ")[1].split("/ ")[0]
    # the whole first hand and hand 2's proposal: every seq the table made is stored, once, and the
    # table's outbox is empty (each message left it on the floor's acknowledgement)
    assert _until(lambda: not pico.todo and t.sim.table.pending()
                  and _stored_seqs(db_path, "p1") == list(range(1, t.box.last_seq + 1)) and t.box.count() == 0,
                  40), (_stored_seqs(db_path, "p1"), t.box.last_seq, t.box.count(), pico.todo)
    snap = _get(base + "/api/snapshot")
    st = snap["tables"]["p1"]["state"]
    assert st["hand"] == 2 and st["pending"], st
    assert snap["stats"]["refused"] == 0, snap["stats"]
    assert [h["hand"] for h in _get(base + "/api/hands?table=p1")] == [1]
    # DEAL-15: Confirm on the dashboard -> floor command over MQTT -> bridge -> the table's console
    aid = st["pending"][0]["id"]
    n = t.box.last_seq
    req = urllib.request.Request(base + "/api/ruling", data=json.dumps(
        {"table": "p1", "alert": aid, "decision": "confirm"}).encode(), headers={"Content-Type": "application/json"})
    r = json.loads(urllib.request.urlopen(req, timeout=20).read())
    assert r["ok"] is True and r["cmd"] == "ruling", r
    assert _until(lambda: t.sim.table.pending() == [], 10)
    # what the ruling made reaches the floor too
    assert _until(lambda: _stored_seqs(db_path, "p1") == list(range(1, t.box.last_seq + 1)) and t.box.count() == 0
                  and t.box.last_seq > n, 20), (_stored_seqs(db_path, "p1")[-5:], n, t.box.last_seq, t.box.count())
    assert pico.sender.resent > 0  # the messages the broker dropped went again
    for p in procs:
        p.send_signal(signal.SIGINT)
    assert "0 refused" in bridge.communicate(timeout=15)[0]
    assert "'refused': 0" in serve.communicate(timeout=15)[0]
    pico.stop = True
