# Seat buttons and the interrupt ring buffer on sim pins, manual clock (now_ms arguments only).
from check import MICROPYTHON, eq, raises

from felt.drivers.buttons import BOUNCING, STUCK, SeatButtons
from felt.drivers.ringbuf import RingBuffer
from felt.hal.sim.hal import SimHAL


def rig(seats=(1, 2, 3), **kw):
    hal = SimHAL()
    pins = [(s, hal.input_pin(20 + s, pull="up")) for s in seats]
    return hal, dict(pins), SeatButtons(pins, **kw)


def run(buttons, t0, t1, step=5):
    out = []
    for t in range(t0, t1, step):
        out.extend(buttons.poll(t))
    return out


# -- ring buffer ----------------------------------------------------------------------------------

def test_ringbuf_fifo_order_and_wrap():
    rb = RingBuffer(4)
    for round_ in range(5):  # wraps several times
        for v in (1, 2, 3):
            eq(rb.put(v + round_), True)
        eq(len(rb), 3)
        eq([rb.get(), rb.get(), rb.get(), rb.get()], [1 + round_, 2 + round_, 3 + round_, -1])


def test_ringbuf_full_drops_and_counts():
    rb = RingBuffer(3)
    eq([rb.put(7), rb.put(8), rb.put(9)], [True, True, False])
    eq(rb.dropped, 1)
    eq(rb.get(), 7)
    rb.clear()
    eq(len(rb), 0)


def test_ringbuf_rejects_tiny_size():
    with raises(ValueError):
        RingBuffer(1)


def allocations(fn, where):
    """Run fn with allocation watched: MicroPython locks the heap (any allocation raises
    MemoryError); CPython traces allocations and returns those made by code in files whose path
    contains `where`."""
    if MICROPYTHON:
        import micropython

        micropython.heap_lock()
        try:
            fn()
        finally:
            micropython.heap_unlock()
        return []
    import tracemalloc

    tracemalloc.start()
    try:
        before = tracemalloc.take_snapshot()
        fn()
        after = tracemalloc.take_snapshot()
    finally:
        tracemalloc.stop()
    return [d for d in after.compare_to(before, "lineno") if d.size_diff > 0 and where in str(d.traceback)]


def test_ringbuf_put_does_not_allocate():
    rb = RingBuffer(8)

    def work():
        for i in range(20):
            rb.put(i)
            rb.get()
        for i in range(10):  # including the overflow path
            rb.put(i)

    work()  # warm up (first calls may intern or cache)
    rb.clear()
    eq(allocations(work, "ringbuf"), [])
    eq(rb.dropped, 6)  # 7 fit, 3 dropped per run (warm-up + watched run)


def test_button_irq_handler_does_not_allocate():
    hal, pins, buttons = rig()
    handlers = buttons.attach_irqs()
    pin = pins[2]

    def work():
        for _ in range(10):
            handlers[1](pin)

    eq(allocations(work, "buttons"), [])
    eq(len(buttons.queue), 10)
    eq(buttons.queue.get(), 1)  # the handler queued its seat's index


# -- presses -----------------------------------------------------------------------------------

def test_short_press_after_debounce():
    hal, pins, b = rig(debounce_ms=30)
    eq(b.poll(0), [])
    pins[2].set(0)
    eq(run(b, 10, 35), [])  # held 25 ms: not yet a press
    pins[2].set(1)
    eq(run(b, 35, 200), [])  # a 25 ms contact is shorter than the debounce time: ignored
    pins[2].set(0)
    eq(run(b, 200, 300), [])  # pressed: reported on release (it may still become a long press)
    pins[2].set(1)
    eq(run(b, 300, 400), [("button", 2, "short")])


def test_bounces_inside_debounce_make_one_press():
    hal, pins, b = rig(debounce_ms=30)
    t = 0
    for level in (0, 1, 0, 1, 0):  # contact chatter, one poll per 5 ms
        pins[1].set(level)
        b.poll(t)
        t += 5
    eq(run(b, t, t + 100), [])
    pins[1].set(1)
    eq(run(b, t + 100, t + 300), [("button", 1, "short")])


def test_long_press_reported_while_held():
    hal, pins, b = rig(long_ms=1500)
    pins[3].set(0)
    events = run(b, 0, 1500)
    eq(events, [])
    eq(run(b, 1500, 1600), [("button", 3, "long")])
    pins[3].set(1)
    eq(run(b, 1600, 2000), [])  # the release after a long press is silent


def test_presses_on_several_seats_in_seat_order():
    hal, pins, b = rig()
    pins[3].set(0)
    pins[1].set(0)
    run(b, 0, 100)
    pins[3].set(1)
    pins[1].set(1)
    eq(run(b, 100, 300), [("button", 1, "short"), ("button", 3, "short")])


def test_stuck_button_is_a_named_fault():
    hal, pins, b = rig(long_ms=1500, stuck_ms=30000)
    pins[2].set(0)
    events = run(b, 0, 31000, step=100)
    eq(events, [("button", 2, "long"), ("button-fault", 2, STUCK)])
    eq(b.faults(), [(2, STUCK)])
    pins[2].set(1)
    eq(run(b, 31000, 31200), [("button-fault-cleared", 2, STUCK)])
    eq(b.faults(), [])


def test_held_at_power_up_is_not_a_long_press():
    hal = SimHAL()
    pin = hal.input_pin(21, pull="up")
    pin.set(0)
    b = SeatButtons([(1, pin)], stuck_ms=5000)
    eq(run(b, 1000, 5000, step=50), [])
    eq(run(b, 5000, 7000, step=50), [("button-fault", 1, STUCK)])


def test_chatter_that_never_settles_is_bouncing():
    hal, pins, b = rig(bounce_edges=8, bounce_window_ms=500, bounce_quiet_ms=2000)
    events = []
    level = 1
    for t in range(0, 400, 20):  # a change every poll for 400 ms
        level ^= 1
        pins[1].set(level)
        events += b.poll(t)
    eq(events, [("button-fault", 1, BOUNCING)])
    pins[1].set(1)
    eq(run(b, 400, 2300, step=50), [])
    eq(run(b, 2300, 2600, step=50), [("button-fault-cleared", 1, BOUNCING)])


def test_interrupt_edges_are_queued_and_seen_by_poll():
    hal, pins, b = rig(debounce_ms=30)
    b.attach_irqs()
    pins[2].set(0)
    pins[2].set(1)
    pins[2].set(0)
    eq(len(b.queue), 3)  # the handler only queued
    b.poll(0)
    eq(len(b.queue), 0)
    pins[2].set(1)
    eq(run(b, 5, 100), [])  # chatter shorter than the debounce time is not a press


def test_active_high_buttons():
    hal = SimHAL()
    pin = hal.input_pin(5, pull="down")
    b = SeatButtons([(4, pin)], active_low=False)
    pin.set(1)
    run(b, 0, 100)
    pin.set(0)
    eq(run(b, 100, 200), [("button", 4, "short")])


def test_a_seat_nobody_touched_keeps_only_its_seat_pin_and_bit():
    # its levels are the class's until the button moves: ten seats' instance dicts were ~2 KB of
    # RAM, the three levels a few hundred bytes more (hardware/memory.md, "The firmware's own live RAM")
    hal, pins, b = rig()
    run(b, 0, 100)
    for s in b.seats:
        eq(sorted(s.__dict__), ["bit", "pin", "seat"])
        eq((s.raw, s.stable, s.long_sent), (False, False, False))
