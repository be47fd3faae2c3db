# The board VM of the two-VM emulated board (host harness, at the root of the board's ROM image;
# hardware/memory.md, "Fourth round"): only what a board holds -- the firmware on the backend a Pico
# runs (felt.hal.machine_hal.MachineHAL over board_wire, this image's `machine`), a table built as
# felt.sim.runner.Sim.build builds it, and this dispatcher. No simulation is imported here
# (felt.sim.runner, felt.hal.sim.*): the devices are in the world VM (felt.sim.remote).
# call(op, a, b, n) is the one entry from the world (launcher.mjs, module `board`): small ints in,
# a small int out; bytes in come in MB (n of them), bytes out go through wire.give.
import gc
import sys

import uctypes
import wire

_put = wire.put  # bound once (a JS attribute's first lookup makes its proxy)
_give = wire.give
MB = bytearray(256)  # the world's bytes of a call (a table config, a card's UID)
S = [None, None, None, None]  # the runtime, the table, [antenna locations], the App (board_app's boot only)
# the measurement (bench_memory's two-VM rows): the most heap in use at the end of a main-loop step
# before its collection (live before it + all it allocated), at which step, and steps so far
PEAK = [0, 0, 0]


def _log(line):
    rt = S[0]
    if rt is not None:
        for f in rt.text_filters:
            line = f(line)
    b = line.encode()
    _put(31, 0, uctypes.addressof(b), len(b))  # felt.sim.remote.LOG


def _answer(data):
    _give(uctypes.addressof(data), len(data))
    return len(data)


def _building(flags, kw):
    # the table built as felt.sim.runner.Sim.build builds it, in phases: one entry from the world
    # each (op BUILD_STEP), collected between them -- this port collects only between entries, and
    # a board collects while it boots (hardware/memory.md, "Fourth round": the build in one entry
    # left ~96 KB of garbage)
    import board_wire
    from felt.hal.machine_hal import MachineHAL

    hal = MachineHAL(machine_module=board_wire, neopixel_module=board_wire, time_module=board_wire)
    yield
    import felt.engine.hand.machine  # noqa: F401
    yield
    from felt.table.controller import Table, TableConfig

    yield
    from felt.runtime import loop

    yield
    for name in DRIVERS:
        __import__(name)
        yield IMPORTED if name == DRIVERS[-1] else None
    from felt.sim.board_map import registry, sim_board

    config = TableConfig(**kw)
    kw = None
    yield
    reg = registry()
    yield
    log = _log if flags & 2 else None
    S[1] = Table(config, reg, log=log)
    reg = None
    yield
    board = sim_board(config.seats)
    S[2] = [loc for loc, _line in board.antennas]
    yield
    S[0] = loop.build(hal, board, S[1], "ascii" if flags & 1 else "pn532", log=log)
    yield
    S[0].start()
    # a running board keeps neither the board map's checker nor the sim map's builder: app.serve
    # forgets the first (felt.runtime.heap.forget); the second is this harness's stand-in for the
    # board.json a real board reads (hardware/memory.md, "Fourth round": ~3 KB)
    from felt.runtime import heap

    heap.forget("felt.sim.board_map")
    heap.forget("felt.runtime.board")


DRIVERS = ("felt.drivers.shoe", "felt.drivers.console_link", "felt.drivers.mfrc522", "felt.drivers.antennas",
           "felt.drivers.buttons", "felt.drivers.neopixel_lights", "felt.drivers.display")
_B = [None]
IMPORTED = 2  # a build phase after which the firmware's modules are imported and nothing is built yet


def _build(flags, n):
    import json

    if flags & 4:  # the app boot reads its table.json; the world's copy of the config is not used
        import board_app

        _B[0] = board_app.booting(flags)
        return 1
    _B[0] = _building(flags, json.loads(bytes(MB[:n]).decode()))
    return 1


def _build_step():
    """One phase of the build; 1 while more are to come (IMPORTED after the last import), 0 when
    the table is built."""
    try:
        r = next(_B[0])
    except StopIteration:
        _B[0] = None
        return 0
    gc.collect()
    return r or 1


def _turn():
    t = S[1]
    h = t.hand
    if t.state != "playing" or h.actor is None:
        return -1
    return t.setup.seats[h.actor] * 2 + (1 if h.legal().call else 0)


def _query(op, a, n):
    rt = S[0]
    t = S[1]
    if op == 5:
        return rt.poller.sweeps
    if op == 6:
        return 1 if t.busy() else 0
    if op == 7:
        return _turn()
    if op == 8:
        return _answer(t.state)
    if op == 9:
        return 1 if bytes(MB[:n]).decode() in rt.poller.present(S[2][a]) else 0
    if op == 10:
        return len(rt.poller.present(S[2][a]))
    if op == 11:
        import json
        from felt import view

        return _answer(json.dumps(view.snapshot(t)))
    if op == 12:
        pend = t.pending()
        return pend[-1].id if pend else -1
    if op == 13:
        return _answer(bytes(t.setup.seats))
    if op == 14:
        import json

        return _answer(json.dumps([x.line() for x in t.alerts]))
    return -1


def call(op, a, b, n):
    try:
        if op == 1:  # one main-loop step; its garbage is collected when this entry returns to JS
            S[0].step()
            PEAK[2] += 1
            m = gc.mem_alloc()
            if m > PEAK[0]:
                PEAK[0] = m
                PEAK[1] = PEAK[2]
            gc.collect()
            return 0
        if op == 17:  # the interned names (printed): RAM a Pico's port keeps in its qstr pool too
            import micropython

            micropython.qstr_info()
            return 0
        if op == 16:  # PEAK[a]; a == 3: start again
            if a == 3:
                PEAK[0] = PEAK[1] = 0
                return 0
            return PEAK[a]
        if op == 4:
            return S[0].next_due_ms()
        if op == 2:  # an edge on an input pin: its handler, as the pin's interrupt would run it
            from board_wire import IRQS

            p = IRQS.get(a)
            if p is not None:
                p.handler(p)
            return 0
        if op == 3:
            return _build(a, n)
        if op == 15:
            return _build_step()
        if op == 19:  # a measurement: import the module named in MB (one entry: collected after it)
            __import__(bytes(MB[:n]).decode())
            gc.collect()
            return 0
        if op == 21:  # the modules loaded (printed)
            print("B_MODULES " + " ".join(sorted(sys.modules)))
            return 0
        if op == 20:  # a measurement at the end of a run: drop the part named in MB (S index.attr...)
            import board_app

            board_app.drop_part(bytes(MB[:n]).decode())
            gc.collect()
            return 0
        if op == 18:  # the secrecy feed's delay (app boot), as kit.play_one_hand sets it: a = ms
            S[3].feed.delay_ms = a
            return 0
        return _query(op, a, n)
    except Exception as e:  # noqa: BLE001 -- a harness boundary: the world is told, the traceback printed
        sys.print_exception(e)
        return -1000


wire.attach(call, uctypes.addressof(MB), len(MB))
