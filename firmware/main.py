# Device entry (runtime layer): pick the board map, open its HAL, build the table and run the loop.
# Files on the board: board.json (hardware/boards/*.json), table.json (felt.table.TableConfig
# keywords) and decks.json ({deck id: {uid hex: card int}}). `feltctl sim` runs felt.sim.main instead.
import json
import time

from felt import board as boardlib
from felt import loop
from felt.engine.deck import DeckRegistry
from felt.table import Table, TableConfig


def _open_hal(name):
    if name == "machine":
        from felt.hal.machine_hal import MachineHAL
        return MachineHAL()
    if name == "rpi":
        from felt.hal.rpi_hal import RPiHAL
        return RPiHAL()
    from felt.hal.sim_hal import SimHAL
    return SimHAL()


def _json(path, default):
    try:
        with open(path) as f:
            return json.load(f)
    except OSError:
        return default


def main():
    board = boardlib.load_file("board.json")
    hal = _open_hal(board.hal)
    settings = _json("table.json", {"game": "holdem", "structure": "no_limit", "seats": board.seats,
                                    "sb": 1, "bb": 2})
    shoe = settings.pop("shoe", "pn532")  # "pn532" or "ascii"
    cfg = TableConfig(**settings)
    registry = DeckRegistry()
    decks = _json("decks.json", {})
    for deck_id in sorted(decks):
        tags = decks[deck_id]
        registry.register(deck_id, dict([(bytes.fromhex(u), tags[u]) for u in tags]))
    table = Table(cfg, registry, log=print)
    rt = loop.build(hal, board, table, shoe, log=print)
    loop.run_forever(rt, getattr(time, "sleep_ms", lambda ms: time.sleep(ms / 1000)))


main()
