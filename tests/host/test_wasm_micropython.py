# The second MicroPython runtime (issue 19 item 1): the 32-bit WebAssembly port from npm, run under
# node by feltctl.wasm_micropython -- the firmware's ROMFS image as its ROM partition, a fixed GC
# heap whose growth is reported as MemoryError, exit statuses, and a deadline on every run.
import subprocess

import pytest

from feltctl import wasm_micropython as wasm
from feltctl.board import romfs

PROBE = '''
import gc, sys

def main(argv):
    print("ARGV %r" % (argv,))
    print("PATH %r" % (sys.path,))
    print("WORD %d" % (sys.maxsize.bit_length() if hasattr(sys.maxsize, "bit_length") else len(bin(sys.maxsize)) - 2))
    if argv and argv[0] == "grow":
        keep = []
        for _i in range(int(argv[1])):
            keep.append(bytearray(1024))
            yield
    elif argv and argv[0] == "garbage":
        for _i in range(int(argv[1])):
            x = [bytearray(1024) for _j in range(8)]  # 8 KB a step, dropped: collected between steps
            yield
    elif argv and argv[0] == "exit":
        raise SystemExit(int(argv[1]))
    elif argv and argv[0] == "raise":
        raise ValueError("BET-7: probe")
    elif argv and argv[0] == "spin":
        while True:
            pass
    elif argv and argv[0] == "modules":
        import binascii, collections, os
        print("MODULES %s %s" % (hasattr(collections, "__file__"), hasattr(binascii, "__file__")))
        print("OS %s %s" % (hasattr(os, "__file__"), os.stat("/")[0] & 0x4000))
        print("HEX %s" % binascii.hexlify(bytes([4, 254])))
        print("TUPLE %r" % (collections.namedtuple("P", "a b")(1, 2),))
    elif argv and argv[0] == "tables":
        from felt.engine.rank import tables, build
        for name in ("RANK_KEY", "SUIT_KEY", "RANK_KEY_A5", "SUIT_KEY_A5"):
            t = getattr(tables, name)
            ok = [t[i] for i in range(53)] == [getattr(build, name)[i] for i in range(53)]
            print("TABLE %s %s %s" % (name, type(t).__name__, ok))
    elif argv and argv[0] == "engine":
        from felt.engine.rank import evaluate
        from felt.engine.cards import parse_cards
        print("RANK %r" % (evaluate.describe(evaluate.high(parse_cards("AsKsQsJsTs9d2c"))),))
    return 0
'''


@pytest.fixture(scope="module")
def probe(tmp_path_factory):
    d = tmp_path_factory.mktemp("wasm_probe")
    (d / "wasm_probe.py").write_text(PROBE)
    return str(d)


def run(probe, argv, timeout_s=120, **kw):
    kw.setdefault("romfs", romfs.build_image())
    return wasm.run("wasm_probe", argv, timeout_s=timeout_s, copy=[(probe, "/probe")],
                    path=["/probe", "/rom", ".frozen"], **kw)


def test_installed_version_is_the_pinned_one_with_vfsrom():
    assert wasm.version() == wasm.VERSION


def test_argv_path_and_a_32_bit_word(probe):
    p = run(probe, ["a", "b c"])
    assert p.returncode == 0, p.stderr
    assert "ARGV ['a', 'b c']" in p.stdout
    assert "PATH ['/probe', '/rom', '.frozen']" in p.stdout
    assert "WORD 31" in p.stdout  # sys.maxsize = 2**31 - 1: a 32-bit port (the unix port says 63)


def test_firmware_runs_from_the_romfs_image(probe):
    p = run(probe, ["engine"])
    assert p.returncode == 0, p.stderr
    assert "RANK" in p.stdout and "flush" in p.stdout.lower()


def test_exit_status_and_exceptions(probe):
    assert run(probe, ["exit", "5"]).returncode == 5
    p = run(probe, ["raise"])
    assert p.returncode == 3
    assert "ValueError: BET-7: probe" in p.stderr


def test_fixed_heap_reports_growth_as_memory_error(probe):
    p = run(probe, ["grow", "200"], heap=64 * 1024, fixed_heap=True)  # 200 KB kept in a 64 KB heap
    assert p.returncode == 3
    assert "MemoryError" in p.stderr


def test_garbage_is_collected_between_steps(probe):
    # 400 KB allocated over 50 steps, 8 KB live at a time: fits a 64 KB heap only because the
    # launcher collects between steps (the port never collects inside a call)
    p = run(probe, ["garbage", "50"], heap=64 * 1024, fixed_heap=True)
    assert p.returncode == 0, p.stderr


def test_every_run_has_a_deadline(probe):
    with pytest.raises(subprocess.TimeoutExpired):
        run(probe, ["spin"], timeout_s=3)


def test_the_board_imports_the_modules_a_pico_has_built_in(probe):
    # the pyscript variant freezes micropython-lib's collections and binascii (Python, RAM) over the
    # port's C modules, which a Pico's MicroPython has built in: the emulated board takes the C ones
    p = run(probe, ["modules"])
    assert p.returncode == 0, p.stderr
    assert "MODULES True True" in p.stdout  # frozen Python packages have a __file__
    assert "OS True 16384" in p.stdout  # and os (micropython-lib's, with os.path and a stat namedtuple)
    p = run(probe, ["modules"], builtins=wasm.BOARD_BUILTINS)
    assert p.returncode == 0, p.stderr
    assert "MODULES False False" in p.stdout
    assert "OS False 16384" in p.stdout
    assert "HEX b'04fe'" in p.stdout and "TUPLE P(a=1, b=2)" in p.stdout
    assert wasm.BOARD_BUILTINS == ("collections", "binascii", "os")


def test_the_ace_to_five_key_tables_are_read_in_place_from_the_image(probe):
    # RAM (hardware/memory.md): the hot key tables are copied into RAM arrays, the ace-to-five ones
    # (razz and A-5 lows only) read in place from the ROMFS image; both the same as build.py's
    p = run(probe, ["tables"])
    assert p.returncode == 0, p.stderr
    assert "TABLE RANK_KEY array True" in p.stdout and "TABLE SUIT_KEY array True" in p.stdout
    assert "TABLE RANK_KEY_A5 struct True" in p.stdout and "TABLE SUIT_KEY_A5 struct True" in p.stdout
