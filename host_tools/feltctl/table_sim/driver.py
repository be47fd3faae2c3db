# Driver of the simulated table for the host tools (runs INSIDE the interpreter -- MicroPython by
# default, or CPython -- next to the real firmware; it is not flashed). It feeds stimulus lines to
# felt.sim.runner.Sim exactly as felt.sim.main does, and answers `state` with the runner's own
# snapshot plus facts read from the firmware's controller: the seats dealt in (position order), the
# legal range of the seat to act, the awards of a finished hand, the cards on each antenna as the
# firmware's antennas see them, and the PHH histories it wrote.
# With --kill-every N the firmware runs journaled (felt.sim.powerloss.PowerSim) and is power-cycled
# after every N input events: all firmware objects dropped, the table rebuilt from the same journal
# storage by felt.recovery.restore.restore_table; snapshots then carry "restarts".
# With --blackjack ROOT it plays a blackjack table instead: felt.sim.blackjack_board (the assembled
# firmware on the sim HAL, its data under ROOT), whose own snapshot answers `state` (issue 17).
# usage: micropython -X heapsize=4M driver.py [--ascii] [--keep-going] [--kill-every N] [--blackjack ROOT]
#        (MICROPYPATH = firmware)
import json
import sys
from binascii import unhexlify

from felt.engine.cards import card_text
from felt.errors import DeckError, FeltError, FormatError
from felt.sim.runner import Sim


def _awards(table):
    # the finished hand's pots as the controller's engine Hand holds them (replay JSON shape, by seat)
    h = table.hand
    seats = table.setup.seats
    texts = h.reasons or []
    out = []
    for pot in h.pots():
        shares = []
        reasons = []
        k = 0
        for award in h.results or []:
            if award.pot_index == pot.index:
                for p, chips in award.shares:
                    shares.append([seats[p], chips, award.half])
                if k < len(texts) and texts[k]:
                    reasons.append(texts[k])
            k += 1
        out.append({"index": pot.index, "amount": pot.amount, "eligible": [seats[p] for p in pot.eligible],
                    "shares": shares, "reason": "; ".join(reasons)})
    return out


def _legal(table):
    h = table.hand
    lg = h.legal() if h is not None else None
    if lg is None:
        return None
    return {"seat": table.setup.seats[lg.position], "call": lg.call, "min_to": lg.min_to, "max_to": lg.max_to,
            "can_raise": lg.can_raise, "bring_in": lg.bring_in}


def _antennas(table):
    # {location: [card text, ...]}: the tags each antenna sees now (Table.onant, which outlives a hand),
    # named by the deck registry -- "uid:HEX" for a tag that is no card of the deck in play
    out = {}
    for hexu in table.onant:
        try:
            name = card_text(table.registry.lookup(unhexlify(hexu), table.config.deck))
        except DeckError:
            name = "uid:" + hexu
        out.setdefault(table.onant[hexu], []).append(name)
    for loc in out:
        out[loc].sort()
    return out


def snapshot(sim, histories):
    t = sim.table
    if t is None:
        raise FormatError("the script must start with a table statement", sim.line_no)
    snap = sim.snapshot()
    snap["seats_in"] = list(t.setup.seats) if t.setup is not None else []
    snap["antennas"] = _antennas(t)
    snap["legal"] = _legal(t) if snap["street"] not in ("idle", "over", "void") else None
    if snap["street"] == "over" and t.hand is not None:
        snap["awards"] = _awards(t)
    snap["phh"] = list(histories)
    del histories[:]
    return snap


def _kill_every(argv):
    if "--kill-every" not in argv:
        return None
    k = argv.index("--kill-every")
    return int(argv[k + 1])  # checked (>= 3) by the host command that starts this driver


def _power_cycle(sim):
    # a restart between two input events: new HAL, drivers and table, rebuilt from the journal; the
    # first sweeps re-report the cards on the antennas (felt.sim.powerloss.reboot)
    from felt.sim.powerloss import reboot

    reboot(sim, [])


def main(argv):
    histories = []
    shoe = "ascii" if "--ascii" in argv else "pn532"
    every = _kill_every(argv)
    bj = None
    if "--blackjack" in argv:
        from felt.sim.blackjack_board import BlackjackBoard

        sim = bj = BlackjackBoard(argv[argv.index("--blackjack") + 1])
    elif every:
        from felt.sim.powerloss import KillFlash, PowerSim

        # the flash never cuts a write (every=None): the restarts are the driver's, on input events
        sim = PowerSim(KillFlash(), shoe=shoe, history=histories.append)
    else:
        sim = Sim(shoe=shoe, log=None, history=histories.append)
    keep_going = "--keep-going" in argv
    n = 0
    events = 0
    restarts = 0
    while True:
        line = sys.stdin.readline()
        if not line:
            return 0
        n += 1
        body = line.split("#", 1)[0].strip()
        try:
            if body == "state" and bj is not None:
                print(json.dumps(bj.state()))
                continue
            if bj is not None:
                bj.run(body)
                continue
            if body == "state":
                sim.line_no += 1
                snap = snapshot(sim, histories)
                if every:
                    snap["restarts"] = restarts
                print(json.dumps(snap))
                continue
            for out in sim.run(line):
                print(out)
            if every and body and sim.table is not None:
                events += 1
                if events % every == 0:
                    _power_cycle(sim)
                    restarts += 1
        except FormatError as e:
            print(json.dumps({"error": e.message, "line": n}))
            if not keep_going:
                return 1
        except FeltError as e:  # the runner could not settle the firmware: reported, never a pass
            print(json.dumps({"error": "sim: %s" % (getattr(e, "message", None) or e), "line": n, "crash": True}))
            return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
