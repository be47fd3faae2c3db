# The runtime loop (runtime layer): the ONLY place that reads the clock. Each step polls the
# drivers with now_ms from the HAL (shoe, console, buttons, then the antenna due next) into a bounded
# event queue (queue.py), hands the queued events to the table controller in order, and applies
# view.py's desired lights and display lines (the drivers send differences only). Interrupts only
# queue (buttons' ring buffer). Works with a manual clock: a test or the sim runner calls step() and
# advances the clock itself -- no sleeps here except in run_forever(), the device's main loop.
# Everything else the device does around the loop comes in as declared hooks (Runtime's docstring
# says in which order they run): nothing outside this file replaces a method of the runtime, its
# drivers or the table after they are built.
from felt import view
from felt.drivers import shoe as shoe_mod
from felt.engine.house.rules import CASH
from felt.errors import FeltError
from felt.table.alerts import ERROR, INFO, WARN
from felt.runtime.queue import EventQueue
# what every runtime shares (the blackjack one too, without this module's poker imports)
from felt.runtime.wiring import FLOOR_WIRE as _FLOOR_WIRE, POLL_MS, REFRESH_MS, Drivers, clean as _clean  # noqa: F401
from felt.runtime.wiring import open_drivers, run_forever, run_hooks  # noqa: F401
from felt.proto import console as proto
from felt.table.state import OVER, PLAYING

PANEL_MS = 5000  # the whole panel is rewritten this often (an SSD1306 that reset is blank)
GRACE_MS = 500  # a shoe read that reaches no antenna within this (and a full sweep) went 'nowhere'
QUEUE_SIZE = 64
_SHOE = 0  # event sources in the queue
_CONSOLE = 1
_BUTTON = 2
_ANTENNA = 3
_ACTIONS = ("fold", "check", "call", "bet", "raise", "allin", "bringin", "complete")
_NEEDS_KEY = ("void", "stack", "level", "structure", "delay", "deck", "clear", "time")  # floor commands: challenge + auth


def _word(value):
    # a FELT1 value token: letters, digits and _.%:/-+ only
    out = []
    for c in str(value):
        out.append(c if (c.isalpha() or c.isdigit() or c in "_.%:/-+") else "_")
    return "".join(out) or "-"


def _chip_range(legal):
    # a RuleError's legal range as FELT1 legal=MIN..MAX when it is one (seat lists etc. stay in the text)
    if isinstance(legal, tuple) and len(legal) == 2 and isinstance(legal[0], int) and isinstance(legal[1], int):
        if 0 <= legal[0] <= legal[1] <= proto.MAX_CHIPS and not isinstance(legal[0], bool):
            return legal
    return None


def _typed(msg):
    """The console entry with every text field inert (proto.inert, issue 12 item 1): whatever the
    table echoes of it (alerts, replies, the log, the display) passes any card filter unchanged.
    A copy: the link keeps the message as received to spot a retransmission."""
    args = [proto.inert(a) if isinstance(a, str) else a for a in msg.args]
    opts = {}
    for k in msg.opts:
        v = msg.opts[k]
        opts[k] = proto.inert(v) if isinstance(v, str) else v
    text = proto.inert(msg.text)
    if text == msg.text and args == msg.args and opts == msg.opts:
        return msg
    out = proto.Message(msg.seq, msg.verb, args, opts, text)
    out.raw = getattr(msg, "raw", None)
    out.at_ms = getattr(msg, "at_ms", None)
    return out


class Runtime:
    """Wires drivers to the controller. Any driver may be None (a bench setup without it).
    shoe: drivers.shoe (PN532Shoe/AsciiShoe); poller: drivers.antennas.AntennaPoller;
    buttons: drivers.buttons.SeatButtons; link: drivers.console_link.ConsoleLink (table role);
    lights: drivers.neopixel_lights.SeatLights; display: drivers.display.SSD1306; desk:
    security.floordesk.FloorDesk for the authenticated floor commands (None: the table has no floor keys).

    Hooks, each a list the runtime keeps (not a copy; felt.runtime.app.build passes them):
    - console_filters: fn(msg) for every console entry, in list order, before the table sees it;
      True means the filter answered the entry itself and it goes no further (the journal's note
      of the line being handled, then the floor desk's stack guard).
    - after_step: fn(now_ms) at the end of every step, in list order (the boot antenna check, then
      the secrecy feed's observer). A hook may remove itself from the list; the ones after it
      still run in that step.
    - alert_sinks: fn(alert) for every table alert, after the console link got it (the audit log).
    - text_filters: fn(text) -> text, in list order, on every text leaving through the display and
      the console link (the link is given the same list; the secrecy guard). The log sink comes
      in as `log`, already filtered by whoever built it.
    The runtime is the table's alert sink: it sets table.notify (the one thing it sets on another
    object)."""

    def __init__(self, hal, table, shoe=None, poller=None, buttons=None, link=None, lights=None, display=None,
                 log=None, grace_ms=GRACE_MS, desk=None, after_step=None, console_filters=None, alert_sinks=None,
                 text_filters=None):
        self.hal = hal
        self.table = table
        self.shoe = shoe
        self.poller = poller
        self.buttons = buttons
        self.link = link
        self.lights = lights
        self.display = display
        self.log = log
        self.grace_ms = grace_ms
        self.desk = desk
        self.after_step = after_step if after_step is not None else []
        self.console_filters = console_filters if console_filters is not None else []
        self.alert_sinks = alert_sinks if alert_sinks is not None else []
        self.text_filters = text_filters if text_filters is not None else []
        self.steps = 0
        self.events = 0  # physical events handed to the controller
        self._busy_since = None
        self._lines = None
        self._in_hand = None
        self._console_errors = 0
        self._moved_sweep = None
        self.queue = EventQueue(QUEUE_SIZE)  # driver events waiting for the controller
        self._dropped = 0
        self._busy_sweep = 0
        self._applied_ms = 0
        self._panel_ms = 0
        table.notify = self._notify

    def start(self):
        if self.poller is not None:
            for e in self.poller.start():
                self.table.antenna(e)
        if self.display is not None:
            self.display.init()
        if self.link is not None:
            self.link.hello()
        self.apply()

    # -- one step ------------------------------------------------------------------------------
    def step(self):
        # one pass, in phases small enough that MicroPython keeps each frame on the C stack (a frame
        # of more than 11 words is allocated on the heap at every call; tests/host/test_hot_path_frames.py)
        now = self.hal.ticks_ms()
        self._poll(now)  # 1. the drivers into the queue
        n = self._take()  # 2. the controller takes the queued events in order
        self._timers(now)
        self._watch(now)
        self.events += n
        self.steps += 1
        if n or now - self._applied_ms >= REFRESH_MS:
            # after events, and every REFRESH_MS anyway: lights and panel that lost their state
            # (a reset, a dropped write) are repaired from the table's state
            self._applied_ms = now
            self.apply()
        if self.display is not None and now - self._panel_ms >= PANEL_MS:
            self._panel_ms = now
            self.display.refresh()  # a panel that reset itself shows nothing until rewritten
        self._after(now)  # 3. the after-step hooks
        return n

    def _poll(self, now):
        # shoe first: a card leaves the shoe before it lands
        if self.shoe is not None:
            self._queue(_SHOE, self.shoe.poll(now))
        if self.link is not None:
            self._poll_console(now)
        if self.buttons is not None:
            self._queue(_BUTTON, self.buttons.poll(now))
        if self.poller is not None:
            self._poll_antennas(now)

    def _queue(self, kind, events):
        # an index loop: a for loop's iterator takes 4 frame words (MicroPython)
        i = 0
        while i < len(events):
            self.queue.put((kind, events[i]))
            i += 1

    def _poll_console(self, now):
        link = self.link
        self._queue(_CONSOLE, link.poll(now))
        if link.health.errors != self._console_errors:
            self._console_errors = link.health.errors
            self.table.device_alert("console", WARN, "a broken console line was refused (%d so far)"
                                    % self._console_errors, "the console resends it; check the cable if this repeats")

    def _poll_antennas(self, now):
        p = self.poller
        t = self.table
        if self._in_hand != t.in_hand:
            self._in_hand = t.in_hand
            p.set_in_hand(t.in_hand)
        if now >= p.next_due_ms:
            self._queue(_ANTENNA, p.poll(now))

    def _take(self):
        q = self.queue
        n = 0
        while True:
            item = q.get()
            if item is None:
                break
            n += 1
            self._dispatch(item[0], item[1])
        if q.dropped != self._dropped:
            self._dropped = q.dropped
            self.table.device_alert("loop", ERROR, "%d events were dropped (queue full)" % q.dropped,
                                    "the table is overloaded; check for a chattering device")
        return n

    def _timers(self, now):
        t = self.table
        if t.tilted is not None:
            return  # issue 16 item 3: no clock acts on a locked table (an expiry would fold a hand)
        lc = t.level_clock
        if t.action_clock is not None or (t.state == PLAYING and t.config.mode == CASH
                                          and t.config.house.cash_action_timer != "off"):
            # TOUR-6: the clock on a seat; CASH-13: the action timer on every turn. Each tick is
            # journaled, so only when one is due (a smaller now: the board restarted)
            from felt.table import action_clock as table_clock

            if table_clock.due(t, now):
                t.clock_tick(now)
        elif lc is not None and (lc.behind(now) or (t.state == OVER and (t.awarded is None or now < t.awarded[0]))):
            t.clock_tick(now)  # TOUR-1: the board restarted; POT-18: the time of an award (once a hand)

    def _watch(self, now):
        # cards that moved, and a shoe read that reached no antenna
        t = self.table
        p = self.poller
        if p is not None and t.moved:
            if self._moved_sweep is None:
                self._moved_sweep = p.sweeps
            elif p.sweeps - self._moved_sweep > p.miss_limit:  # the old antenna had time to miss it
                t.check_moves(self._still_there)
                self._moved_sweep = None
        if t.busy():
            # a card read by the shoe is 'nowhere' only once every antenna has been polled after
            # the read (two sweep-counter steps) and the grace time passed: a loaded 10-seat
            # table takes most of a second per sweep
            if self._busy_since is None:
                self._busy_since = now
                self._busy_sweep = p.sweeps if p is not None else 0
            elif now - self._busy_since >= self.grace_ms and (p is None or p.sweeps - self._busy_sweep >= 2):
                t.resolve()
                self._busy_since = None
        else:
            self._busy_since = None

    def _after(self, now):
        run_hooks(self.after_step, now)

    def _dispatch(self, kind, e):
        t = self.table
        if kind == _SHOE:
            self._shoe_event(e)
        elif kind == _CONSOLE:
            for f in self.console_filters:
                if f(e):
                    return  # the filter answered it
            self._console(e)
        elif kind == _BUTTON:
            if e[0] != "button":
                t.button_fault(e[1], e[2], e[0] == "button-fault-cleared")
            elif t.tilted is None:
                t.button(e[1], e[2])
            elif self.log is not None:  # issue 16 item 3: play is locked; the press is logged, not taken
                self.log("tilt: seat %s button ignored (play locked)" % (e[1],))
        else:
            t.antenna(e)

    def _still_there(self, location, hexu):
        # an inventory that stopped at its limit keeps cards it no longer reads: no conclusion
        p = self.poller
        return not p.truncated(location) and hexu in p.present(location)

    def next_due_ms(self):
        """When step() has something to do next (the sim runner advances the clock to it)."""
        now = self.hal.ticks_ms()
        due = now + POLL_MS
        if self.poller is not None and self.poller.next_due_ms < due:
            due = self.poller.next_due_ms
        if self._busy_since is not None and now < self._busy_since + self.grace_ms < due:
            due = self._busy_since + self.grace_ms
        c = self.table.action_clock
        if c is not None and c.next_due_ms() is not None and now < c.next_due_ms() < due:
            due = c.next_due_ms()  # TOUR-6: a sleeping board wakes for the countdown and the expiry
        return due if due > now else now

    def apply(self):
        """Lights and display from view.py (the drivers write only what changed)."""
        if self.lights is not None:
            self.lights.apply(view.lights(self.table))
        if self.display is not None:
            lines = view.lines(self.table, self.hal.ticks_ms())
            if lines != self._lines:
                self._lines = lines
                self.show(lines)

    def show(self, lines):
        """Lines on the display, each through the text filters first."""
        filters = self.text_filters
        if filters:
            out = []
            for ln in lines:
                for f in filters:
                    ln = f(ln)
                out.append(ln)
            lines = out
        self.display.show(lines)

    # -- events --------------------------------------------------------------------------------
    def _shoe_event(self, e):
        t = self.table
        if e.kind == shoe_mod.CARD:
            t.shoe_card(e.uid, e.repeat)
        elif e.kind == shoe_mod.FAULT and e.reason == shoe_mod.LOST_RESPONSE:
            # asked for again and still broken: a card may have left the shoe unread
            t.device_alert("shoe", ERROR, "shoe reader: an answer was lost (%s)" % e.detail,
                           "a card may have left the shoe unread: check the cards on the table against the shoe "
                           "count; check the shoe cable")
        elif e.kind == shoe_mod.FAULT:
            t.device_alert("shoe", WARN, "shoe reader: %s" % e.detail,
                           "the frame is asked for again; check the shoe cable if this repeats")
        elif e.kind == shoe_mod.STOPPED:
            t.device_alert("shoe", ERROR, "the shoe reader stopped answering (%s ms silent)" % e.detail,
                           "check the shoe reader's power and cable; cards drawn now are read from the antennas")
        elif e.kind == shoe_mod.RECOVERED:
            t.device_alert("shoe", INFO, "the shoe reader answers again")
        # any other kind (reader_ready, ...) the shoe driver has logged itself

    def _console(self, msg):
        t = self.table
        verb = msg.verb
        if verb not in _FLOOR_WIRE:  # the floor desk makes its own refusals inert (HMAC over the text)
            msg = _typed(msg)
        before = t.seq
        ok = True
        if verb in _ACTIONS:
            amount = msg.args[1] if len(msg.args) > 1 else None
            ok = t.act(msg.args[0], verb, amount) is not None
        elif verb == "push":
            o = msg.opts
            said = o.get("declared")
            ok = t.push(msg.args[0], msg.args[1], said="all_in" if said == "allin" else said, amount=o.get("said"),
                        earlier=o.get("prior")) is not None
        elif verb == "set":
            ok = t.configure(msg.args[0], msg.args[1] if len(msg.args) > 1 else None, now_ms=self._at(msg))
        elif verb == "get":
            value = t.setting(msg.args[0], now_ms=self._at(msg))
            if value is None:
                self.link.reply_error(msg.seq, "unknown setting %s" % msg.args[0], code="bad_args")
            else:
                self.link.reply_ok(msg.seq, value=value if isinstance(value, int) else _word(value))
            return
        elif verb == "pot" or verb == "count":
            # BET-26 / BET-48: a count a player asks for, answered as the house rule allows
            a = msg.args
            if verb == "pot":
                got = t.pot_count(a[0] if a else None)
            else:
                got = t.stack_count(a[0], a[1] if len(a) > 1 else None)
            if got is not None:
                out = {}
                for k in got:
                    out[k] = int(got[k])  # approx: 1 / 0
                self.link.reply_ok(msg.seq, **out)
                return
            ok = False
        elif verb == "mark":
            ok = t.mark(msg.args[0], msg.args[1], msg.opts.get("card"))
        elif verb == "confirm" or verb == "reject":
            ok = t.ruling(msg.args[0], verb == "confirm")
        elif verb == "newhand":
            try:
                t.new_hand(now_ms=self._at(msg))  # timed penalties count from it (TOUR-17)
            except FeltError as e:  # RuleError/ConfigError: named, shown, state unchanged
                t.alert(WARN, (e.rule,) if hasattr(e, "rule") else (), "new hand refused: %s" % e)
                ok = False
        elif verb == "stack":
            try:
                t.sit(msg.args[0], msg.args[1])
            except FeltError as e:
                t.alert(WARN, ("CASH-1",), "stack refused: %s" % e)
                ok = False
        elif verb == "kill":
            ok = t.kill(msg.args[0], msg.opts.get("rule"), msg.text)
        elif verb == "misdeal":
            ok = t.misdeal(msg.opts.get("rule"), msg.text)
        elif verb == "post":
            ok = t.post(msg.args[0], msg.args[1], msg.args[2] if len(msg.args) > 2 else None)
        elif verb == "floor":
            if msg.args[0] in _NEEDS_KEY:  # money or the game outside play: the authenticated path
                self.link.reply_error(msg.seq, "floor %s needs the floor key: send challenge, then auth" % msg.args[0],
                                      code="auth")
                return
            o = msg.opts
            ok = t.floor_decision(msg.args[0], msg.args[1] if len(msg.args) > 1 else None, o.get("rule"),
                                  o.get("amount"), msg.text, now_ms=self._at(msg))
        elif verb in _FLOOR_WIRE:
            self._floor_wire(msg)
            return
        elif verb == "pong":  # a reply, not an entry: nothing to apply, nothing to answer
            return
        else:
            self.link.reply_error(msg.seq, "verb %s is not handled by this table" % verb, code="unsupported")
            return
        if ok:
            self.link.reply_ok(msg.seq)
            return
        self._refused(msg, before)

    def _refused(self, msg, before):
        t = self.table
        a = t.alerts[-1] if t.seq != before and t.alerts else None
        text = _clean(a.text) if a is not None else "refused"
        rule = a.rules[0] if a is not None and a.rules else None
        self.link.reply_error(msg.seq, text, rule=rule, legal=_chip_range(getattr(a, "legal", None)), code="rule")

    def _at(self, msg):
        # when the console line was read (drivers/console_link.py stamps at_ms); the table gets time only so
        now = getattr(msg, "at_ms", None)
        return self.hal.ticks_ms() if now is None else now

    def _floor_wire(self, msg):
        """FELT1 1.1 floor-key verbs (challenge / auth / deckline): answered by the floor desk
        (security/floordesk.py FloorDesk.answer, whose code loads only on a provisioned table)."""
        desk = self.desk
        if desk is None:
            self.link.reply_error(msg.seq, "no floor keys on this table (provision it first)", code="auth")
            return
        desk.answer(msg, self.link, self._at(msg))

    def _notify(self, a):
        self._send_alert(a)
        for sink in self.alert_sinks:
            sink(a)

    def _send_alert(self, a):
        link = self.link
        if link is None:
            return
        rule = a.rules[0] if a.rules else None
        try:
            if a.status == "proposed":
                opts = {"rule": rule, "remedy": "confirm"}
                if a.seat is not None:
                    opts["seat"] = a.seat
                if rule is None:
                    del opts["rule"]
                link.send("propose", [a.id], opts, _clean(a.text))
            else:
                link.alert(a.level, _clean(a.text), rule=rule, seat=a.seat, device=a.device)
        except ValueError as e:  # a text the codec refuses is logged, never lost silently
            if self.log is not None:
                self.log("console: alert #%d not sent: %s" % (a.id, e))


def build(hal, board, table, shoe_protocol="pn532", log=None, max_cards=8, pile_cards=60, drivers=None, desk=None,
          after_step=None, console_filters=None, alert_sinks=None, text_filters=None):
    """A Runtime for a checked board map (felt.runtime.board.load) on `hal`, every driver opened
    from it (or the given open_drivers() result), with the hooks given (see Runtime)."""
    if text_filters is None:
        text_filters = []
    d = drivers or open_drivers(hal, board, table.config.seats, shoe_protocol, log=log, max_cards=max_cards,
                                pile_cards=pile_cards, text_filters=text_filters)
    return Runtime(hal, table, d.shoe, d.poller, d.buttons, d.link, d.lights, d.display, log=log, desk=desk,
                   after_step=after_step, console_filters=console_filters, alert_sinks=alert_sinks,
                   text_filters=text_filters)
