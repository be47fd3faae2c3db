# Boot-time security (firmware): production or maintenance mode from a physical control read at
# boot (every maintenance entry goes into the audit log), closing the console in production, and
# the activation check of a firmware slot against the release-signed manifest. Called from the
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


def trust_path(keys_path):
    """The trust file (release keys added and revoked by signed manifests) beside the key file."""
    cut = keys_path.rfind("/")
    return (keys_path[:cut + 1] if cut >= 0 else "") + keylib.TRUST_PATH.lstrip("/")


def check_slot(root, keys_path=keylib.PATH, counter_path=mf.COUNTER_PATH):
    """The activation check of one firmware tree (a slot): on a provisioned board the tree must
    carry a manifest signed with a release key this board trusts (its provisioned release public
    keys and those signed manifests added, none revoked), not older than the newest activated
    (anti-rollback) and match it file for file. Returns the Manifest (None on a board that is
    not provisioned yet, which accepts any tree); raises ManifestError with the reason."""
    if not provisioned(keys_path):
        return None
    try:
        k = keylib.load(keys_path)
        trusted, revoked = keylib.trusted(k, trust_path(keys_path))
    except KeyFileError as e:
        raise ManifestError("refused: %s" % e)
    return mf.check_tree(root, trusted, k.device, mf.read_counter(counter_path), revoked)


def accept(m, keys_path=keylib.PATH, counter_path=mf.COUNTER_PATH):
    """After a tree was accepted: raise the anti-rollback counter to its own and record the
    release keys it adds and revokes (rotation; a revocation is never undone)."""
    if m is None:
        return
    mf.write_counter(m.counter, counter_path)
    if m.trust or m.revoke:
        keylib.write_trust(m.trust, m.revoke, trust_path(keys_path))


def activate(root, keys_path=keylib.PATH, counter_path=mf.COUNTER_PATH):
    """check_slot, then accept() (call after the pointer switch; a tree once activated makes
    every older one unbootable, and its key changes apply to every later check)."""
    m = check_slot(root, keys_path, counter_path)
    accept(m, keys_path, counter_path)
    return m


verified = None  # (tree root, Manifest) that verify_boot accepted at this boot


def verify_running(keys_path=keylib.PATH, counter_path=mf.COUNTER_PATH):
    """For the main program at start: check the tree it runs from (the current folder, set by
    the loader). Returns the Manifest or None (not provisioned); ManifestError to show and stop.
    A tree verify_boot checked at this boot is not hashed a second time."""
    import os
    here = os.getcwd()
    if verified is not None and verified[0] == here:
        return verified[1]
    return check_slot(here, keys_path, counter_path)


def verify_boot(data_root="/", keys_path=None, counter_path=None, loader="/boot.py", lib="/lib"):
    """main.py's first call after the console lock, before any other firmware module is imported
    or any file of the data root is read (issue 16 item 2): on a provisioned board the running
    tree (check_slot), the loader at the board's root (the tree's signed boot.py), an empty /lib
    and every configuration file of the data root (board.json, table.json, decks.json, listed in
    the manifest with their hashes). Returns the Manifest (None: not provisioned); ManifestError
    names what is unsigned or altered, and the board does not start."""
    global verified
    import os
    base = data_root.rstrip("/") + "/"
    keys_path = keys_path or base + keylib.PATH.lstrip("/")
    if not provisioned(keys_path):
        return None
    m = check_slot(os.getcwd(), keys_path, counter_path or base + mf.COUNTER_PATH.lstrip("/"))
    if loader is not None:
        mf.check_loader(m, loader)
    if lib is not None:
        mf.check_no_modules(lib)
    mf.check_configs(m, data_root)
    verified = (os.getcwd(), m)
    return m


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


def record_refusal(data_root, why, keys_path=None, t_ms=0):
    """After verify_boot refused: the refusal and the tilt it is (issue 16 item 3: cleared only
    by a signed deploy) into the audit log, signed with the board's key -- best effort, with the
    audit module only (nothing else of the refused tree is loaded). True when written."""
    base = data_root.rstrip("/") + "/"
    try:
        from felt.security import audit

        k = keylib.load(keys_path or base + keylib.PATH.lstrip("/"))
        log = audit.AuditLog(audit.FileStore(base + "audit.log", audit.Rotation()), key=k.signer())
        log.append("boot", "running tree refused: %s" % why, who="board", t_ms=t_ms)
        log.append("tilt", "not started (needs a signed deploy): %s" % why, who="board", t_ms=t_ms)
        return True
    except Exception:  # noqa: BLE001 -- a damaged key file or log: the console line still says why
        return False


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
    # the deploy raises the counter after its pointer switch; a power cut between the two
    # leaves that to the first boot of the new tree (issue 12 item 4); key rotation likewise
    accept(m, keys_path, counter_path)
    return mode, m
