# The blackjack table controller (controller layer, no clock, no I/O; issue 17 item 3): physical
# events in -- shoe tag reads, antenna arrivals on the box spots and the dealer's spot, seat buttons,
# console entries (BlackjackTable.INPUTS) -- engine inputs out (felt.engine.blackjack Round and
# Shoe). Lights and display are computed from its state by felt/table/blackjack_view.py. Loaded only
# by a table configured for blackjack; the journal (felt.recovery.restore) records its INPUTS like
# the poker table's, so a power cut loses no round.
from felt.engine.blackjack.errors import BlackjackError, ShoeError
from felt.engine.blackjack.round import DEALER, DONE, HIT, STAND, Round
from felt.engine.blackjack.shoe import CUT, Shoe
from felt.engine.cards import card_text
from felt.errors import DeckError, FeltError

PLAYING = "playing"  # a round is in progress (the journal compacts at the next new_hand only outside it)
IDLE = "idle"
DEALER_SPOT = "dealer"


def box_of(location):
    """'box3' -> 3, 'dealer' -> DEALER (0); None for any other antenna."""
    if location == DEALER_SPOT:
        return DEALER
    if location.startswith("box") and location[3:].isdigit():
        return int(location[3:])
    return None


def _hex(uid):
    return "".join(["%02X" % b for b in uid]) if isinstance(uid, (bytes, bytearray)) else str(uid)


class BlackjackTable:
    """One blackjack table. rules: BlackjackRules; registry: DeckRegistry with the shoe's decks;
    decks: the deck ids of a shoe (bj.decks of them); cut_uid: the cut card's tag (bj.cut_card=tag).
    log(line), history(line) (each settled round as a .bjh line), notify(alert tuple): sinks."""

    # Every input from outside (the loop's drivers and the console) with its journal record kind.
    INPUTS = {"shoe_card": "card", "antenna": "antenna", "button": "button", "new_hand": "console",
              "new_shoe": "console", "bet": "console", "close_bets": "console", "decide": "console",
              "insure": "console"}

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

    # ---- sinks ------------------------------------------------------------------------------------

    def log(self, line):
        if self._log is not None:
            self._log(line)

    def alert(self, level, rule, text):
        self.alerts.append((level, rule, text))
        if len(self.alerts) > 8:
            self.alerts.pop(0)
        self.log("%s %s: %s" % (level, rule or "-", text))
        if self.notify is not None:
            self.notify((level, rule, text))

    def _refused(self, err):
        # a named error of the engine or the shoe: shown and logged, the state unchanged (BJ-21)
        self.alert("error", getattr(err, "rule", "") or "", getattr(err, "message", None) or str(err))
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
        """A seat button (the box in front of it): while the box acts, short = hit, long = stand;
        during the insurance offer short = insure half the bet, long = no insurance."""
        r = self.round
        if r is None or self.state != PLAYING:
            self.log("box %d button: no round in play" % seat)
            return False
        kind_of, who = r.expect()
        if kind_of == "insurance" and seat in who:
            return self.insure(seat, "yes" if kind == "short" else "no")
        if kind_of == "decision" and who == seat:
            return self.decide(seat, HIT if kind == "short" else STAND)
        self.log("box %d button: not this box's turn" % seat)
        return False

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
                                       "shoe reader" % (card_text(card), "the dealer" if box == DEALER else "box %d" % box)))

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
                "round_no": self.round_no, "house": self.house}

    def restore(self, snap):
        self.shoe_no = snap["shoe_no"]
        self.round_no = snap["round_no"]
        self.house = snap["house"]
        self.shoe = None
        if snap["shoe"] is not None:
            self.shoe = Shoe(self.registry, self.decks, self.rules, cut_uid=self.cut_uid)
            self.shoe.load(snap["shoe"])
