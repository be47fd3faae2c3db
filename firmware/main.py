# Device entry (runtime layer): pick the board map, open its HAL, run the table (felt.runtime.app builds
# the rest in boot order). FELT_HAL / FELT_DATA (the Raspberry Pi service) override the board
# file's HAL and the "/" data root; a Pico has no environment and uses the defaults.
# Issue 12 items 2-3 (hardware/security.md section 4): the production lock comes first, before
# any import or file read that can fail, and a production board never ends in the REPL.
while True:
    try:
        import micropython

        micropython.kbd_intr(-1)  # Ctrl-C off; only the maintenance key switch opens it again
        for _ in (0, 1):
            pass  # a Ctrl-C that landed just before the lock is raised here, inside the try
        break
    except ImportError:  # CPython (Raspberry Pi): no REPL; systemd owns the process
        micropython = None
        break
    except KeyboardInterrupt:
        pass

hal = board = root = refused = None
try:
    # issue 16 item 2: the signed-tree check first -- before any other firmware module is imported
    # and before board.json, table.json or decks.json is read: the running tree, the loader
    # /boot.py, an empty /lib and those files, against the release-signed manifest
    from felt.security import bootcheck

    _env = getattr(__import__("os"), "getenv", lambda name: None)
    try:
        bootcheck.verify_boot(_env("FELT_DATA") or "/", _env("FELT_KEYS"), _env("FELT_COUNTER"),
                              loader="/boot.py" if micropython is not None else None,
                              lib="/lib" if micropython is not None else None)
    except bootcheck.ManifestError as e:
        bootcheck.record_refusal(_env("FELT_DATA") or "/", str(e), _env("FELT_KEYS"))
        refused = str(e)
        raise
    del bootcheck  # it served the boot: app.serve drops it once the table runs (hardware/memory.md, Idioms 7)
    from felt.runtime import app

    root = app.data_root()
    board = app.load_board(root, app.getenv("FELT_HAL"))
    hal = app.open_hal(app.getenv("FELT_HAL") or board.hal)
    stopped = app.run(hal, board, root)
except BaseException as e:  # noqa: B036 -- an error before the table ran, or one that stopped it
    stopped = e


def _maintenance():
    # the mode the boot check read from the key switch (app.booted_mode: the check itself is dropped
    # once the table runs); a boot that failed before reading it reads the Pico's switch (GP28,
    # app.MAINTENANCE_PINS) itself, and anything else is production
    try:
        import sys

        booted = sys.modules.get("felt.runtime.app")  # not imported again: a damaged tree may fail it
        if booted is not None and booted.booted_mode is not None:
            return booted.booted_mode == booted.MAINTENANCE
    except BaseException:  # noqa: B036 -- a damaged tree: read the switch directly
        pass
    try:
        from machine import Pin

        return Pin(28, Pin.IN, Pin.PULL_UP).value() == 0
    except BaseException:  # noqa: B036
        return False


def _provisioned():
    # a board without keys has nothing to protect yet: its REPL stays reachable (set-up, hardware/
    # flashing.md); /felt.keys at the data root (FELT_KEYS elsewhere) makes it a production board
    import os

    for path in (getattr(os, "getenv", lambda name: None)("FELT_KEYS"), (root or "/").rstrip("/") + "/felt.keys"):
        if path:
            try:
                os.stat(path)
                return True
            except OSError:
                pass
    return False


def _say(why):
    text = "felt: NOT STARTED: %s" % why
    print(text)
    try:
        app._show_alone(hal, board, text[6:], print)
    except BaseException:  # noqa: B036 -- no display, or no app to drive it: the console line stays
        pass


def _named(e):
    # an error Felt raises on purpose (StorageFull, ConfigError, ...) says what is wrong in its line
    try:
        from felt.errors import FeltError

        return isinstance(e, FeltError)
    except BaseException:  # noqa: B036
        return False


def _halt(why):
    """Production: say why on the console and the display, then wait for a power cycle (with
    the key switch held for maintenance, or after a deploy) -- never the REPL."""
    _say(why)
    import time

    while True:
        try:
            micropython.kbd_intr(-1)
            time.sleep(60)
        except BaseException:  # noqa: B036 -- nothing ends this wait but the power
            pass


if micropython is not None and _provisioned() and not _maintenance():
    if isinstance(stopped, BaseException):
        _halt(refused or "%s: %s" % (type(stopped).__name__, stopped))
    _halt(getattr(stopped, "halted", None) or "the table stopped")
if micropython is not None and _named(stopped):
    _say("%s: %s" % (type(stopped).__name__, stopped))  # one line, not a traceback; the REPL follows
elif isinstance(stopped, BaseException):
    raise stopped  # maintenance or unprovisioned (the REPL follows, for a fix), or CPython (systemd restarts it)
