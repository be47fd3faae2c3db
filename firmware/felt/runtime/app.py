# The device application (runtime layer): assembles one table in boot order -- data root, keys,
# audit log, boot check (production / maintenance by the physical control), journal recovery,
# loop with its hooks (secrecy guard, antenna check, floor guard) -- so firmware/main.py only
# picks the board, opens the HAL and runs. Every object gets its sinks and hooks when it is built.
# Data lives under an ABSOLUTE root (FELT_DATA, else "/"): a deploy replaces the code slot only.
import json
import os

from felt.recovery import journal as jr
from felt.runtime import heap, wiring
from felt.recovery import antennas as antenna_check
from felt.recovery import restore as recovery
from felt.errors import ConfigError, FeltError, StorageFull
from felt.security import AuditError, KeyFileError, ManifestError
from felt.security import audit as auditlib
from felt.security import keys as keylib
from felt.security import eventlog
from felt.security import tilt as tiltlib
from felt.security.floordesk import FloorDesk, StackGuard

VERSION = "felt app 1"
# The maintenance key switch per board (hardware/security.md section 4): GPIO to GND, pull-up,
# held closed at power-on. A board not listed has no control: it always boots in production.
MAINTENANCE_PINS = {"pico": 28, "rpi": 1}
# The mode this boot read (bootcheck.PRODUCTION / MAINTENANCE, None before the boot check): kept
# here, not in felt.security.bootcheck, which served the boot and is dropped once the table runs
# (hardware/memory.md, Idioms 7); firmware/main.py reads it after run() returns.
PRODUCTION = "production"
MAINTENANCE = "maintenance"
booted_mode = None


def getenv(name):
    """os.getenv where the port has it (CPython, MicroPython unix); None on a Pico."""
    g = getattr(os, "getenv", None)
    return g(name) if g is not None else None


def data_root(default="/"):
    """Where data goes: $FELT_DATA (the Raspberry Pi service: /var/lib/felt), else `default`.
    Always absolute: the code runs from a slot folder a later deploy deletes."""
    root = getenv("FELT_DATA") or default
    if not root.startswith("/"):
        raise FeltError("FELT_DATA must be an absolute path, got %r" % root)
    return root


def join(root, name):
    return root.rstrip("/") + "/" + name


def _mkdir(path):
    try:
        os.mkdir(path)
    except OSError:
        pass  # exists


def _weak_nonce(n):
    # an UNPROVISIONED board with no true entropy source (nothing to protect yet): different per
    # boot at best; a provisioned board refuses to start instead (issue 16 item 6)
    import random
    return bytes([random.getrandbits(8) for _ in range(n)])


def make_rng(hal, device):
    """The table's generator of nonces and salts: an HMAC-DRBG seeded from the board's entropy
    source (hal.entropy; os.urandom on a backend without it) after its health test
    (felt.security.entropy). EntropyError when the board has no working source."""
    from felt.security import entropy

    src = getattr(hal, "entropy", None)
    return entropy.Generator(src if src is not None else entropy.board_source(), device.encode())


def control_pin(hal, board):
    """The maintenance control's input pin, or None (no control on this board, the pin map uses it
    for something else, or a backend that cannot open it)."""
    pin = MAINTENANCE_PINS.get(board.board)
    if pin is None or pin in board.pins:
        return None
    try:
        return hal.input_pin(pin, pull="up")
    except (FeltError, OSError):
        return None


def read_control(hal, board, pin=None):
    """True when the maintenance control is held at boot (read once)."""
    p = pin if pin is not None else control_pin(hal, board)
    return p is not None and p.value() == 0  # no control: production


class HandFiles:
    """The table's history sink: each finished hand as its own PHH file <root>/hands/hand-N.phh
    (what `feltctl export` copies). The journal's HandLog keeps them too (power-cut safe). Only the
    newest `keep` files stay (None: all): a Pico's flash is small; export before they roll off."""

    def __init__(self, folder, keep=None):
        self.folder = folder
        self.keep = keep
        _mkdir(folder)
        self.n = 0
        for name in os.listdir(folder):
            if name.startswith("hand-") and name.endswith(".phh"):
                try:
                    self.n = max(self.n, int(name[5:-4]))
                except ValueError:
                    pass

    def __call__(self, text):
        self.n += 1
        with open(join(self.folder, "hand-%06d.phh" % self.n), "w") as f:
            f.write(text)
        if self.keep is not None and self.n > self.keep:
            try:
                os.remove(join(self.folder, "hand-%06d.phh" % (self.n - self.keep)))
            except OSError:
                pass  # already gone


class App:
    """What build() made: mode, keys (None when unprovisioned), audit, manifest (the running tree's
    manifest hash, a text; None when unsigned), journal, table, recorder, report (recovery), runtime,
    feed (secrecy), desk (floor commands; None when unprovisioned)."""

    def __init__(self):
        self.root = self.mode = self.keys = self.audit = self.manifest = None
        self.journal = self.handlog = self.table = self.recorder = self.report = None
        self.runtime = self.feed = self.desk = self.antennas = None
        self.halted = None  # reason text when the running tree was refused (the table does not run)
        self.tilt = None  # security.tilt.TiltLock: integrity failures lock play (issue 16 item 3)
        self.room = None  # felt.room.setup.Room: the table's messages to the room (issue 15), with room.json


class Boot:
    """What secure_boot() found, for the table-specific rest of a build: say (the log), clock,
    key (the device signer or None), rng (nonces), no_rng (why the entropy source failed, or None),
    device (the board's name on the wire), switch (the maintenance control's pin or None), control
    (its name), audit_broken (why the audit log did not verify at boot, or None)."""

    def __init__(self, say, clock):
        self.say = say
        self.clock = clock
        self.key = self.rng = self.no_rng = self.device = self.switch = self.audit_broken = None
        self.control = "control"


def secure_boot(hal, board, root, pressed=None, log=None, micropython_module=None, keys_path=None, clock=None,
                audit_rotation=None, counter_path=None):
    """The boot every table has, whatever its game, up to the table itself: data folders, keys,
    the entropy source, the audit (event) log and its boot check, the power-up record, the signed
    tree check (production / maintenance by the physical control), the boot and firmware records.
    Returns (App, Boot); when the running tree is refused app.halted says why (NOT STARTED on the
    display, audited) and nothing more may be built."""
    global booted_mode
    from felt.security import bootcheck  # imported here: app.serve drops it once the table runs

    app = App()
    app.root = root
    b = Boot(log or (lambda text: None), clock or hal.ticks_ms)
    say = b.say
    clock = b.clock
    _mkdir(root)
    _mkdir(join(root, "hands"))
    keys_path = keys_path or join(root, "felt.keys")
    try:
        app.keys = keylib.load(keys_path)
    except KeyFileError as e:
        app.keys = None
        if bootcheck.provisioned(keys_path):
            # a damaged key file is not "unprovisioned": bootcheck.start refuses the tree below
            say("felt: key file unreadable: %s" % e)
        else:
            say("unprovisioned board: running unsigned, audit log unkeyed (%s)" % e)
    # the board's own Ed25519 key signs audit and feed records (issue 16 item 1); none: unprovisioned
    key = app.keys.signer() if app.keys is not None and app.keys.sign is not None else None
    b.key = key
    no_key = app.keys is not None and key is None
    from felt.security.entropy import EntropyError
    try:
        b.rng = make_rng(hal, app.keys.device if app.keys is not None else board.name)
    except EntropyError as e:
        b.rng, b.no_rng = _weak_nonce, str(e)
    store = auditlib.FileStore(join(root, "audit.log"), audit_rotation or auditlib.Rotation())
    # unauthenticated records (alerts, refusals) are rate- and size-limited and never push an
    # unexported record off the board (issue 12 item 7)
    def audit_full(text):  # (refusals start at unauthenticated records: alerts, once the table runs)
        if app.table is not None:
            app.table.device_alert("audit", "warn", text, "export the audit log (feltctl audit verify --port)")
    app.audit = auditlib.AuditLog(store, key=key, intake=auditlib.Intake(), on_full=audit_full)
    last_boot = None
    try:  # issue 16 item 3: the records written since the last boot's check must verify, or the table tilts
        last_boot = tiltlib.check_audit(store, key)
    except AuditError as e:
        b.audit_broken = "audit log does not verify: %s" % e
    power = eventlog.power_up(app.audit)  # issue 16 item 4: after a clean stop or not (in the boot record)
    b.switch = control_pin(hal, board)  # read at boot, then watched (issue 16 item 4)
    if pressed is None:
        pressed = read_control(hal, board, b.switch)
    if board.board in MAINTENANCE_PINS:
        b.control = "GP%d key switch" % MAINTENANCE_PINS[board.board]
    try:
        app.mode, m = bootcheck.start(pressed, app.audit, control=b.control, t_ms=clock(),
                                      micropython_module=micropython_module, keys_path=keys_path,
                                      counter_path=counter_path or join(root, "felt.counter"))
        app.manifest = m.hash() if m is not None else None  # the text: a Manifest would keep its module
        if no_key:
            raise ManifestError("refused: the key file holds no device signing key (provisioning did not "
                                "finish): audit and feed records could not be signed")
        if b.no_rng is not None and app.keys is not None:
            raise ManifestError("refused: %s (issue 16 item 6: floor challenges and hole-card salts would be "
                                "predictable)" % b.no_rng)
    except ManifestError as e:
        app.halted = str(e)
        app.mode = bootcheck.MAINTENANCE if pressed else bootcheck.PRODUCTION
        app.audit.append("boot", "running tree refused: %s" % e, who="board", t_ms=clock())
        # issue 16 item 3: a tilt no floor command can clear -- the code that would check the
        # command is the code refused; a signed deploy in maintenance mode ends it
        app.audit.append("tilt", "not started (needs a signed deploy): %s" % e, who="board", t_ms=clock())
        say("felt: refusing to run the table: %s" % e)
        _show_alone(hal, board, "NOT STARTED: %s" % e, say)
        return app, b
    finally:
        booted_mode = bootcheck.booted_mode
    signed = ("signed, manifest %s" % app.manifest) if app.manifest is not None else "unsigned"
    app.audit.append("boot", "%s mode, %s tree, data %s; %s" % (app.mode, signed, root, power), who="board",
                     t_ms=clock())
    eventlog.firmware_change(app.audit, last_boot, signed, clock())  # issue 16 item 4
    say("felt: %s mode (%s), %s tree" % (app.mode, "console open" if app.mode == MAINTENANCE
                                         else "console closed during play", signed))
    b.device = app.keys.device if app.keys is not None else board.name
    if b.no_rng is not None:
        say("felt: unprovisioned board without a true entropy source: nonces are weak (%s)" % b.no_rng)
    return app, b


def journal_seal(app, b):
    """The journal seal of a provisioned board (issue 16 item 5: no live tag UID on flash in the
    clear, hardware/journal.md section 9), or None on an unprovisioned one."""
    if app.keys is None:
        return None
    from felt.recovery.seal import JournalSeal
    from felt.security.hmac import derive
    return JournalSeal(derive(app.keys.sign, "journal-seal"), b.rng)  # a board-only secret (issue 16 items 1, 5)


def floor_desk(app, b, table, feed=None):
    """The floor desk (authenticated floor commands) of a provisioned board, or None."""
    if app.keys is None:
        return None
    from felt.security.auth import FloorGate
    gate = FloorGate(b.device, app.keys.floor, b.rng, audit=app.audit)
    return FloorDesk(gate, table, feed, app.keys.floor, b.device)


def guard_hooks(app, b, drivers, middle=(), antennas_of=None):
    """The after-step hooks every assembled table runs, in order: the boot antenna check (until it
    has acted; antennas_of: the table as AntennaCheck sees it, default app.table), `middle` (the
    game's own), the tilt lock's watch, the maintenance switch watch. Sets app.antennas, app.tilt
    (and the desk's tilt). Returns the list (the runtime's after_step)."""
    after_step = []
    if drivers.poller is not None:
        app.antennas = antenna_check.AntennaCheck(antennas_of or app.table, drivers.poller, hooks=after_step)
        after_step.append(app.antennas)
    after_step.extend(middle)
    # the tilt lock answers a locked table's console first (a refused entry is not journaled) and
    # records each tilt after the step that raised it
    app.tilt = tiltlib.TiltLock(app.table, drivers.link, app.audit, b.clock)
    after_step.append(app.tilt.watch)
    if b.switch is not None:  # issue 16 item 4: the key switch turned while the table runs is an event
        after_step.append(eventlog.SwitchWatch(b.switch, app.audit, app.table, b.switch.value() == 0, b.control))
    if app.desk is not None:
        app.desk.tilt = app.tilt
    return after_step


def finish_boot(app, b, link):
    """After the runtime is built: the tilts the boot found, the audit log's space warning, the
    journal's answer to a console line retransmitted across the restart."""
    _boot_tilts(app, b.audit_broken, b.clock)

    def audit_low(text):  # issue 16 item 4: before the log fills, not when it has
        app.table.device_alert("audit", "warn", text, "export the event log (feltctl audit verify --port)")
    app.audit.on_low = audit_low
    app.audit.check_space(b.clock())
    app.recorder.seed_console(link)


def build(hal, board, make_table, root, shoe="pn532", pressed=None, log=None, micropython_module=None,
          keys_path=None, clock=None, keep_hands=200, audit_rotation=None, counter_path=None, room=None):
    """Assemble the table. make_table(history, log) -> felt.table.controller.Table with those sinks.
    pressed: the maintenance control (None: read it from the board's pin). audit_rotation: an
    audit.Rotation (None: the default size and count). counter_path: the anti-rollback counter
    (None: beside the data). Returns App; when the
    running tree fails its signature check app.halted holds why and nothing else is built."""
    app, b = secure_boot(hal, board, root, pressed, log, micropython_module, keys_path, clock, audit_rotation,
                         counter_path)
    if app.halted is not None:
        return app
    # the poker runtime and its secrecy feed: loaded here, not by a blackjack table (issue 17)
    from felt.runtime import loop as looplib
    from felt.security import secrecy

    say, clock, rng, device = b.say, b.clock, b.rng, b.device
    app.journal, app.handlog = open_journal(hal, board, root, say)
    files = HandFiles(join(root, "hands"), keep=keep_hands)
    bkey = app.keys.broadcast if app.keys is not None else rng(32)  # unprovisioned: nobody can open it

    def feed_out(record):
        say("FEED " + json.dumps(record))
    # the feed exists before the replay, so what the table logs while replaying is guarded too
    signer = b.key  # the device key signs every feed record (issue 12 item 6, issue 16 item 1)
    app.feed = secrecy.SecretFeed(device, bkey, rng, public=feed_out, broadcast=feed_out, audit=app.audit,
                                  signer=signer)

    # the table's log (and the drivers') passes the secrecy guard from its first line, the replay's
    # too; the guard reads the table it guards, which restore_table builds through fresh_table
    built = []

    def table_log(text):
        text = app.feed.clean(text, built[0] if built else None)
        say(text)
        if app.room is not None:
            app.room.publisher.event(text)  # the public log is the room's event topic (issue 15)

    def hand_out(text):
        files(text)
        if app.room is not None:
            app.room.publisher.hand(text)  # masked: nothing face down before the reveal

    def fresh_table(history):
        built[:] = [make_table(history, table_log)]
        built[0].tilt_on_foreign = app.keys is not None  # issue 16 item 3: a foreign deck tilts a provisioned table
        return built[0]
    app.table, app.recorder, app.report = recovery.restore_table(app.journal, fresh_table, app.handlog, log=say,
                                                                 history=hand_out, seal=journal_seal(app, b))
    app.desk = floor_desk(app, b, app.table, app.feed)
    # the loop and its hooks, declared here in the order they run (felt.runtime.loop.Runtime):
    # console entries pass the tilt lock, the event log's space query, the journal's line note,
    # then the floor desk's stack guard; after each step the boot antenna check (until it has
    # acted; a card taken off an antenna while the power was out is reported gone), then the
    # secrecy feed's observer (commitments, hand end, release), the tilt lock's watch and the key
    # switch's; every alert goes to the console, then the audit log; every text out passes the
    # secrecy guard
    feed_hooks = secrecy.Hooks(app.feed, app.table, clock, audit=app.audit)
    text_filters = [feed_hooks.text_filter]
    drivers = looplib.open_drivers(hal, board, app.table.config.seats, shoe, log=table_log, text_filters=text_filters)
    after_step = guard_hooks(app, b, drivers, middle=[feed_hooks.observer])
    rt = looplib.build(hal, board, app.table, shoe, log=table_log, drivers=drivers, desk=app.desk, after_step=after_step,
                       console_filters=[app.tilt, eventlog.SpaceQuery(app.audit, drivers.link),
                                        app.recorder.console_entry, StackGuard(app.table, drivers.link)],
                       alert_sinks=[feed_hooks.auditor], text_filters=text_filters)
    app.runtime = rt
    finish_boot(app, b, rt.link)
    if room:  # issue 15: the room on MQTT (a Pi) or through the console bridge (a Pico); hardware/floor.md
        from felt.room import setup as room_setup

        app.room = room_setup.attach(app, room, join(root, "room"), device,
                                     app.keys.sign if app.keys is not None else None, say)  # the device key
    return app


def stop(app, why, clock=None):
    """A clean stop (issue 16 item 4): the event log's last record of this run says so, so the
    next power-up can tell it from a power cut."""
    if app is not None and app.audit is not None:
        eventlog.power_down(app.audit, why, (clock or (lambda: 0))())


def _stop_on_sigterm():
    # CPython (the Raspberry Pi service): systemd stops it with SIGTERM, which would end the process
    # without a word; as SystemExit it reaches run()'s clean stop. No signal module: nothing to do
    try:
        import signal
    except ImportError:
        return

    def term(signum, frame):
        raise SystemExit("stopped by SIGTERM")
    if hasattr(signal, "SIGTERM"):
        signal.signal(signal.SIGTERM, term)


def _boot_tilts(app, audit_broken, clock):
    # issue 16 item 3: what the boot found that the table must not play through
    t = app.table
    if t.tilted is not None:
        app.audit.append("tilt", "still locked after a restart: %s" % t.tilted, who="board", t_ms=clock())
    if audit_broken is not None:
        app.tilt.enter(audit_broken)
    r = app.report
    if r.level == "error":  # flash damage with records after it: the journal does not verify
        app.tilt.enter("journal does not verify: %s" % r.message)


def open_journal(hal, board, root, say):
    """(journal, hand log) where the board file says (hardware/journal.md section 3): the raw
    flash ring on boards with on-chip flash ("journal": {"kind": "ring", ...}: littlefs costs
    about one 4 KB erase per record, the ring ~1.7 erases a hand), else files under the root."""
    j = getattr(board, "journal", None) or {"kind": "files"}
    if j["kind"] == "ring":
        from felt.recovery.ring import RingHandLog, RingJournal

        try:
            if not callable(getattr(hal, "flash", None)):
                raise ConfigError("HAL backend %r has no raw flash" % getattr(hal, "name", "?"))
            bdev = hal.flash(j["start"], j["length"])
        except ConfigError as e:  # no raw flash, or it would overlap the file system: files, said
            say("felt: ring journal not available (%s); journaling to files" % e)
        else:
            ring = RingJournal(bdev, log=say)
            return ring, RingHandLog(ring)
    flash = jr.DirFlash(join(root, "journal"))
    # hands.log / hands.old beside the journal (framed, power-cut safe)
    return jr.Journal(flash, log=say), jr.HandLog(flash)


def _show_alone(hal, board, text, say):
    # the table does not run, so no runtime owns the display: open it just to say why
    from felt.drivers.display import SSD1306

    try:
        i2c = board.i2c
        d = SSD1306(hal.i2c(i2c["bus"], freq=i2c.get("freq", 400000), scl=i2c["scl"], sda=i2c["sda"]),
                    i2c.get("display", 0x3C))
        d.init()
        d.show(_wrap(text, 16))
    except (OSError, FeltError) as e:  # no display answering: the log line is all there is
        say("felt: display not available (%s)" % e)


def start(app):
    """The runtime's start (antennas read, display on, console hello), then the recovery line on
    the display and, after a torn or damaged journal, as a journaled device alert (FELT1 alert)."""
    rt = app.runtime
    rt.start()
    r = app.report
    if r.level in ("warn", "error"):
        app.table.device_alert("journal", r.level, r.message, "see hardware/journal.md section 8")
        rt.apply()
    elif rt.display is not None and app.table.tilted is None:  # a tilt stays on the panel (issue 16 item 3)
        rt.show(_wrap(r.message, 16))  # stays until the table's view changes


def _wrap(text, width):
    lines, cur = [], ""
    for w in text.split():
        if cur and len(cur) + 1 + len(w) > width:
            lines.append(cur)
            cur = w
        else:
            cur = (cur + " " + w) if cur else w
    if cur:
        lines.append(cur)
    return lines[:8]


# -- the device's main program (firmware/main.py calls these) --------------------------------------

def _read_json(paths, default):
    for p in paths:
        try:
            with open(p) as f:
                return json.load(f)
        except OSError:
            continue
    return default


def config_paths(root, name, hal_name=None):
    """Where a configuration file is looked for: the data root first (survives deploys), then the
    code folder (shipped with the tree), then -- on a Raspberry Pi only, whose release ships
    `hardware/` beside `firmware/` -- the repository's board map. A Pico has no such folder
    (feltctl flashes the firmware tree alone): its board.json is copied to the data root."""
    out = [join(root, name), name]
    if name == "board.json" and hal_name == "rpi":
        out.append("../hardware/boards/rpi.json")
    return out


def load_board(root, hal_name=None):
    from felt.runtime import board as boardlib

    for p in config_paths(root, "board.json", hal_name):
        try:
            return boardlib.load_file(p)
        except OSError:
            continue
    if hal_name == "rpi":
        raise FeltError("no board.json in %s, the code folder or ../hardware/boards/rpi.json" % root)
    raise FeltError("no board.json in %s or the code folder: copy hardware/boards/pico.json to %s "
                    "(hardware/flashing.md)" % (root, join(root, "board.json")))


def open_hal(name):
    """The HAL by name: machine (MicroPython boards), rpi (Raspberry Pi), sim (anything else)."""
    if name == "machine":
        from felt.hal.machine_hal import MachineHAL
        return MachineHAL()
    if name == "rpi":
        from felt.hal.rpi_hal import RPiHAL
        return RPiHAL()
    from felt.hal.sim.hal import SimHAL
    return SimHAL()


def bare_sim(hal, board, root="/"):
    """The sim HAL outside the simulator (main.py on a sim board): empty antennas, an idle PN532
    shoe reader and the display are modelled, so the table boots quietly and shows its lines; no
    cards, button presses or console traffic arrive."""
    if not hasattr(hal, "add_display"):
        return
    j = getattr(board, "journal", None)
    if j is not None and j["kind"] == "ring":
        hal.flash_path = join(root, "flash.ring")  # the board's raw flash: kept across a reboot
    from felt.hal.sim.mfrc522 import SimMFRC522
    from felt.hal.sim.pn532 import SimPN532

    i2c = board.i2c
    hal.add_display(i2c["bus"], i2c.get("display", 0x3C))
    bus = hal.spi(board.spi["bus"])
    key = board.decoder["decoder"] if board.decoder is not None else None
    for loc, line in board.antennas:
        bus.attach((key, line) if key is not None else line, SimMFRC522(hal.clock))
    hal.uart(board.uarts["shoe"]["port"]).attach(SimPN532())
    try:  # the simulated board's maintenance key switch (feltctl simboard: SimBoard.key_switch)
        import machine

        if getattr(machine, "sim_key_switch", False) and board.board in MAINTENANCE_PINS:
            hal.held[MAINTENANCE_PINS[board.board]] = 0
    except ImportError:
        pass


def registry_from(decks):
    from felt.engine.deck import DeckRegistry

    reg = DeckRegistry()
    for deck_id in sorted(decks):
        tags = decks[deck_id]
        reg.register(deck_id, dict([(bytes.fromhex(u), tags[u]) for u in tags]))
    return reg


def _sleeper(hal):
    import time

    real = getattr(time, "sleep_ms", None) or (lambda ms: time.sleep(ms / 1000))
    clock = getattr(hal, "clock", None)
    if clock is None or not hasattr(clock, "advance_ms"):
        return real

    def sleep(ms):  # the sim HAL's clock is manual: waiting moves it on
        real(ms)
        clock.advance_ms(ms)
    return sleep


_ENOSPC = 28


def reclaim_deploy(root, log):
    """Before the table writes anything at boot: free a firmware slot an interrupted `feltctl
    flash` left half-written (felt.deploy_agent.reclaim), or it fills the flash under the audit
    log and the journal (issue 18 item 1). Only on a board's own flash (data root "/", MicroPython);
    the module is dropped again, its code is not kept in RAM."""
    import sys

    if root != "/" or sys.implementation.name != "micropython":
        return []
    try:
        from felt import deploy_agent
    except ImportError:
        return []
    try:
        freed = deploy_agent.reclaim()
    finally:
        sys.modules.pop("felt.deploy_agent", None)
    for folder, n in freed:
        log("felt: freed the unfinished deploy in %s (%d bytes)" % (folder, n))
    return freed


def storage_full(root):
    """StorageFull for an ENOSPC at boot: the free bytes, and what to do -- a named error on the
    console and the display instead of a traceback (issue 18 item 1)."""
    try:
        st = os.statvfs(root)
        free = st[0] * st[3]
    except (OSError, AttributeError):
        free = -1
    return StorageFull("the flash is full (%d bytes free): copy the hand histories and the audit log off "
                       "(feltctl export / audit verify --port) and remove them, or deploy a smaller "
                       "firmware (feltctl flash)" % free, free)


def run(hal, board, root, log=print, steps=None):
    """Boot and run the table: banner, build (in boot order), start, loop. In production an
    unexpected error resets a MicroPython board (never the REPL); elsewhere it propagates
    (systemd restarts the Raspberry Pi service). A full flash (ENOSPC) is StorageFull."""
    try:
        return _run(hal, board, root, log, steps)
    except OSError as e:
        if not e.args or e.args[0] != _ENOSPC:
            raise
        raise storage_full(root)


def _run(hal, board, root, log, steps):
    heap.collect_early()  # before the table's state exists: collect every few KB, not on failure
    log("%s: board %s (%s), hal %s, data %s" % (VERSION, board.name, board.board, type(hal).__name__, root))
    reclaim_deploy(root, log)
    bare_sim(hal, board, root)
    settings = _read_json(config_paths(root, "table.json"), {"game": "holdem", "structure": "no_limit",
                                                             "seats": board.seats, "sb": 1, "bb": 2})
    shoe = settings.pop("shoe", "pn532")  # "pn532" or "ascii"
    if settings.get("game") == "blackjack":  # issue 17 item 3: loaded only for a blackjack table
        return _run_blackjack(hal, board, root, log, steps, settings, shoe)
    from felt.table.controller import Table, TableConfig  # the poker table (a blackjack one never loads it)

    rotation = auditlib.Rotation.from_config(settings)  # audit_max_bytes / audit_keep (security.md)
    settings.pop("audit_max_bytes", None)
    settings.pop("audit_keep", None)
    cfg = TableConfig(**settings)
    reg = registry_from(_read_json(config_paths(root, "decks.json"), {}))
    app = build(hal, board, lambda history, table_log: Table(cfg, reg, log=table_log, history=history), root, shoe=shoe,
                log=log, keys_path=getenv("FELT_KEYS"), audit_rotation=rotation,
                counter_path=getenv("FELT_COUNTER"), room=_read_json(config_paths(root, "room.json"), None))
    return serve(app, hal, log, steps)


def serve(app, hal, log, steps=None):
    """Start the built table and run its loop, whatever its game. A Ctrl-C or SIGTERM is a clean
    stop (recorded, issue 16 item 4); in production an unexpected error resets a MicroPython
    board (never the REPL). A refused tree (app.halted) does not run."""
    if app.halted is not None:
        return app  # the refusal is logged and audited; maintenance keeps the REPL for a fix
    # what served the boot only (hardware/memory.md, Idioms 7): the board map's checker (its drivers
    # are open, the map is a plain record: ~2.5 KB of RAM on a 32-bit board), the signed-tree check
    # and its manifest reader (the mode and the manifest's hash stay as texts: ~5.8 KB)
    for name in ("felt.runtime.board", "felt.security.bootcheck", "felt.security.manifest"):
        heap.forget(name)
    _stop_on_sigterm()
    try:
        start(app)
        wiring.run_forever(app.runtime, _sleeper(hal), steps=steps, start=False)
    except (KeyboardInterrupt, SystemExit) as e:  # a clean stop: recorded (issue 16 item 4)
        stop(app, "%s %s" % (type(e).__name__, e), hal.ticks_ms)
        raise
    except Exception as e:  # the last line of defence: never end in the REPL in production
        if app.mode == PRODUCTION:
            try:
                import machine
            except ImportError:
                raise e
            log("felt: unexpected %s: %s -- resetting" % (type(e).__name__, e))
            machine.reset()
        raise
    return app


def _run_blackjack(hal, board, root, log, steps, settings, shoe):
    """The blackjack table (felt.runtime.blackjack): the same secure boot, journal seal, tilt lock,
    floor desk, antenna check and loop guard as poker (issue 17). Returns the App."""
    from felt.runtime import blackjack as bjrt

    reg = registry_from(_read_json(config_paths(root, "decks.json"), {}))
    app = bjrt.build(hal, board, settings, reg, root, shoe=shoe, log=log, keys_path=getenv("FELT_KEYS"),
                     counter_path=getenv("FELT_COUNTER"))
    return serve(app, hal, log, steps)
