# Issue 18 item 2: plain `feltctl flash` filled a 2 MB Pico with one slot (the .py tree, simulator
# modules included, ~1 MB on the flash): no room for the second slot a safe deploy needs. Now it
# ships .mpy by default and only what the board runs, and refuses up front, with the numbers, a
# deploy that cannot fit. The two-slot test uses the simulated board's 2 MB flash (`feltctl
# simboard`'s default, where the issue was found). NOT MET on a real Pico: its MicroPython file
# system on the 2 MB chip is 1408 KB (ports/rp2/boards/RPI_PICO/mpconfigboard.h), and today's
# firmware takes ~737 KB a slot in 4 KB blocks (114 files, 390 KB of .mpy) -- there the deploy is
# refused up front with the numbers (the last test shows the refusal).
import ast
import os
import shutil

import pytest

from feltctl.board.deploy import NOT_ON_A_BOARD, SIM_HAL, build_tree, for_board
from feltctl.board_sim.simboard import SimBoard
from feltctl.cli import main as feltctl
from feltctl.paths import FIRMWARE, REPO

TWO_MB = 2 * 1024 * 1024


@pytest.fixture(scope="module")
def mpy_tree():
    return build_tree(FIRMWARE, mpy=True)


def test_a_pico_gets_only_the_modules_it_runs_and_the_simulated_board_the_sim_hal_too(mpy_tree):
    pico, sim = for_board(mpy_tree, "rp2"), for_board(mpy_tree, "linux")
    assert any(rel.startswith("felt/sim/") for rel in mpy_tree.files)  # the repository has them
    for rel in pico.files:
        assert not rel.startswith(NOT_ON_A_BOARD + (SIM_HAL,)), rel
        assert rel in ("boot.py", "main.py", "felt/__init__.py") or rel.endswith(".mpy"), rel
    assert [rel for rel in sim.files if rel.startswith(NOT_ON_A_BOARD)] == []
    assert "felt/hal/sim/hal.mpy" in sim.files and "felt/deploy_agent.mpy" in pico.files
    assert pico.size < 0.95 * mpy_tree.size, (pico.size, mpy_tree.size)


def _imports(path):
    tree = ast.parse(open(path).read())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                yield a.name
        elif isinstance(node, ast.ImportFrom) and node.module:
            yield node.module
            for a in node.names:
                yield node.module + "." + a.name


def test_no_module_a_board_gets_imports_one_it_does_not_get(mpy_tree):
    left_out = [p.rstrip("/.").replace("/", ".") for p in NOT_ON_A_BOARD + (SIM_HAL,)]
    for rel in for_board(mpy_tree, "rp2").files:
        src = os.path.join(FIRMWARE, rel[:-4] + ".py" if rel.endswith(".mpy") else rel)
        if not src.endswith(".py"):
            continue
        for name in _imports(src):
            hit = [m for m in left_out if name == m or name.startswith(m + ".")]
            # felt.runtime.app.open_hal imports the one HAL board.json names (a Pico: machine)
            if hit and rel == "felt/runtime/app.mpy" and hit[0] in ("felt.hal.sim", "felt.hal.rpi_hal"):
                continue
            assert not hit, "%s imports %s, which a board does not get" % (rel, name)


def _sim_board_json(flash):
    import json

    with open(os.path.join(REPO, "hardware", "boards", "pico.json")) as f:
        data = json.load(f)
    data["hal"] = "sim"
    os.makedirs(flash, exist_ok=True)
    with open(os.path.join(flash, "board.json"), "w") as f:
        json.dump(data, f)


def _edited_firmware(tmp_path):
    src = str(tmp_path / "fw2")
    shutil.copytree(FIRMWARE, src, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "felt.manifest"))
    with open(os.path.join(src, "felt", "view.py"), "a") as f:
        f.write("NEXT_RELEASE = 1\n")  # code, not a comment: the .mpy changes too
    return src


def _board(tmp_path, capacity):
    """A simulated board with a sim-HAL board map, its key switch held (the console stays open
    once main.py runs the table after the first deploy)."""
    flash = str(tmp_path / "flash")
    _sim_board_json(flash)
    board = SimBoard(flash, link=str(tmp_path / "b.tty"), capacity=capacity)
    board.key_switch = True
    board.start()
    return flash, board


def test_plain_flash_fits_two_slots_on_a_2_mb_board(tmp_path, capsys):
    flash, board = _board(tmp_path, TWO_MB)
    try:
        board.wait_idle()
        assert feltctl(["flash", board.device, "--timeout", "10"]) == 0, capsys.readouterr().err
        assert feltctl(["flash", board.device, "--src", _edited_firmware(tmp_path), "--timeout", "10"]) == 0, \
            capsys.readouterr().err
        capsys.readouterr()
        assert feltctl(["info", board.device, "--timeout", "10"]) == 0
        info = capsys.readouterr().out
        assert "active slot  b" in info and "rollback     slot a" in info, info
        assert not os.path.exists(os.path.join(flash, "felt_a", "felt", "sim"))
    finally:
        board.stop()


def test_a_deploy_that_cannot_fit_is_refused_up_front_with_the_numbers(tmp_path, capsys):
    flash, board = _board(tmp_path, 1024 * 1024)
    try:
        board.wait_idle()
        assert feltctl(["flash", board.device, "--timeout", "10"]) == 0, capsys.readouterr().err
        capsys.readouterr()
        assert feltctl(["flash", board.device, "--src", _edited_firmware(tmp_path), "--timeout", "10"]) == 1
        err = capsys.readouterr().err
        assert "flash is full for this firmware" in err and "nothing was written" in err, err
        assert " bytes short" in err and "the staging slot needs " in err, err
        assert not os.path.exists(os.path.join(flash, "felt_b"))  # refused before stage()
        assert open(os.path.join(flash, "felt.slot")).read().strip() == "a"
    finally:
        board.stop()
