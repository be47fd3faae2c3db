# `feltctl replay`: replay PHH hand histories through the Felt engine and print JSON -- on the host
# (CPython) or inside the MicroPython unix port as the emulated board: firmware in a ROMFS image,
# 128 KB of RAM beside it (feltctl.board.romfs, hardware/memory.md). Both runtimes run the same module,
# felt.history.replay_main, and print byte-identical lines.
import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading

from feltctl import tmpcache
from feltctl.board import romfs
from feltctl.paths import FIRMWARE, micropython_binary, mpy_cross_binary
from feltctl.paths import expand as paths_expand

HELP = "replay PHH hand histories and blackjack round histories (.bjh) with the Felt engine (JSON out)"
SUFFIXES = (".phh", ".phhs", ".bjh")
# Files per run of the emulated board: one, as a table replays one history at a time. Measured on
# the PHH corpus: every file alone fits 138 KB, but 4 or 16 files in one run fragment the heap so
# that some need more (hardware/memory.md); a fresh board per file costs ~70 ms.
BOARD_FILES = 1


MIN_HEAP = 8 * 1024  # below ~4 KB the interpreter cannot even start; 8K leaves it room to say MemoryError


def heap_size(text):
    """argparse type of --ram/--heapsize: the -X heapsize syntax (digits, optional K or M), kept as
    text; a usage error (exit 2) instead of a traceback from the size parser or the interpreter."""
    try:
        size = romfs.parse_size(text)
    except ValueError:
        raise argparse.ArgumentTypeError("%r is not a size (digits with an optional K or M, e.g. 128K)" % text)
    if size < MIN_HEAP:
        raise argparse.ArgumentTypeError("%r is too small (at least %dK)" % (text, MIN_HEAP // 1024))
    return text


def add_arguments(parser):
    parser.add_argument("paths", nargs="+", metavar="FILE_OR_DIR", help=".phh/.phhs/.bjh files or folders of them")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--json", action="store_true", help="one file, one JSON object (the default)")
    mode.add_argument("--jsonl", action="store_true", help="many files, one JSON object a line, each with `file`")
    parser.add_argument("--runtime", choices=("cpython", "micropython", "wasm"), default="cpython",
                        help="run the replay here, inside the MicroPython unix port (64-bit, the emulated board), "
                             "or inside the 32-bit MicroPython WebAssembly port (wasm: firmware from ROMFS; "
                             "hardware/memory.md)")
    parser.add_argument("--ram", default="128K", type=heap_size,
                        help="micropython: the emulated board's RAM beside the firmware's ROMFS image (default 128K); "
                             "wasm: the heap it starts with (it grows: the port collects only between calls)")
    parser.add_argument("--write", metavar="OUT.bjh", default=None,
                        help="blackjack: write the history again from the replayed rounds (hardware/blackjack-history.md)")
    parser.add_argument("--heapsize", default=None, type=heap_size,
                        help="micropython: load plain .mpy files into a heap of this size instead (code in RAM)")


def expand(paths):
    """Files as given, folders walked (sorted) for .phh/.phhs files."""
    return paths_expand(paths, SUFFIXES)


_COMPILING = threading.Lock()


def compiled_firmware():
    """The felt package precompiled with mpy-cross into a cache folder (keyed by the sources'
    hash), so the MicroPython heap holds bytecode, not the compiler's work. Returns its path."""
    digest = hashlib.sha256()
    sources = []
    for root, dirs, files in os.walk(os.path.join(FIRMWARE, "felt")):
        dirs.sort()
        for f in sorted(files):
            if f.endswith(".py"):
                path = os.path.join(root, f)
                sources.append(path)
                with open(path, "rb") as fh:
                    digest.update(path.encode() + b"\0" + fh.read())
    out = os.path.join(tempfile.gettempdir(), "felt-mpy-" + digest.hexdigest()[:16])
    if os.path.isdir(out):
        tmpcache.touch(out)
        return out
    with _COMPILING:  # threads of one process (feltctl bench -j) build it once
        if not os.path.isdir(out):
            _compile(sources, out)
    tmpcache.prune(tempfile.gettempdir(), "felt-mpy-")  # trees of older sources
    return out


def _compile(sources, out):
    # into a folder of this process and thread, renamed into place: the half-built tree of one
    # builder is never another's (two threads shared "<out>.<pid>" and one renamed it away while
    # the other wrote into it: a CalledProcessError traceback from `feltctl bench -j 3`)
    tmp = out + ".%d.%d" % (os.getpid(), threading.get_ident())
    try:
        for path in sources:
            rel = os.path.relpath(path, FIRMWARE)
            target = os.path.join(tmp, rel[:-3] + ".mpy")
            os.makedirs(os.path.dirname(target), exist_ok=True)
            subprocess.run([mpy_cross_binary(), "-o", target, "-s", rel, path], check=True,
                           capture_output=True, cwd=FIRMWARE)
        try:
            os.rename(tmp, out)
        except OSError:  # another process made it first: use theirs
            pass
    finally:  # the loser's (or an interrupted) half-built copy never stays in /tmp
        shutil.rmtree(tmp, ignore_errors=True)


def run_micropython(module, argv, heapsize="128K", timeout_s=600, stream=False):
    """Runs `micropython -m module argv...` on the precompiled firmware; returns CompletedProcess.
    stream: its output goes straight to ours as it comes, with no time limit (a long run the user
    watches and can stop with Ctrl-C), instead of being captured."""
    env = dict(os.environ)
    env["MICROPYPATH"] = compiled_firmware()
    cmd = [micropython_binary(), "-X", "heapsize=" + heapsize, "-m", module] + list(argv)
    if stream:
        return _streamed(cmd, env)
    return subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout_s)


def _streamed(cmd, env):
    # the child's lines pass through our stdout as they come: a reader that closes the pipe
    # (`feltctl demo | head`) is then our BrokenPipeError, reported once by the cli -- the child
    # writing to the pipe itself died of it with a MicroPython traceback ("OSError: 32")
    sys.stdout.flush()
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE)
    try:
        for line in proc.stdout:
            sys.stdout.write(line.decode(errors="replace"))
            sys.stdout.flush()
        return subprocess.CompletedProcess(cmd, proc.wait())
    finally:
        if proc.poll() is None:  # we stopped reading (closed pipe, Ctrl-C): so does the child
            proc.kill()
            proc.wait()
        proc.stdout.close()


def run_board(module, argv, ram="128K", timeout_s=600):
    """Runs `module`'s main(argv) on the emulated board: the firmware's ROMFS image mounted in
    'flash', `ram` of heap beside it (feltctl.board.romfs); returns CompletedProcess. Runs in the caller's
    folder (not romfs.run's firmware/), so a relative file name is read where the user typed it."""
    return subprocess.run(romfs.command(module, argv, ram=romfs.parse_size(ram)), capture_output=True,
                          text=True, timeout=timeout_s)


def run_wasm(files, mode, heap, timeout_s=600):
    """Replays on the 32-bit WebAssembly port (feltctl.wasm_micropython), one run a file like the
    board: the firmware's ROMFS image as its ROM partition, the file copied into its file system at
    the same path, the caller's folder as its working folder. A file the host cannot read is
    reported by the same firmware function here (the host is what reads files for this port; the
    port's OSError carries its C library's errno numbers, not MicroPython's)."""
    from felt.history import replay_main
    from feltctl import wasm_micropython

    rc = 0
    for path in files:
        text, err = replay_main.read_text(path)
        if err is not None:
            rc = max(rc, replay_main.run([path], mode, sys.stdout.write))
            continue
        out = wasm_micropython.run("felt.history.replay_main", [mode, path], timeout_s=timeout_s, heap=heap,
                                   romfs=romfs.build_image(), copy=[(path, os.path.abspath(path))], cwd=os.getcwd())
        sys.stdout.write(out.stdout)
        if out.returncode not in (0, 1) or (out.returncode and out.stderr.strip()):
            last = out.stderr.strip().splitlines()[-1] if out.stderr.strip() else "exit %d" % out.returncode
            where = {"runtime": "wasm", "error": "micropython failed: " + last, "file": path}
            sys.stdout.write(json.dumps(where, sort_keys=True, separators=(",", ":")) + "\n")
            sys.stderr.write(out.stderr)
            rc = 2
            continue
        rc = max(rc, out.returncode)
    return rc


def write_blackjack(files, out):
    """--write: the one .bjh file re-written by the engine (felt.history.blackjack.rewrite_text)."""
    from felt.history import blackjack, replay_main

    if len(files) != 1 or not files[0].endswith(".bjh"):
        sys.stdout.write('{"error":"--write re-writes exactly one .bjh file"}\n')
        return 2
    text, err = replay_main.read_text(files[0])
    if err is not None:
        sys.stdout.write(json.dumps(err, sort_keys=True, separators=(",", ":")) + "\n")
        return 1
    again = blackjack.rewrite_text(text)
    try:
        with open(out, "w") as f:
            f.write(again)
    except OSError as e:  # a read-only folder, a file in the way: said, no traceback
        sys.stderr.write("feltctl replay: error: --write %s: %s\n" % (out, e.strerror or e))
        return 1
    return 1 if "\n# error: " in again else 0


def run(args):
    mode = "--jsonl" if args.jsonl else "--json"
    files = expand(args.paths)
    empty = [p for p in args.paths if os.path.isdir(p) and not expand([p])]
    for p in empty:  # a folder with nothing to replay is said, never an empty success
        sys.stderr.write("feltctl replay: error: %s holds no %s files\n" % (p, "/".join(SUFFIXES)))
    if empty:
        sys.stdout.write("".join(json.dumps({"error": "no %s files in the folder" % "/".join(SUFFIXES), "file": p},
                                            sort_keys=True, separators=(",", ":")) + "\n" for p in empty))
        if not files:
            return 2
    rc = _run(args, mode, files)
    return max(rc, 1) if empty else rc


def _run(args, mode, files):
    if args.write:
        return write_blackjack(files, args.write)
    if mode == "--json" and len(files) != 1:
        sys.stdout.write('{"error":"--json replays exactly one file; use --jsonl for %d"}\n' % len(files))
        return 2
    if args.runtime == "wasm":
        return run_wasm(files, mode, romfs.parse_size(args.ram))
    if args.runtime == "micropython":
        if args.heapsize:
            chunks = [files]
        else:  # the board replays BOARD_FILES files a run (its sys.argv is RAM too)
            chunks = [files[i:i + BOARD_FILES] for i in range(0, len(files), BOARD_FILES)] or [[]]
        rc = 0
        for chunk in chunks:
            if args.heapsize:
                out = run_micropython("felt.history.replay_main", [mode] + chunk, args.heapsize)
            else:
                out = run_board("felt.history.replay_main", [mode] + chunk, args.ram)
            sys.stdout.write(out.stdout)
            if out.returncode not in (0, 1) or (out.returncode and out.stderr.strip()):
                # the interpreter itself failed (e.g. MemoryError while importing the engine)
                last = out.stderr.strip().splitlines()[-1] if out.stderr.strip() else "exit %d" % out.returncode
                where = {"heapsize": args.heapsize} if args.heapsize else {"ram": args.ram}
                where["error"] = "micropython failed: " + last
                if len(chunk) == 1 and not args.heapsize:
                    where["file"] = chunk[0]
                sys.stdout.write(json.dumps(where, sort_keys=True, separators=(",", ":")) + "\n")
                sys.stderr.write(out.stderr)
                if args.heapsize:
                    return 2
                rc = 2  # the board's failure on one file: the other files still replay
                continue
            rc = max(rc, out.returncode)
        return rc

    from felt.history import replay_main

    return replay_main.run(files, mode, sys.stdout.write)
