# What the table shows (view layer, pure): table/engine state -> desired seat lights, status-display
# lines and the JSON-ready snapshot the sim runner prints. Computed from state every time, so lights
# and display repair themselves after a reset. Hole cards never appear here before a hand is over.
from felt.drivers.neopixel_lights import ACTION, ALL_IN, BIG_BLIND, DEALER, SMALL_BLIND
from felt.engine.dealing import plan as dealplan
from felt.engine.cards import cards_text
SHOWDOWN = "showdown"  # Hand.phase
from felt.table.controller import IDLE, OVER, PLAYING, VOID
from felt.table.textfit import WIDTH  # 16 characters a line (the SSD1306, 8x8 font)
from felt.table.textfit import fit as _fit
from felt.table.textfit import wrap as _wrap

_BOARD_STREETS = ("preflop", "flop", "turn", "river")
_SHORT = {"holdem": "HOLDEM", "omaha": "OMAHA", "omaha8": "OMAHA8", "stud7": "STUD7", "stud7_8": "STUD7/8",
          "stud5": "STUD5", "draw5": "DRAW5"}
_STRUCT = {"no_limit": "NL", "pot_limit": "PL", "limit": "FL"}


def street(table):
    """'idle' | 'preflop' 'flop' 'turn' 'river' (board games) | '3rd street'.. (stud) | 'pre-draw',
    'the draw' (draw) | 'showdown' | 'over' | 'void'."""
    if table.state == IDLE:
        return "idle"
    if table.state == OVER:
        return "over"
    if table.state == VOID:
        return "void"
    h = table.hand
    if h.phase == SHOWDOWN:
        return "showdown"
    g = table.config.record
    if g.family == "board":
        return _BOARD_STREETS[h.street]
    return dealplan.street_name(g.family, h.street, len(g.streets))


def _all_in(table):
    h = table.hand
    out = []
    if table.state != PLAYING:
        return out
    for p in range(h.n):
        if h.live[p] and h.stacks[p] == 0:
            out.append(table.setup.seats[p])
    out.sort()
    return out


def lights(table):
    """{role: seat or None, ALL_IN: [seats]} for drivers.neopixel_lights.SeatLights.apply()."""
    s = table.setup
    if s is None:
        return {DEALER: None, SMALL_BLIND: None, BIG_BLIND: None, ACTION: None, ALL_IN: []}
    action = None
    playing = table.state == PLAYING
    if playing and table.hand.actor is not None:
        action = s.seats[table.hand.actor]
    blinds = table.config.record.forced == "blinds"
    return {DEALER: s.button if 1 <= s.button <= table.config.seats else None,
            SMALL_BLIND: s.sb if blinds and playing else None,
            BIG_BLIND: s.bb if blinds and playing else None,
            ACTION: action, ALL_IN: _all_in(table)}


def lines(table, now_ms=None):
    """Up to 8 lines of at most WIDTH characters for the SSD1306: game, street, pot, to call, the
    raise range, the clock on the seat to act (TOUR-6, given the loop's now_ms), the board, or the
    result; then the newest alert (rule IDs first) in the lines left (_with_alert)."""
    if getattr(table, "tilted", None) is not None:  # issue 16 item 3: play is locked, say why
        return (["TILT", "PLAY LOCKED"] + _wrap(table.tilted, 4) + ["CALL THE FLOOR"])[:8]
    cfg = table.config
    game = _SHORT.get(cfg.game, "?")
    n = table.hand_no
    # the shorter wordings are formatted only when the fuller one does not fit (a view is computed
    # after every main-loop step with events: its garbage is in each; hardware/memory.md, showdown round)
    top = "%s %s H%d" % (_STRUCT.get(cfg.structure, "?"), game, n)
    out = [top if len(top) <= WIDTH else _fit("%s H%d" % (game, n), "H%d" % n)]
    out.append(street(table).upper())
    if table.level_clock is not None:  # TOUR-1: the level and the time left on its clock
        from felt.table import tournament
        lv = tournament.line(table, now_ms)
        if lv is not None:
            out.append(lv)
    if table.state == PLAYING:
        h = table.hand
        pot = h.pot_total()
        out.append(_fit("POT %d" % pot, "P%d" % pot))
        lg = h.legal()
        if lg is not None:
            seat = table.setup.seats[lg.position]
            if lg.bring_in:
                out.append(_fit("S%d BRING %d" % (seat, lg.bring_in), "S%d BI %d" % (seat, lg.bring_in)))
            elif lg.call:
                out.append(_fit("S%d CALL %d" % (seat, lg.call), "S%d C %d" % (seat, lg.call)))
            else:
                out.append("S%d CHECK" % seat)
            if lg.can_raise:
                lo = lg.min_to
                hi = lg.max_to
                out.append(_fit("MIN %d MAX %d" % (lo, hi), "RAISE %d-%d" % (lo, hi), "R %d-%d" % (lo, hi),
                                "%d-%d" % (lo, hi)))
            if table.action_clock is not None:
                from felt.table import action_clock as table_clock
                left = table_clock.left_text(table, now_ms)
                if left is not None:
                    out.append(left)
        if h.board:
            out.append(cards_text(h.board))  # community cards are public; 5 fit in 14 characters
        if table.public is not None:
            from felt.table import counts as table_counts  # BET-26 / BET-48: a count published at a player's request
            pub = table_counts.public_line(table)
            if pub is not None:
                out.append(_fit(pub, pub.replace(" MAX ", " M").replace("ABOUT ", "~")))
    elif table.state == OVER:
        kill = losers_on_antennas(table)
        if kill:  # POT-19: the losing hands are killed before the pot is pushed
            # "KILL S1 S3", or "KILL 9 SEATS" when the seats do not fit (worked out before any text is made)
            width = 4
            for s in kill:
                width += 3 if s < 10 else 4
            out.append("KILL " + " ".join(["S%d" % s for s in kill]) if width <= WIDTH else "KILL %d SEATS" % len(kill))
        for a in (table.hand.results or [])[:3]:
            out.append(_award_line(table, a))
    alerts = table.alerts
    i = len(alerts) - 1
    while i >= 0 and alerts[i].level == "info":
        i -= 1
    if i >= 0:  # the newest alert that is not info
        a = alerts[i]
        return _with_alert(out, a, a.status == "proposed" or a.mark == table.progress())
    return out[:8]


def _with_alert(out, a, fresh):
    """The hand's lines with the newest alert below them (issue 18 item 7). The alert never takes the
    board or the raise range away: a fresh one -- a proposal waiting for the dealer, or a note raised
    by the last thing that happened -- gets the free lines (at least one; a proposal two, for its
    CONFIRM line), the game line and then the street line giving way when there are none; once the
    hand has moved on, a note keeps one free line with its rule IDs and number, and none when the
    display is full."""
    room = 8 - len(out)
    if not fresh:
        if room < 1:
            return out[:8]
        return out + [_fit("%s #%d" % (_rule_lines(a)[0], a.id), _rule_lines(a)[0])]
    confirm = 1 if a.status == "proposed" else 0
    short = 1 + confirm - room
    if short > 0:
        out = out[short if short < 2 else 2:]  # the game line, then the street line give way
        room = 1 + confirm
    tail = _rule_lines(a)[:room - confirm]
    rows = room - len(tail) - confirm
    tail.extend(_wrap(a.text, rows if rows < 3 else 3))
    if confirm:
        tail.append(_fit("CONFIRM #%d?" % a.id, "OK #%d?" % a.id))
    return out[:8 - len(tail)] + tail


def _rule_lines(a):
    # "!DEAL-3/DEAL-29": whole rule IDs only; what one line does not hold goes on a second
    words = list(a.rules) if a.rules else [a.device or "ALERT"]
    out = []
    line = "!" + words[0]
    for w in words[1:]:
        if len(line) + 1 + len(w) <= WIDTH:
            line += "/" + w
        else:
            out.append(line)
            line = w
    out.append(line)
    return out[:2]


def _award_line(table, a):
    # "S3 WINS 1500", "S2+S5 SIDE1 700", "S4 LO 375": who, which pot, how many chips
    seats = [table.setup.seats[p] for p, _c in a.shares]
    seats.sort()
    who = "+".join(["S%d" % s for s in seats])
    what = "HI " if a.half == "high" else ("LO " if a.half == "low" else "")
    if a.pot_index:
        what = "SIDE%d %s" % (a.pot_index, what)
    amount = _award_amount(a)
    line = "%s WINS %s%d" % (who, what, amount)
    if len(line) <= WIDTH:  # the terser wordings only when it does not fit
        return line
    return _fit("%s %s%d" % (who, what, amount), "%d WAY %s%d" % (len(seats), what, amount), "%s%d" % (what, amount))


def stacks(table):
    """Chips behind per seat (seat 1 first); None for an empty seat. During a hand: the
    engine's stacks; after it: the final stacks."""
    out = []
    for i in range(table.config.seats):
        out.append(table.stacks[i] if table.seat_rec[i].status != "empty" or table.stacks[i] else None)
    if table.state == PLAYING:
        h = table.hand
        for p in range(h.n):
            out[table.setup.seats[p] - 1] = h.stacks[p]
    return out


def indicators(lt, seats):
    """Per seat (seat 1 first) the lights that are on: e.g. [["button"], ["sb"], ["bb", "action"]]."""
    out = []
    for seat in range(1, seats + 1):
        on = []
        for name, role in (("button", DEALER), ("sb", SMALL_BLIND), ("bb", BIG_BLIND), ("action", ACTION)):
            if lt[role] == seat:
                on.append(name)
        if seat in lt[ALL_IN]:
            on.append("allin")
        out.append(on)
    return out


def snapshot(table):
    """The JSON-ready state (hardware/sim-protocol.md, `state`)."""
    lt = lights(table)
    snap = {
        "hand": table.hand_no, "street": street(table),
        "lights": {"button": lt[DEALER], "sb": lt[SMALL_BLIND], "bb": lt[BIG_BLIND], "action": lt[ACTION],
                   "allin": lt[ALL_IN]},
        "indicators": indicators(lt, table.config.seats),
        "display": lines(table), "stacks": stacks(table),
        "alerts": [a.as_dict() for a in table.alerts],
        "pending": [a.id for a in table.pending()],
    }
    if table.state == PLAYING:
        h = table.hand
        snap["pot"] = h.pot_total()
        snap["board"] = cards_text(h.board) if h.board else ""
        snap["to_act"] = lt[ACTION]
    if table.state == OVER:
        snap["result"] = list(table.results)
        h = table.hand
        snap["pots"] = [{"pot": a.pot_index, "amount": _award_amount(a), "half": a.half,
                         "winners": sorted([table.setup.seats[p] for p, _c in a.shares])} for a in (h.results or [])]
        snap["kill_first"] = losers_on_antennas(table)  # POT-19
    return snap


def losers_on_antennas(table):
    """POT-19: the seats that contested the showdown, won nothing, and whose cards are still on
    their antennas -- the award is pushed once they are killed (their tags leave the antennas)."""
    h = table.hand
    if table.state != OVER or h is None or not h.results or h.live_count() < 2:
        return []
    out = []
    for p in range(h.n):
        if not h.live[p] or h.mucked[p] or _won(h, p):
            continue
        seat = table.setup.seats[p]
        if _on_antenna(table, h.hole[p], "seat%d" % seat):
            out.append(seat)
    out.sort()
    return out


def _won(h, p):
    for a in h.results:
        for q, _c in a.shares:
            if q == p:
                return True
    return False


def _on_antenna(table, hole, loc):
    # a card of `hole` on antenna `loc` as the antennas see it now (Table.onant outlives the hand);
    # no card -> location map is built: it was a dict of every card on the table at each refresh
    onant = table.onant
    for uid in onant:
        if onant[uid] == loc:
            c = table.uid_card.get(uid)
            if c is not None and c in hole:
                return True
    return False


def _award_amount(a):
    t = 0
    for _p, c in a.shares:
        t += c
    return t
