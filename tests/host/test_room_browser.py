# The dashboard and the overlay in a real browser (issue 15 items 3-5): headless Debian Chromium,
# driven by playwright-core, opens the floor's dashboard while a simulated table plays on a real
# Mosquitto; it sees the proposal appear, clicks Confirm, and the table applies the ruling (a floor
# command over MQTT, challenge + HMAC). The table's screenshot is checked for the felt and the
# lights as drawn; the page never shows the live hand's hole cards; the overlay shows the earlier
# hand's hole cards (only after its broadcast delay) with hand strength. One test: ~10 s.
import json
import os
import subprocess
import threading
import time

import pytest

from felt.room import message
from felt.room.desk_link import RoomDesk
from felt.room.setup import publish_audit
from felt.security import audit as al
from felt.security import secrecy
from felt.security.auth import FloorGate
from felt.security.floordesk import FloorDesk
from feltctl.room.broker import BrokerError, Mosquitto, find_mosquitto
from feltctl.room.floor_server import Floor, serve_http
from feltctl.room.mqtt import TableLink
from feltctl.room.store import SqliteStore

import png_kit
from room_kit import FLOOR, HAND, OWNER, acks, SimTable, nonces

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
NODE_MODULES = os.path.join(ROOT, ".venv", "node", "node_modules")
CHROMIUM = "/usr/bin/chromium"
try:
    find_mosquitto()
except BrokerError as e:
    pytest.skip("MOSQUITTO MISSING: %s" % e, allow_module_level=True)
if not os.access(CHROMIUM, os.X_OK) or not os.path.isdir(os.path.join(NODE_MODULES, "playwright-core")):
    pytest.skip("CHROMIUM OR PLAYWRIGHT-CORE MISSING: make venv installs them (apt-get chromium, npm playwright-core)",
                allow_module_level=True)


@pytest.fixture
def room(tmp_path):
    # broker, store, floor and its dashboard started and stopped here: a failure anywhere in the
    # test (or in setting these up) leaves no process behind
    b = Mosquitto(persistence=True).start()
    store = floor = srv = None
    try:
        store = SqliteStore(str(tmp_path / "floor.sqlite"))
        floor = Floor(b.url, "room1", {"t1": message.public_key(OWNER)}, store, "alice", lambda t: FLOOR,
                      client_id="floor-browser").start()
        srv = serve_http(floor, 0)
        yield b, srv
    finally:
        if srv is not None:
            srv.shutdown()
        if floor is not None:
            floor.close()
        if store is not None:
            store.close()
        b.close()


def test_dashboard_confirm_in_chromium_and_overlay_after_the_delay(room, tmp_path):
    b, srv = room
    t = SimTable(folder=str(tmp_path / "ob"), delay_ms=2000)
    # its audit log goes to the floor (issue 15 item 3): alerts and floor commands are records
    log = al.AuditLog(al.MemStore(), key=al.signer(OWNER))
    publish_audit(log, t.pub)
    t.sim.rt.alert_sinks.append(secrecy.Hooks(t.feed, t.sim.table, t.sim.hal.ticks_ms, log).auditor)
    desk = RoomDesk(FloorDesk(FloorGate("t1", {"alice": FLOOR}, nonces(), audit=log), t.sim.table, t.feed,
                              {"alice": FLOOR}, "t1"))
    link = TableLink(b.url, t.box, "room1", "t1", inbox=desk.inbox, acks=acks())
    desk.reply = link.reply
    proc = None
    try:
        assert link.connected.wait(5)
        for line in HAND + ["wait 2500", "hand", "draw Qc to seat 1"]:
            t.sim.run(line)
            link.pump()
        # hand 2 (button seat 2): its first card to seat 1, not seat 3 -- a DEAL-8 proposal (misdeal)
        live = ["Qc"]
        assert t.sim.table.pending(), [a.line() for a in t.sim.table.alerts]
        proc = subprocess.Popen(["node", os.path.join(ROOT, "tests", "host", "browser_check.js"),
                                 "http://127.0.0.1:%d" % srv.server_port, str(tmp_path)],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                env=dict(os.environ, NODE_PATH=NODE_MODULES))
        out = {}
        th = threading.Thread(target=lambda: out.update(zip(("stdout", "stderr"), proc.communicate(timeout=120))))
        th.start()
        while th.is_alive():  # the table's loop runs meanwhile: the confirm comes in over MQTT
            t.sim.run("wait 5")
            desk.step(t.sim.hal.ticks_ms())
            link.pump()
            time.sleep(0.005)
        res = json.loads(out["stdout"].strip().splitlines()[-1]) if out.get("stdout", "").strip() else {}
        assert "error" not in res and res.get("proposalGone"), (res, out.get("stderr", "")[-2000:])
        assert t.sim.table.pending() == []  # the table applied the floor's confirm
        # the audit trail in the dashboard: the DEAL-8 alert and the floor's ruling, every record linked
        audit = res["auditText"]
        assert "alice floor: ruling" in audit and "DEAL-8" in audit and "[" not in audit, audit
        assert "Confirm" in res["dashboardText"] and "DEAL-8" in res["dashboardText"], res["dashboardText"]
        for c in live:  # the live hand's cards are on no page
            assert c not in res["pageText"] and c not in res["overlayText"], c
        ov = res["overlayText"]
        # hand 1 after its delay: seat 1 folded on the flop (no equity), seat 2's ace high won the showdown
        assert "seat1 Kc2s (a pair of twos) folded" in ov and "seat2 AhQs (ace high) 100" in ov, ov
        assert "seat3 KdQh (king high) 0" in ov, ov
        w, h, rows = png_kit.pixels(str(tmp_path / "dashboard.png"))
        felt = png_kit.count(rows, (0x1d, 0x52, 0x35))
        assert felt > w * h // 3, (felt, w, h)  # the table drawn on the felt
        for name, rgb in (("button", (255, 255, 255)), ("sb", (0x33, 0x99, 0xff)), ("bb", (0xff, 0x99, 0x33))):
            assert png_kit.count(rows, rgb, tol=10) >= 40, name  # its light drawn (a 12 px disc)
        assert os.path.getsize(str(tmp_path / "overlay.png")) > 2000
    finally:
        if proc is not None and proc.poll() is None:
            proc.terminate()  # the browser check, ended by its own id (SIGTERM: it closes its Chromium)
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(5)
        link.close()
