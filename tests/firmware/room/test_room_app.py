# The room on an assembled board (felt.runtime.app.build with room.json, issue 15 item 1): a Pico
# configuration ({"console": true}) sends its signed messages as FELT1 `pub` lines and drops each on
# the bridge's `puback`; the public log, alerts, the masked finished hand and the feed's records all
# go out, signed by the board's key. Runs under CPython and MicroPython.
from check import eq
from kit import DEVICE, FLOOR, HOLE, OWNER, ProductionSim, play_one_hand, provisioned_root

from felt.proto import console as proto
from felt.room import ack, message


def test_pico_board_publishes_through_its_console():
    root, slot = provisioned_root("room_app")
    sim = ProductionSim(root, slot)
    sim.room = {"room": "room1", "console": True}
    play_one_hand(sim, delay_ms=1000)
    room = sim.app.room
    box = room.outbox
    msgs = [message.decode(p) for _s, _k, p in box.pending()]
    assert msgs, "nothing published"
    eq([m["seq"] for m in msgs], list(range(msgs[0]["seq"], msgs[0]["seq"] + len(msgs))))
    kinds = {}
    for m in msgs:
        kinds[m["kind"]] = True
    for k in ("state", "event", "hand", "feed", "health", "audit"):
        assert k in kinds, (k, sorted(kinds))
    # the board's audit records (issue 15 item 3), its boot records first, unchanged: they verify as
    # one chain with the board's public key, and are the records of its audit log
    lines = [m["body"]["line"] for m in msgs if m["kind"] == "audit"]
    from felt.security import audit as al
    eq(len(al.verify(lines, message.public_key(OWNER))), len(lines))
    on_board = sim.app.audit.store.lines()
    eq(lines, on_board[len(on_board) - len(lines):])
    hand = [m for m in msgs if m["kind"] == "hand"][0]
    eq(message.verify(message.public_key(OWNER), hand), True)
    eq((hand["dev"], hand["table"]), (DEVICE, DEVICE))
    # every player tabled (SHOW-*): the masked PHH hides nothing here
    assert "??" not in hand["body"]["phh"] and "'d dh p3 Qs'" in hand["body"]["phh"], hand["body"]["phh"]
    reveal = [m for m in msgs if m["kind"] == "feed" and m["body"]["kind"] == "reveal"]
    eq(len(reveal), 1)  # and the reveal after the delay
    shown = [m["seq"] for m in msgs if m["kind"] == "event" and " shows " in m["body"]["text"]]
    assert shown, "no showdown event"
    for m in msgs:  # before the showdown no hole card is anywhere
        if m["seq"] < shown[0] and m["kind"] in ("state", "event", "alert"):
            text = message.encode(m).replace(m["sig"], "")
            for c in HOLE:
                assert c not in text, (c, m["kind"], text[:160])
    assert room.link.acks == 0
    first = msgs[0]["seq"]
    # the floor's acknowledgement as the bridge relays it, under the board's floor key (kit: "alice")
    text = "%d" % first
    sim.console.feed(proto.encode(proto.Message(900, "puback", ["alice", ack.tag(FLOOR, DEVICE, "alice", text)],
                                                None, text)))
    sim.console.feed(proto.encode(proto.Message(901, "puback", ["alice", ack.tag(b"\x66" * 32, DEVICE, "alice",
                                                                                 text)], None, text)))
    sim.run("wait 20")
    eq(room.link.acks, 1)
    eq(room.link.refused, 1)  # the other one's tag is not under the board's floor key: refused, alerted
    assert "stored acknowledgement" in sim.table.alerts[-1].text, sim.table.alerts[-1].text
    assert first not in [s for s, _k, _p in box.pending()]
