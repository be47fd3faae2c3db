# The blackjack table's runtime (runtime layer; issue 17 item 3): what felt.runtime.app runs when
# table.json says "game": "blackjack". The board's drivers (loop.open_drivers: shoe, console link,
# antennas, seat buttons, lights, display) are wired to felt.table.blackjack.BlackjackTable, which
# the journal records and rebuilds after a power cut (felt.recovery.restore). Loaded only for a
# blackjack table: the poker path imports nothing from here (tests/host/test_blackjack_not_on_poker_path.py).
# Board map: the antenna of seat N is box N (1..bj.boxes), the board antenna is the dealer's spot.
# Console (FELT1 1.4, hardware/protocols/console.md): newhand, bet BOX AMOUNT, and
# `bj WORD [BOX] [AMOUNT]` for the rest (newshoe, close, hit, stand, double, split, surrender,
# redouble, insure, even, noinsure, closeinsurance). Seat buttons (felt.table.blackjack.button):
# a short press offers hit, double, split, surrender, re-double (insure, even money during the
# insurance offer) in turn on the display, a long press takes the offer or stands / declines.
# Security (issue 16, shared with poker through felt.runtime.app: secure_boot, journal_seal,
# floor_desk, guard_hooks, finish_boot, serve): the signed boot check, the audit / event log, the
# sealed journal, the tilt lock, the floor desk (`clear`, `time`), the boot antenna check, the
# key switch watch, the production reset and the clean-stop record. Not here: the poker secrecy
# feed (commitments of face-down cards) and the room.
import json

from felt.drivers import neopixel_lights as leds
from felt.drivers import shoe as shoe_mod
from felt.engine.blackjack.rules import BlackjackRules
from felt.errors import ConfigError
from felt.history import blackjack as bjh
from felt.recovery import restore as recovery
from felt.runtime import wiring
from felt.table import blackjack_view as view
from felt.table.blackjack import DEALER, DEALER_SPOT, BlackjackTable

_DECIDE = ("hit", "stand", "double", "split", "surrender", "redouble")
_INSURE = {"insure": "yes", "even": "even", "noinsure": "no", "closeinsurance": "close"}


def spot(location):
    """The blackjack spot of a board antenna: 'seat3' -> 'box3', 'board' -> 'dealer'; None else."""
    if location == "board":
        return DEALER_SPOT
    if location.startswith("seat"):
        return "box" + location[4:]
    return None


def location(box):
    """The board antenna of a blackjack spot (the inverse of spot): 3 -> 'seat3', DEALER -> 'board'."""
    return "board" if box == DEALER else "seat%d" % box


class BoardSpots:
    """The blackjack table as the boot antenna check (felt.recovery.antennas.AntennaCheck) sees it:
    onant, the cards of the round in play by board antenna; antenna() and device_alert() passed on."""

    def __init__(self, table):
        self.table = table

    @property
    def onant(self):
        t = self.table
        out = {}
        if t.state == "playing":
            for u in t.spot:
                out[u] = location(t.spot[u])
        return out

    def antenna(self, event):
        s = spot(event[1])
        return self.table.antenna((event[0], s, event[2])) if s is not None else None

    def device_alert(self, device, level, text, remedy=""):
        return self.table.device_alert(device, level, text, remedy)


class FloorView:
    """The blackjack table as the floor desk (felt.security.floordesk.FloorDesk, verbs `clear` and
    `time`) sees it: its log, its alerts, its tilt."""

    def __init__(self, table):
        self.table = table

    def log(self, text):
        self.table.log(text)

    def alert(self, level, rules, text, remedy="", device=None):
        self.table.alert(level, rules[0] if rules else "", text)

    def rule_alert(self, err):
        self.table._refused(err)

    def clear_tilt(self):
        return self.table.clear_tilt()


def lights(t):
    """The seat LEDs (drivers.neopixel_lights roles): the action light on the box that decides
    now (BJ-5); during the insurance offer the all-in light of every box that may still answer
    (BJ-15). The other box states (bet, won, lost, push) have no LED on the poker light layout;
    the display shows them."""
    out = {leds.DEALER: None, leds.SMALL_BLIND: None, leds.BIG_BLIND: None, leds.ACTION: None, leds.ALL_IN: []}
    states = view.lights(t)
    for b in sorted(states):
        if states[b] == view.ACT:
            out[leds.ACTION] = b
        elif states[b] == view.INSURE:
            out[leds.ALL_IN].append(b)
    return out


class RoundFiles:
    """The round history sink: each settled round's .bjh line appended to <folder>/rounds.bjh
    (hardware/blackjack-history.md; `feltctl replay` reads it)."""

    def __init__(self, path):
        self.path = path

    def __call__(self, line):
        try:
            with open(self.path) as f:
                new = not f.read(1)
        except OSError:
            new = True
        with open(self.path, "a") as f:
            if new:
                f.write(bjh.HEADER + "\n")
            f.write(line + "\n")


class BlackjackRuntime:
    """One step polls the drivers (shoe first: a card leaves the shoe before it lands), hands each
    event to the table in order, then applies lights and display computed from its state.
    Hooks as loop.Runtime's (felt.runtime.app.guard_hooks): console_filters fn(msg) before the
    table sees an entry (the tilt lock, the event log's space query, the journal's line note);
    after_step fn(now_ms) after each step (the boot antenna check, the tilt watch, the key switch);
    alert_sinks fn(alert) for every table alert after the console (the audit log). desk: the floor
    desk (FELT1 1.1 challenge / auth / deckline), None on an unprovisioned board."""

    def __init__(self, hal, table, drivers, log=None, console_filters=None, after_step=None, alert_sinks=None,
                 desk=None):
        self.hal = hal
        self.table = table
        self.d = drivers
        self.log = log
        self.console_filters = console_filters if console_filters is not None else []
        self.after_step = after_step if after_step is not None else []
        self.alert_sinks = alert_sinks if alert_sinks is not None else []
        self.desk = desk
        self.poller = drivers.poller
        self.link = drivers.link
        self.display = drivers.display
        self._lines = None
        self._applied_ms = 0
        self.steps = 0
        self.events = 0
        table.notify = self._notify

    def start(self):
        d = self.d
        if d.poller is not None:
            for e in d.poller.start():
                self._antenna(e)
        if d.display is not None:
            d.display.init()
        if d.link is not None:
            d.link.hello()
        self.apply()

    def step(self):
        now = self.hal.ticks_ms()
        d = self.d
        n = 0
        if d.shoe is not None:
            n += self._each(self._shoe, d.shoe.poll(now))
        if d.link is not None:
            n += self._each(self._console, d.link.poll(now))
        if d.buttons is not None:
            n += self._each(self._button, d.buttons.poll(now))
        if d.poller is not None and now >= d.poller.next_due_ms:
            n += self._each(self._antenna, d.poller.poll(now))
        self.events += n
        self.steps += 1
        if n or now - self._applied_ms >= wiring.REFRESH_MS:
            self._applied_ms = now
            self.apply()
        wiring.run_hooks(self.after_step, now)
        return n

    def _each(self, fn, events):
        i = 0
        while i < len(events):
            fn(events[i])
            i += 1
        return i

    def next_due_ms(self):
        now = self.hal.ticks_ms()
        due = now + wiring.POLL_MS
        p = self.d.poller
        if p is not None and p.next_due_ms < due:
            due = p.next_due_ms
        return due if due > now else now

    def apply(self):
        d = self.d
        if d.lights is not None:
            d.lights.apply(lights(self.table))
        if d.display is not None:
            lines = view.lines(self.table)
            if lines != self._lines:
                self._lines = lines
                self.show(lines)

    def show(self, lines):
        self.d.display.show(lines)

    # -- events ----------------------------------------------------------------------------------
    def _shoe(self, e):
        if e.kind == shoe_mod.CARD:
            self.table.shoe_card(e.uid)
        elif e.kind in (shoe_mod.FAULT, shoe_mod.STOPPED):
            self.table.alert("error" if e.kind == shoe_mod.STOPPED else "warn", "", "shoe reader: %s" % (e.detail,))

    def _antenna(self, e):
        if e[0] != "card-arrived" and e[0] != "card-left":
            # collision, truncated (an antenna holding more tags than it inventories), reader status
            # and their -cleared events: two words, no card; the log keeps them
            if self.log is not None:
                self.log("antenna %s: %s" % (e[1], e[0]))
            return
        s = spot(e[1])
        if s is not None:
            self.table.antenna((e[0], s, e[2]))

    def _button(self, e):
        if e[0] != "button":
            return
        if self.table.tilted is not None:  # issue 16 item 3: play is locked; the press is logged, not taken
            if self.log is not None:
                self.log("tilt: seat %s button ignored (play locked)" % (e[1],))
            return
        self.table.button(e[1], e[2])

    def _console(self, msg):
        for f in self.console_filters:
            if f(msg):
                return
        t = self.table
        link = self.link
        verb = msg.verb
        a = msg.args
        if verb == "pong":
            return
        if verb in wiring.FLOOR_WIRE:  # FELT1 1.1 floor-key verbs: the floor desk answers
            if self.desk is None:
                link.reply_error(msg.seq, "no floor keys on this table (provision it first)", code="auth")
            else:
                self.desk.answer(msg, link, self.hal.ticks_ms())
            return
        if verb == "newhand":
            ok = t.new_hand()
        elif verb == "bet":
            ok = t.bet(a[0], a[1])
        elif verb == "bj" and a[0] == "newshoe":
            ok = t.new_shoe()
        elif verb == "bj" and a[0] == "close":
            ok = t.close_bets()
        elif verb == "bj" and a[0] in _DECIDE and len(a) > 1:
            ok = t.decide(a[1], a[0])
        elif verb == "bj" and a[0] in _INSURE:
            ok = t.insure(a[1] if len(a) > 1 else 0, _INSURE[a[0]], a[2] if len(a) > 2 else None)
        else:
            link.reply_error(msg.seq, "%s is not a blackjack console entry" % " ".join([verb] + [str(x) for x in a]),
                             code="unsupported")
            return
        if ok:
            link.reply_ok(msg.seq)
            return
        level, rule, text = t.alerts[-1] if t.alerts else ("error", "", "refused")
        link.reply_error(msg.seq, wiring.clean(text), rule=rule or None, code="rule")

    def _notify(self, a):
        for sink in self.alert_sinks:
            sink(a)
        if self.link is None:
            return
        try:
            self.link.alert(a[0] if a[0] in ("info", "warn", "error") else "error", wiring.clean(a[2]),
                            rule=a[1] or None)
        except ValueError as e:  # a text the codec refuses is logged, never lost silently
            if self.log is not None:
                self.log("console: alert not sent: %s" % e)


def build(hal, board, settings, registry, root, shoe="pn532", log=None, keys_path=None, pressed=None,
          micropython_module=None, counter_path=None, clock=None, audit_rotation=None):
    """The assembled blackjack table (felt.runtime.app.App: runtime, table, report, audit, tilt,
    desk, antennas) for table.json `settings` ({"game": "blackjack", "name": .., "decks": [deck
    ids], "cut_uid": HEX, "bj": {house rules}}), booted as poker's: app.secure_boot and the shared
    hooks. A refused tree: app.halted says why and nothing else is built."""
    from felt.runtime import app as applib
    from felt.security import eventlog

    decks = settings.get("decks")
    if not decks:
        raise ConfigError("blackjack: table.json names no decks (\"decks\": [ids from decks.json])")
    rules = BlackjackRules(settings.get("bj") or {})
    cut = settings.get("cut_uid")
    cut_uid = bytes.fromhex(cut) if cut else None
    name = settings.get("name", board.name)
    app, b = applib.secure_boot(hal, board, root, pressed, log, micropython_module, keys_path, clock,
                                audit_rotation, counter_path)
    if app.halted is not None:
        return app
    say = b.say
    app.journal, app.handlog = applib.open_journal(hal, board, root, say)

    def make(history):
        return BlackjackTable(rules, registry, decks, cut_uid=cut_uid, name=name, log=say, history=history)
    # issue 16 item 5: on a provisioned board the CARD and ANTENNA records (every tag UID, the
    # dealer's hole card's too) are sealed on flash
    app.table, app.recorder, app.report = recovery.restore_table(
        app.journal, make, app.handlog, log=say, history=RoundFiles(applib.join(root, "hands/rounds.bjh")),
        seal=applib.journal_seal(app, b))
    app.desk = applib.floor_desk(app, b, FloorView(app.table))
    if app.desk is not None:
        app.desk.verbs = ("clear", "time")  # the poker floor commands (void, stack, level, ...) are refused
    d = wiring.open_drivers(hal, board, board.seats, shoe, log=say)
    after_step = applib.guard_hooks(app, b, d, antennas_of=BoardSpots(app.table))

    def audited(a):  # every table alert is an audit record (rate-limited like any record anyone can cause)
        app.audit.append("alert", "%s %s: %s" % (a[0], a[1] or "-", a[2]), who="table", t_ms=b.clock())
    app.runtime = BlackjackRuntime(hal, app.table, d, log=say, after_step=after_step, alert_sinks=[audited],
                                   desk=app.desk, console_filters=[app.tilt, eventlog.SpaceQuery(app.audit, d.link),
                                                                   app.recorder.console_entry])
    applib.finish_boot(app, b, d.link)
    say("felt: blackjack table %s, %d decks, rules %s" % (name, len(decks), json.dumps(settings.get("bj") or {})))
    return app
