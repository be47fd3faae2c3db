# The feltctl command table (host tools, feltctl/cli.py): every command module is listed, a run
# imports only the module of its command, an unknown command is one line, and a FeltError out of
# any command is reported once by cli.main as "feltctl CMD: error: ..." with exit 1.
import os
import subprocess
import sys

from feltctl import cli
from feltctl.paths import REPO

COMMANDS_DIR = os.path.join(REPO, "host_tools", "feltctl", "commands")


def feltctl(*argv, code=None):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.path.join(REPO, "host_tools") + os.pathsep + os.path.join(REPO, "firmware")
    argv = ["-c", code] + list(argv) if code else ["-m", "feltctl"] + list(argv)
    return subprocess.run([sys.executable] + argv, capture_output=True, text=True, env=env, cwd=REPO, timeout=120)


def test_the_table_lists_every_command_module_and_nothing_else():
    files = sorted(f[:-3] for f in os.listdir(COMMANDS_DIR) if f.endswith(".py") and not f.startswith("_"))
    assert sorted(m.rsplit(".", 1)[1] for m in cli.COMMANDS.values()) == files
    for name, module in cli.COMMANDS.items():
        assert module == "feltctl.commands." + name.replace("-", "_")


def test_a_run_imports_only_its_own_command():
    # discovery imported all 16 command modules (and what they import) on every run
    code = ("import sys; from feltctl import cli; status = cli.main(sys.argv[1:]); "
            "print(sorted(m for m in sys.modules if m.startswith('feltctl.commands.'))); print(status)")
    out = feltctl("info", "/dev/no-such-felt-port", code=code)
    assert out.stdout.split("\n")[:2] == ["['feltctl.commands.info']", "1"], (out.stdout, out.stderr)


def test_help_lists_every_command_and_each_command_has_its_help():
    out = feltctl("--help")
    assert out.returncode == 0, out.stderr
    for name in cli.COMMANDS:
        assert "\n    %s" % name in out.stdout, name
    for name in cli.COMMANDS:
        sub = feltctl(name, "--help")
        assert sub.returncode == 0 and sub.stdout.startswith("usage: feltctl %s " % name), (name, sub.stderr)


def test_an_unknown_command_is_one_line_and_exit_2():
    out = feltctl("replya", "x.phh")
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr == ("feltctl: unknown command 'replya' (did you mean 'replay'?); "
                          "`feltctl --help` lists the commands\n"), out.stderr
    out = feltctl("zzz")
    assert out.returncode == 2 and out.stderr.count("\n") == 1 and "unknown command 'zzz'" in out.stderr


def test_a_felt_error_from_any_command_is_one_line_from_cli_main(monkeypatch, capsys):
    from felt.errors import FeltError
    from feltctl.commands import info

    def broken(args):
        raise FeltError("the board said no")

    monkeypatch.setattr(info, "run", broken)
    assert cli.main(["info", "/dev/null"]) == 1
    err = capsys.readouterr().err
    assert err == "feltctl info: error: the board said no\n", err


def test_no_port_is_one_error_line_exit_1():
    out = feltctl("info", "/dev/no-such-felt-port")
    assert out.returncode == 1, out.stderr
    assert out.stderr.startswith("feltctl info: error: no serial port /dev/no-such-felt-port")
    assert out.stderr.count("\n") == 1 and "Traceback" not in out.stderr
