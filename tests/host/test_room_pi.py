# A Raspberry Pi table in the room (issue 15 items 1-2): the board assembled by felt.runtime.app
# with room.json {"broker": ...} publishes its signed messages itself over paho-mqtt to a real
# Mosquitto, and takes a floor command from the room (challenge + HMAC through its FloorDesk).
import threading

import pytest

from felt.room import message
from feltctl.commands.floor import FloorClient
from feltctl.room import keys
from feltctl.room.broker import BrokerError, Mosquitto, find_mosquitto
from feltctl.room.mqtt import MqttPort

from kit import DEVICE, OWNER, ProductionSim, play_one_hand, provisioned_root
from room_kit import Collector

try:
    find_mosquitto()
except BrokerError as e:
    pytest.skip("MOSQUITTO MISSING: %s" % e, allow_module_level=True)


def test_pi_board_publishes_itself_and_takes_a_floor_command():
    b = Mosquitto(persistence=True).start()
    col = Collector(b.url, client_id="floor-pi")
    root, slot = provisioned_root("room_pi")
    sim = ProductionSim(root, slot)
    sim.room = {"room": "room1", "broker": b.url}
    try:
        play_one_hand(sim, delay_ms=1000)
        link = sim.app.room.link
        box = sim.app.room.outbox

        def pump():
            sim.run("wait 5")
        assert col.wait_for(lambda: col.seqs(DEVICE)[-1:] == [box.last_seq], pump=pump, timeout_s=15), (
            col.seqs(DEVICE)[-3:], box.last_seq)
        assert col.seqs(DEVICE) == list(range(1, box.last_seq + 1))
        pk = message.public_key(OWNER)
        assert all(message.verify(pk, m, keys.check) for m in col.msgs.values())
        assert col.wait_for(lambda: box.count() == 0, pump=pump)
        done = {}

        def floor():
            with MqttPort(b.url, "room1", DEVICE) as port:
                done["r"] = FloorClient(port, DEVICE, "alice", b"\x21" * 32, timeout_s=5).command("stack 2 1500")
        th = threading.Thread(target=floor)
        th.start()
        while th.is_alive():
            pump()
        assert done["r"].opts["cmd"] == "stack"
        assert sim.app.table.stacks[1] == 1500
        assert link.acks > 0
    finally:
        if sim.app is not None and sim.app.room is not None:
            sim.app.room.link.close()
        col.close()
        b.close()
