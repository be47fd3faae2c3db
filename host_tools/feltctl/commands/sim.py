# `feltctl sim`: the real firmware on the simulated table (shoe, antennas, seat buttons, console,
# lights, display), inside the MicroPython interpreter by default.
#   feltctl sim                      interactive: type bench statements, see lights and display
#   feltctl sim --replay F.phh --json   a hand history played as physical events; the JSON of
#                                    `feltctl replay` plus `indicators` and `alerts`
#   feltctl sim --replay F.phh --kill-every N --json   the same, the firmware restarted (rebuilt
#                                    from its journal) after every N input events; adds "restarts"
#   feltctl sim --demo [--hands N] [--seed S] [--out DIR]   seeded hands of several games, live
import os
import re
import sys

from feltctl.table_sim import phh2events
from feltctl.bench_scripts.script import indicators
from feltctl.paths import REPO
from feltctl.table_sim.demo import hand_count
from feltctl.table_sim.process import SimProcess, SimProcessError

HELP = "the firmware on a simulated table: interactive, --replay FILE.phh --json, or --demo"


def add_arguments(parser):
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--replay", metavar="FILE.phh", help="play a hand history through the firmware")
    mode.add_argument("--demo", action="store_true", help="play a seeded series of hands of several games, live")
    parser.add_argument("--kill-every", type=int, metavar="N",
                        help="--replay: restart the firmware from its journal after every N input events (N >= 3)")
    parser.add_argument("--json", action="store_true", help="--replay: print one JSON object (the default)")
    parser.add_argument("--hands", type=hand_count, default=24, help="--demo: number of hands (default 24: 3 per game)")
    parser.add_argument("--seed", type=int, default=1, help="--demo: seed of the shuffles and the players")
    parser.add_argument("--out", default=None,
                        help="--demo: folder for the PHH files (default out/hands); --game blackjack: the .bjh file "
                             "(default out/blackjack/rounds.bjh)")
    parser.add_argument("--game", choices=("poker", "blackjack"), default="poker",
                        help="blackjack: seeded rounds on the simulated blackjack table, live (hardware/rules-blackjack.md)")
    parser.add_argument("--rounds", type=int, default=12, help="--game blackjack: number of rounds (default 12)")
    parser.add_argument("--runtime", choices=("micropython", "cpython"), default="micropython",
                        help="interpreter that runs the firmware (default micropython)")
    parser.add_argument("--ascii", action="store_true", help="an ASCII-line RFID reader in the shoe instead of a PN532")


# ---- replay -----------------------------------------------------------------------------------------

def alert_list(snap):
    return [{"id": a["id"], "level": a["level"], "rules": a["rules"], "device": a.get("device"), "seat": a.get("seat"),
             "status": a["status"], "text": a["text"]} for a in snap["alerts"]]


def result_of(conv, snap):
    """The finished hand as `feltctl replay` prints it (players by PHH label), from the snapshot the
    firmware gave: its final stacks and the awards of its engine Hand."""
    from felt.history import phh

    h = conv.history
    label = {}
    for p in range(len(conv.seats)):
        label[conv.seats[p]] = "p%d" % (p + 1)
    def players(text):
        # the firmware names seats; the replay JSON names PHH players (seat N holds player pN's place)
        def one(m):
            nums = re.sub(r"\d+", lambda d: label[int(d.group(0))][1:], m.group(2))
            return ("players " if m.group(1) == "seats" else "player ") + nums

        return re.sub(r"\b(seats?) (\d+(?:(?:, | and )\d+)*)", one, text)

    pots = []
    for a in snap.get("awards", []):
        pots.append({"index": a["index"], "amount": phh.format_amount(a["amount"], h.scale),
                     "eligible": [label[s] for s in a["eligible"]],
                     "winners": [{"player": label[s], "amount": phh.format_amount(c, h.scale), "half": half}
                                 for s, c, half in a["shares"]],
                     "reason": players(a["reason"])})
    out = {"variant": h.variant,
           "finishing_stacks": [phh.format_amount(snap["stacks"][s - 1] or 0, h.scale) for s in conv.seats],
           "pots": pots, "indicators": indicators(snap), "alerts": alert_list(snap)}
    if h.players is not None:
        out["players"] = h.players
    if h.name is not None:  # a .phhs file's hand, named as felt.history.replay names it
        out["hand"] = h.name
    return out


MIN_KILL_EVERY = 3  # every 2 can livelock: a boot's re-reported cards refill the gap (tests/firmware/recovery/test_power_loss.py)


def replay_file(path, runtime="micropython", shoe="pn532", kill_every=None):
    """One PHH file through the firmware -> (result dict, exit status). kill_every: restart the
    firmware after every that many input events; the result then carries "restarts"."""
    if kill_every is not None and kill_every < MIN_KILL_EVERY:
        return {"file": path, "error": "--kill-every must be at least %d (got %d)" % (MIN_KILL_EVERY, kill_every)}, 2
    from felt.errors import FeltError
    from felt.history.replay_main import read_text

    text, err = read_text(path)  # the error object `feltctl replay` prints for the same file
    if err is not None:
        return err, 1
    try:
        conv = phh2events.convert(phh2events.read(text))
    except FeltError as e:
        return {"file": path, "error": getattr(e, "message", str(e)), "line": getattr(e, "line", None)}, 1
    except phh2events.Unsupported as e:
        return {"file": path, "error": "not playable on the table: %s" % e}, 1
    try:
        with SimProcess(runtime, shoe=shoe, kill_every=kill_every) as proc:
            for ev in conv.events:
                proc.send(ev.text)
            snap = proc.state()
    except SimProcessError as e:
        return {"file": path, "error": "simulated table: %s" % e.message}, 1
    if snap["street"] != "over":
        return {"file": path, "error": "the hand did not finish on the table (street %s)" % snap["street"],
                "alerts": alert_list(snap), "indicators": indicators(snap)}, 1
    out = result_of(conv, snap)
    out["file"] = path
    if kill_every is not None:
        out["restarts"] = snap["restarts"]
    return out, 0


def _replay(args):
    from felt.history.replay import dumps

    out, status = replay_file(args.replay, args.runtime, "ascii" if args.ascii else "pn532", args.kill_every)
    sys.stdout.write(dumps(out) + "\n")
    return status


def blackjack(args, rounds=None, write=None):
    """--game blackjack: felt.sim.blackjack (the blackjack table controller driven by physical
    events, shown live) on the chosen interpreter; its .bjh history to --out. Returns the exit code."""
    out = args.out or os.path.join(REPO, "out", "blackjack", "rounds.bjh")
    folder = os.path.dirname(os.path.abspath(out))
    os.makedirs(folder, exist_ok=True)
    argv = ["--rounds", str(rounds or args.rounds), "--seed", str(args.seed), "--out", os.path.abspath(out)]
    if args.runtime == "cpython":
        from felt.sim import blackjack as bj

        return bj.main(argv)
    from feltctl.commands.replay import run_micropython

    return run_micropython("felt.sim.blackjack", argv, heapsize="2M", stream=True).returncode


def run(args):
    if args.game == "blackjack":
        if args.replay or args.kill_every is not None:
            sys.stderr.write("feltctl sim: --game blackjack plays seeded rounds; replay .bjh files with feltctl replay\n")
            return 2
        return blackjack(args)
    if args.out is None:
        args.out = os.path.join(REPO, "out", "hands")
    if args.kill_every is not None and not args.replay:
        sys.stderr.write("feltctl sim: --kill-every needs --replay FILE.phh\n")
        return 2
    if args.replay:
        return _replay(args)
    if args.demo:
        from feltctl.table_sim import demo

        return demo.run(args)
    from feltctl.table_sim import interactive

    return interactive.run(args)
