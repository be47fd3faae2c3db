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
S = [None, None, None]  # the runtime, the table, [antenna locations]


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


def _build(flags, n):
    import json

    import board_wire
    from felt.hal.machine_hal import MachineHAL
    from felt.runtime import loop
    from felt.sim.board_map import registry, sim_board
    from felt.table.controller import Table, TableConfig

    kw = json.loads(bytes(MB[:n]).decode())
    hal = MachineHAL(machine_module=board_wire, neopixel_module=board_wire, time_module=board_wire)
    config = TableConfig(**kw)
    log = _log if flags & 2 else None
    board = sim_board(config.seats)
    S[1] = Table(config, registry(), log=log)
    S[0] = loop.build(hal, board, S[1], "ascii" if flags & 1 else "pn532", log=log)
    S[2] = [loc for loc, _line in board.antennas]
    S[0].start()
    return 0


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
            gc.collect()
            return 0
        if op == 4:
            return S[0].next_due_ms()
        if op == 2:  # an edge on an input pin: its handler, as the pin's interrupt would run it
            from board_wire import IRQS

            p = IRQS.get(a)
            if p is not None and p.handler is not None:
                p.handler(p)
            return 0
        if op == 3:
            return _build(a, n)
        return _query(op, a, n)
    except Exception as e:  # noqa: BLE001 -- a harness boundary: the world is told, the traceback printed
        sys.print_exception(e)
        return -1000


wire.attach(call, uctypes.addressof(MB), len(MB))
