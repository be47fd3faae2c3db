#!/bin/sh
# Install or update Felt on a Raspberry Pi (Linux, CPython) as the systemd service `felt`, or roll
# back to the previous release. Releases are unpacked side by side and switched with one atomic
# rename of the `current` symlink, like `feltctl flash` switches slots on a MicroPython board.
#
#   sudo hardware/raspberry-pi/install.sh            # install/update from this checkout, restart
#   sudo hardware/raspberry-pi/install.sh --rollback # switch back to the previous release
#   DESTDIR=/tmp/root hardware/raspberry-pi/install.sh --no-systemd   # staged install (tests, images)
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
DESTDIR=${DESTDIR:-}
PREFIX="$DESTDIR/opt/felt"
UNIT_DIR="$DESTDIR/etc/systemd/system"
PYTHON=${PYTHON:-python3}
SYSTEMD=1
ACTION=install

for arg in "$@"; do
    case "$arg" in
        --rollback) ACTION=rollback ;;
        --no-systemd) SYSTEMD=0 ;;
        -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
        *) echo "install.sh: unknown option $arg" >&2; exit 2 ;;
    esac
done

say() { echo "felt-install: $*"; }

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

if [ "$ACTION" = rollback ]; then
    [ -e "$PREFIX/previous" ] || { echo "install.sh: no previous release to roll back to" >&2; exit 1; }
    cur=$(basename "$(readlink "$PREFIX/current")")
    prev=$(basename "$(readlink "$PREFIX/previous")")
    switch_to "$prev"
    ln -sfn "releases/$cur" "$PREFIX/previous"
    say "rolled back to $prev ($cur kept as previous)"
    restart
    exit 0
fi

if [ -z "$DESTDIR" ] && [ "$(id -u)" != 0 ]; then
    echo "install.sh: run as root (sudo), or set DESTDIR for a staged install" >&2
    exit 1
fi

# A release is named after the content of the firmware tree, so reinstalling the same tree is a no-op.
release=$(cd "$REPO" && find firmware hardware -type f ! -path '*/__pycache__/*' ! -name '*.pyc' \
          | LC_ALL=C sort | xargs sha256sum | sha256sum | cut -c1-12)
mkdir -p "$PREFIX/releases" "$UNIT_DIR" "$DESTDIR/var/lib/felt"
if [ -e "$PREFIX/current" ] && [ "$(basename "$(readlink "$PREFIX/current")")" = "$release" ]; then
    say "release $release is already current"
else
    stage="$PREFIX/releases/.$release.tmp"
    rm -rf "$stage"
    mkdir -p "$stage"
    (cd "$REPO" && tar cf - --exclude=__pycache__ --exclude='*.pyc' firmware hardware) | (cd "$stage" && tar xf -)
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

# The interpreter: a venv with the Raspberry Pi HAL's libraries (spidev for the RFID readers).
if [ ! -x "$PREFIX/venv/bin/python" ]; then
    if [ "$SYSTEMD" = 1 ]; then
        "$PYTHON" -m venv "$PREFIX/venv"
        "$PREFIX/venv/bin/pip" install --quiet spidev pyserial
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
