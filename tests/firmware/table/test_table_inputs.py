# Table.INPUTS (felt/table/controller.py) is the table's input surface: every public method of the
# Table is either an input there (journaled by felt.recovery.restore before it runs, replayed after a
# power cut) or listed below with why it is not one; the recorder wraps each input exactly once and
# recovery replays each. Issue 13 item 1. Runs on CPython and MicroPython.
from check import eq

from felt.recovery import journal as jr
from felt.recovery import restore as recovery
from felt.sim.runner import registry
from felt.table.controller import Table, TableConfig

# public methods that are not inputs, and why
NOT_INPUTS = {
    "account": "query: where the 52 cards are",
    "busy": "query: a shoe read waits for its antenna (the loop then calls resolve, an input)",
    "pending": "query: proposals waiting for the dealer",
    "position": "query: a seat's engine position",
    "setting": "query: a console `get`",
    "log": "output sink",
    "rule_alert": "raises an alert through alert(), which is journaled",
    "pot_count": "BET-26: a count a player asks for, shown until the next action; changes no chips",
    "stack_count": "BET-48: as pot_count",
    "progress": "query: how far the hand has gone (the display tells a fresh alert from an old one)",
}


def _public_methods():
    return sorted([n for n in dir(Table) if not n.startswith("_") and callable(getattr(Table, n))])


def test_every_public_table_method_is_an_input_or_said_not_to_be():
    methods = _public_methods()
    unlisted = [n for n in methods if n not in Table.INPUTS and n not in NOT_INPUTS]
    eq(unlisted, [])  # a new public method: add it to Table.INPUTS, or here with the reason
    eq(sorted([n for n in Table.INPUTS if n not in methods]), [])  # every input is a method
    eq(sorted([n for n in NOT_INPUTS if n in Table.INPUTS]), [])
    eq(sorted([n for n in NOT_INPUTS if n not in methods]), [])  # no stale entry here
    for name in Table.INPUTS:
        assert Table.INPUTS[name] in recovery.RECORD_KINDS, (name, Table.INPUTS[name])


class Calls:
    """A table stand-in that records which input was called (recovery's replay_call target)."""

    def __init__(self):
        self.called = []
        self.moved = []
        for name in Table.INPUTS:
            setattr(self, name, self._input(name))

    def _input(self, name):
        def call(*args, **kwargs):
            self.called.append((name, args))
            if name == "check_moves":
                args[0]("seat1", "04AA")  # the recorded answers stand in for the antennas
        return call


def test_recovery_replays_every_input():
    seq = 0
    for name in sorted(Table.INPUTS):
        seq += 1
        args = ([True],) if name == "check_moves" else (1, "x")
        rec = jr.Record(seq, recovery.RECORD_KINDS[Table.INPUTS[name]], recovery.encode_call(name, args))
        eq(recovery.decode_call(rec)[0], name)
        t = Calls()
        recovery.replay_call(t, rec)
        eq([c[0] for c in t.called], [name])
    bad = jr.Record(99, jr.CONSOLE, recovery.encode_call("pot_count", (1,)))  # not an input: refused
    try:
        recovery.decode_call(bad)
        raise AssertionError("a call to a non-input was replayed")
    except jr.JournalError:
        pass


def test_the_recorder_wraps_each_input_once_and_journals_it_before_it_runs():
    table = Table(TableConfig(game="holdem", structure="no_limit", seats=3, sb=1, bb=2), registry())
    journal = jr.Journal(jr.MemFlash())
    journal.open()
    rec = recovery.TableRecorder(table, journal)
    rec.attach()
    first = {}
    for name in Table.INPUTS:
        first[name] = getattr(table, name)
        assert name in table.__dict__, name  # wrapped on the instance
    rec.attach()  # a second attach changes nothing (no wrapper around a wrapper)
    for name in Table.INPUTS:
        assert getattr(table, name) is first[name], name
    # no other method is shadowed on the instance
    eq(sorted([n for n in table.__dict__ if callable(getattr(Table, n, None)) and n not in Table.INPUTS]), [])
    n0 = journal.next_seq
    table.sit(1, 500)
    table.device_alert("shoe", "warn", "test")
    recs = journal.open()
    eq([recovery.decode_call(r)[0] for r in recs if r.seq >= n0], ["sit", "device_alert"])
    eq([r.kind for r in recs if r.seq >= n0], [jr.CONSOLE, jr.ALERT])
