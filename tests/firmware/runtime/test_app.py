# The assembled device application (felt.runtime.app) on the simulated table: boot order, journal, audit,
# secrecy guard and hand files under an absolute data root; a power cut (every object dropped) and
# a rebuild from the same root gives back the same table. Runs on CPython and MicroPython.
import os

from check import eq

from felt.runtime import app as applib
from felt import view
from felt.hal.sim.hal import SimHAL
from felt.security import audit as auditlib
from felt.security import bootcheck
import kit
from kit import (AppSim, boardlib_sim, FakeMicropython, finish_app_hand, HEAD, in_slot, play_app_hand,
                 rm_tree, tmp_root)


def _state(sim):
    s = view.snapshot(sim.table)
    return s


def _hand_files(root):
    return sorted([n for n in os.listdir(root + "/hands") if n.endswith(".phh")])


def test_app_plays_journals_and_rebuilds_after_a_power_cut():
    root = tmp_root("cut")
    sim = AppSim(root)
    sim.run(HEAD)
    for s in (1, 2, 3):
        sim.run("seat %d 1000" % s)
    eq(sim.app.mode, bootcheck.PRODUCTION)
    eq(sim.mpy.calls, [-1])  # production: Ctrl-C off, no REPL while the table runs
    assert sim.app.keys is None and sim.app.desk is None
    assert [ln for ln in sim.logged if ln.startswith("unprovisioned board: running unsigned")], sim.logged
    play_app_hand(sim, ["Ah", "Kd", "Qs", "Qh", "Kc", "2s"])
    finish_app_hand(sim)
    eq(sim.table.state != "playing", True)
    sim.run("clear")
    eq(len(_hand_files(root)), 1)
    # second hand, cut in the middle of the flop betting
    play_app_hand(sim, ["As", "Kh", "Qd", "Qc", "Ks", "2h"], order=(3, 1, 2))  # button on seat 2
    sim.run("draw 3d to burn")
    for c in ("7d", "8d", "9d"):
        sim.run("draw %s to board" % c)
    sim.run("act 3 bet 200")
    before = _state(sim)
    eq(before["street"], "flop")
    assert sum(before["stacks"]) < 3000  # chips are in the pot: a hand really is in progress
    sim.app = sim.table = sim.rt = None  # power cut: every firmware object dropped
    sim.boot()
    eq(_state(sim), before)
    assert sim.app.report.message.startswith("recovered to event "), sim.app.report.message
    assert sim.app.report.replayed > 0
    assert sim.app.report.message in sim.logged
    # the hand goes on after the restart and its history is stored once
    for line in ("act 1 call", "act 2 fold"):
        sim.run(line)
    sim.run("draw 4d to burn")
    sim.run("draw Jc to board")
    sim.run("act 3 check")
    sim.run("act 1 check")
    sim.run("draw 5c to burn")
    sim.run("draw 2c to board")
    sim.run("act 3 check")
    sim.run("act 1 check")
    eq(sim.table.state != "playing", True)
    eq(sum(sim.table.stacks), 3000)  # chips conserved across the cut
    eq(len(_hand_files(root)), 2)
    with open(root + "/hands/" + _hand_files(root)[1]) as f:
        eq(f.read(), sim.app.handlog.histories()[1])  # the file is the PHH text the hand log holds
    eq(len(sim.app.handlog.histories()), 2)
    # the audit log's chain holds (unkeyed board: chain without MACs)
    with open(root + "/audit.log") as f:
        lines = [ln for ln in f.read().split("\n") if ln]
    recs = auditlib.verify(lines)
    eq([r.kind for r in recs], ["boot", "boot"])  # one record per boot (two boots)
    assert "production mode, unsigned tree" in recs[1].text, recs[1].text


class RingAppSim(AppSim):
    """AppSim on a board whose file says "journal": ring (issue 20: hardware/boards/pico.json):
    the raw flash survives the power cycle, the HAL and every firmware object do not."""

    flash = None

    def rewire(self):
        hal = AppSim.rewire(self)
        hal.flash_device = self.flash
        return hal

    def boot(self):
        self.board.journal = {"kind": "ring", "start": -65536, "length": 65536}
        AppSim.boot(self)
        self.flash = self.hal.flash_device


def test_board_file_picks_the_ring_journal_and_it_rebuilds_after_a_power_cut():
    from felt.recovery.ring import RingJournal

    root = tmp_root("ring")
    sim = RingAppSim(root)
    sim.run(HEAD)
    assert isinstance(sim.app.journal, RingJournal)
    for s in (1, 2, 3):
        sim.run("seat %d 1000" % s)
    play_app_hand(sim, ["Ah", "Kd", "Qs", "Qh", "Kc", "2s"])
    sim.run("draw 3c to burn")
    for c in ("7h", "8h", "9c"):
        sim.run("draw %s to board" % c)
    sim.run("act 2 bet 200")
    before = _state(sim)
    eq(before["street"], "flop")
    assert sim.flash.programmed > 0 and "journal" not in os.listdir(root)  # no journal files
    sim.app = sim.table = sim.rt = None  # power cut
    sim.boot()
    eq(_state(sim), before)
    assert sim.app.report.replayed > 0

def test_maintenance_mode_is_audited_and_console_stays_open():
    root = tmp_root("maint")
    sim = AppSim(root, pressed=True)
    sim.run(HEAD)
    eq(sim.app.mode, bootcheck.MAINTENANCE)
    eq(sim.mpy.calls, [3])  # Ctrl-C on again: main.py closed the console first (issue 12 item 2)
    with open(root + "/audit.log") as f:
        lines = [ln for ln in f.read().split("\n") if ln]
    recs = auditlib.verify(lines)
    assert [r for r in recs if r.kind == "maintenance" and "key switch held" in r.text], lines
    # a second boot appends to the same chain
    sim.boot()
    with open(root + "/audit.log") as f:
        lines2 = [ln for ln in f.read().split("\n") if ln]
    eq(len(auditlib.verify(lines2)), 2 * len(lines))  # maintenance entry + boot record again


def test_boot_wires_the_audit_rotation_and_the_antenna_check():
    root = tmp_root("rot")
    sim = AppSim(root)
    sim.rotation = auditlib.Rotation(max_bytes=1024, keep=3)
    sim.run(HEAD)
    for _ in range(12):
        sim.boot()  # a boot record each time: the small log rotates
    names = auditlib.order(os.listdir(root), "audit.log")
    assert len(names) > 1 and "audit.log" in names, names
    # nothing exported: every file stays (issue 12 item 7); once exported, rotation keeps keep=3
    # rotated files beside the live one
    files = [(n, _lines(root + "/" + n)) for n in names]
    last = auditlib.verify_files(files, None, None)[-1]
    with open(root + "/audit.log" + auditlib.EXPORTED, "w") as f:
        f.write("%d %s\n" % (last.seq, auditlib.line_hash(last.line)))
    for _ in range(6):
        sim.boot()
    names = auditlib.order(os.listdir(root), "audit.log")
    assert len(names) <= 4, names
    files = [(n, _lines(root + "/" + n)) for n in names]
    recs = auditlib.verify_files(files, None, None)
    assert [r for r in recs if r.kind == "boot"], recs
    # felt.recovery.antennas is attached at boot and finishes once every antenna has answered
    assert sim.app.antennas is not None
    sim.settle(sweeps=6)
    eq(sim.app.antennas.done, True)


def test_data_root_is_absolute():
    eq(applib.join("/", "hands"), "/hands")
    eq(applib.join("/var/lib/felt/", "journal"), "/var/lib/felt/journal")
    assert applib.data_root("/").startswith("/")


def _lines(path):
    with open(path) as f:
        return [ln for ln in f.read().split("\n") if ln]


def test_clean_restart_shows_the_recovery_line_on_the_display():
    root = tmp_root("line")
    sim = AppSim(root)
    sim.run(HEAD)
    sim.run("seat 1 500")
    sim.boot()
    msg = sim.app.report.message
    assert msg.startswith("recovered to event "), msg
    eq(sim.app.report.level, "info")
    eq(" ".join(sim.oled.text_lines()).strip().upper(), msg.upper())  # (glyph read-back case differs by port)
    eq(sim.table.stacks[0], 500)


def test_torn_journal_tail_is_a_journaled_warning_alert():
    root = tmp_root("torn")
    sim = AppSim(root)
    sim.run(HEAD)
    for s in (1, 2, 3):
        sim.run("seat %d 1000" % s)
    play_app_hand(sim, ["Ah", "Kd", "Qs", "Qh", "Kc", "2s"])
    stacks = list(sim.table.stacks)
    names = sorted([n for n in os.listdir(root + "/journal") if n.startswith("j")])
    path = root + "/journal/" + names[-1]
    with open(path, "rb") as f:
        data = f.read()
    with open(path, "wb") as f:
        f.write(data[:-3])  # the power went while the last record was being written
    sim.app = sim.table = sim.rt = None
    sim.boot()
    r = sim.app.report
    eq(r.level, "warn")
    assert " lost -- " in r.message, r.message
    a = sim.table.alerts[-1]
    eq((a.device, a.level, a.text), ("journal", "warn", r.message))
    # the lost input was the last check: stacks as before it, and the action waits on that seat
    eq(sim.table.stacks, stacks)
    eq(view.snapshot(sim.table)["lights"]["action"], 3)


def test_hole_cards_never_reach_the_log():
    root = tmp_root("secret")
    sim = AppSim(root)
    sim.run(HEAD)
    for s in (1, 2, 3):
        sim.run("seat %d 1000" % s)
    start = len(sim.logged)
    sim.run("hand")
    sim.run("draw Ah to seat 2")
    sim.run("draw Ah to seat 3")  # the same tag read again: DECK-5 alert names the tag's UID
    assert [a for a in sim.table.alerts if "DECK-5" in a.rules], sim.table.alerts
    assert [ln for ln in sim.logged[start:] if "DECK-5" in ln], sim.logged[start:]  # logged, guarded
    sim.boot()  # the replay raises the alert again: the table's log is guarded while replaying too
    assert sim.app.report.replayed > 0
    for line in sim.logged[start:]:
        assert "04FE1741000032" not in line.upper(), line
        assert "AH" not in line.upper().replace("FEED", ""), line


def test_secrecy_feed_keeps_observing_after_the_boot_antenna_check():
    # the antenna check unwrapped runtime.step once done, and with it the feed's observe wrapped
    # around it: no commitment was published after boot (found by the issue 20 benchmark); now
    # both are after-step hooks of the loop (test_runtime_hooks.py has the whole hand)
    root = tmp_root("observe")
    sim = AppSim(root)
    sim.run(HEAD)
    for s in (1, 2, 3):
        sim.run("seat %d 1000" % s)
    start = len(sim.logged)
    sim.run("hand")
    for c, seat in (("Ah", 2), ("Kd", 3), ("Kc", 1), ("Qs", 2), ("Qh", 3), ("2s", 1)):
        sim.run("draw %s to seat %d" % (c, seat))
    commits = [ln for ln in sim.logged[start:] if ln.startswith("FEED") and '"commit"' in ln]
    assert sim.app.antennas.done
    eq(len(commits), 3)  # one per seat once the deal is complete

def _provision(root, device="table1"):
    from felt.security import keys as keylib

    try:
        os.mkdir(root)
    except OSError:
        pass
    with open(root + "/felt.keys", "w") as f:
        f.write(keylib.encode(kit.test_keys(device)))


def test_provisioned_board_refuses_an_unsigned_running_tree_and_says_why():
    root = tmp_root("refuse")
    _provision(root)
    slot = root + "/slot"
    os.mkdir(slot)
    with open(slot + "/main.py", "w") as f:
        f.write("pass\n")
    hal = SimHAL()
    b = boardlib_sim(3)
    oled = hal.add_display(0, 0x3C)
    a = in_slot(slot, lambda: applib.build(hal, b, lambda h, log: None, root, pressed=False,
                                            micropython_module=FakeMicropython()))
    assert a.halted is not None and "unsigned" in a.halted, a.halted
    eq(a.runtime, None)
    eq(oled.text_lines()[0].upper(), "NOT STARTED:")
    from felt.security import keys as keylib
    recs = auditlib.verify(_lines(root + "/audit.log"), key=auditlib.signer(keylib.load(root + "/felt.keys").sign))
    eq([r.kind for r in recs[-2:]], ["boot", "tilt"])  # the refusal, then the tilt it is (issue 16 item 3)
    assert "running tree refused" in recs[-2].text, recs[-2].text
    assert "needs a signed deploy" in recs[-1].text, recs[-1].text


def test_provisioned_board_with_a_signed_tree_runs_keyed_and_with_the_floor_desk():
    root, slot = kit.provisioned_root("signed")
    sim = AppSim(root, pressed=True)
    in_slot(slot, lambda: sim.run(HEAD))
    eq(sim.app.halted, None)
    eq(sim.app.mode, bootcheck.MAINTENANCE)
    eq(sim.app.keys.device, "table1")
    assert sim.app.desk is not None
    nonce = sim.app.desk.challenge(0)
    assert len(nonce) == 32, nonce  # hex of 16 fresh bytes
    recs = auditlib.verify(_lines(root + "/audit.log"), key=auditlib.signer(b"\x42" * 32))
    eq([r.kind for r in recs], ["maintenance", "boot"])
    assert "signed, manifest " in recs[1].text, recs[1].text


def test_damaged_key_file_halts_instead_of_running_unsigned():
    root = tmp_root("badkeys")
    os.mkdir(root)
    with open(root + "/felt.keys", "w") as f:
        f.write("device table1\nowner zz\n")
    hal = SimHAL()
    hal.add_display(0, 0x3C)
    said = []
    a = applib.build(hal, boardlib_sim(3), lambda h, log: None, root, pressed=False, log=said.append,
                     micropython_module=FakeMicropython())
    assert a.halted is not None and "refused" in a.halted, a.halted
    eq(a.runtime, None)
    assert not [ln for ln in said if "running unsigned" in ln], said


def test_a_pico_without_board_json_is_told_to_copy_the_pin_map():
    # feltctl flashes the firmware tree alone: a Pico (or sim) board has no ../hardware folder, so
    # the only useful answer is where its board.json goes (hardware/flashing.md)
    root = tmp_root("noboard")
    os.mkdir(root)
    for hal_name in ("machine", "sim"):
        eq(applib.config_paths(root, "board.json", hal_name), [root + "/board.json", "board.json"])
        try:
            applib.load_board(root, hal_name)
            raise AssertionError("a board without board.json loaded a pin map")
        except applib.FeltError as e:
            assert "copy hardware/boards/pico.json to %s/board.json" % root in str(e), str(e)
    # a Raspberry Pi release ships hardware/ beside firmware/: its map is the last place looked
    eq(applib.config_paths(root, "board.json", "rpi")[-1], "../hardware/boards/rpi.json")
    rm_tree(root)


class NoRawFlashSim(RingAppSim):
    def rewire(self):
        hal = RingAppSim.rewire(self)

        def refuse(start, length):
            from felt.errors import ConfigError
            raise ConfigError("raw flash overlaps the file system")
        hal.flash = refuse
        return hal


def test_ring_that_would_overlap_the_file_system_falls_back_to_files_and_says_so():
    from felt.recovery import journal as jr

    root = tmp_root("noring")
    sim = NoRawFlashSim(root)
    sim.run(HEAD)
    assert isinstance(sim.app.journal, jr.Journal)
    assert [ln for ln in sim.logged if "ring journal not available" in ln and "overlaps" in ln], sim.logged
    sim.run("seat 1 1000")
    assert "journal" in os.listdir(root)


def test_a_running_board_drops_the_board_map_checker_and_keeps_the_map():
    # felt.runtime.board served the boot (the map checked, the drivers opened from it); once the
    # table runs, app.serve drops it (felt.runtime.heap.forget: ~2.5 KB of RAM on a 32-bit board,
    # hardware/memory.md, Idioms 7). The map is a record without methods: it stays usable.
    import sys
    import felt.runtime

    board = boardlib_sim(3)
    assert "felt.runtime.board" in sys.modules
    app = applib.run(SimHAL(), board, tmp_root("forget"), log=lambda line: None, steps=5)
    eq(("felt.runtime.board" in sys.modules, hasattr(felt.runtime, "board")), (False, False))
    eq((board.seats, [loc for loc, _cs in board.antennas][:2]), (3, ["seat1", "seat2"]))
    assert app.runtime.steps >= 5
    # a later import (a second board on the Raspberry Pi, a test) loads it again
    from felt.runtime import board as boardlib
    eq(boardlib.load_file is not None, True)


def test_a_running_board_drops_the_signed_tree_check_and_keeps_its_mode_and_manifest_hash():
    # felt.security.bootcheck and felt.security.manifest served the boot (the tree checked, the
    # key switch read); once the table runs, app.serve drops them (~5.8 KB of RAM on a 32-bit
    # board, hardware/memory.md, Idioms 7). What the running board and main.py need of them stay
    # as texts: the mode (app.booted_mode, main.py reads it after run() returns) and the manifest's
    # hash (app.manifest: a Manifest would keep its module's globals alive through its method)
    import sys
    import felt.security

    root, slot = kit.provisioned_root("forgetboot")
    manifest_hash = bootcheck.check_slot(slot, root + "/felt.keys", root + "/felt.counter").hash()
    app = in_slot(slot, lambda: applib.run(SimHAL(), boardlib_sim(3), root, log=lambda line: None, steps=5))
    eq(app.halted, None)
    names = ("felt.security.bootcheck", "felt.security.manifest")
    eq([name in sys.modules for name in names], [False, False])
    eq([hasattr(felt.security, name[14:]) for name in names], [False, False])
    eq((applib.booted_mode, app.mode, applib.PRODUCTION, applib.MAINTENANCE),
       (bootcheck.PRODUCTION, bootcheck.PRODUCTION, bootcheck.PRODUCTION, bootcheck.MAINTENANCE))
    eq(app.manifest, manifest_hash)
    assert app.runtime.steps >= 5
    # a later import (the deploy agent's check in maintenance, a test) loads them again
    from felt.security import bootcheck as again
    eq(again.booted_mode, None)
