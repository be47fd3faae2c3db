# Floor commands applied to the simulated table (felt.security.floordesk): delay, deck
# registration and stack adjustment by floor key; replayed, wrong-key and mid-hand commands
# change nothing; the dealer console's unauthenticated `stack` is refused after the first hand.
# Runs under CPython and MicroPython.
from check import eq, raises

from felt.errors import RuleError, UnknownTag
from felt.security import AuthError, SecurityError, deckmap, secrecy
from felt.security import audit as al
from felt.security.auth import FloorGate, answer
from felt.security.floordesk import FloorDesk, guard_console
from felt.sim.runner import Sim

FLOOR = b"\x21" * 32


def _desk():
    sim = Sim()
    sim.run("table holdem no_limit seats=3 sb=50 bb=100 button=1")
    for s in (1, 2, 3):
        sim.run("seat %d 1000" % s)
    count = [0]

    def nonces(n):
        count[0] += 1
        return bytes([count[0]]) * n
    log = al.AuditLog(al.MemStore(), al.signer(b"\x42" * 32))
    feed = secrecy.SecretFeed("table1", b"\x33" * 32, nonces, delay_ms=1800000, audit=log)
    gate = FloorGate("table1", {"alice": FLOOR}, nonces, audit=log)
    desk = FloorDesk(gate, sim.table, feed, {"alice": FLOOR}, "table1")
    return sim, desk, feed, log


def _run(desk, text, key=FLOOR, now=0):
    n = desk.challenge(now)
    return desk.command("alice", text, n, answer(key, "table1", n, "alice", text), now + 10), n


def test_delay_by_floor_key_and_replay_refused():
    sim, desk, feed, log = _desk()
    done, n = _run(desk, "delay 600000")
    eq(done, "broadcast delay 1800000 -> 600000 ms")
    eq(feed.delay_ms, 600000)
    with raises(AuthError, match="replayed"):
        desk.command("alice", "delay 0", n, answer(FLOOR, "table1", n, "alice", "delay 0"), 20)
    with raises(AuthError, match="wrong key"):
        _run(desk, "delay 0", key=b"\x66" * 32)
    eq(feed.delay_ms, 600000)
    eq([r.kind for r in al.verify(log.store.lines())], ["floor", "delay", "auth-refused", "auth-refused"])


def test_CASH_1_stack_adjusted_between_hands_only():
    sim, desk, feed, log = _desk()
    eq(_run(desk, "stack 2 2500")[0], "seat 2 stack set to 2500")
    eq(sim.table.stacks[1], 2500)
    sim.run("hand")
    with raises(RuleError, match="between hands"):
        _run(desk, "stack 2 9000")
    eq(sim.table.stacks[1], 2500)


def test_deck_registered_only_with_a_matching_signed_record():
    sim, desk, feed, log = _desk()
    uids = [bytes([4, 0x33, 0x44, 0, 0, 0, i]) for i in range(52)]
    e = deckmap.Enrollment()
    for u in uids:
        e.add(u)
    record = deckmap.sign("table1", "C", "alice", FLOOR, e.scan.mapping)
    digest = desk.stage_deck(record)
    with raises(SecurityError, match="no deck record"):
        _run(desk, "deck C " + "0" * 64)
    with raises(SecurityError, match="names deck D"):
        _run(desk, "deck D " + digest)
    with raises(UnknownTag):
        sim.table.registry.lookup(uids[0], "C")
    eq(_run(desk, "deck C " + digest)[0], "deck C registered (52 tags)")
    eq(sim.table.registry.lookup(uids[0], "C"), 0)


def test_unauthenticated_console_stack_refused_after_the_first_hand():
    sim, desk, feed, log = _desk()
    guard_console(sim.rt)
    sim.run("seat 3 1200")  # before the first hand: seating from the dealer console is fine
    eq(sim.table.stacks[2], 1200)
    sim.run("hand")
    sim.replies = []
    sim.run("seat 3 99999")
    eq(sim.table.stacks[2], 1200)
    assert [r for r in sim.replies if "code=auth" in r and "floor command" in r], sim.replies


def test_DECK_5_a_tag_outside_the_registered_deck_is_an_alert_never_a_card():
    sim, desk, feed, log = _desk()
    secrecy.install(sim.rt, feed, audit=log)
    sim.run("hand")
    before = dict(sim.table.where)
    sim.run("draw uid:04AABBCCDDEE11 to seat 2")  # a tag of no registered deck (a ringer)
    s = sim.snapshot()
    eq(sim.table.where, before)  # no card was counted
    alerts = [a for a in s["alerts"] if "DECK-5" in a["rules"]]
    assert alerts and "not registered" in alerts[-1]["text"], s["alerts"]
    assert [r for r in al.verify(log.store.lines()) if r.kind == "alert" and "DECK-5" in r.text]
