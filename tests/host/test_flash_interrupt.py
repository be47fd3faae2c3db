# A deploy interrupted anywhere leaves a board that boots the old or the new firmware, never a
# mix, and the next deploy completes. Interruptions: power cut at every mutating flash operation
# the deploy makes (the board dies mid-write, mid-rename), reset and link cut at many byte
# offsets of the host's stream. FELT_LONG_SWEEP=1 sweeps byte offsets densely (a few minutes).
import os
import shutil

import pytest

from felt.errors import FeltError
from feltctl.board.deploy import Deployer, build_tree
from feltctl.paths import FIRMWARE
from feltctl.board_sim.simboard import Faults, SimBoard
from feltctl.board.transport import Transport
from simboard_boot import active_files, boot_output, read_until

LONG = os.environ.get("FELT_LONG_SWEEP") == "1"
OLD_LOADER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "loader_before_packs.py")
MAIN = """import app.a, app.b
v = app.a.VERSION
assert app.b.VERSION == v, "mixed a/b"
try:
    import app.legacy
    assert v == "old", "legacy module in the new tree"
except ImportError:
    assert v == "new", "legacy module missing from the old tree"
if v == "new":
    import app.c
    assert app.c.VERSION == v and len(app.c.TABLE) == 9000
print("FW %s ok" % v)
"""


def write_tree(root, version):
    files = {"main.py": MAIN, "app/__init__.py": "",
             "app/a.py": "VERSION = %r\n" % version + "# padding a\n" * 60,
             "app/b.py": "VERSION = %r\n" % version + "# padding b\n" * 60}
    if version == "old":
        files["app/legacy.py"] = "X = 1\n"
    else:
        # big and poorly compressible: many flow-control windows of raw bytes
        files["app/c.py"] = "VERSION = 'new'\nTABLE = %r\n" % [(i * 7919) % 10007 for i in range(9000)]
    for rel, text in files.items():
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
    shutil.copy(os.path.join(FIRMWARE, "boot.py"), os.path.join(root, "boot.py"))
    return build_tree(root)


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    return make_world(tmp_path_factory, None)


@pytest.fixture(scope="module")
def packed_world(tmp_path_factory):
    return make_world(tmp_path_factory, "pack")


@pytest.fixture(scope="module")
def repacked_world(tmp_path_factory):
    return make_world(tmp_path_factory, "pack", old_layout="files")


def make_world(tmp_path_factory, layout, old_layout=None):
    """Trees old/new, a flash image holding `old`, and the size of a clean old->new deploy;
    layout "pack": the new tree goes into a packed slot (hardware/flashing.md "Packed slots"), the
    old one too unless old_layout says otherwise."""
    base = tmp_path_factory.mktemp("interrupt")
    old = write_tree(str(base / "old"), "old")
    new = write_tree(str(base / "new"), "new")
    template = str(base / "template")
    board = SimBoard(template, link=str(base / "t.tty"))
    board.start()
    with Transport(board.device) as t:
        if old_layout == "files":  # a board flashed before packed slots: its loader too
            Deployer(t).deploy(old, reset=False, layout="files", loader=OLD_LOADER)
        else:
            Deployer(t).deploy(old, reset=False, layout=layout)
    board.stop()
    probe = str(base / "probe")
    shutil.copytree(template, probe)
    board = SimBoard(probe, link=str(base / "p.tty"))
    board.start()
    board.wait_idle()
    start, ops0 = board.rx_count, board.flash_ops
    with Transport(board.device) as t:
        Deployer(t).deploy(new, reset=False, layout=layout)
    board.wait_idle()
    total, ops = board.rx_count - start, board.flash_ops - ops0
    board.stop()
    return {"base": base, "old": old, "new": new, "template": template, "bytes": total, "ops": ops,
            "n": [0], "layout": layout}


def boot(board):
    return boot_output(board, idle_s=1.0, faults=Faults())


def interrupted_deploy(world, faults, timeout_s=3.0):
    """Deploy old->new under `faults`; returns (what the board boots afterwards, completed?).
    A reset or power cut shows at once (the boot banner); only a cut link needs the deadline."""
    world["n"][0] += 1
    flash_dir = str(world["base"] / ("run%d" % world["n"][0]))
    shutil.copytree(world["template"], flash_dir)
    board = SimBoard(flash_dir, link=flash_dir + ".tty", faults=faults)
    board.start()
    try:
        board.wait_idle()
        completed = True
        try:
            with Transport(board.device, timeout_s=timeout_s) as t:
                Deployer(t, work_timeout_s=timeout_s).deploy(world["new"], reset=False, layout=world["layout"])
        except FeltError:
            completed = False
        completed = completed and board.resets == 0
        files = active_files(flash_dir)
        printed = boot(board)
        if files == world["old"].files:
            assert "FW old ok" in printed, printed
            booted = "old"
        else:
            assert files == world["new"].files, "a mix: %s" % sorted(files)
            assert "FW new ok" in printed, printed
            booted = "new"
        if completed:
            assert booted == "new"
        # Whatever the interruption left behind, the next deploy goes through.
        with Transport(board.device) as t:
            Deployer(t).deploy(world["new"], reset=False, layout=world["layout"])
        assert active_files(flash_dir) == world["new"].files
        return booted, completed
    finally:
        board.stop()
        shutil.rmtree(flash_dir, ignore_errors=True)


def op_numbers(total):
    """Every operation with FELT_LONG_SWEEP=1; else all of the first and last dozen (staging,
    loader, commit: where the order of renames matters) and 16 spread over the file writes."""
    if LONG:
        return list(range(1, total + 2))
    step = max(1, (total - 24) // 16)
    return sorted(set(range(1, 13)) | set(range(13, total - 12, step)) | set(range(max(1, total - 12), total + 2)))


def test_power_cut_at_flash_operations_boots_old_or_new(world):
    assert world["ops"] > 30
    seen = set()
    for op in op_numbers(world["ops"]):
        booted, completed = interrupted_deploy(world, Faults(powercut_at_op=op))
        seen.add(booted)
        assert completed == (op > world["ops"])   # the last point cuts nothing: the deploy completes
    assert seen == {"old", "new"}


@pytest.mark.parametrize("which", ["pack to pack", "files to pack"])
def test_power_cut_at_flash_operations_of_a_packed_deploy_boots_old_or_new(packed_world, repacked_world, which):
    # the same sweep for packed slots (a 2 MB Pico's layout): each slot is one pack file that
    # boot.py mounts; the old slot must stay bootable until the pointer names the new one. "files
    # to pack": a Pico flashed before packed slots (one slot of plain files, the loader of then:
    # tests/host/loader_before_packs.py) gets its first pack and the new loader
    world = packed_world if which == "pack to pack" else repacked_world
    assert world["ops"] > 30
    assert os.path.exists(os.path.join(world["template"], "felt_a", "pack")) == (which == "pack to pack")
    with open(os.path.join(world["template"], "boot.py")) as f:
        assert ("PackFS" in f.read()) == (which == "pack to pack")
    seen = set()
    for op in op_numbers(world["ops"]):
        booted, completed = interrupted_deploy(world, Faults(powercut_at_op=op))
        seen.add(booted)
        assert completed == (op > world["ops"])
    assert seen == {"old", "new"}


def byte_offsets(total):
    if LONG:
        return sorted(set(range(1, total, 97)) | set(range(max(1, total - 80), total + 1)))
    step = max(1, total // 16)
    return sorted(set(range(1, total, step)) | set(range(max(1, total - 40), total + 1, 5)))


def test_reset_at_many_byte_offsets_boots_old_or_new(world):
    seen = set()
    for at in byte_offsets(world["bytes"]):
        booted, _ = interrupted_deploy(world, Faults(reset_at=at))
        seen.add(booted)
    assert seen == {"old", "new"}


def test_link_cut_at_byte_offsets_then_replug_boots_old_or_new(world):
    total = world["bytes"]
    results = [interrupted_deploy(world, Faults(cut_at=at), timeout_s=0.5)[0]
               for at in (5, total // 3, total - 30, total - 3)]
    assert results[0] == "old" and set(results) <= {"old", "new"}


def test_first_flash_of_a_board_with_a_plain_main_py_boots_that_or_the_new_tree(world):
    # A board set up by hand (mpremote cp): /boot.py and /main.py at the root, no slots.
    outcomes = set()
    for op in list(range(1, 400, 23)) + [10 ** 6]:
        world["n"][0] += 1
        flash_dir = str(world["base"] / ("flat%d" % world["n"][0]))
        os.makedirs(flash_dir)
        with open(os.path.join(flash_dir, "main.py"), "w") as f:
            f.write("print('FW flat ok')\n")
        with open(os.path.join(flash_dir, "boot.py"), "w") as f:
            f.write("print('flat boot')\n")
        board = SimBoard(flash_dir, link=flash_dir + ".tty", faults=Faults(powercut_at_op=op))
        board.start()
        try:
            board.wait_idle()
            try:
                with Transport(board.device) as t:
                    Deployer(t).deploy(world["new"], reset=False)
            except FeltError:
                pass
            printed = boot(board)
            assert ("FW flat ok" in printed) != ("FW new ok" in printed), printed
            outcomes.add("flat" if "FW flat ok" in printed else "new")
        finally:
            board.stop()
            shutil.rmtree(flash_dir, ignore_errors=True)
    assert outcomes == {"flat", "new"}


# ---- issue 12 item 4: a signed deploy onto a provisioned board, on the assembled boot path --------
# The whole firmware (mpy), signed (old: counter 1, new: counter 2), deployed in maintenance mode (key
# switch held) onto a provisioned board; the power is cut at each flash operation of the deploy's
# end (the commit: marker, pointer, anti-rollback counter) and at a few before. The board then
# powers up with the key switch released: the real boot.py and main.py must run the table in
# production from a tree the boot check accepts -- never "NOT STARTED" (before the fix the counter
# was raised before the pointer switch: a cut between the two booted the old tree, now older than
# the counter, and it was refused).
SIGNED_BOOTS = b"recovered to event"


def _signed_tree(full, which, owner, counter, configs=()):
    from feltctl.board.deploy import Tree
    from feltctl.board.signing import sign_tree

    files = dict(full.files)
    files["which.txt"] = which.encode()
    return sign_tree(Tree(files), "table1", owner, "1.0.%d" % counter, counter, configs)


def _maintenance_board(flash_dir, faults=None):
    """The board powered on with the key switch held, once main.py has opened the console."""
    board = SimBoard(flash_dir, link=flash_dir + ".tty", faults=faults, capacity=8 * 1024 * 1024, heap="4M")
    board.key_switch = True
    board.start()
    out = read_until(board, [b"maintenance mode", b"NOT STARTED", b">>> "], 90)
    assert "maintenance mode" in out, out[-2000:]
    # the maintainer stops the table (Ctrl-C until the prompt: one that lands in a collection of
    # the unix port's heap can kill the simulated interpreter, which then boots again)
    import serial
    import time

    ser = serial.serial_for_url(board.device, timeout=0.1)
    data = b""
    end = time.monotonic() + 90
    while time.monotonic() < end and not data.endswith(b">>> "):
        ser.write(b"\x03")
        data += ser.read(512)
    ser.close()
    assert data.endswith(b">>> "), data[-2000:]
    board.wait_idle()
    return board


@pytest.fixture(scope="module")
def signed_world(tmp_path_factory):
    import json

    from feltctl.board.signing import KeyStore
    from feltctl.cli import main as feltctl
    from feltctl.paths import REPO

    base = tmp_path_factory.mktemp("signed_interrupt")
    template = str(base / "template")
    board = SimBoard(template, link=str(base / "t.tty"), capacity=8 * 1024 * 1024, heap="4M")
    board.start()
    try:
        board.wait_idle()
        keys = str(base / "keys")
        assert feltctl(["provision", board.device, "--device", "table1", "--floor", "alice", "--keys", keys]) == 0
        owner = KeyStore(keys).release_signer("table1")  # the release key (issue 16)
        with open(os.path.join(REPO, "hardware", "boards", "pico.json")) as f:
            data = json.load(f)
        data["hal"] = "sim"
        with open(os.path.join(template, "board.json"), "w") as f:
            json.dump(data, f)
        full = build_tree(FIRMWARE, mpy=True)
        from feltctl.board.signing import config_entries
        configs = config_entries([os.path.join(template, "board.json")])  # the board map is signed (issue 16 item 2)
        old, new = _signed_tree(full, "old", owner, 1, configs), _signed_tree(full, "new", owner, 2, configs)
        with Transport(board.device, timeout_s=20) as t:
            Deployer(t, work_timeout_s=20).deploy(old, reset=False)
    finally:
        board.stop()
    probe = str(base / "probe")
    shutil.copytree(template, probe)
    board = _maintenance_board(probe)
    try:
        ops0 = board.flash_ops
        with Transport(board.device, timeout_s=20) as t:
            Deployer(t, work_timeout_s=20).deploy(new, reset=False)
        board.wait_idle()
        ops = board.flash_ops - ops0
    finally:
        board.stop()
    return {"base": base, "template": template, "old": old, "new": new, "ops": ops, "n": [0]}


def _signed_cut(world, op):
    world["n"][0] += 1
    flash_dir = str(world["base"] / ("run%d" % world["n"][0]))
    shutil.copytree(world["template"], flash_dir)
    board = _maintenance_board(flash_dir)
    try:
        # counted from the interpreter the deploy's soft reset starts: operation `op` of the deploy
        board.faults = Faults(powercut_at_op=op)
        try:
            with Transport(board.device, timeout_s=20) as t:
                Deployer(t, work_timeout_s=20).deploy(world["new"], reset=False)
        except FeltError:
            pass  # the power went
        board.key_switch = False
        board.power_cycle(Faults())
        out = read_until(board, [SIGNED_BOOTS, b"NOT STARTED", b">>> "], 90)
        files = active_files(flash_dir)
        booted = files.get("which.txt", b"?").decode()
        assert "NOT STARTED" not in out and SIGNED_BOOTS.decode() in out, (op, booted, out[-1500:])
        assert "production mode" in out, out[-1500:]
        assert files in (world["old"].files, world["new"].files), (op, sorted(files))
        return booted
    finally:
        board.stop()
        shutil.rmtree(flash_dir, ignore_errors=True)


def commit_cuts(total):
    """The deploy ends with three atomic writes (open .tmp, write, rename): the slot's marker, the
    pointer, the anti-rollback counter. One cut in each write, both renames that decide, the
    very last operation and none at all, and one in the middle of staging; every operation with
    FELT_LONG_SWEEP=1."""
    if LONG:
        return list(range(1, total + 2))
    return [total // 2, total - 7, total - 3, total - 2, total - 1, total, total + 1]


@pytest.mark.timeout(1200)
def test_power_cut_in_a_signed_deploy_always_boots_an_accepted_tree_in_production(signed_world):
    total = signed_world["ops"]
    assert total > 30
    ops = commit_cuts(total)
    seen = set()
    for op in ops:
        seen.add(_signed_cut(signed_world, op))
    assert seen == {"old", "new"}, seen
