# Every file under firmware/ must compile with mpy-cross (as it will be flashed) and must not
# import modules that MicroPython lacks.
import os
import re
import subprocess

import pytest

from feltctl.paths import FIRMWARE, mpy_cross_binary

FORBIDDEN = re.compile(
    r"^\s*(from|import)\s+(dataclasses|enum|typing|itertools|functools|abc|pathlib|subprocess|threading|logging|argparse)\b",
    re.M,
)


def firmware_files():
    for root, _dirs, files in os.walk(FIRMWARE):
        for f in sorted(files):
            if f.endswith(".py"):
                yield os.path.relpath(os.path.join(root, f), FIRMWARE)


@pytest.mark.parametrize("rel", sorted(firmware_files()))
def test_compiles_with_mpy_cross(rel, tmp_path):
    out = subprocess.run(
        [mpy_cross_binary(), "-o", str(tmp_path / "x.mpy"), os.path.join(FIRMWARE, rel)],
        capture_output=True, text=True, timeout=60,
    )
    assert out.returncode == 0, out.stderr


@pytest.mark.parametrize("rel", sorted(firmware_files()))
def test_no_cpython_only_imports(rel):
    with open(os.path.join(FIRMWARE, rel)) as f:
        text = f.read()
    hits = [m.group(0).strip() for m in FORBIDDEN.finditer(text)]
    assert not hits, hits
