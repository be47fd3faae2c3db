# Captures the journals of a journaled tournament table (felt.sim.powerloss.PowerSim) cut off at a few
# points, flash file by flash file (ring_h4h: the raw ring's blocks), into the folders beside this
# script. Run once on main at 3dc967f (ring_h4h at a313e4a, the last commit of that firmware): level
# clock and hand-for-hand as config.level_clock / config.hand_for_hand, snapshot v 1; with
#   cd tests/firmware && PYTHONPATH=../../firmware:. python data/tournament_v1/capture.py [CASE...]
# tests/firmware/table/test_table_tournament_recovery.py restores them with today's firmware. CPython only.
import os
import sys

from felt.recovery import journal as jr
from felt.sim.powerloss import KillBlockDevice, KillFlash, PowerSim
from felt.table.controller import TableConfig
from felt.proto import console as proto

HERE = os.path.dirname(os.path.abspath(__file__))
LEVELS = [{"sb": 50, "bb": 100, "minutes": 20}, {"sb": 100, "bb": 200, "ante": 25, "minutes": 20},
          {"sb": 150, "bb": 300, "ante": 25, "minutes": 20}]
HOLES = ("Ah", "Kd", "2c", "7s", "Ac", "Kc", "3d", "8s")


def table(levels=True, ring=False):
    sim = PowerSim(KillBlockDevice(None) if ring else KillFlash(None))
    sim.build(TableConfig(game="holdem", structure="no_limit", seats=3, sb=50, bb=100, button=1,
                          mode="tournament", levels=[dict(r) for r in LEVELS] if levels else None))
    for s in (1, 2, 3):
        sim.run("seat %d 1000" % s)
    return sim


def wire(sim, verb, args=()):
    sim.seq = (sim.seq + 1) % 65536
    sim.console.feed(proto.encode(proto.Message(sim.seq, verb, args)))
    sim.settle(sweeps=0)
    got = [r for r in sim.replies if (" re=%d " % sim.seq) in r and (" ok " in r or " error " in r)]
    assert len(got) == 1 and " ok " in got[0], (verb, args, sim.replies)
    return got[0]


def minutes(sim, n):
    sim.hal.clock.advance_ms(n * 60000)
    sim.settle(sweeps=0)


def deal(sim):
    seats = list(sim.table.setup.seats)
    for k in range(2):
        for i in range(len(seats)):
            sim.run("draw %s to seat %d" % (HOLES[k * len(seats) + i], seats[i]))


def fold_out(sim):
    t = sim.table
    while t.state == "playing":
        wire(sim, "fold", [t.setup.seats[t.hand.actor]])
    sim.run("clear")


def torn(sim, verb, args=()):
    """The power goes while `verb` is being journaled: its record is cut inside its header."""
    f = sim.flash
    f.every, f.count, f.kills, f.armed = 1, 0, 2, True  # OFFSETS[2]: 7 bytes of the record
    try:
        sim._send(verb, args)
        sim.settle(sweeps=0)
    except jr.PowerCut:
        return
    raise AssertionError("no power cut")


def save(sim, name, notes):
    d = os.path.join(HERE, name)
    os.makedirs(d, exist_ok=True)
    for old in os.listdir(d):
        os.remove(os.path.join(d, old))
    f = sim.flash
    if isinstance(f, KillBlockDevice):  # the raw ring: each block not wholly erased, whole
        for b in range(f.n):
            block = bytes(f.data[b * f.bs:(b + 1) * f.bs])
            if block.rstrip(b"\xff"):
                with open(os.path.join(d, "block%02d.ring" % b), "wb") as out:
                    out.write(block)
    for fname in (sim.flash.names() if not isinstance(f, KillBlockDevice) else ()):
        with open(os.path.join(d, fname), "wb") as f:
            f.write(sim.flash.read(fname))
    with open(os.path.join(d, "NOTES"), "w") as f:
        f.write(notes.strip() + "\n")
    print(name, sorted(os.listdir(d)), sim.table.config.level, sim.table.config.level_clock,
          sim.table.config.hand_for_hand)


def between_hands():
    sim = table()
    wire(sim, "set", ["level_clock", "start"])
    minutes(sim, 5)
    sim.run("hand")  # snapshot (clock 15:00 running) + new_hand
    deal(sim)
    fold_out(sim)
    minutes(sim, 3)
    save(sim, "between_hands", """
level clock started, 5 min, hand 1 played out (snapshot at its start: L1 15:00 running), 3 more
minutes, power cut between hands (nothing journaled after the last fold)""")


def mid_level_paused():
    sim = table()
    wire(sim, "set", ["level_clock", "start"])
    minutes(sim, 19)
    sim.run("hand")  # hand 1 at level 1 (1:00 left)
    deal(sim)
    minutes(sim, 2)  # level 2 began during the hand (19:00 left)
    wire(sim, "set", ["level_clock", "pause"])
    torn(sim, "fold", [sim.table.setup.seats[sim.table.hand.actor]])
    save(sim, "mid_level_paused", """
level clock started, 19 min, hand 1 at level 1, 2 min into it (level 2 began: 19:00 left) the TD
pauses the clock, the power goes while a fold is journaled (record torn)""")


def paused_between_hands():
    sim = table()
    wire(sim, "set", ["level_clock", "start"])
    minutes(sim, 8)
    sim.run("hand")
    deal(sim)
    fold_out(sim)
    minutes(sim, 1)
    wire(sim, "set", ["level_clock", "pause"])  # 11:00 left
    minutes(sim, 4)
    save(sim, "paused_between_hands", """
level clock started, 8 min, hand 1 played out, 1 min, paused (L1 11:00), 4 min, power cut""")


def h4h_held():
    sim = table()
    wire(sim, "set", ["level_clock", "start"])
    minutes(sim, 9)
    sim.run("hand")
    deal(sim)
    wire(sim, "set", ["hand_for_hand", "on"])  # announced during hand 1 with 11:00 left
    fold_out(sim)
    minutes(sim, 3)  # stands still
    sim.run("hand")  # snapshot (h4h 11:00, clock paused) + new_hand: 9:00
    deal(sim)
    t = sim.table
    wire(sim, "allin", [t.setup.seats[t.hand.actor]])
    wire(sim, "fold", [t.setup.seats[t.hand.actor]])
    wire(sim, "call", [t.setup.seats[t.hand.actor]])  # TOUR-10: held for the TD
    assert t.dc.held
    torn(sim, "floor", ["continue"])
    save(sim, "h4h_held", """
level clock started, 9 min, hand 1 dealt, hand-for-hand on (11:00 from the clock), hand 1 folded out,
3 min (the clock stands still), hand 2 (9:00) all-in and call held (TOUR-10), the power goes while
the TD's floor continue is journaled (record torn)""")


def h4h_rollover():
    sim = table()
    wire(sim, "set", ["level_clock", "start"])
    wire(sim, "set", ["hand_for_hand", "3"])  # the TD's 3:00 (between hands)
    sim.run("hand")  # 1:00
    deal(sim)
    fold_out(sim)
    sim.run("hand")  # level 2 with 19:00
    deal(sim)
    fold_out(sim)
    save(sim, "h4h_rollover", """
level clock started, hand-for-hand 3 (minutes) between hands, hand 1 (1:00), hand 2 (level 2 from
this hand, 19:00: the overrun off its 20:00), both played out; power cut between hands""")


def h4h_no_level_clock():
    sim = table(levels=False)
    wire(sim, "set", ["hand_for_hand", "11:00"])
    sim.run("hand")  # 9:00
    deal(sim)
    fold_out(sim)
    sim.run("hand")  # 7:00 (snapshot holds 9:00)
    deal(sim)
    save(sim, "h4h_no_level_clock", """
no level table, no level clock: hand-for-hand 11:00 between hands, hand 1 (9:00) played out, hand 2
(7:00) dealt, power cut mid-hand""")


def h4h_unknown():
    sim = table(levels=False)
    wire(sim, "set", ["hand_for_hand", "on"])  # no level clock: time not known
    sim.run("hand")
    deal(sim)
    fold_out(sim)
    save(sim, "h4h_unknown", """
no level clock: hand-for-hand on (time not known), hand 1 played out, power cut between hands""")


def ring_h4h():
    sim = table(ring=True)
    wire(sim, "set", ["level_clock", "start"])
    minutes(sim, 6)
    sim.run("hand")
    deal(sim)
    fold_out(sim)
    wire(sim, "set", ["hand_for_hand", "on"])  # between hands, 14:00 left on the clock
    sim.run("hand")  # snapshot (h4h 14:00) + new_hand: 12:00
    deal(sim)
    torn(sim, "fold", [sim.table.setup.seats[sim.table.hand.actor]])
    save(sim, "ring_h4h", """
the raw flash ring (KillBlockDevice, 24 blocks of 4096; the blocks not wholly erased are stored):
level clock started, 6 min, hand 1 played out, hand-for-hand on between hands (14:00 from the
clock), hand 2 (12:00) dealt, the power goes while a fold is programmed (record torn)""")


def no_hand_yet():
    sim = table()
    wire(sim, "set", ["level_clock", "start"])
    minutes(sim, 4)
    wire(sim, "set", ["level_clock", "pause"])
    minutes(sim, 1)
    wire(sim, "set", ["level_clock", "resume"])
    minutes(sim, 2)
    wire(sim, "set", ["hand_for_hand", "on"])  # 14:00 left on the clock
    save(sim, "no_hand_yet", """
no hand yet (no snapshot: every input replayed from the journal): level clock started, 4 min,
paused, 1 min, resumed, 2 min, hand-for-hand on (14:00 from the clock), power cut""")


if __name__ == "__main__":
    names = sys.argv[1:] or ["between_hands", "mid_level_paused", "paused_between_hands", "h4h_held",
                             "h4h_rollover", "h4h_no_level_clock", "h4h_unknown", "no_hand_yet", "ring_h4h"]
    for n in names:
        globals()[n]()
