# What one table publishes to the room (room layer, pure: the table is read, the clock comes in as
# now_ms, messages go to an outbox): retained table state (seats, stacks, button, pot, street,
# lights), events (the public log), alerts, finished hands (PHH), health (readers, heap, uptime),
# the secrecy feed's signed records and the audit records. Every message is signed and numbered (message.py).
# Nothing face down leaves before its release: the state names public cards only (board, upcards,
# tabled hands), a finished hand's PHH has its unshown down cards as ?? (the reveal record, after
# the broadcast delay, has them), and every text passes the secrecy guard before it is signed.
from felt import view
from felt.drivers.neopixel_lights import ACTION, DEALER
from felt.engine.cards import cards_text
from felt.room import message
from felt.table.state import OVER, PLAYING

HEALTH_MS = 5000  # a health message this often
_SEAT_EMPTY = "empty"


def state_body(table, now_ms=None):
    """The public state of a table, JSON-ready (ints and text only: no None, no booleans); with
    now_ms, the level clock (TOUR-1) as {"level", "left_ms", "running"} when it is shown."""
    cfg = table.config
    lt = view.lights(table)
    stacks = view.stacks(table)
    h = table.hand
    playing = table.state == PLAYING
    body = {"hand": table.hand_no, "phase": table.state, "street": view.street(table), "game": cfg.game,
            "structure": cfg.structure, "mode": cfg.mode, "button": lt[DEALER] or 0, "action": lt[ACTION] or 0,
            "lights": view.indicators(lt, cfg.seats), "pot": h.pot_total() if playing else 0,
            "board": cards_text(h.board) if (h is not None and h.board and table.state != "void") else "",
            "level": cfg.level or 0, "sb": cfg.sb, "bb": cfg.bb, "ante": cfg.ante,
            "pending": [_alert(a) for a in table.pending()], "seats": _seats(table, stacks),
            "result": list(table.results) if table.state == OVER else [], "clock": {}}
    lc = table.level_clock
    if lc is not None and lc.shown and now_ms is not None:
        n, left, running = lc.peek(now_ms)  # the floor's dashboard counts down from it
        body["clock"] = {"level": n, "left_ms": left, "running": 1 if running else 0, "h4h": 1 if lc.h4h else 0}
    return body


def _seats(table, stacks):
    out = []
    h = table.hand
    in_hand = table.state == PLAYING or table.state == OVER
    for i in range(len(stacks)):
        seat = i + 1
        s = {"seat": seat, "stack": stacks[i] if stacks[i] is not None else 0,
             "status": _SEAT_EMPTY if stacks[i] is None else "out", "in": 0, "up": "", "shown": ""}
        p = table.position(seat) if in_hand else None
        if p is not None and h is not None:
            s["status"] = ("folded" if not h.live[p] else ("allin" if h.stacks[p] == 0 else "in"))
            s["in"] = h.committed[p]
            up = []
            for j in range(len(h.hole[p])):
                if j < len(h.up[p]) and h.up[p][j]:
                    up.append(h.hole[p][j])
            s["up"] = cards_text(up) if up else ""  # stud upcards lie face up: public
            if h.shown[p]:
                s["shown"] = cards_text(h.hole[p])  # tabled at the showdown (SHOW-*): public
        out.append(s)
    return out


def _alert(a):
    return {"id": a.id, "level": a.level, "rules": list(a.rules), "text": a.text, "remedy": a.remedy or "",
            "seat": a.seat or 0, "device": a.device or "", "status": a.status}


def mask_phh(text):
    """A finished hand's PHH with every face-down card that was not tabled replaced by ?? (PHH's
    unknown card): `d dh pN CARDS` of a player without an `sm` line, and every draw discard
    (`pN sd CARDS`). The reveal record gives them after the broadcast delay."""
    shown = {}
    for line in text.split("\n"):
        w = line.strip().strip(",").strip("'").split()
        if len(w) == 3 and w[1] == "sm":
            shown[w[0]] = True
    out = []
    for line in text.split("\n"):
        w = line.strip().strip(",").strip("'").split()
        hide = (len(w) == 4 and w[0] == "d" and w[1] == "dh" and w[2] not in shown) or (len(w) == 3 and w[1] == "sd")
        if hide:
            cards = w[-1]
            line = line.replace(cards, "??" * (len(cards) // 2))
        out.append(line)
    return "\n".join(out)


class Publisher:
    """device: board name (the key's); room, name: where it publishes; table: the Table; sgn:
    message.signer(device key) or None (unsigned: an unprovisioned board, refused by the floor);
    outbox: outbox.Outbox; guard(text) -> text: the secrecy guard (secrecy.SecretFeed.clean with
    the table); heap(): free heap bytes or None. Its sinks: event(line) as a log sink, alert(a),
    hand(phh) as the history sink, feed(record) / broadcast(record) for secrecy.SecretFeed,
    observe(now_ms) after every loop step."""

    def __init__(self, device, room, name, table, sgn, outbox, guard=None, heap=None, boot_ms=0):
        self.device = device
        self.room = room
        self.name = name
        self.table = table
        self.signer = sgn
        self.outbox = outbox
        self.guard = guard
        self.heap = heap
        self.boot_ms = boot_ms
        self.now_ms = boot_ms
        self.seq = outbox.last_seq  # numbers continue across restarts
        self.runtime = None  # a loop.Runtime (install): its event count says when state may have changed
        self._mark = None  # what the state was computed at
        self._state = None  # canonical text of the last state published
        self._health_ms = None

    # ---- sinks ----------------------------------------------------------------------------------
    def event(self, line):
        self.emit("event", {"text": line})

    def alert(self, a):
        self.emit("alert", _alert(a))

    def hand(self, phh):
        self.emit("hand", {"hand": self.table.hand_no, "phh": mask_phh(phh), "sealed": 1})

    def feed(self, record):
        self.emit("feed", record)  # signed by the feed already; published as it is (no guard: sealed data)

    def broadcast(self, record):
        self.emit("broadcast", record)

    def audit(self, line):
        """An audit record as written (felt.security.audit: signed by the device key and chained):
        published unchanged, or the floor could not check it. Nothing face down is in one: alert
        texts pass the secrecy guard before they are audited (secrecy.Hooks.auditor), the rest is
        the board's own records and floor commands."""
        self.emit("audit", {"line": line})

    def observe(self, now_ms):
        """After a loop step: the state when it changed, health every HEALTH_MS."""
        self.now_ms = now_ms
        t = self.table
        rt = self.runtime
        mark = (rt.events if rt is not None else None, t.seq, t.hand_no, t.state, len(t.alerts))
        if rt is None or mark != self._mark:
            self._mark = mark
            body = state_body(t, now_ms)
            text = message.encode(body)
            if text != self._state:
                self._state = text
                self.emit("state", body)
        if self._health_ms is None or now_ms - self._health_ms >= HEALTH_MS:
            self._health_ms = now_ms
            self.emit("health", self.health_body(now_ms))

    def health_body(self, now_ms):
        t = self.table
        rt = self.runtime
        down = sorted(t.down)
        body = {"uptime_ms": now_ms - self.boot_ms, "readers_down": down, "outbox": self.outbox.count(),
                "heap_free": -1, "console_errors": 0, "dropped": 0, "steps": 0}
        if self.heap is not None:
            free = self.heap()
            body["heap_free"] = free if free is not None else -1
        if rt is not None:
            body["steps"] = rt.steps
            body["dropped"] = rt.queue.dropped
            if rt.link is not None:
                body["console_errors"] = rt.link.health.errors
        return body

    # ---- out --------------------------------------------------------------------------------------
    def emit(self, kind, body):
        """Number, guard, sign and keep one message in the outbox; returns it."""
        if kind not in ("feed", "broadcast", "audit") and self.guard is not None:
            body = _guarded(body, self.guard)
        self.seq += 1
        msg = message.make(self.device, self.room, self.name, kind, self.seq, self.now_ms, body)
        if self.signer is not None:
            message.sign(self.signer, msg)
        self.outbox.put(self.seq, kind, message.encode(msg))
        return msg


def _guarded(obj, guard):
    if isinstance(obj, str):
        return guard(obj)
    if isinstance(obj, list):
        return [_guarded(x, guard) for x in obj]
    if isinstance(obj, dict):
        out = {}
        for k in obj:
            out[k] = _guarded(obj[k], guard)
        return out
    return obj


def install(runtime, publisher, feed=None):
    """Add the publisher to a runtime built without it (tests on the plain sim): its observer after
    every step (after the secrecy feed's, so a hand end is published in the step it happens), its
    alert sink; with a secrecy feed, the feed's records go out through it and its guard cleans every
    text. The log and history sinks are the table's: the caller passes publisher.event / .hand."""
    publisher.runtime = runtime
    runtime.after_step.append(publisher.observe)
    runtime.alert_sinks.append(publisher.alert)
    if feed is not None:
        feed.public = publisher.feed
        feed.broadcast = publisher.broadcast
        if publisher.guard is None:
            table = runtime.table
            publisher.guard = lambda text: feed.clean(text, table)
    return publisher
