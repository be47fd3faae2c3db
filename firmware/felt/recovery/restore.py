# Boot-time recovery: rebuild the table from the journal's last snapshot plus the inputs after it
# -- firmware layer above felt.recovery.journal. The engine is deterministic, so replaying the same inputs
# through a fresh controller gives the same seats, stacks, button, level, hand, action, pot and
# lights. A torn last record (power lost mid-write) is dropped and reported; see hardware/journal.md.
# TableRecorder journals at the runtime boundary: it wraps the controller's input methods (Table.INPUTS)
# so each input is on flash before it takes effect; restore_table() is the one call a boot needs.
from felt.recovery import journal as jr
from felt.errors import FeltError


def thousands(n):
    """1204 -> '1,204' (what the floor reads on the display)."""
    s = "%d" % n
    neg = s.startswith("-")
    if neg:
        s = s[1:]
    parts = []
    while len(s) > 3:
        parts.insert(0, s[-3:])
        s = s[:-3]
    parts.insert(0, s)
    return ("-" if neg else "") + ",".join(parts)


class Report:
    """What recovery did. last_seq: the newest record kept (the 'event' number shown);
    snapshot_seq; replayed: inputs replayed; rejected: of those, inputs the engine refused again
    (they were refused the first time too -- journaled before they took effect); lost: the
    journal.Damage of a dropped tail or None; discarded: uncommitted generation files removed;
    message: one line for the display and log; level: 'info' or 'warn' or 'error'."""

    def __init__(self):
        self.last_seq = -1
        self.snapshot_seq = -1
        self.replayed = 0
        self.rejected = []
        self.lost = None
        self.discarded = []
        self.message = ""
        self.level = "info"
        self.unverified = []  # [(seq, why)] records that do not verify (sealed): not replayed, the table tilts

    def as_dict(self):
        lost = None
        if self.lost is not None:
            d = self.lost
            lost = {"reason": d.reason, "offset": d.offset, "bytes": d.lost_bytes, "kind": d.kind,
                    "seq": d.seq, "later": d.later, "detail": d.detail}
        return {"last_seq": self.last_seq, "snapshot_seq": self.snapshot_seq, "replayed": self.replayed,
                "rejected": len(self.rejected), "lost": lost, "discarded": list(self.discarded),
                "message": self.message, "level": self.level}


def lost_message(last_seq, damage):
    """The sentence for the floor: 'recovered to event 1,204; last console entry lost -- re-enter it'."""
    head = "recovered to event %s" % thousands(last_seq)
    if damage is None:
        return head
    name, todo = jr.KIND_NAMES.get(damage.kind, ("input", "check the last action and enter it again"))
    if damage.reason == "torn":
        return "%s; last %s lost -- %s" % (head, name, todo)
    return "%s; journal damaged at byte %d (%s), %d later record(s) not replayed -- call the floor" % (
        head, damage.offset, damage.detail, damage.later)


def restore(journal, controller_factory, apply=None, log=None):
    """Open `journal`, build controller_factory(snapshot_value) (None on a blank flash) and replay
    every input record after the snapshot. `apply(controller, record)` replays one record
    (default: controller.replay(record)). An input the engine refuses raises a FeltError again,
    exactly as it did before the power loss; it is counted, logged and skipped, because the
    live run also went on after refusing it. Returns (controller, Report)."""
    records = journal.open()
    report = Report()
    report.snapshot_seq = journal.snapshot.seq
    report.discarded = list(journal.discarded)
    report.lost = journal.damage
    controller = controller_factory(journal.snapshot_value())
    step = apply if apply is not None else _replay
    for r in records:
        try:
            step(controller, r)
        except jr.Unverified as e:
            # issue 16 item 5: what it held cannot be known. Stopping here would lose every input
            # journaled after it at the next cut too (new records go behind it), so it is left out,
            # said, and the table tilts (felt.runtime.app): the floor decides (typically `void`)
            report.unverified.append((r.seq, str(e)))
            continue
        except FeltError as e:
            report.rejected.append((r.seq, str(e)))
        report.replayed += 1
    report.last_seq = _last_kept(journal, records)
    report.message = lost_message(report.last_seq, report.lost)
    if report.lost is not None:
        report.level = "warn" if report.lost.reason == "torn" else "error"
    if report.unverified:
        report.level = "error"
        report.message = "recovered to event %s; %s (%d such record(s) left out) -- call the floor" % (
            thousands(report.last_seq), report.unverified[0][1], len(report.unverified))
    if log is not None:
        log(report.message)
    return controller, report


def _replay(controller, record):
    controller.replay(record)


def _last_kept(journal, records):
    # The last input that survived (else the snapshot): housekeeping records are not 'events'.
    if records:
        return records[-1].seq
    return journal.snapshot.seq


# -- journaling the table controller ---------------------------------------------------------------
#
# The runtime loop hands every physical input to the controller (felt.table.controller.Table) through the
# methods Table.INPUTS names. TableRecorder.attach wraps those methods on the instance, once, at boot:
# each outer call is written to the journal (and flushed) before the original method runs. Calls the
# controller makes to its own methods (shoe_card -> resolve, ...) are not recorded: replaying the
# outer call repeats them. check_moves carries the answers of its still_there() callback (the
# antenna state at that moment), since a replay has no antennas to ask.
RECORD_KINDS = {"card": jr.CARD, "antenna": jr.ANTENNA, "button": jr.BUTTON, "console": jr.CONSOLE, "tick": jr.TICK,
                "alert": jr.ALERT}

# The table settings a console `set` or a floor command can change between hands; the snapshot
# keeps them, or a compaction at the next hand would forget them.
_CONFIG_KEYS = ("structure", "sb", "bb", "ante", "bring_in", "small_bet", "big_bet", "unit", "level", "players_left")


def _plain(value):
    # bytes -> {"$b": hex}; tuples -> lists (JSON has neither)
    if isinstance(value, (bytes, bytearray)):
        return {"$b": "".join(["%02x" % b for b in value])}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        out = {}
        for k in value:
            out[k] = _plain(value[k])
        return out
    return value


def _unplain(value):
    # the inverse; every list comes back as a tuple (the controller treats them as sequences)
    if isinstance(value, list):
        return tuple([_unplain(v) for v in value])
    if isinstance(value, dict):
        if len(value) == 1 and "$b" in value:
            h = value["$b"]
            return bytes([int(h[i:i + 2], 16) for i in range(0, len(h), 2)])
        out = {}
        for k in value:
            out[k] = _unplain(value[k])
        return out
    return value


def encode_call(method, args, kwargs=None, line=None):
    """The journal payload of one controller call (canonical JSON bytes). `line`: the FELT1
    console line (text, no CRLF) the call came from, so a restart recognises its retransmission."""
    body = {"m": method, "a": _plain(list(args))}
    if kwargs:
        body["k"] = _plain(kwargs)
    if line is not None:
        body["c"] = line
    return jr.dumps(body).encode()


def console_line_of(record):
    """The console line a CONSOLE record came from, or None."""
    try:
        v = record.value()
    except jr.JournalError:
        return None
    return v.get("c") if isinstance(v, dict) else None


def decode_call(record, inputs=None):
    """(method, args tuple, kwargs dict) of a recorded call; JournalError if it is not one of
    `inputs` (the controller's INPUTS; default the poker Table's)."""
    if inputs is None:  # the poker Table's (imported here: a blackjack table never loads it, issue 17)
        from felt.table.controller import Table

        inputs = Table.INPUTS
    v = record.value()
    if not isinstance(v, dict) or v.get("m") not in inputs or not isinstance(v.get("a"), list):
        raise jr.JournalError("record %d is not a controller call" % record.seq)
    kwargs = _unplain(v.get("k") or {})
    return v["m"], _unplain(v["a"]), kwargs


def _answering(answers):
    # a still_there(location, uid_hex) that gives the recorded answers in order
    left = list(answers)
    return lambda location, uid_hex: left.pop(0) if left else False


def replay_call(table, record):
    """Recovery's apply(): run one recorded call on an unwrapped controller."""
    method, args, kwargs = decode_call(record, getattr(table, "INPUTS", None))
    if method == "check_moves":
        args = (_answering(args[0]),)
    return getattr(table, method)(*args, **kwargs)


# Between hands the table is a handful of plain fields; this is what a snapshot holds. (A controller
# with its own snapshot()/restore() methods is used instead: recorder.snapshot / .restore.)
def _setup_dict(s):
    if s is None:
        return None
    return {"button": s.button, "sb_seat": getattr(s, "sb_seat", None), "bb": s.bb, "sb": getattr(s, "sb", None),
            "seats": list(getattr(s, "seats", None) or []), "button_dead": bool(getattr(s, "button_dead", False))}


def _setup_of(d):
    from felt.engine.between_hands import blinds as btn

    if d is None:
        return None
    s = btn.previous(d["button"], d["sb_seat"], d["bb"])
    s.sb = d["sb"]
    s.seats = list(d["seats"])
    s.button_dead = d["button_dead"]
    return s


def _seat_list(rec):
    return [rec.status, rec.post, rec.missed_sb, rec.missed_bb, rec.straddle, rec.dead_owed]


def _seat_of(v):
    from felt.engine.between_hands import blinds as btn

    return btn.Seat(v[0], v[1], v[2], v[3], v[4], v[5])


def table_snapshot(table):
    """The between-hands state of a felt.table.controller.Table as JSON-able data."""
    undo = {}
    for seat in table._undo:
        undo["%d" % seat] = _seat_list(table._undo[seat])
    return {"v": 2, "stacks": list(table.stacks), "seats": [_seat_list(r) for r in table.seat_rec],
            "hand_no": table.hand_no, "alert_seq": table.seq, "histories": table.histories,
            "misdeals": table.misdeals, "state": table.state, "prev": _setup_dict(table.prev),
            "setup": _setup_dict(table.setup), "onant": dict(table.onant),
            "moved": [list(m) for m in table.moved], "undo": undo, "results": list(table.results),
            "config": _config_dict(table.config), "staged": dict(getattr(table, "staged", {})),
            "penalties": _penalties_data(table), "jackpot": getattr(table, "jackpot", 0),
            "level_clock": _level_clock_data(table), "decks": _decks_data(table),
            "tilt": getattr(table, "tilted", None)}


def _decks_data(table):
    # decks the floor registered by floor command (issue 12 item 8): id -> 52 tag UIDs, card order
    out = {}
    for deck_id in getattr(table, "floor_decks", ()):
        out[deck_id] = ["".join(["%02x" % b for b in u]) for u in table.registry.tags(deck_id)]
    return out


def _level_clock_data(table):
    # TOUR-1/8: the level clock and hand-for-hand (felt.table.tournament.TableLevelClock), or None
    lc = getattr(table, "level_clock", None)
    return lc.data() if lc is not None else None


def _penalties_data(table):
    # TOUR-17: the penalties still to serve (engine.clock.Penalties), or None
    pen = getattr(table, "penalties", None)
    return pen.data() if pen is not None else None


def _config_dict(cfg):
    out = {}
    for k in _CONFIG_KEYS:
        out[k] = getattr(cfg, k, None)
    out["house"] = dict(cfg.house.changed())
    return out


def _config_restore(cfg, d):
    from felt.engine import games
    from felt.engine.house import rules as settings

    if d["structure"] != cfg.structure:
        cfg.record = games.game_for(cfg.game, d["structure"])
    for k in _CONFIG_KEYS:
        setattr(cfg, k, d.get(k))  # a snapshot from before a key existed: None (players_left)
    cfg.house = settings.HouseRules(cfg.mode, cfg.house.game, d["house"])


def table_restore(table, snap):
    """Put a table_snapshot() back into a freshly built Table (same config and registry). Version 1
    (firmware to 3dc967f) kept the level clock and hand-for-hand in its config; version 2 keeps them
    as the level clock's own data."""
    if snap.get("v") not in (1, 2):
        raise jr.JournalError("snapshot version %r is not 1 or 2" % (snap.get("v"),))
    table.stacks = list(snap["stacks"])
    table.seat_rec = [_seat_of(v) for v in snap["seats"]]
    table.hand_no = snap["hand_no"]
    table.seq = snap["alert_seq"]
    table.histories = snap["histories"]
    table.misdeals = snap["misdeals"]
    table.state = snap["state"]
    table.prev = _setup_of(snap["prev"])
    table.setup = _setup_of(snap["setup"])
    table.onant = dict(snap["onant"])
    table.moved = [tuple(m) for m in snap["moved"]]
    undo = {}
    for k in snap["undo"]:
        undo[int(k)] = _seat_of(snap["undo"][k])
    table._undo = undo
    table.results = list(snap["results"])
    table.jackpot = snap.get("jackpot", 0)  # CASH-12: the fund outlives hands and power cuts
    if "config" in snap:  # (snapshots written before the floor commands have neither)
        _config_restore(table.config, snap["config"])
        table.staged = dict(snap["staged"])
    _level_clock_restore(table, snap)
    table.tilted = snap.get("tilt")  # issue 16 item 3: a tilt outlives hands and power cuts
    decks = snap.get("decks") or {}
    for deck_id in sorted(decks):  # (snapshots written before floor-registered decks have none)
        table.register_deck(deck_id, decks[deck_id])
    if snap.get("penalties") is not None:  # TOUR-17 (snapshots written before penalties have none)
        from felt.engine.between_hands.clocks import Penalties
        table.penalties = Penalties.load(snap["penalties"])
    return table


def _level_clock_restore(table, snap):
    # TOUR-1/8: v 2 keeps the clock's data; v 1 had config.level_clock / config.hand_for_hand
    if snap["v"] == 1:
        cfg = snap.get("config") or {}
        data = (cfg.get("level_clock"), cfg.get("hand_for_hand"))
        if data == (None, None):
            return
    else:
        data = snap.get("level_clock")
        if data is None:
            return
    from felt.table import tournament
    table.level_clock = tournament.load(table, data)


class HandHistory:
    """The table's history sink at boot (Table(history=...)): each finished hand's PHH text goes to
    `handlog` (felt.recovery.journal.HandLog) first, then to `sink` (the hand files). While the
    journal is replayed a hand already stored is not stored again."""

    def __init__(self, handlog=None, sink=None):
        self.handlog = handlog
        self.sink = sink
        self.replaying = False

    def __call__(self, text):
        log = self.handlog
        if self.replaying:
            # a hand that ended before the power went: its history may be stored already
            if log is not None and not log.contains(text):
                log.append(text)
                if self.sink is not None:
                    self.sink(text)
            return
        if log is not None:
            log.append(text)
        if self.sink is not None:
            self.sink(text)


class TableRecorder:
    """Journals the controller's inputs. attach() wraps the Table.INPUTS methods of `table` (once);
    each outer call is appended to `journal` and flushed, then runs. A successful new_hand()
    compacts the journal: snapshot of the table as it was before the call + the new_hand record.
    console_entry is a console filter of the runtime (loop.Runtime console_filters): it notes the
    FELT1 line being handled, which the entry's record carries. snapshot(table) / restore(table,
    data): between-hands state (default: the table's own snapshot()/restore() if it has them, else
    table_snapshot / table_restore)."""

    def __init__(self, table, journal, handlog=None, snapshot=None, seal=None):
        self.table = table
        self.journal = journal
        self.seal = seal  # felt.recovery.seal.JournalSeal: tag UIDs never on flash in the clear (issue 16 item 5)
        self.handlog = handlog
        self.snapshot = snapshot or _snapshot_for(table)
        self.depth = 0
        self._attached = False
        self._line = None  # the console line of the entry the loop is handling (console_entry)
        self.console_outcome = None  # (line, accepted) of the last console entry replayed at boot

    def attach(self):
        t = self.table
        if not self._attached:
            self._attached = True
            for name in sorted(t.INPUTS):
                setattr(t, name, self._wrap(name, getattr(t, name)))
        return t

    def _wrap(self, name, fn):
        kind = RECORD_KINDS[self.table.INPUTS[name]]

        def call(*args, **kwargs):
            if self.depth:
                return fn(*args, **kwargs)  # the controller calling itself: part of the outer input
            live = args
            if name == "check_moves":
                args = (self._answers(args[0]),)
                live = (_answering(args[0]),)
            snap = None
            if name == "new_hand" and self.table.state != "playing":
                snap = self.snapshot(self.table)
            line = None
            if kind == jr.CONSOLE:
                line = self._line
                self._line = None  # on the entry's first console record only
            payload = encode_call(name, args, kwargs, line)
            j = self.journal
            if self.seal is not None:
                payload = self.seal.seal(j.snapshot.seq, j.next_seq, kind, payload)
            j.append(kind, payload)  # flushed: durable before it takes effect
            self.depth += 1
            try:
                out = fn(*live, **kwargs)
            finally:
                self.depth -= 1
            if snap is not None:  # the hand started: compact to its opening state
                self.journal.compact(snap, (kind, payload))
            return out

        return call

    def console_entry(self, msg):
        """Console filter: note the FELT1 line of the entry the loop hands to the table now (as
        received: no second encode and CRC per entry); never takes the entry."""
        raw = getattr(msg, "raw", None)
        if raw is not None:
            self._line = raw.decode()
        else:
            from felt.proto import console as proto

            self._line = proto.encode(msg)[:-2].decode()
        return False

    def seed_console(self, link):
        """After a boot: make `link` treat a retransmission of the last console line the table
        already took (the console never saw the reply) as a duplicate, answered again instead of
        applied twice. Call after loop.build(), before the first step."""
        from felt.proto import console as proto

        out = self.console_outcome
        if out is None:
            return False
        try:
            msg = proto.decode_line(out[0].encode(), proto.CONSOLE)
        except proto.ConsoleError:
            return False
        if out[1]:
            reply = proto.ok(link.next_seq(), msg.seq)
        else:
            reply = proto.error(link.next_seq(), msg.seq, "refused (before the restart)", code="rule")
        link.remember(msg, proto.encode(reply))
        return True

    def _answers(self, still_there):
        return [bool(still_there(old, hexu)) for hexu, old, _new in self.table.moved]


def _accepted(method, result):
    # what the loop replied: act() returns None when refused, ruling() False
    if method == "act":
        return result is not None
    if method == "ruling":
        return bool(result)
    return True


def _snapshot_for(table):
    own = getattr(table, "snapshot", None)
    return (lambda t: t.snapshot()) if own is not None else table_snapshot


def restore_table(journal, make_table, handlog=None, log=None, history=None, seal=None):
    """Boot: the journaled Table. make_table(history_sink) builds a fresh felt.table.controller.Table
    (config, registry, log) with that history sink (a HandHistory: the hand log, then `history`);
    the last snapshot is put into it, the inputs after it replayed, and the recorder attached so
    new inputs are journaled. Returns (table, recorder, Report); show report.message on the display
    and log it. The recorder's console_entry goes into the runtime's console filters. seal: a
    felt.recovery.seal.JournalSeal (CARD and ANTENNA records sealed on flash, opened here)."""
    holder = {}
    sink = HandHistory(handlog, history)

    def factory(snap):
        t = make_table(sink)
        holder["rec"] = TableRecorder(t, journal, handlog, seal=seal)
        sink.replaying = True
        if snap is not None:
            if hasattr(t, "restore"):
                t.restore(snap)
            else:
                table_restore(t, snap)
        return t

    def apply(t, record):
        if seal is not None:
            record = seal.open(journal.snapshot.seq, record)  # journal.Unverified: replay stops
        line = console_line_of(record) if record.kind == jr.CONSOLE else None
        if line is not None:
            holder["rec"].console_outcome = (line, False)  # refused unless it returns normally
        result = replay_call(t, record)
        if line is not None:
            holder["rec"].console_outcome = (line, _accepted(decode_call(record, t.INPUTS)[0], result))
        return result

    if handlog is not None:
        handlog.open()
    table, report = restore(journal, factory, apply=apply, log=log)
    sink.replaying = False
    rec = holder["rec"]
    rec.attach()
    return table, rec, report
