# The blackjack table controller (controller layer, no clock, no I/O; issue 17 item 3): physical
# events in -- shoe tag reads, antenna arrivals on the box spots and the dealer's spot, seat buttons,
# console entries (BlackjackTable.INPUTS) -- engine inputs out (felt.engine.blackjack Round and
# Shoe). Lights and display are computed from its state by felt/table/blackjack_view.py. Loaded only
# by a table configured for blackjack; the journal (felt.recovery.restore) records its INPUTS like
# the poker table's, so a power cut loses no round.
from felt.engine.blackjack.errors import BlackjackError, InsuranceNotAllowed, OutOfTurn, ShoeError
from felt.engine.blackjack.round import BETTING, DEALER, DEALER_PLAY, DONE, DOUBLE, HIT, REDOUBLE, SPLIT, STAND, \
    SURRENDER, Round
from felt.engine.blackjack.shoe import CUT, Shoe
from felt.engine.cards import RANKS, SUITS, card_text
from felt.errors import ConfigError, DeckError, FeltError

PLAYING = "playing"  # a round is in progress (the journal compacts at the next new_hand only outside it)
IDLE = "idle"
DEALER_SPOT = "dealer"
# What a short press of a seat button offers, in this order (BJ-6, BJ-8, BJ-10, BJ-11, BJ-14); a
# long press takes the offer, or stands when nothing is offered. During the insurance offer:
# insure half the bet (BJ-15), even money (BJ-16); a long press with nothing offered declines.
MENU = (HIT, DOUBLE, SPLIT, SURRENDER, REDOUBLE)
INSURE = "yes"
EVEN = "even"


def box_of(location):
    """'box3' -> 3, 'dealer' -> DEALER (0); None for any other antenna."""
    if location == DEALER_SPOT:
        return DEALER
    if location.startswith("box") and location[3:].isdigit():
        return int(location[3:])
    return None


def _refusal(decide, seat):
    # the engine's own named error for a decision now (it refuses: a card is due)
    try:
        decide(seat, HIT)
    except FeltError as e:
        return e
    raise BlackjackError("BJ-5: box %d: a decision was taken while a card was due" % seat)


def _turn_text(what, who):
    if what == "decision":
        return "box %d decides now" % who
    if what == "insurance":
        return "insurance is offered to box %s" % " ".join([str(b) for b in who])
    if what == "card":
        return "a card is due to %s" % ("the dealer" if who == DEALER else "box %d" % who)
    return "no decision now (%s)" % what


EVERY = "every"  # veil(): every card text, not only the named ones
_OPEN = (BETTING, DEALER_PLAY, DONE)  # round phases with no face-down card (the hole card is turned up)


def veil(text, cards, uids):
    """BJ-17 (the hole card stays secret until it is turned up; as poker's felt.security.secrecy
    guard, SHOW-11): `text` with each card text in `cards` (or any card, cards == EVERY) and each tag
    UID hex in `uids` written '??'. A card text is a rank and a suit standing as a word or in a run of
    cards ('Qs', 'AhQs'); a word such as 'The' keeps its letters."""
    for u in uids:
        if u in text:
            text = text.replace(u, "??")
    out = None
    n = len(text)
    i = 1
    while i < n:
        c = text[i]
        if c in SUITS and text[i - 1] in RANKS and (i + 1 >= n or not (text[i + 1].islower()
                                                                        or text[i + 1].isdigit())) \
                and (i < 2 or not text[i - 2].isalpha() and not text[i - 2].isdigit()
                     or (text[i - 2] in SUITS and i >= 3 and text[i - 3] in RANKS)) \
                and (cards == EVERY or text[i - 1:i + 1] in cards):
            if out is None:
                out = list(text)
            out[i - 1] = out[i] = "?"
        i += 1
    return text if out is None else "".join(out)


def _hex(uid):
    return "".join(["%02X" % b for b in uid]) if isinstance(uid, (bytes, bytearray)) else str(uid)


class BlackjackTable:
    """One blackjack table. rules: BlackjackRules; registry: DeckRegistry with the shoe's decks;
    decks: the deck ids of a shoe (bj.decks of them); cut_uid: the cut card's tag (bj.cut_card=tag).
    log(line), history(line) (each settled round as a .bjh line), notify(alert tuple): sinks."""

    # Every input from outside (the loop's drivers and the console) with its journal record kind.
    INPUTS = {"shoe_card": "card", "antenna": "antenna", "button": "button", "new_hand": "console",
              "new_shoe": "console", "bet": "console", "close_bets": "console", "decide": "console",
              "insure": "console", "tilt": "alert", "clear_tilt": "console"}

    def __init__(self, rules, registry, decks, cut_uid=None, name="T1", log=None, history=None, notify=None):
        self.rules = rules
        self.registry = registry
        self.decks = list(decks)
        self.cut_uid = cut_uid
        self.name = name
        self._log = log
        self._history = history
        self.notify = notify
        self.state = IDLE
        self.shoe = None
        self.shoe_no = 0
        self.round = None
        self.round_no = 0
        self.drawn = []  # [uid hex, card] drawn from the shoe, not yet on a spot (in the dealer's hand)
        self.spot = {}  # uid hex -> the box (DEALER) where the card of this round lies
        self.alerts = []  # (level, rule, text) newest last, the last 8
        self.house = 0  # the house's win over all rounds, in chips
        self.last_result = None  # {box: net} of the last settled round
        self.tilted = None  # why play is locked (felt.security.tilt, issue 16 item 3), or None
        self.menu = {}  # seat -> [decision point, index into options(seat)]: the offer a short press made
        self.hole = None  # the dealer's hole card's tag (uid hex) while it lies face down (BJ-17 peek)

    # ---- sinks ------------------------------------------------------------------------------------

    def log(self, line):
        if self._log is not None:
            cards, uids = self.secret()
            self._log(veil(line, cards, uids) if cards or uids else line)

    def secret(self):
        """BJ-17 (peek): what the display, the log, the console and the audit log must not name yet,
        as (card texts, tag UID hexes). While the hole card is due (the up card is out, the hole
        card not yet on the dealer's spot): every card read leaving the shoe and not yet on a spot
        -- any of them may be the hole card, one dropped on a box included. While the hole card lies
        face down: the hole card. Nothing once it is turned up (the dealer's play, a settled round,
        a dealer blackjack), between rounds, and under bj.hole_card=enhc (no hole card)."""
        r = self.round
        if r is None or self.rules.hole_card != "peek" or r.phase in _OPEN or not r.dealer:
            return (), ()
        if len(r.dealer) == 1:
            return [card_text(d[1]) for d in self.drawn], [d[0] for d in self.drawn]
        return [card_text(r.dealer[1])], [self.hole] if self.hole else []

    def _hiding(self):
        # a face-down card is due or lies on the dealer's spot (BJ-17 peek)
        r = self.round
        return r is not None and self.rules.hole_card == "peek" and r.phase not in _OPEN and len(r.dealer) >= 1

    def alert(self, level, rule, text, every=False):
        """A named alert on the display (this round's last 8), the log, the console and the audit
        log, with the secret cards veiled (BJ-17); every: no card named at all while a card lies or
        is due face down (a card on the dealer's spot that the shoe never read may be the hole card)."""
        cards, uids = self.secret()
        if every and self._hiding():
            cards = EVERY
        if cards or uids:
            text = veil(text, cards, uids)
        self.alerts.append((level, rule, text))
        if len(self.alerts) > 8:
            self.alerts.pop(0)
        if self._log is not None:
            self._log("%s %s: %s" % (level, rule or "-", text))
        if self.notify is not None:
            self.notify((level, rule, text))

    def device_alert(self, device, level, text, remedy=""):
        """A device's alert (the boot antenna check, the audit log, the key switch): shown and logged."""
        self.alert(level, "", "%s: %s%s" % (device, text, (" -- " + remedy) if remedy else ""))
        return True

    # ---- integrity (issue 16 item 3, felt.security.tilt): the runtime refuses play while tilted --------

    def tilt(self, reason):
        """An integrity failure locks play: shown, journaled like any input, kept in the snapshot;
        only clear_tilt (an authenticated floor command) ends it."""
        self.tilted = str(reason)[:120]
        self.alert("error", "", "TILT: %s" % self.tilted)
        return self.tilted

    def clear_tilt(self):
        """The floor's authenticated `clear`: play resumes. ConfigError when not tilted."""
        was = self.tilted
        if was is None:
            raise ConfigError("the table is not in tilt: nothing to clear")
        self.tilted = None
        self.alert("info", "", "tilt cleared by the floor (was: %s)" % was)
        return "tilt cleared (was: %s)" % was

    def _refused(self, err, every=False):
        # a named error of the engine or the shoe: shown and logged, the state unchanged (BJ-21)
        self.alert("error", getattr(err, "rule", "") or "", getattr(err, "message", None) or str(err), every)
        return False

    # ---- shoe and rounds (BJ-22, BJ-23) -----------------------------------------------------------------

    def new_shoe(self):
        """Console: a freshly shuffled shoe of the table's decks goes in (between rounds)."""
        if self.state == PLAYING:
            return self._refused(ShoeError("BJ-23: finish the round before changing the shoe"))
        try:
            self.shoe = Shoe(self.registry, self.decks, self.rules, cut_uid=self.cut_uid)
        except FeltError as e:
            return self._refused(e)
        self.shoe_no += 1
        self.log("shoe %d in: %d cards" % (self.shoe_no, self.shoe.left()))
        return True

    def new_hand(self):
        """Console: a new round opens for bets (the journal compacts here)."""
        if self.state == PLAYING:
            return self._refused(ShoeError("BJ-3: round %d is still in play" % self.round_no))
        if self.shoe is None or self.shoe.finished:
            return self._refused(ShoeError("BJ-23: the shoe is finished -- shuffle and put in a new shoe"))
        self.round = Round(self.rules)
        self.round_no += 1
        self.drawn = []
        self.spot = {}
        self.alerts = []  # the display shows this round's alerts only (the log keeps them all)
        self.menu = {}
        self.hole = None
        self.state = PLAYING
        self.log("round %d: place your bets" % self.round_no)
        return True

    def _engine(self, fn, *args):
        if self.round is None or self.state != PLAYING:
            return self._refused(BlackjackError("BJ-3: no round is open (new round first)"))
        try:
            fn(*args)
        except FeltError as e:
            return self._refused(e)
        self._after()
        return True

    def bet(self, box, amount):
        return self._engine(self.round.bet if self.round else None, box, amount)

    def close_bets(self):
        return self._engine(self.round.close_bets if self.round else None)

    def decide(self, box, decision):
        """Console: the decision a player signalled (hit, stand, double, split, surrender, redouble)."""
        return self._engine(self.round.decide if self.round else None, box, decision)

    def insure(self, box, answer, amount=None):
        """Console: box answers the insurance offer: 'yes' (amount, default half the bet), 'even'
        (even money), 'no'; box 0 'close' closes the offer."""
        r = self.round
        if r is None:
            return self._engine(None)
        fns = {"yes": (r.insure, (box, amount)), "even": (r.even_money, (box,)), "no": (r.decline_insurance, (box,)),
               "close": (r.close_insurance, ())}
        if answer not in fns:
            return self._refused(BlackjackError("BJ-15: an insurance answer is yes, even, no or close, not %r" % (answer,)))
        fn, args = fns[answer]
        return self._engine(fn, *args)

    def button(self, seat, kind):
        """A seat button (the box in front of it), the player's decisions without the console: a
        short press offers the next of options(seat) (shown on the display: "1: DOUBLE? hold"), a
        long press takes the offer -- or, with nothing offered, stands (BJ-6) / declines insurance
        (BJ-15). A press from a box that is not to decide is a named error (BJ-5), shown and logged."""
        r = self.round
        if r is None or self.state != PLAYING:
            return self._refused(OutOfTurn("BJ-5: box %d button: no round in play" % seat))
        what, who = r.expect()
        if what == "card" and r.acting() is not None or (what == "card" and who == DEALER and len(r.dealer) == 1):
            return self._refused(_refusal(r.decide, seat))  # BJ-7 a card is owed, BJ-26 the hole card first
        if not ((what == "decision" and who == seat) or (what == "insurance" and seat in who)):
            return self._refused(OutOfTurn("BJ-5: box %d button: %s" % (seat, _turn_text(what, who))))
        opts = self.options(seat)
        at = self.choice(seat)
        if kind == "short":
            if not opts:  # nothing but stand / decline: say why (BJ-8, BJ-12: a doubled hand, split aces)
                return self._refused(r.problem(HIT) if what == "decision" else InsuranceNotAllowed(
                    "BJ-15: box %d: hold the button to decline insurance" % seat))
            self.menu[seat] = [self._point(), 0 if at is None else (at + 1) % len(opts)]
            return True
        self.menu.pop(seat, None)
        pick = opts[at] if at is not None and at < len(opts) else None
        if what == "insurance":
            return self.insure(seat, pick or "no")
        return self.decide(seat, pick or STAND)

    def options(self, seat):
        """What a short press of `seat` may offer now, in order: the acting box's legal decisions
        other than stand (MENU order), or during the insurance offer INSURE and EVEN where legal;
        [] when the box has nothing to choose."""
        r = self.round
        what, who = r.expect()
        if what == "decision" and who == seat:
            legal = r.legal(seat)
            return [d for d in MENU if d in legal]
        out = []
        if what == "insurance" and seat in who:
            if r.rules.insurance and r.max_insurance(seat) > 0:
                out.append(INSURE)
            if r.rules.even_money and r.box_hands(seat)[0].natural():
                out.append(EVEN)
        return out

    def choice(self, seat):
        """The index into options(seat) a short press offered at this decision point, or None."""
        m = self.menu.get(seat)
        return m[1] if m is not None and m[0] == self._point() else None

    def _point(self):
        # the decision point: an offer made before a card, a split or an insurance answer lapses
        r = self.round
        h = r.acting()
        return [r.phase, r.at, len(h.cards) if h is not None else 0, len(r.hands)]

    # ---- cards: the shoe and the spots (BJ-24, BJ-25, BJ-26, BJ-27) --------------------------------------

    def shoe_card(self, uid):
        """A tag read leaving the shoe."""
        if self.shoe is None:
            return self._refused(ShoeError("BJ-22: a card came out but no shoe is in"))
        try:
            card = self.shoe.draw(uid)
        except FeltError as e:
            return self._refused(e)
        if card == CUT:
            self.alert("info", "BJ-23", "cut card out: this round is the last of shoe %d" % self.shoe_no)
            return True
        self.drawn.append([_hex(uid), card])
        return True

    def antenna(self, event):
        """An antenna event tuple ('card-arrived', location, uid hex); others are logged."""
        if event[0] != "card-arrived":
            return None
        box = box_of(event[1])
        hexu = event[2]
        if box is None or self.state != PLAYING:
            return None
        for i in range(len(self.drawn)):
            if self.drawn[i][0] == hexu:
                card = self.drawn[i][1]
                try:
                    self.round.deal(card, box)
                except FeltError as e:
                    return self._refused(e)  # BJ-25 / BJ-26: the card waits for the dealer to move it
                self.drawn.pop(i)
                self.spot[hexu] = box
                if box == DEALER and len(self.round.dealer) == 2:
                    self.hole = hexu  # face down under peek (BJ-17); secret() reads it
                self._after()
                return True
        if hexu in self.spot:
            return None  # a card of this round seen again (slid, re-read): nothing new
        return self._stranger(hexu, box)

    def _stranger(self, hexu, box):
        # a tag on a spot that was not read leaving the shoe: foreign, unknown, or missed by the shoe
        try:
            uid = bytes([int(hexu[i:i + 2], 16) for i in range(0, len(hexu), 2)])
            card = self.shoe.identify(uid)
        except (FeltError, ValueError) as e:
            if isinstance(e, DeckError):
                return self._refused(e)
            return self._refused(DeckError("BJ-27: tag %s on %s is no card" % (hexu, box)))
        return self._refused(DeckError("BJ-24: %s on %s was not read leaving the shoe -- deal it through the "
                                       "shoe reader" % (card_text(card), "the dealer" if box == DEALER else "box %d" % box)),
                             every=box == DEALER)  # BJ-17: it may be the hole card, slid past the reader

    # ---- end of a round ---------------------------------------------------------------------------------

    def _after(self):
        r = self.round
        if r.phase != DONE:
            return
        from felt.history import blackjack as bjh

        self.state = IDLE
        self.last_result = r.results()
        for b in self.last_result:
            self.house -= self.last_result[b]
        line = bjh.write_line(r, self.round_no, shoe=self.shoe_no, table=self.name)
        self.log("round %d: %s" % (self.round_no, line.split(" | net ")[1]))
        if self._history is not None:
            self._history(line)
        if self.shoe.end_round():
            self.alert("info", "BJ-23", "shoe %d finished: %s" % (self.shoe_no, self.shoe.report()))

    # ---- journal snapshot (felt.recovery.restore: taken before new_hand, between rounds) ----------------

    def snapshot(self):
        return {"shoe": self.shoe.save() if self.shoe is not None else None, "shoe_no": self.shoe_no,
                "round_no": self.round_no, "house": self.house, "tilt": self.tilted}

    def restore(self, snap):
        self.shoe_no = snap["shoe_no"]
        self.round_no = snap["round_no"]
        self.house = snap["house"]
        self.tilted = snap.get("tilt")  # a tilt outlives rounds and power cuts (snapshots before it have none)
        self.shoe = None
        if snap["shoe"] is not None:
            self.shoe = Shoe(self.registry, self.decks, self.rules, cut_uid=self.cut_uid)
            self.shoe.load(snap["shoe"])
