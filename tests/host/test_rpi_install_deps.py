# hardware/raspberry-pi/install.sh builds the Pi service's venv: every library the firmware imports
# under CPython on the Pi must be in its pip line. It lacked RPi.GPIO, which felt.hal.rpi_hal imports
# for every pin, so the installed service could not start (found in issue 18's fresh-user trial).
import ast
import os
import re
import sys

from feltctl.paths import REPO

# modules a MicroPython board has built in (never on the Pi's CPython path)
MICROPYTHON_ONLY = {"deflate", "framebuf", "machine", "micropython", "neopixel", "rp2", "uctypes", "vfs"}
# import name -> the PyPI package that provides it
PACKAGE = {"RPi": "RPi.GPIO", "serial": "pyserial", "paho": "paho-mqtt"}


def firmware_imports():
    found = {}
    for root, _dirs, files in os.walk(os.path.join(REPO, "firmware")):
        for name in files:
            if not name.endswith(".py"):
                continue
            path = os.path.join(root, name)
            with open(path) as f:
                tree = ast.parse(f.read())
            for node in ast.walk(tree):
                names = []
                if isinstance(node, ast.Import):
                    names = [a.name for a in node.names]
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    names = [node.module]
                for m in names:
                    top = m.split(".")[0]
                    if top != "felt" and top not in sys.stdlib_module_names and top not in MICROPYTHON_ONLY:
                        found.setdefault(PACKAGE.get(top, top), path)
    return found


def install_packages():
    with open(os.path.join(REPO, "hardware", "raspberry-pi", "install.sh")) as f:
        text = f.read()
    lines = re.findall(r'venv/bin/pip" install (.*)', text)
    assert len(lines) == 1, lines
    return set(w for w in lines[0].split() if not w.startswith("-"))


def test_the_pi_venv_installs_every_library_the_firmware_imports():
    needed = firmware_imports()
    assert {"RPi.GPIO", "spidev", "pyserial"} <= set(needed), needed  # the scan sees the Pi HAL's imports
    missing = sorted(set(needed) - install_packages())
    assert missing == [], ["%s (imported by %s)" % (m, os.path.relpath(needed[m], REPO)) for m in missing]
