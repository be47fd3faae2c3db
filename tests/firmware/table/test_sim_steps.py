# The simulated table stepped one main-loop step at a time (sim layer; issue 19): Sim.run_steps and
# autoplay.calling_hand, which the 32-bit WebAssembly port's memory runs need (that port collects
# only between calls from JS), must play exactly what Sim.run and play_calling_hand play.
from check import eq, raises

from felt.sim import autoplay
from felt.sim.runner import Sim, SimError

TABLE = "table omaha8 limit seats=10 sb=10 bb=20 small_bet=20 big_bet=40 button=1"


def _table():
    sim = Sim()
    sim.run(TABLE)
    for s in range(1, 11):
        sim.run("seat %d 100000" % s)
    return sim


def test_a_stepped_hand_plays_what_a_plain_hand_plays():
    plain, stepped = _table(), _table()
    t1 = autoplay.play_calling_hand(plain, autoplay.shuffled(autoplay.Lcg(3)))
    steps = 0
    for _s in autoplay.calling_hand(stepped, autoplay.shuffled(autoplay.Lcg(3))):
        steps += 1
    t2 = stepped.table
    eq(t1.state, "over")
    eq(t2.state, "over")
    eq(t2.alerts, t1.alerts)
    eq(plain.snapshot(), stepped.snapshot())
    eq(steps > 100, True)  # one yield a main-loop step, not one a statement


def test_run_steps_returns_the_statement_lines_and_yields_each_step():
    sim = _table()
    got = []
    gen = sim.run_steps("hand")
    n = 0
    while True:
        try:
            next(gen)
            n += 1
        except StopIteration as e:
            got = e.value
            break
    eq(n >= 1, True)
    eq(got, [])
    eq(sim.table.state, "playing")


def test_a_statement_that_settles_twice_cannot_be_stepped():
    sim = _table()
    with raises(SimError, match="more than once"):
        for _s in sim.run_steps("press 3"):
            pass
    sim.run("press 3")  # run() is unaffected afterwards
