# WS2812 seat lights on the sim chain: the frame for a desired state, differences only, repair
# after a reset.
from check import eq, raises

from felt.drivers.neopixel_lights import ALL_IN, BIG_BLIND, DEALER, SeatLights, default_layout
from felt.errors import ConfigError
from felt.hal.sim.hal import SimHAL

WHITE = (64, 64, 64)  # default colours at brightness 64
RED = (64, 0, 0)
GREEN = (0, 64, 0)


def rig(seats=4):
    hal = SimHAL()
    chain = hal.neopixel(16, seats * 5)
    return chain, SeatLights(chain, seats, brightness=64)


def lit(chain):
    return [(i, chain.pixel(i)) for i in range(chain.count) if chain.pixel(i) != (0, 0, 0)]


def test_layout_runs_seat_by_seat():
    layout = default_layout(2)
    eq(layout[(1, DEALER)], 0)
    eq(layout[(1, ALL_IN)], 4)
    eq(layout[(2, DEALER)], 5)


def test_frame_for_a_desired_state():
    chain, lights = rig()
    changed = lights.apply({"dealer": 1, "small_blind": 2, "big_blind": 3, "action": 4, "all_in": [2, 3]})
    eq(lit(chain), [(0, WHITE), (6, (0, 20, 64)), (9, RED), (12, (64, 40, 0)), (14, RED), (18, GREEN)])
    eq(len(changed), 20)  # the first apply writes the whole chain
    eq(chain.writes, 1)


def test_only_differences_and_no_write_when_unchanged():
    chain, lights = rig()
    state = {"dealer": 1, "big_blind": 2, "action": 3, "all_in": []}
    lights.apply(state)
    eq(lights.apply(state), [])
    eq(chain.writes, 1)  # nothing changed: nothing sent
    state["action"] = 4
    state["all_in"] = [3]
    eq(lights.apply(state), [13, 14, 18])  # action off at seat 3, all-in on at seat 3, action on at 4
    eq(chain.writes, 2)


def test_reset_rewrites_everything():
    chain, lights = rig()
    state = {"dealer": 2}
    lights.apply(state)
    chain.frame[:] = bytes(len(chain.frame))  # the chain lost power
    lights.reset()
    eq(len(lights.apply(state)), 20)
    eq(lit(chain), [(5, WHITE)])
    eq(len(lights.apply(state, force=True)), 20)
    eq(chain.writes, 3)


def test_bad_seat_or_role_rejected_and_nothing_written():
    chain, lights = rig()
    with raises(ValueError, match="seats are 1..4"):
        lights.apply({"dealer": 5})
    with raises(ValueError, match="seats are 1..4"):
        lights.apply({"all_in": [0]})
    with raises(ValueError, match="unknown light"):
        lights.apply({"straddle": 1})
    eq(chain.writes, 0)


def test_layout_checked_against_chain():
    hal = SimHAL()
    chain = hal.neopixel(16, 9)
    with raises(ConfigError, match="outside the chain"):
        SeatLights(chain, 2)
    with raises(ConfigError, match="used for both"):
        SeatLights(chain, 1, layout={(1, DEALER): 0, (1, BIG_BLIND): 0})


def test_partial_layout_skips_missing_leds():
    hal = SimHAL()
    chain = hal.neopixel(16, 2)
    lights = SeatLights(chain, 2, layout={(1, DEALER): 0, (2, DEALER): 1}, brightness=255)
    lights.apply({"dealer": 2, "all_in": [1]})
    eq(lit(chain), [(1, (255, 255, 255))])
