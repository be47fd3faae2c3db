# Boot recovery (felt.recovery.restore): snapshot + journal replay through a fresh controller, the floor
# message for a torn last record, refused inputs replayed as refused, numbering across hands.
from check import eq

from felt.recovery import journal as jr
from felt.recovery import restore as recovery
from felt.errors import RuleError


class Tally:
    """A tiny deterministic controller: inputs add chips to seats; a negative amount is refused
    (RuleError, state unchanged) like an illegal bet. snapshot() is its between-hands state."""

    def __init__(self, snapshot=None):
        self.stacks = dict((int(k), v) for k, v in (snapshot or {}).get("stacks", {}).items())
        self.hand = (snapshot or {}).get("hand", 0)

    def take(self, seat, amount):
        if amount < 0:
            raise RuleError("BET-7", "negative amount", legal=(0, None))
        self.stacks[seat] = self.stacks.get(seat, 0) + amount

    def replay(self, record):
        v = record.value()
        self.take(v["seat"], v["amount"])

    def snapshot(self):
        return {"stacks": dict(("%d" % k, v) for k, v in self.stacks.items()), "hand": self.hand}


def live(journal, controller, seat, amount):
    """What the runtime does with one input: journal it, then let it take effect."""
    journal.append_value(jr.CONSOLE, {"seat": seat, "amount": amount})
    try:
        controller.take(seat, amount)
    except RuleError:
        pass


def test_thousands():
    eq([recovery.thousands(n) for n in (0, 7, 999, 1000, 1204, 1234567, -1204)],
       ["0", "7", "999", "1,000", "1,204", "1,234,567", "-1,204"])


def test_blank_flash_gives_a_fresh_controller():
    j = jr.Journal(jr.MemFlash())
    table, report = recovery.restore(j, Tally)
    eq(table.stacks, {})
    eq(report.message, "recovered to event 0")
    eq(report.lost, None)
    eq(report.level, "info")


def test_torn_console_entry_is_reported_for_the_floor_with_the_event_number():
    flash = jr.MemFlash()
    j = jr.Journal(flash)
    j.open()  # snapshot 0, commit 1
    table = Tally()
    for i in range(1203):  # events 2..1204
        live(j, table, 1 + i % 9, 1)
    flash.cut_after = 11  # the next entry is cut after 11 of its bytes
    try:
        live(j, table, 4, 500)
    except jr.PowerCut:
        pass
    logged = []
    restored, report = recovery.restore(jr.Journal(flash.copy()), Tally, log=logged.append)
    eq(report.message, "recovered to event 1,204; last console entry lost -- re-enter it")
    eq(logged, [report.message])
    eq(report.level, "warn")
    eq(restored.stacks, table.stacks, "every earlier entry survives; the cut one never took effect")
    eq(report.replayed, 1203)
    eq(report.as_dict()["lost"]["kind"], jr.CONSOLE)


def test_torn_header_names_no_kind():
    flash = jr.MemFlash()
    j = jr.Journal(flash)
    j.open()
    j.append(jr.CARD, b"\x01")
    flash.files["j00000001.log"].extend(b"\xa5\x12")  # cut inside the header
    _t, report = recovery.restore(jr.Journal(flash), lambda snap: None, apply=lambda c, r: None)
    eq(report.message, "recovered to event 2; last input lost -- check the last action and enter it again")


def test_each_kind_names_what_to_do():
    d = jr.Damage("torn", 0, 3, kind=jr.CARD, seq=9)
    eq(recovery.lost_message(8, d), "recovered to event 8; last shoe card lost -- pass the card over the shoe reader again")
    d = jr.Damage("torn", 0, 3, kind=jr.BUTTON, seq=9)
    eq(recovery.lost_message(8, d), "recovered to event 8; last button press lost -- press the button again")


def test_corruption_before_the_end_is_an_error_for_the_floor():
    flash = jr.MemFlash()
    j = jr.Journal(flash)
    j.open()
    table = Tally()
    for i in range(5):
        live(j, table, 1, 10)
    buf = flash.files["j00000001.log"]
    off = jr.scan(bytes(buf))[0][4].offset  # third input (seq 4)
    buf[off + 9] ^= 1
    restored, report = recovery.restore(jr.Journal(flash), Tally)
    eq(restored.stacks, {1: 20}, "only the inputs before the damage are replayed")
    eq(report.level, "error")
    eq("2 later record(s) not replayed -- call the floor" in report.message, True, report.message)


def test_refused_inputs_are_refused_again_and_counted():
    flash = jr.MemFlash()
    j = jr.Journal(flash)
    j.open()
    table = Tally()
    live(j, table, 2, 100)
    live(j, table, 2, -5)
    live(j, table, 3, 7)
    restored, report = recovery.restore(jr.Journal(flash.copy()), Tally)
    eq(restored.stacks, table.stacks)
    eq(len(report.rejected), 1)
    eq(report.rejected[0][0], 3)
    eq("BET-7" in report.rejected[0][1], True)


def test_restore_starts_from_the_last_snapshot_across_hands():
    flash = jr.MemFlash()
    j = jr.Journal(flash)
    j.open()
    table = Tally()
    for hand in range(1, 4):
        for seat in range(1, 4):
            live(j, table, seat, hand * seat)
        table.hand = hand
        j.compact(table.snapshot())
    live(j, table, 1, 1000)
    restored, report = recovery.restore(jr.Journal(flash.copy()), Tally)
    eq(restored.stacks, table.stacks)
    eq(restored.hand, 3)
    eq(report.replayed, 1, "only the input after the last snapshot is replayed")
    eq(report.snapshot_seq, j.snapshot.seq)
    eq(report.last_seq, j.last_seq())
