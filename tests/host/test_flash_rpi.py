# hardware/raspberry-pi/install.sh in a staged root (DESTDIR, no systemd): releases side by side,
# `current` switched atomically, the previous release kept for --rollback, the unit installed; on a
# provisioned Pi every release passes the signed-manifest check (felt.security.bootcheck) before
# `current` moves or the service is enabled (a fake `systemctl` on PATH records what would run).
import os
import shutil
import stat
import subprocess
import sys

import pytest

from feltctl.cli import main as feltctl
from feltctl.paths import FIRMWARE, REPO
from feltctl.board.signing import KeyStore

PI = os.path.join(REPO, "hardware", "raspberry-pi")


def fake_repo(tmp_path, main_text):
    repo = tmp_path / "repo"
    if not repo.exists():
        shutil.copytree(PI, repo / "hardware" / "raspberry-pi")
        (repo / "firmware").mkdir()
    (repo / "firmware" / "main.py").write_text(main_text)
    return repo


def install(repo, root, *args, systemd=False, path=None):
    env = dict(os.environ, DESTDIR=str(root), PYTHON=sys.executable)
    if path is not None:
        env["PATH"] = path + os.pathsep + env["PATH"]
    flags = [] if systemd else ["--no-systemd"]
    out = subprocess.run(["sh", str(repo / "hardware" / "raspberry-pi" / "install.sh")] + flags + list(args),
                         env=env, capture_output=True, text=True, timeout=60)
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
    assert "ExecStart=/opt/felt/venv/bin/python -B /opt/felt/current/firmware/main.py" in unit
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


# ---- the signed-manifest check (hardware/security.md section 3, Raspberry Pi) -------------------
CHECKER = ["felt/__init__.py", "felt/errors.py", "felt/security/__init__.py", "felt/security/hmac.py",
           "felt/security/keys.py", "felt/security/manifest.py", "felt/security/bootcheck.py",
           "felt/security/ed25519.py"]


def signed_repo(tmp_path, main_text, store, counter=None, sign=True):
    """A checkout whose firmware/ carries felt.security (the checker) and, when sign, a manifest."""
    repo = fake_repo(tmp_path, main_text)
    for rel in CHECKER:
        dst = repo / "firmware" / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(os.path.join(FIRMWARE, rel), dst)
    manifest = repo / "firmware" / "felt.manifest"
    if manifest.exists():
        manifest.unlink()
    if sign:
        argv = ["sign", "--device", "pi1", "--src", str(repo / "firmware"), "--keys", store.root]
        assert feltctl(argv + (["--counter", str(counter)] if counter is not None else [])) == 0
    return repo


def provisioned(tmp_path):
    """A key store with board pi1 and its key file written by `feltctl provision --out`."""
    store = KeyStore(str(tmp_path / "keys"))
    out = tmp_path / "pi1.keys"
    assert feltctl(["provision", "--device", "pi1", "--floor", "alice", "--keys", store.root,
                    "--out", str(out)]) == 0
    assert stat.S_IMODE(os.stat(out).st_mode) == 0o600
    return store, out


def fake_systemctl(tmp_path):
    """A `systemctl` that records its arguments (no real systemd is touched)."""
    bindir = tmp_path / "bin"
    bindir.mkdir(exist_ok=True)
    tool = bindir / "systemctl"
    tool.write_text("#!/bin/sh\necho \"$*\" >> %s\n" % (tmp_path / "systemctl.log"))
    tool.chmod(0o755)
    return str(bindir)


def systemctl_calls(tmp_path):
    log = tmp_path / "systemctl.log"
    return log.read_text().splitlines() if log.exists() else []


def test_keys_are_installed_root_only_once_and_a_signed_release_is_activated(tmp_path):
    store, keyfile = provisioned(tmp_path)
    root = tmp_path / "root"
    repo = signed_repo(tmp_path, "print('v1')\n", store)
    want = keyfile.read_text()  # device.keys + the Pi's own device key (issue 16)
    assert want.startswith(store.device_text("pi1")) and "\nsign " in want
    out = install(repo, root, "--keys", str(keyfile))
    assert out.returncode == 0, out.stderr
    assert "signed for pi1" in out.stdout and "anti-rollback counter 1" in out.stdout
    etc = root / "etc" / "felt"
    assert stat.S_IMODE(os.stat(etc).st_mode) == 0o700
    assert stat.S_IMODE(os.stat(etc / "felt.keys").st_mode) == 0o600
    assert (etc / "felt.keys").read_text() == want
    assert (etc / "felt.counter").read_text().strip() == "1"
    assert stat.S_IMODE(os.stat(etc / "felt.counter").st_mode) == 0o600
    assert current_main(root) == "print('v1')\n"
    # a second key file is refused; the first stays
    again = install(repo, root, "--keys", str(keyfile))
    assert again.returncode == 1 and "never overwritten" in again.stderr
    # the same release again: checked, not re-activated
    same = install(repo, root)
    assert same.returncode == 0 and "already current" in same.stdout and "signed for pi1" in same.stdout


def test_tampered_unsigned_or_older_release_is_refused_and_the_running_one_stays(tmp_path):
    store, keyfile = provisioned(tmp_path)
    root = tmp_path / "root"
    repo = signed_repo(tmp_path, "print('v1')\n", store)
    assert install(repo, root, "--keys", str(keyfile)).returncode == 0
    releases = sorted(os.listdir(root / "opt" / "felt" / "releases"))

    signed_repo(tmp_path, "print('v2')\n", store)
    (repo / "firmware" / "main.py").write_text("print('evil')\n")  # altered after signing
    out = install(repo, root)
    assert out.returncode == 1
    assert "main.py was altered" in out.stderr and "the running release stays" in out.stderr

    signed_repo(tmp_path, "print('v3')\n", store, sign=False)
    out = install(repo, root)
    assert out.returncode == 1 and "unsigned" in out.stderr

    signed_repo(tmp_path, "print('v4')\n", store)
    (repo / "firmware" / "extra.py").write_text("x = 1\n")  # an unsigned module beside signed ones
    out = install(repo, root)
    assert out.returncode == 1 and "extra.py is not in the signed manifest" in out.stderr
    (repo / "firmware" / "extra.py").unlink()

    signed_repo(tmp_path, "print('v5')\n", store, counter=0)  # below the counter 1 activated
    out = install(repo, root)
    assert out.returncode == 1 and "older than 1 already activated" in out.stderr

    assert current_main(root) == "print('v1')\n"
    assert sorted(os.listdir(root / "opt" / "felt" / "releases")) == releases  # no stage left behind
    assert (root / "etc" / "felt" / "felt.counter").read_text().strip() == "1"


def test_rollback_below_the_activated_counter_is_refused(tmp_path):
    store, keyfile = provisioned(tmp_path)
    root = tmp_path / "root"
    repo = signed_repo(tmp_path, "print('v1')\n", store)             # counter 1
    assert install(repo, root, "--keys", str(keyfile)).returncode == 0
    signed_repo(tmp_path, "print('v2')\n", store)                    # counter 2
    assert install(repo, root).returncode == 0
    out = install(repo, root, "--rollback")
    assert out.returncode == 1
    assert "rollback to" in out.stderr and "older than 2 already activated" in out.stderr
    assert current_main(root) == "print('v2')\n"


def test_the_service_is_enabled_only_after_the_check(tmp_path):
    store, keyfile = provisioned(tmp_path)
    root = tmp_path / "root"
    venv = root / "opt" / "felt" / "venv" / "bin"
    venv.mkdir(parents=True)
    (venv / "python").write_text("#!/bin/sh\n")
    (venv / "python").chmod(0o755)
    bindir = fake_systemctl(tmp_path)
    repo = signed_repo(tmp_path, "print('v1')\n", store)
    # unprovisioned: refused before anything is installed or enabled
    out = install(repo, root, systemd=True, path=bindir)
    assert out.returncode == 1 and "not provisioned" in out.stderr and "--keys FILE" in out.stderr
    assert systemctl_calls(tmp_path) == [] and not (root / "opt" / "felt" / "current").exists()
    out = install(repo, root, "--keys", str(keyfile), systemd=True, path=bindir)
    assert out.returncode == 0, out.stderr
    assert systemctl_calls(tmp_path) == ["daemon-reload", "enable felt.service", "restart felt.service"]
    signed_repo(tmp_path, "print('v2')\n", store)
    (repo / "firmware" / "main.py").write_text("print('evil')\n")
    out = install(repo, root, systemd=True, path=bindir)
    assert out.returncode == 1 and "was not (re)started" in out.stderr
    assert len(systemctl_calls(tmp_path)) == 3  # nothing more was enabled or restarted


def test_keys_left_in_the_data_folder_by_an_older_install_are_moved_root_only(tmp_path):
    store, keyfile = provisioned(tmp_path)
    root = tmp_path / "root"
    data = root / "var" / "lib" / "felt"
    data.mkdir(parents=True)
    shutil.copyfile(keyfile, data / "felt.keys")
    os.chmod(data / "felt.keys", 0o600)  # owner-only (a world-readable one is refused: below)
    repo = signed_repo(tmp_path, "print('v1')\n", store)
    out = install(repo, root)
    assert out.returncode == 0, out.stderr
    assert "moved the keys" in out.stdout
    assert not (data / "felt.keys").exists()
    assert stat.S_IMODE(os.stat(root / "etc" / "felt" / "felt.keys").st_mode) == 0o600


# ---- issue 16 item 5 on the Raspberry Pi ----------------------------------------------------------
# The service runs as its own user with a private data folder (systemd StateDirectory mode 0700,
# UMask 0077), and install.sh refuses a key or deck file that others on the Pi can read.


def _unit():
    with open(os.path.join(PI, "felt.service")) as f:
        return [ln.strip() for ln in f if ln.strip() and not ln.startswith("#")]


def test_the_service_runs_as_its_own_user_with_a_private_data_folder():
    unit = _unit()
    for line in ("User=felt", "Group=felt", "StateDirectory=felt", "StateDirectoryMode=0700", "UMask=0077"):
        assert line in unit, line  # before: no StateDirectoryMode (systemd's default 0755) and no UMask


def test_install_makes_the_data_folder_private(tmp_path):
    root = tmp_path / "root"
    data = root / "var" / "lib" / "felt"
    data.mkdir(parents=True)
    os.chmod(data, 0o755)  # as an older install (or systemd's default) left it
    out = install(fake_repo(tmp_path, "print('v1')\n"), root)
    assert out.returncode == 0, out.stderr
    assert stat.S_IMODE(os.stat(data).st_mode) == 0o700


@pytest.mark.parametrize("mode", [0o644, 0o640, 0o604])
def test_a_key_file_others_can_read_is_refused(tmp_path, mode):
    store, keyfile = provisioned(tmp_path)
    os.chmod(keyfile, mode)  # copied around with the usual umask
    root = tmp_path / "root"
    repo = signed_repo(tmp_path, "print('v1')\n", store)
    out = install(repo, root, "--keys", str(keyfile))
    assert out.returncode == 1, out.stdout  # before the fix: installed (as 0600, after being exposed)
    assert "readable by others" in out.stderr and str(keyfile) in out.stderr, out.stderr
    assert not (root / "etc" / "felt" / "felt.keys").exists()
    os.chmod(keyfile, 0o600)  # owner-only: accepted
    assert install(repo, root, "--keys", str(keyfile)).returncode == 0


@pytest.mark.parametrize("name", ["decks.json", "felt.keys", "A.deck", "deckA.txt"])
def test_a_deck_or_key_file_others_can_read_in_the_data_folder_is_refused(tmp_path, name):
    root = tmp_path / "root"
    data = root / "var" / "lib" / "felt"
    data.mkdir(parents=True)
    secret = data / name
    secret.write_text("felt-deck 1\n")
    os.chmod(secret, 0o644)
    repo = fake_repo(tmp_path, "print('v1')\n")
    out = install(repo, root)
    assert out.returncode == 1 and "readable by others" in out.stderr, (out.stdout, out.stderr)
    assert not (root / "opt" / "felt" / "current").exists()  # nothing installed
    os.chmod(secret, 0o600)
    if name == "felt.keys":
        return  # a real key file is moved to /etc/felt (test_flash_rpi.py); this one is not one
    assert install(repo, root).returncode == 0


def test_a_world_readable_deck_map_in_the_release_is_refused(tmp_path):
    repo = fake_repo(tmp_path, "print('v1')\n")
    deck = repo / "firmware" / "decks.json"
    deck.write_text("{}")
    os.chmod(deck, 0o644)
    out = install(repo, tmp_path / "root")
    assert out.returncode == 1 and "decks.json is readable by others" in out.stderr, out.stderr
