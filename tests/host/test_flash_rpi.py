# hardware/raspberry-pi/install.sh in a staged root (DESTDIR, no systemd): releases side by side,
# `current` switched atomically, the previous release kept for --rollback, the unit installed.
import os
import shutil
import subprocess

from feltctl.paths import REPO

PI = os.path.join(REPO, "hardware", "raspberry-pi")


def fake_repo(tmp_path, main_text):
    repo = tmp_path / "repo"
    if not repo.exists():
        shutil.copytree(PI, repo / "hardware" / "raspberry-pi")
        (repo / "firmware").mkdir()
    (repo / "firmware" / "main.py").write_text(main_text)
    return repo


def install(repo, root, *args):
    out = subprocess.run(["sh", str(repo / "hardware" / "raspberry-pi" / "install.sh"), "--no-systemd"] + list(args),
                         env=dict(os.environ, DESTDIR=str(root)), capture_output=True, text=True, timeout=60)
    return out


def current_main(root):
    return (root / "opt" / "felt" / "current" / "firmware" / "main.py").read_text()


def test_install_update_and_rollback(tmp_path):
    root = tmp_path / "root"
    repo = fake_repo(tmp_path, "print('v1')\n")
    first = install(repo, root)
    assert first.returncode == 0, first.stderr
    assert current_main(root) == "print('v1')\n"
    unit = (root / "etc" / "systemd" / "system" / "felt.service").read_text()
    assert "ExecStart=/opt/felt/venv/bin/python /opt/felt/current/firmware/main.py" in unit
    assert "already current" in install(repo, root).stdout
    fake_repo(tmp_path, "print('v2')\n")
    assert install(repo, root).returncode == 0
    assert current_main(root) == "print('v2')\n"
    assert os.path.islink(root / "opt" / "felt" / "current")
    back = install(repo, root, "--rollback")
    assert back.returncode == 0 and "rolled back" in back.stdout
    assert current_main(root) == "print('v1')\n"
    assert install(repo, root, "--rollback").returncode == 0     # and forward again
    assert current_main(root) == "print('v2')\n"
    assert len(os.listdir(root / "opt" / "felt" / "releases")) == 2


def test_rollback_without_a_previous_release_fails_clearly(tmp_path):
    repo = fake_repo(tmp_path, "print('v1')\n")
    install(repo, tmp_path / "root")
    out = install(repo, tmp_path / "root", "--rollback")
    assert out.returncode == 1 and "no previous release" in out.stderr
