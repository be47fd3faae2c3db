# The floor's desk verbs from the room (issue 15 item 2; felt.security.floordesk): the level clock
# (TOUR-1) and hand-for-hand (TOUR-8) set by an authenticated floor command, refused by name where
# the table refuses them (state unchanged), and a ruling on a proposal that is not pending refused
# (DEAL-15). Runs under CPython and MicroPython.
from check import eq, raises
from kit import LEVELS, clock, tour_sim

from felt.errors import RuleError
from felt.security.auth import FloorGate, answer
from felt.security.floordesk import FloorDesk
from felt.table import tournament

FLOOR = b"\x21" * 32


def _desk(sim):
    n = [0]

    def nonces(k):
        n[0] += 1
        return bytes([(n[0] + i) & 255 for i in range(k)])
    return FloorDesk(FloorGate("t1", {"alice": FLOOR}, nonces), sim.table, None, {"alice": FLOOR}, "t1")


def _run(desk, text, now):
    nonce = desk.challenge(now)
    return desk.command("alice", text, nonce, answer(FLOOR, "t1", nonce, "alice", text), now + 10)


def test_TOUR_1_level_clock_started_and_paused_from_the_floor():
    sim = tour_sim()
    sim.table.config.levels = [dict(r) for r in LEVELS]
    desk = _desk(sim)
    eq(_run(desk, "clock start", 1000), "level_clock start")
    eq(tournament.get(sim.table, 1010), "L1/20:00")
    eq(_run(desk, "clock pause", 61010), "level_clock pause")
    eq(tournament.get(sim.table, 200000), "L1/19:00/paused")
    with raises(RuleError, match="TOUR-1"):
        _run(desk, "clock 99:99:99", 300000)  # not a time: refused by the table, the clock unchanged
    eq(tournament.get(sim.table, 300000), "L1/19:00/paused")


def test_TOUR_8_hand_for_hand_from_the_floor_and_refused_at_a_cash_table():
    sim = tour_sim()
    desk = _desk(sim)
    eq(_run(desk, "h4h 11:00", 0), "hand_for_hand 11:00")
    eq(clock(sim), "11:00")
    cash = tour_sim(mode="cash")
    with raises(RuleError, match="TOUR-8"):
        _run(_desk(cash), "h4h on", 0)
    eq(clock(cash), "off")


def test_DEAL_15_a_ruling_on_no_pending_proposal_is_refused():
    sim = tour_sim()
    desk = _desk(sim)
    with raises(RuleError, match="no pending proposal #7"):
        _run(desk, "ruling 7 confirm", 0)


def test_TOUR_1_the_published_state_carries_the_level_clock():
    from felt.room import publisher

    sim = tour_sim()
    sim.table.config.levels = [dict(r) for r in LEVELS]
    eq(publisher.state_body(sim.table, 0)["clock"], {})  # not started: nothing to show
    _run(_desk(sim), "clock start", 1000)
    eq(publisher.state_body(sim.table, 61010)["clock"], {"level": 1, "left_ms": 19 * 60000, "running": 1, "h4h": 0})
