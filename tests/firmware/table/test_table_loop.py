# The runtime loop (loop.py) on a manual clock: it is the only reader of time, it sleeps only until
# the next poll is due, and the interrupt side only queues (button edges in the ring buffer).
from check import eq

from felt.runtime import loop
from felt.sim.runner import Sim


def booted():
    sim = Sim()
    for line in ("table holdem no_limit seats=3 sb=5 bb=10 button=1", "seat 1 100", "seat 2 100", "seat 3 100"):
        sim.run(line)
    return sim


def test_run_forever_sleeps_only_until_the_next_due_poll():
    sim = booted()
    clock = sim.hal.clock
    slept = []

    def sleep_ms(ms):
        slept.append(ms)
        clock.advance_ms(ms)  # the manual clock stands in for time passing

    start = clock.ticks_ms()
    loop.run_forever(sim.rt, sleep_ms, steps=200)
    assert slept, "the loop waited between polls"
    for ms in slept:
        assert 0 < ms <= loop.POLL_MS, ms
    assert clock.ticks_ms() > start


def test_run_forever_leaves_a_started_runtime_and_its_display_alone():
    sim = booted()
    sim.rt.display.show(["recovered to", "event 12"])  # what felt.runtime.app.start puts there after a boot
    before = sim.oled.text_lines()
    starts = []
    real = sim.rt.start
    sim.rt.start = lambda: starts.append(1) or real()
    loop.run_forever(sim.rt, sim.hal.clock.advance_ms, steps=3, start=False)
    eq(starts, [])
    eq(sim.oled.text_lines(), before)
    loop.run_forever(sim.rt, sim.hal.clock.advance_ms, steps=1)  # the default still starts it
    eq(starts, [1])


def test_a_button_edge_only_queues_until_the_loop_polls():
    sim = booted()
    pin = sim.pins[2]
    buttons = sim.rt.buttons
    pin.set(0)  # the interrupt handler runs now: it may only queue
    eq(len(buttons.queue), 1)
    eq(sim.table.seat_rec[1].status, "active")
    sim.run("wait 200")
    eq(len(buttons.queue), 0)


def test_next_due_is_never_in_the_past():
    sim = booted()
    for _ in range(50):
        now = sim.hal.ticks_ms()
        assert sim.rt.next_due_ms() >= now
        sim.rt.step()
        sim.hal.clock.advance_ms(1)


def test_console_set_and_get_over_felt1():
    from felt.proto import console as proto
    sim = booted()
    sim.console.feed(proto.encode(proto.Message(50, "set", ["bb", 20])))
    sim.console.feed(proto.encode(proto.Message(51, "get", ["bb"])))
    sim.console.feed(proto.encode(proto.Message(52, "set", ["hr.straddle", "sideways"])))
    sim.run("wait 20")
    assert [r for r in sim.replies if " ok re=50" in r], sim.replies
    assert [r for r in sim.replies if " ok " in r and "re=51" in r and "value=20" in r], sim.replies
    assert [r for r in sim.replies if " error re=52" in r and "code=rule" in r], sim.replies
    eq(sim.table.config.bb, 20)


def test_event_queue_is_bounded_fifo_and_counts_drops():
    from felt.runtime.queue import EventQueue
    q = EventQueue(3)
    for i in range(5):
        q.put(i)
    eq(q.dropped, 2)
    eq(len(q), 3)
    eq([q.get(), q.get(), q.get(), q.get()], [0, 1, 2, None])
    for i in range(100):  # long use does not grow the list without bound
        q.put(i)
        eq(q.get(), i)
    assert len(q._items) < 40, len(q._items)
