#!/bin/sh
# Install or update Felt on a Raspberry Pi (Linux, CPython) as the systemd service `felt`, or roll
# back to the previous release. Releases are unpacked side by side and switched with one atomic
# rename of the `current` symlink, like `feltctl flash` switches slots on a MicroPython board.
#
#   sudo hardware/raspberry-pi/install.sh --keys FILE # once: the board's key file (feltctl provision --out)
#   sudo hardware/raspberry-pi/install.sh            # install/update from this checkout, restart
#   sudo hardware/raspberry-pi/install.sh --rollback # switch back to the previous release
#   DESTDIR=/tmp/root hardware/raspberry-pi/install.sh --no-systemd   # staged install (tests, images)
#
# Every release passes the board's activation check (felt.security.bootcheck: the tree's signed
# firmware/felt.manifest, made by `feltctl sign`) before `current` moves and before the service is
# enabled; a refused tree is deleted and the running release stays.
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
DESTDIR=${DESTDIR:-}
PREFIX="$DESTDIR/opt/felt"
UNIT_DIR="$DESTDIR/etc/systemd/system"
# Root-only (folder 0700, files 0600): the keys and the anti-rollback counter. The same paths are
# felt/security/keys.py RPI_PATH, manifest.py RPI_COUNTER_PATH and felt.service LoadCredential=
# (tests/host/test_rpi_keys.py fails when they drift apart).
KEYS_DIR="$DESTDIR/etc/felt"
KEYS="$KEYS_DIR/felt.keys"
COUNTER="$KEYS_DIR/felt.counter"
DATA="$DESTDIR/var/lib/felt"
PYTHON=${PYTHON:-python3}
SYSTEMD=1
ACTION=install
NEW_KEYS=

while [ $# -gt 0 ]; do
    case "$1" in
        --rollback) ACTION=rollback ;;
        --no-systemd) SYSTEMD=0 ;;
        --keys)
            [ $# -ge 2 ] || { echo "install.sh: --keys needs the key file" >&2; exit 2; }
            NEW_KEYS=$2
            shift ;;
        -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
        *) echo "install.sh: unknown option $1" >&2; exit 2 ;;
    esac
    shift
done

say() { echo "felt-install: $*"; }
die() { echo "install.sh: $*" >&2; exit 1; }

# Point `current` at a release atomically: build the new link aside, then rename it over.
switch_to() {
    ln -sfn "releases/$1" "$PREFIX/current.new"
    mv -T "$PREFIX/current.new" "$PREFIX/current"
}

restart() {
    if [ "$SYSTEMD" = 1 ]; then
        systemctl daemon-reload
        systemctl enable felt.service >/dev/null
        systemctl restart felt.service
        say "service restarted (follow it: journalctl -u felt -f)"
    fi
}

root_only() {  # $1: a path under /etc/felt; no-op in a staged (non-root) install
    if [ -z "$DESTDIR" ]; then
        chown root:root "$1"
    fi
}

# Secret files (issue 16 item 5): the keys and the deck maps (every tag UID -> its card) are
# owner-only. One that others on this Pi could read may have been read: the install stops rather
# than use it -- replace it (re-provision, re-enroll the deck), make it 0600, install again.
private_files() {  # $@: files; absent ones are skipped
    for f in "$@"; do
        [ -e "$f" ] || continue
        mode=$(stat -c %a "$f")
        case "$mode" in
            *00) ;;
            *) die "$f is readable by others (mode $mode): a key or deck file must be owner-only (0600); it may have been read -- replace it, chmod 0600, then install again" ;;
        esac
    done
}

# The key folder: created root-only; keys left by an older install in the service's writable data
# folder are moved here; --keys FILE installs the board's key file once (never overwritten).
setup_keys() {
    private_files ${NEW_KEYS:+"$NEW_KEYS"} "$DATA/felt.keys" "$DATA/decks.json" "$DATA"/*.deck "$DATA"/deck*.txt \
        "$REPO/firmware/decks.json" "$REPO/firmware/felt.keys"
    mkdir -p "$KEYS_DIR"
    chmod 0700 "$KEYS_DIR"
    root_only "$KEYS_DIR"
    legacy="$DATA/felt.keys"
    if [ -f "$legacy" ]; then
        if [ -e "$KEYS" ]; then
            rm -f "$legacy"
            say "removed the old copy $legacy (the keys are in $KEYS)"
        else
            mv "$legacy" "$KEYS"
            say "moved the keys from $legacy to $KEYS (root only)"
        fi
    fi
    if [ -n "$NEW_KEYS" ]; then
        [ -f "$NEW_KEYS" ] || die "no key file $NEW_KEYS"
        [ ! -e "$KEYS" ] || die "this Pi already has keys ($KEYS): they are never overwritten (a board is provisioned once)"
        [ "$(head -n 1 "$NEW_KEYS")" = "felt-keys 2" ] || die "$NEW_KEYS is not a Felt key file (feltctl provision --out makes one)"
        (umask 077 && cp "$NEW_KEYS" "$KEYS.tmp")
        mv "$KEYS.tmp" "$KEYS"
        say "keys installed in $KEYS (root only); delete $NEW_KEYS now"
    fi
    for f in "$KEYS" "$COUNTER"; do
        if [ -e "$f" ]; then
            chmod 0600 "$f"
            root_only "$f"
        fi
    done
    if [ ! -e "$KEYS" ]; then
        if [ "$SYSTEMD" = 1 ]; then
            die "this Pi is not provisioned (no $KEYS), so nothing can be checked and the service would run unsigned: make the key file with \`feltctl provision --device NAME --floor NAME --out FILE\` on the owner's machine and install it with \`sudo $0 --keys FILE\`"
        fi
        say "unprovisioned staged install: releases are not checked (a real install refuses until $KEYS exists)"
    fi
}

# The board's activation check on a release's firmware tree. $1: activate (check, then raise the
# anti-rollback counter) or check; $2: the tree. The running release's checker is used when it has
# one (a new tree does not vouch for itself), else the tree's own. Prints what passed, or the
# reason it was refused (exit status 3). No bytecode is written into either tree.
verify() {
    checker="$2"
    if [ -f "$PREFIX/current/firmware/felt/security/bootcheck.py" ]; then
        checker="$PREFIX/current/firmware"
    fi
    PYTHONDONTWRITEBYTECODE=1 PYTHONPATH="$checker" "$PYTHON" -B - "$1" "$2" "$KEYS" "$COUNTER" <<'PY'
import sys
try:
    from felt.security import ManifestError, bootcheck
except ImportError as e:
    print("refused: the release cannot be checked (no felt.security: %s)" % e)
    sys.exit(3)
action, tree, keys, counter = sys.argv[1:5]
step = bootcheck.activate if action == "activate" else bootcheck.check_slot
try:
    m = step(tree, keys_path=keys, counter_path=counter)
except ManifestError as e:
    print(str(e))
    sys.exit(3)
print("signed for %s, version %s, anti-rollback counter %d, manifest sha256 %s"
      % (m.device, m.version, m.counter, m.hash()))
PY
}

# checked TREE WHAT: run verify when the Pi has keys; die with the reason when the tree is refused.
checked() {
    [ -e "$KEYS" ] || return 0
    if ! out=$(verify "$1" "$2"); then
        die "$3 $out -- the running release stays, the service was not (re)started"
    fi
    say "$out"
}

if [ -z "$DESTDIR" ] && [ "$(id -u)" != 0 ]; then
    echo "install.sh: run as root (sudo), or set DESTDIR for a staged install" >&2
    exit 1
fi
setup_keys

if [ "$ACTION" = rollback ]; then
    [ -e "$PREFIX/previous" ] || { echo "install.sh: no previous release to roll back to" >&2; exit 1; }
    cur=$(basename "$(readlink "$PREFIX/current")")
    prev=$(basename "$(readlink "$PREFIX/previous")")
    # going back must not go below the highest counter ever activated (re-sign the old tree instead)
    checked check "$PREFIX/releases/$prev/firmware" "rollback to $prev refused:"
    switch_to "$prev"
    ln -sfn "releases/$cur" "$PREFIX/previous"
    say "rolled back to $prev ($cur kept as previous)"
    restart
    exit 0
fi

# A release is named after the content of the firmware tree, so reinstalling the same tree is a no-op.
release=$(cd "$REPO" && find firmware hardware -type f ! -path '*/__pycache__/*' ! -name '*.pyc' \
          | LC_ALL=C sort | xargs sha256sum | sha256sum | cut -c1-12)
mkdir -p "$PREFIX/releases" "$UNIT_DIR" "$DATA"
chmod 0700 "$DATA"  # the service's private data folder (journal, audit log, hands; felt.service StateDirectoryMode)
if [ -e "$PREFIX/current" ] && [ "$(basename "$(readlink "$PREFIX/current")")" = "$release" ]; then
    checked check "$PREFIX/releases/$release/firmware" "release $release (current)"
    say "release $release is already current"
else
    stage="$PREFIX/releases/.$release.tmp"
    rm -rf "$stage"
    mkdir -p "$stage"
    (cd "$REPO" && tar cf - --exclude=__pycache__ --exclude='*.pyc' firmware hardware) | (cd "$stage" && tar xf -)
    if ! out=$( [ ! -e "$KEYS" ] || verify activate "$stage/firmware" ); then
        rm -rf "$stage"
        die "release $release $out -- the running release stays, the service was not (re)started"
    fi
    [ -z "$out" ] || say "$out"
    rm -rf "$PREFIX/releases/$release"
    mv "$stage" "$PREFIX/releases/$release"
    if [ -e "$PREFIX/current" ]; then
        ln -sfn "$(readlink "$PREFIX/current")" "$PREFIX/previous"
    fi
    switch_to "$release"
    say "release $release is now current"
    # Keep only the current and the previous release.
    for d in "$PREFIX"/releases/*; do
        name=$(basename "$d")
        case "$name" in
            "$release"|"$(basename "$(readlink "$PREFIX/previous" 2>/dev/null || echo none)")") ;;
            *) rm -rf "$d" ;;
        esac
    done
fi
if [ -e "$COUNTER" ]; then  # activate may have just written it
    chmod 0600 "$COUNTER"
    root_only "$COUNTER"
fi

# The interpreter: a venv with the Raspberry Pi HAL's libraries (RPi.GPIO for pins and buttons,
# spidev for the RFID readers, pyserial for the shoe and console), cryptography for a fast Ed25519
# check (felt.security.ed25519 falls back to pure Python without it) and paho-mqtt for the room
# (room.json with a broker: hardware/floor.md section 7). tests/host/test_rpi_install_deps.py keeps
# this list in step with what firmware/ imports.
if [ ! -x "$PREFIX/venv/bin/python" ]; then
    if [ "$SYSTEMD" = 1 ]; then
        "$PYTHON" -m venv "$PREFIX/venv"
        "$PREFIX/venv/bin/pip" install --quiet RPi.GPIO spidev pyserial cryptography paho-mqtt
    else
        say "skipping the venv in a staged install (created on the Pi by a real install)"
    fi
fi

cp "$HERE/felt.service" "$UNIT_DIR/felt.service"
if [ -z "$DESTDIR" ]; then
    id felt >/dev/null 2>&1 || useradd --system --home /var/lib/felt --shell /usr/sbin/nologin felt
    for g in gpio spi i2c dialout; do getent group "$g" >/dev/null && usermod -aG "$g" felt; done
    chown -R felt:felt /var/lib/felt
fi
restart
