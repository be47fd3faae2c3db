# Boot-time security (firmware): production or maintenance mode from a physical control read at
# boot (every maintenance entry goes into the audit log), closing the console in production, and
# the activation check of a firmware slot against the owner-signed manifest. Called from the
# loader /boot.py and the deploy agent's commit (hook described in hardware/security.md).
from felt.security import KeyFileError, ManifestError
from felt.security import keys as keylib
from felt.security import manifest as mf

PRODUCTION = "production"
MAINTENANCE = "maintenance"
booted_mode = None  # what start() read at this boot (main.py: maintenance may end in the REPL, production never)


def provisioned(keys_path=keylib.PATH):
    try:
        with open(keys_path):
            return True
    except OSError:
        return False


def check_slot(root, keys_path=keylib.PATH, counter_path=mf.COUNTER_PATH):
    """The activation check of one firmware tree (a slot): on a provisioned board the tree must
    carry a manifest signed with this board's owner key, not older than the newest activated
    (anti-rollback) and match it file for file. Returns the Manifest (None on a board that is
    not provisioned yet, which accepts any tree); raises ManifestError with the reason."""
    if not provisioned(keys_path):
        return None
    try:
        k = keylib.load(keys_path)
    except KeyFileError as e:
        raise ManifestError("refused: %s" % e)
    return mf.check_tree(root, k.owner, k.device, mf.read_counter(counter_path))


def activate(root, keys_path=keylib.PATH, counter_path=mf.COUNTER_PATH):
    """check_slot, then raise the stored anti-rollback counter to the tree's (call just before
    the pointer switch; a tree once activated makes every older one unbootable)."""
    m = check_slot(root, keys_path, counter_path)
    if m is not None:
        mf.write_counter(m.counter, counter_path)
    return m


def verify_running(keys_path=keylib.PATH, counter_path=mf.COUNTER_PATH):
    """For the main program at start: check the tree it runs from (the current folder, set by
    the loader). Returns the Manifest or None (not provisioned); ManifestError to show and stop."""
    import os
    return check_slot(os.getcwd(), keys_path, counter_path)


def choose_slot(candidates, keys_path=keylib.PATH, counter_path=mf.COUNTER_PATH):
    """The first of `candidates` (slot roots, the pointer's slot first) that passes check_slot,
    and the reasons the others were refused: (root or None, [(root, reason)])."""
    refused = []
    for root in candidates:
        try:
            check_slot(root, keys_path, counter_path)
            return root, refused
        except ManifestError as e:
            refused.append((root, str(e)))
    return None, refused


def boot_mode(pressed, audit=None, control="maintenance switch", t_ms=0):
    """MAINTENANCE when the physical control is held at boot (pressed: bool, read once by the
    board's boot code), else PRODUCTION. Every maintenance entry is an audit record."""
    if not pressed:
        return PRODUCTION
    if audit is not None:
        audit.append("maintenance", "maintenance mode entered at boot (%s held)" % control, who="board", t_ms=t_ms)
    return MAINTENANCE


def close_console(micropython_module=None):
    """Production: Ctrl-C no longer interrupts the running program, so the serial REPL (and
    the raw REPL that feltctl flash uses) cannot be reached while the table runs. The main loop
    must also never end in the REPL: on an unexpected error it resets the board."""
    if micropython_module is None:
        try:
            import micropython as micropython_module
        except ImportError:  # CPython (Raspberry Pi): no REPL; systemd owns the process
            return False
    micropython_module.kbd_intr(-1)
    return True


def open_console(micropython_module=None):
    """Maintenance: Ctrl-C on again (main.py closes the console before anything else, issue 12
    item 2), so feltctl flash / provision / export reach the raw REPL."""
    if micropython_module is None:
        try:
            import micropython as micropython_module
        except ImportError:
            return False
    micropython_module.kbd_intr(3)
    return True


def start(pressed, audit=None, control="maintenance switch", t_ms=0, micropython_module=None,
          keys_path=keylib.PATH, counter_path=mf.COUNTER_PATH):
    """The main program's first call: the mode from the physical control (audited), the console
    closed in production (main.py closed it already; again here for any other caller) or opened
    in maintenance, and the running tree checked. Returns (mode, Manifest or None); ManifestError
    means: show the reason on the display and do not run the table."""
    global booted_mode
    mode = boot_mode(pressed, audit, control, t_ms)
    booted_mode = mode
    if mode == PRODUCTION:
        close_console(micropython_module)
    else:
        open_console(micropython_module)
    m = verify_running(keys_path, counter_path)
    if m is not None:
        # the deploy raises the counter after its pointer switch; a power cut between the two
        # leaves that to the first boot of the new tree (issue 12 item 4)
        mf.write_counter(m.counter, counter_path)
    return mode, m
