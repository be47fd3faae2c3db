# Dealing check (engine layer, pure): DealCheck follows each card leaving the shoe and where it lands against
# a dealing plan (plan.py) and reports the RULES.md section 6 findings (DEAL-1..49). Its console marks
# (marks.py) and confirm/reject remedies (remedies.py) are function modules that its one-line methods load
# on first use: a hand dealt without incident never loads them (hardware/memory.md, "Idioms").
from felt.engine.dealing.plan import (BETTING, BOARD, BURN, DEALING, FAMILY_BOARD, FAMILY_STUD, MISDEALT, MUCK, OVER,
                                      SHOWDOWN, VOID, Plan, card_text, cards_text, place_text, plan_from_dict,
                                      premature_rules, seventh_street)
from felt.engine.findings import APPLIED, ASSIST, ENGINE, LAPSED, PROPOSED, Finding
from felt.engine.house.rules import CASH, HouseRules
from felt.errors import RuleError

ACTIONS = ("fold", "check", "call", "bet", "raise", "complete", "allin")
FORCED = ("post", "bring_in")  # forced bets are not actions for SA (DEAL-6)
_CHIP_ACTIONS = ("call", "bet", "raise", "complete", "allin")

_FOREIGN_KINDS = ("foreign_replace", "foreign_scrap", "void_hand")


class DealCheck:
    """Checks one hand's dealing. plan: a plan.Plan or its plain dict; rules: house.rules.HouseRules
    (or a dict for house.values.from_dict; default cash defaults). One DealCheck per hand (a redeal after a
    misdeal gets a new one built from redeal_plan()).

    Feed the physical events in the order they happen; each call returns the list of new or changed
    Findings (a proposal that lapses is returned again with status LAPSED):
      card(card, place)        a shoe draw landing at a seat, BOARD, BURN, MUCK or None (nowhere = burn)
      foreign(place)           a draw of a non-standard card (or one found in the STUB)
      action(seat, kind, chips)  an in-turn action (ACTIONS; FORCED posts do not count for SA)
      betting_closed()         the current street's betting is complete (GAME-5)
      discard(seat, cards)     draw games: a player's discards (() = stands pat)
      mark_boxed(draw) / mark_exposed(draw)   console marks on a shoe draw (1-based index)
      absent(seat) / present(seat) / kill(seat) / reshuffled(include) / end_of_deal() / hold() /
      release() / hand_over()
    ASSIST findings come with status PROPOSED: confirm(id, card=None) applies the remedy and returns the
    resulting instructions (APPLIED findings); reject(id) keeps the cards as they are. Queries: phase,
    street, sa, live, holding(seat), board, burns, where(card), stub_candidates(), pending()."""

    def __init__(self, plan, rules=None):
        self.plan = plan if isinstance(plan, Plan) else plan_from_dict(plan)
        if rules is None:
            rules = HouseRules(CASH)
        elif isinstance(rules, dict):
            from felt.engine.house.values import from_dict

            rules = from_dict(rules)
        self.rules = rules
        self.findings = []
        self.draws = []  # [(card, place)] in shoe order; draw n is draws[n - 1]
        self.holes = {}  # seat -> logical cards (FOREIGN for a foreign card)
        self.board = []  # logical board
        self.burns = []  # logical burns, all streets
        self.muck = []
        self.aside = []  # boxed, set-aside premature, scrapped cards
        self.phase = DEALING
        self.street = 0
        self.deal_done = False
        self.sa = False
        self.live = [s for s in self.plan.seats if s not in self.plan.dead]
        self._killed = list(self.plan.dead)
        self._absent_killed = []
        self._out = {}  # card -> True while out of the stub (DEAL-18, DEAL-34)
        self._expect = {}
        for s in self.plan.seats:
            self._expect[s] = self.plan.rounds
            self.holes[s] = []
        self._owed = {}  # seat -> replacement cards the seat is due
        self._extra = {}  # seat -> cards that arrived when the seat was already full
        self._credit = {}  # street -> burns already supplied before it starts (DEAL-16/21/27/30..32)
        self._street_draws = []  # [(draw, card, place)] burns/board cards of the current street
        self._street_burns = {}  # street -> burn cards drawn for it
        self._early_board = []  # premature board cards, physically on the board, not counting
        self._early_seat = []  # premature stud cards [(seat, card)], physically at the seat
        self._keep_early = {}  # street -> True: a rejected premature proposal, its cards stand
        self._aside_return = {}  # street -> cards shuffled back into the stub when it starts
        self._setting_aside = None  # DEAL-45 tda2017: street whose cards go aside while betting
        self._override = {}  # street -> StreetPlan (DEAL-46 community card)
        self._served = {}  # seat -> True: got its card on the current stud street
        self._drew = {}  # seat -> True: drew on the current draw street
        self._drawer = None
        self._first_seat = None
        self._last_seat = None
        self._boxed = []
        self._exposed = []
        self._stud_up = {}  # seat -> count of exposed downcards that became upcards (DEAL-42)
        self._problems = {}  # key -> derived proposal
        self._rejected = {}
        self._early_f = None  # the open premature-cards proposal
        self._rebuild = None  # pending DEAL-28/29 proposal of the current street
        self._four = None
        self._complete_draw = 0  # draw count when the current street's cards were complete
        self._n = 0
        self._chips = 0
        self._acted = {}
        self._street_acted = False
        self._noted = {}
        self._present = {}
        self.held = False  # TOUR-10: hand-for-hand all-in, no cards until the TD says continue

    # ---------------------------------------------------------------- queries

    def street_plan(self, street=None):
        street = self.street if street is None else street
        return self._override.get(street) or self.plan.streets[street]

    def street_name(self, street=None):
        return self.plan.street_name(self.street if street is None else street)

    def holding(self, seat):
        return tuple(self.holes.get(seat, ()))

    def pending(self):
        return [f for f in self.findings if f.status == PROPOSED]

    def stub_candidates(self):
        """DEAL-34: the cards that can still come out of the shoe (deck minus every card seen)."""
        return [c for c in self.plan.deck if c not in self._out]

    def where(self, card):
        """DEAL-37/40/48: where the tag log puts `card`: a seat number, BOARD, BURN, MUCK, "aside", or
        None (in the stub)."""
        for seat in sorted(self.holes):
            if card in self.holes[seat]:
                return seat
        for seat, c in self._early_seat:
            if c == card:
                return seat
        if card in self.board or card in self._early_board:
            return BOARD
        if card in self.burns:
            return BURN
        if card in self.muck:
            return MUCK
        if card in self.aside:
            return "aside"
        return None

    def redeal_plan(self):
        """DEAL-14: the plan of the redeal after a confirmed misdeal: same seats, same button, and the
        seats on penalty or absent for the original deal dealt in again and killed."""
        dead = list(self.plan.dead)
        for s in self._absent_killed:
            if s not in dead:
                dead.append(s)
        dead.sort()
        return Plan(self.plan.seats, self.plan.streets, self.plan.button, tuple(dead), self.plan.deck,
                    self.plan.family)

    # ---------------------------------------------------------------- helpers

    def _add(self, f, out):
        f.id = len(self.findings) + 1
        if f.street is None:
            f.street = self.street
        self.findings.append(f)
        out.append(f)
        return f

    def _note(self, key, f, out):
        # an INFO finding given once per key
        if key in self._noted:
            return None
        self._noted[key] = True
        return self._add(f, out)

    def _alive(self):
        if self.phase == MISDEALT:
            raise RuleError("DEAL-14: the hand was misdealt; deal it again with a new check (redeal_plan())")
        if self.phase == VOID:
            raise RuleError("DEAL-18: the hand is void; every bet is returned")

    def _lapse(self, f, why, out):
        if f.status == PROPOSED:
            f.status = LAPSED
            f.remedy = why
            out.append(f)

    def _need_burn(self, street):
        return max(0, self.street_plan(street).burn - self._credit.get(street, 0))

    def _take_out(self, card, where):
        if card in where:
            where.remove(card)
            return True
        return False

    def _remove_logical(self, card):
        # take `card` out of wherever the log puts it; returns the place it was in
        for seat in sorted(self.holes):
            if card in self.holes[seat]:
                self.holes[seat].remove(card)
                if card in self._extra.get(seat, ()):
                    self._extra[seat].remove(card)
                return seat
        if self._take_out(card, self.board):
            return BOARD
        if self._take_out(card, self._early_board):
            return BOARD
        if self._take_out(card, self.burns):
            for s in self._street_burns:
                self._take_out(card, self._street_burns[s])
            return BURN
        if self._take_out(card, self.muck):
            return MUCK
        if self._take_out(card, self.aside):
            return "aside"
        return None  # in the stub (e.g. reshuffled back): nothing to move

    def _seat_of(self, card):
        for seat in sorted(self.holes):
            if card in self.holes[seat]:
                return seat
        return None

    def _to_stub(self, cards):
        for c in cards:
            if c in self._out:
                del self._out[c]

    def _propose(self, kind, rules, text, remedy, out, draw=None, seat=None, cards=(), misdeal=False, detail=None):
        f = Finding(kind, rules, ASSIST, text, remedy, PROPOSED, draw, seat, cards, detail)
        f.misdeal = misdeal
        return self._add(f, out)

    def _misdeal(self, rules, text, out, draw=None, seat=None, cards=()):
        remedy = ("misdeal: collect all cards and redeal the same hand -- button stays on seat %d, blinds "
                  "returned and re-posted, same stakes, nobody new dealt in (DEAL-14)" % self.plan.button)
        return self._propose("misdeal", rules, text, remedy, out, draw, seat, cards, misdeal=True)

    def _misdeal_pending(self):
        for f in self.findings:
            if f.misdeal and f.status == PROPOSED:
                return True
        return False

    # ---------------------------------------------------------------- derived count problems

    def _derive(self, out):
        if self.phase in (MISDEALT, VOID, OVER, SHOWDOWN):
            return
        want = {}
        self._count_problems(want)
        for key in sorted(self._problems):
            if key not in want:
                if self._problems[key].detail.get("skipped"):
                    continue  # DEAL-9: a seat passed over stays a misdeal when a late card reaches it
                f = self._problems.pop(key)
                self._lapse(f, "no longer applies: the seat counts changed", out)
        for key in sorted(want):
            if key in self._problems or key in self._rejected:
                continue
            if key[0] == "misdeal" and self._misdeal_pending():
                continue  # one misdeal proposal at a time: the pending one already redeals the hand
            f = want[key](out)
            f.key = key
            self._problems[key] = f

    def _count_problems(self, want):
        for seat in sorted(self.holes):
            if seat not in self.plan.seats and self.holes[seat]:
                want[("not_dealt_in", seat)] = self._builder_not_dealt_in(seat)
        if not (self.deal_done or self.street > 0):
            return
        plan = self.street_plan()
        in_progress = self.phase == DEALING and self.street > 0 and (plan.hole or plan.draw)
        over = []
        under = []
        foreign = {}
        for f in self.findings:  # a pending foreign-card proposal settles that seat's count itself
            if f.status == PROPOSED and f.seat is not None and (f.kind in _FOREIGN_KINDS or "DEAL-13" in f.rules):
                foreign[f.seat] = True
        for seat in self.plan.seats:
            if seat not in self.live or seat in foreign:
                continue
            have = len(self.holes[seat]) + self._owed.get(seat, 0)
            if have > self._expect[seat]:
                over.append((seat, have - self._expect[seat]))
            elif have < self._expect[seat] and not in_progress:
                under.append((seat, self._expect[seat] - have))
        if not over and not under:
            return
        btn = self.plan.button
        if self.sa:
            for seat, k in over:
                want[("dead", seat)] = self._builder_dead(seat, "holds %d card(s) too many" % k, ("DEAL-25",))
            for seat, k in under:
                if seat == btn and not self._acted.get(seat):
                    want[("button_short", seat)] = self._builder_give(seat, k, ("DEAL-24",))
                else:
                    rules = ("DEAL-24",) if seat == btn else ("DEAL-25",)
                    want[("dead", seat)] = self._builder_dead(seat, "holds %d card(s) too few" % k, rules)
            return
        extra = 0
        for seat, k in over:
            extra += k
        if over and not under and extra == 1 and self._n == 0 and self.street == 0:
            want[("extra_card", over[0][0])] = self._builder_extra(over[0][0])
            return
        misdeal = []
        for seat, k in under:
            if seat == btn:
                if self._acted.get(seat):
                    want[("button_dead", seat)] = self._builder_dead(seat, "acted holding too few cards", ("DEAL-24",))
                else:
                    want[("button_short", seat)] = self._builder_give(seat, k, ("DEAL-24",))
            elif self.rules.mode == CASH and not over and self.holes[seat]:
                # DEAL-10 cash exception; a seat left with no card at all was skipped (DEAL-9)
                want[("give", seat)] = self._builder_give(seat, k, ("DEAL-10",))
            else:
                misdeal.append((seat, -k))
        for seat, k in over:
            misdeal.append((seat, k))
        if misdeal:
            misdeal.sort()
            want[("misdeal", tuple(misdeal))] = self._builder_count_misdeal(misdeal)

    def _builder_not_dealt_in(self, seat):
        def build(out):
            if self.sa:
                return self._add(Finding("not_dealt_in", ("DEAL-5",), ENGINE, "seat %d is not dealt in but holds "
                                         "cards" % seat, "take the cards away from seat %d" % seat, seat=seat), out)
            rules = ("DEAL-8", "DEAL-9") if seat == self._first_seat else ("DEAL-9",)
            return self._misdeal(rules, "a card went to seat %d, which is not dealt in" % seat, out, seat=seat)
        return build

    def _builder_dead(self, seat, why, rules):
        def build(out):
            return self._propose("dead_hand", rules, "seat %d %s after substantial action" % (seat, why),
                                 "seat %d's hand is dead: muck it; the hand goes on from the stub with one burn per "
                                 "street, and no card of the dead hand is used as a burn" % seat, out, seat=seat)
        return build

    def _builder_give(self, seat, k, rules):
        def build(out):
            return self._propose("give_card", rules, "seat %d is %d card(s) short" % (seat, k),
                                 "deal seat %d %d card(s) from the stub now, before the next burn" % (seat, k), out,
                                 seat=seat, detail={"count": k})
        return build

    def _builder_extra(self, seat):
        def build(out):
            extra = self._extra.get(seat) or self.holes[seat][-1:]
            card = extra[0]
            text = "one extra card (%s) dealt to seat %d before any action" % (card_text(card), seat)
            if self.rules.single_extra_card == "misdeal":
                return self._misdeal(("DEAL-16", "DEAL-10"), text, out, seat=seat, cards=(card,))
            return self._propose("extra_card_burn", ("DEAL-16",), text,
                                 "take %s from seat %d; it is the next burn: deal the %s without burning another "
                                 "card" % (card_text(card), seat, self.street_name(1)), out, seat=seat, cards=(card,))
        return build

    def _builder_count_misdeal(self, problems):
        def build(out):
            parts = []
            rules = ["DEAL-10"]
            skipped = []
            for seat, k in problems:
                have = len(self.holes[seat])
                if k < 0:
                    skipped.append(seat)  # an entitled seat passed over in a round (DEAL-9)
                parts.append("seat %d holds %d card(s) (%s%d)" % (seat, have, "+" if k > 0 else "", k))
            if skipped:
                rules.append("DEAL-9")
                rules.append("DEAL-26")  # found by the count check after the deal
            f = self._misdeal(tuple(rules), "wrong number of cards before substantial action: " + ", ".join(parts),
                              out)
            if skipped and self.street == 0 and not self._n:
                f.detail = {"skipped": skipped}
            return f
        return build

    # ---------------------------------------------------------------- actions and streets

    def action(self, seat, kind, chips=0):
        """An in-turn action (GAME-16) by `seat`; forced bets ("post", "bring_in") do not count for SA.
        Out-of-turn actions are not fed here."""
        self._alive()
        if kind not in ACTIONS and kind not in FORCED:
            raise RuleError("GAME-16: unknown action %r" % (kind,), legal=ACTIONS + FORCED)
        if seat not in self.plan.seats:
            raise RuleError("DEAL-5: seat %r is not dealt in" % (seat,), legal=self.plan.seats)
        if isinstance(chips, bool) or not isinstance(chips, int) or chips < 0:
            raise RuleError("BET-49: chips must be a whole amount >= 0, got %r" % (chips,))
        out = []
        if self.phase in (OVER, SHOWDOWN):
            return out
        if not self.deal_done:
            self._deal_complete(out)
        if kind in FORCED:
            self._derive(out)
            return out
        self._n += 1
        if kind in _CHIP_ACTIONS or chips > 0:
            self._chips += 1
        self._acted[seat] = True
        self._street_acted = True
        if self._rebuild is not None and self._rebuild.status == PROPOSED:
            self._lapse(self._rebuild, "betting has begun on the %s: the cards stand; the next street gets one burn"
                        % self.street_name(), out)
            self._maybe_complete(out)
        self._foreign_acted(seat, out)
        if kind == "fold" and seat in self.live:
            self.live.remove(seat)
        if not self.sa and self._sa_reached():
            self._on_sa(out)
        if len(self.live) <= 1:
            self._end(out, "the hand is over: one live hand remains (GAME-6)")
            return out
        self._derive(out)
        return out

    def _sa_reached(self):
        # DEAL-6: tda = two actions of which one commits chips, or any three; two_actions = any two
        if self.rules.sa_definition == "two_actions":
            return self._n >= 2
        return self._n >= 3 or (self._n >= 2 and self._chips >= 1)

    def _on_sa(self, out):
        self.sa = True
        self._add(Finding("substantial_action", ("DEAL-6", "DEAL-15"), ENGINE,
                          "substantial action (%s)" % self.rules.sa_definition,
                          "no misdeal can be declared from now on (except a fouled deck)"), out)
        for f in self.findings:
            if f.misdeal and f.status == PROPOSED:
                self._lapse(f, "substantial action: no misdeal (DEAL-15)", out)
                if f.kind == "misdeal" and "DEAL-13" in f.rules:
                    from felt.engine.dealing import marks
                    marks.foreign_after_sa(self, f.seat, f.detail.get("place"), out)

    def betting_closed(self):
        """The current street's betting round is complete (GAME-5); the next street may be dealt."""
        self._alive()
        out = []
        if self.phase in (OVER, SHOWDOWN):
            return out
        if not self.deal_done:
            self._deal_complete(out)
        s = self.street
        if s + 1 >= len(self.plan.streets):
            self.phase = SHOWDOWN
            return out
        t = s + 1
        self.street = t
        self.phase = DEALING
        self._street_draws = []
        self._served = {}
        self._drew = {}
        self._drawer = None
        self._street_acted = False
        self._rebuild = None
        self._four = None
        if self._setting_aside == t:
            self._setting_aside = None
        back = self._aside_return.pop(t, None)
        if back:
            for c in back:
                self._take_out(c, self.aside)
            self._to_stub(back)
            self._add(Finding("reshuffle", ("DEAL-31", "DEAL-34"), ENGINE, "before the %s" % self.street_name(t),
                              "shuffle %s into the stub (not the burns), reload the shoe, and deal the %s without a "
                              "burn" % (cards_text(back), self.street_name(t)), status=APPLIED, cards=back), out)
        if self._keep_early.pop(t, False):
            self._adopt_early(t)
        plan = self.street_plan(t)
        if plan.hole and self.plan.family == FAMILY_STUD:
            if t == len(self.plan.streets) - 1:
                self._check_short_stub(out)
            plan = self.street_plan(t)
            if plan.hole:
                for seat in self.live:
                    self._expect[seat] += len(plan.hole)
        self._maybe_complete(out)
        self._derive(out)
        return out

    def _adopt_early(self, t):
        # a rejected premature proposal: its cards stand as the street's cards
        for c in self._early_board:
            self.board.append(c)
        self._early_board = []
        for seat, c in self._early_seat:
            self.holes[seat].append(c)
            self._served[seat] = True
        self._early_seat = []

    def _check_short_stub(self, out):
        stub = len(self.stub_candidates())
        players = len(self.live)
        branch = seventh_street(stub, players)
        if branch == "deal":
            return
        texts = {
            "A": "scramble the stub with the 4th-6th street burns and cut; burn one card and deal each player one",
            "B": "burn the top card and deal the next face up as a community card for every player",
            "C": "scramble the stub with the 4th-6th street burns and cut; burn one card and deal one community card",
        }
        f = self._propose("short_stub", ("DEAL-46",), "%s: the stub holds %d cards for %d players (need %d)" % (
            self.street_name(), stub, players, players + 2), texts[branch] + "; the first to act on 6th street acts "
            "first again" if branch != "A" else texts[branch], out, detail={"branch": branch})
        f.street = self.street

    def hand_over(self):
        """The hand has ended (pot awarded or everyone folded); later draws are rabbit hunting (DEAL-49)."""
        self._alive()
        out = []
        self._end(out, "the hand is over")
        return out

    def _end(self, out, why):
        self.phase = OVER
        for f in self.findings:
            if f.status == PROPOSED:
                self._lapse(f, why, out)
        self._problems = {}

    def _foreign_acted(self, seat, out):
        # DEAL-20: a seat that acts holding a foreign card it could have had replaced has a dead hand
        for f in self.findings:
            if f.kind == "foreign_replace" and f.status == PROPOSED and f.seat == seat:
                self._lapse(f, "seat %d acted holding the foreign card" % seat, out)
                self._propose("dead_hand", ("DEAL-20",), "seat %d bet with a foreign card" % seat,
                              "seat %d's hand is dead: muck it" % seat, out, seat=seat)

    def release(self):
        """TOUR-10: the TD says continue."""
        self._alive()
        self.held = False
        return []

    def present(self, seat):
        """DEAL-39 under hr.presence_check = seat_button: seat `seat` pressed its button during the deal."""
        self._present[seat] = True
        return []

    def end_of_deal(self):
        """The dealer declares the initial deal finished (normally it ends by itself)."""
        self._alive()
        out = []
        if not self.deal_done:
            self._deal_complete(out)
        self._derive(out)
        return out

    # ---------------------------------------------------------------- shoe draws

    def card(self, card, place=None):
        """A card left the shoe and landed at `place`: a seat number, BOARD, BURN, MUCK, or None (reached
        no antenna: classed as a burn, DEAL-3). Returns the new findings."""
        self._alive()
        if isinstance(card, bool) or not isinstance(card, int) or card not in self.plan.deck:
            raise RuleError("DECK-1: %r is not a card of the deck in play" % (card,), legal=(0, 51))
        place = self._check_place(place)
        self.draws.append((card, place))
        n = len(self.draws)
        out = []
        if self.phase in (OVER, SHOWDOWN):
            # DEAL-49: logged as a violation; the card is named nowhere
            self._add(Finding("rabbit_hunt", ("DEAL-49",), ENGINE, "draw %d after the end of the hand" % n,
                              "no rabbit hunting: put the card back unseen; it is not displayed", draw=n), out)
            return out
        if card in self._out:
            self._fouled(n, card, place, out)
            return out
        if self.held:
            self._add(Finding("held_draw", ("TOUR-10",), ENGINE, "draw %d while the hand is held for the TD" % n,
                              "hand-for-hand all-in: no card is dealt until the TD says continue; put the card "
                              "back on the stub unseen", draw=n), out)
            return out
        self._out[card] = True
        self._place(n, card, place, out)
        self._derive(out)
        return out

    def _check_place(self, place):
        if place is None or place in (BOARD, BURN, MUCK):
            return place
        if isinstance(place, bool) or not isinstance(place, int) or place < 1 or place > 10:
            raise RuleError("DEAL-2: place %r is not a seat 1..10, board, burn, muck or None" % (place,))
        return place

    def _place(self, n, card, place, out):
        if place is None or place == BURN or place == MUCK:
            if place == MUCK:
                self._note(("muck_burn", n), Finding("burn_on_muck", ("DEAL-3",), ENGINE,
                           "draw %d went to the muck" % n, "keep burns apart from the muck until the hand ends",
                           draw=n), out)
            self._burn_draw(n, card, out)
        elif place == BOARD:
            self._board_draw(n, card, out)
        else:
            self._seat_draw(n, card, place, out)

    def _fouled(self, n, card, place, out):
        first = self.where(card)
        self._propose("fouled_deck", ("DEAL-18",),
                      "%s drawn again (draw %d) while it is already at %s: the deck is fouled" % (
                          card_text(card), n, place_text(first)),
                      "stop play; every bet of the hand is returned (a player who knew of the defect and kept "
                      "quiet gets no refund); bring in a new deck and register it",
                      out, draw=n, cards=(card,))

    def _burn_draw(self, n, card, out):
        s = self.street
        if self.phase == DEALING and s == 0:
            # DEAL-2: nothing is burned before or during the initial deal
            self.aside.append(card)
            self._add(Finding("stray_card", ("DEAL-2", "DEAL-17", "DEAL-22"), ASSIST,
                              "draw %d reached no seat during the initial deal" % n,
                              "set it aside; if it was face up in the deck mark it boxed, if the dealer exposed "
                              "or dropped it mark it exposed", draw=n, cards=(card,)), out)
            return
        if self.phase == BETTING:
            if self._setting_aside == s + 1:
                self.aside.append(card)  # DEAL-45 tda2017: that street's cards go aside
                return
            t = s + 1
            self.burns.append(card)
            self._street_burns.setdefault(t, []).append(card)
            if t < len(self.plan.streets) and self._credit.get(t, 0) < self.street_plan(t).burn:
                self._credit[t] = self._credit.get(t, 0) + 1
                self._add(Finding("early_burn", premature_rules(self.plan.family, t), ENGINE,
                                  "draw %d burned before the %s betting is complete" % (n, self.street_name()),
                                  "the burn stays a burn: the %s is dealt without another burn" % self.street_name(t),
                                  draw=n), out)
            else:
                self._add(Finding("extra_burn", ("DEAL-3",), ENGINE, "draw %d is a second burn" % n,
                                  "one burn per street: it stays with the burns", draw=n), out)
            return
        self._street_draws.append((n, card, BURN))
        self.burns.append(card)
        self._street_burns.setdefault(s, []).append(card)
        if self.plan.family != FAMILY_BOARD or s in self._override:
            got = len(self._street_burns[s]) + self._credit.get(s, 0)
            if got > self.street_plan(s).burn:
                self._add(Finding("extra_burn", ("DEAL-3",), ENGINE, "draw %d is a second burn on %s" % (
                    n, self.street_name()), "exactly one burn per street: it stays with the burns", draw=n), out)

    def _board_draw(self, n, card, out):
        s = self.street
        has_board = False
        for i in range(len(self.plan.streets)):
            if self.street_plan(i).board:
                has_board = True
        if not has_board:
            self.aside.append(card)
            self._add(Finding("stray_card", ("GAME-1",), ENGINE, "draw %d reached the board; %s has no board" % (
                n, self.plan.family), "take it off the board and set it aside", draw=n, cards=(card,)), out)
            return
        if self.phase == DEALING and s == 0:
            self._premature(s + 1, n, card, None, out)
        elif self.phase == BETTING:
            flop_done = len(self.board) == self._board_target(s)
            if (self.plan.family == FAMILY_BOARD and s == 1 and flop_done and not self._street_acted
                    and n == self._complete_draw + 1 and self._four is None):
                self.board.append(card)
                self._four = self._propose(
                    "four_card_flop", ("DEAL-27",), "a fourth card (%s, draw %d) came with the flop" % (
                        card_text(card), n),
                    "call the floor: scramble the four cards face down; the floor picks one as the turn burn and "
                    "the other three are the flop; the turn is then dealt without a new burn", out, draw=n,
                    cards=tuple(self.board[-4:]))
            else:
                self._premature(s + 1, n, card, None, out)
        else:
            self._street_draws.append((n, card, BOARD))
            self.board.append(card)
            if self._rebuild is None or self._rebuild.status != PROPOSED:
                self._check_burns(n, card, out)
            self._maybe_complete(out)

    def _board_target(self, street):
        total = 0
        for i in range(street + 1):
            total += self.street_plan(i).board
        return total

    def _check_burns(self, n, card, out):
        # DEAL-28 / DEAL-29: the first board card of a street tells whether its burn was right
        s = self.street
        burns = 0
        boards = 0
        for d, c, p in self._street_draws:
            if p == BURN:
                burns += 1
            else:
                boards += 1
        if boards != 1:
            return
        need = self._need_burn(s)
        if burns == need:
            return
        name = self.street_name(s)
        if s == 1 and burns < need:
            if self.rules.noburn_flop == "restore_order":
                remedy = ("if nobody has acted on the flop: %s becomes the burn and the next card completes the "
                          "flop; once betting has begun the cards stand" % card_text(card))
            else:
                remedy = ("if nobody has acted on the flop: scramble the flop face down, pick one card at random "
                          "as the burn, and complete the flop with the next card; once anyone acts the cards "
                          "stand; either way the turn gets one burn")
            self._rebuild = self._propose("noburn_flop", ("DEAL-28",), "the flop was dealt without a burn (draw %d)"
                                          % n, remedy, out, draw=n, cards=(card,))
        else:
            rules = ("DEAL-29",) if s >= 2 else ("DEAL-3", "DEAL-29")
            what = "without a burn" if burns < need else "with %d burns" % burns
            self._rebuild = self._propose(
                "burn_error", rules, "the %s was dealt %s (draw %d)" % (name, what, n),
                "if no betting has happened on the %s: rebuild the order the cards should have had (one burn, then "
                "the %s cards; surplus cards become burns); once betting on the %s has begun the cards stand" % (
                    name, name, name), out, draw=n, cards=(card,))
        self._rebuild.street = s

    def _premature(self, t, n, card, seat, out):
        # DEAL-30/31/32/45 (+ DEAL-33): cards for street t before the betting on t-1 is complete
        f = self._early_f
        if seat is None:
            self._early_board.append(card)
        else:
            self._early_seat.append((seat, card))
        if f is not None and f.status == PROPOSED and f.street == t:
            f.cards = f.cards + (card,)
            return
        fam = self.plan.family
        prev = self.street_name(t - 1)
        last = len(self.plan.streets)
        if t >= last:
            kind = "extra_board"
            text = "%s (draw %d) is dealt after the last street" % (card_text(card), n)
            remedy = "it is not part of the hand: put it back into the stub"
            rules = ("DEAL-4", "DEAL-33")
        elif fam == FAMILY_STUD and seat is not None:
            kind = "premature_stud"
            rules = ("DEAL-45", "DEAL-33")
            text = "%s (draw %d) dealt to seat %d for %s before the %s betting is complete" % (
                card_text(card), n, seat, self.street_name(t), prev)
            if self.rules.premature_stud == "tda2017":
                remedy = ("deal the rest of %s face down and put it aside with this card; after the betting burn "
                          "and deal %s normally; before the last street shuffle the put-aside cards into the stub "
                          "and deal the last street without a burn" % (self.street_name(t), self.street_name(t)))
            else:
                remedy = ("put the card back into the stub, reshuffle the stub face down; after the %s betting "
                          "deal %s without a new burn" % (prev, self.street_name(t)))
        else:
            name = self.street_name(t)
            kind = "premature_" + name if fam == FAMILY_BOARD and name in ("flop", "turn", "river") else "premature_board"
            rules = (premature_rules(fam, t)[0], "DEAL-33")
            text = "%s (draw %d) reached the board before the %s betting is complete" % (card_text(card), n, prev)
            burn = self._credit.get(t, 0) >= self.street_plan(t).burn
            if name == "turn" and self.rules.premature_turn == "tda2017":
                remedy = ("set the premature turn aside face up; after the flop betting burn and deal the turn; "
                          "after the turn betting shuffle the set-aside card into the stub (not the burns) and deal "
                          "the river without a burn")
            else:
                remedy = ("%sput the premature %s back into the stub, reshuffle the stub face down; after the %s "
                          "betting deal the %s %s" % ("the burn stays a burn; " if burn else "", name, prev, name,
                                                      "without a burn" if burn else "with its burn"))
        f = self._propose(kind, rules, text, remedy, out, draw=n, seat=seat, cards=(card,))
        f.street = t
        self._early_f = f

    def _seat_draw(self, n, card, seat, out):
        s = self.street
        if seat not in self.plan.seats:
            self.holes.setdefault(seat, []).append(card)
            if self._first_seat is None and s == 0:
                self._first_seat = seat  # the derived DEAL-9 misdeal names DEAL-8 as well
            return
        if seat not in self.live and (s > 0 or self.deal_done):
            # a folded or killed hand gets no more cards (DEAL-44 in stud; DEAL-5 in general)
            self.aside.append(card)
            rules = ("DEAL-44",) if self.plan.family == FAMILY_STUD else ("DEAL-5",)
            self._add(Finding("card_to_dead_hand", rules, ENGINE,
                              "draw %d went to seat %d, which holds no live hand" % (n, seat),
                              "a dead hand gets no more cards: take the card away; the floor decides its use",
                              draw=n, seat=seat, cards=(card,)), out)
            return
        if self._owed.get(seat, 0) > 0:
            self._owed[seat] -= 1
            self.holes[seat].append(card)
            if self.phase == DEALING and s > 0 and self.street_plan(s).hole and not self.street_plan(s).draw:
                self._served[seat] = True
            self._last_seat = seat if s == 0 else self._last_seat
            self._maybe_complete(out)
            return
        if s == 0 and self.phase == BETTING and not self._street_acted and len(self.holes[seat]) < self._expect[seat]:
            # the deal ended at the button's last card with this seat short (DEAL-2): a late card fills
            # its count -- a pending give_card (DEAL-10 cash) then lapses; a misdeal stays (DEAL-9)
            self.holes[seat].append(card)
            return
        if self.phase == DEALING and s == 0:
            self._initial_card(n, card, seat, out)
            return
        if self.phase == BETTING:
            t = s + 1
            if (t < len(self.plan.streets) and self.plan.family == FAMILY_STUD and self.street_plan(t).hole
                    and seat in self.live):
                self._premature(t, n, card, seat, out)
                return
        elif self.street_plan(s).hole and not self.street_plan(s).draw:
            self._stud_card(n, card, seat, out)
            return
        self._extra_card(seat, card)

    def _extra_card(self, seat, card):
        self.holes[seat].append(card)
        self._extra.setdefault(seat, []).append(card)

    def _initial_card(self, n, card, seat, out):
        seats = self.plan.seats
        if self._first_seat is None:
            self._first_seat = seat
            if seat != seats[0]:
                btn = seats[seats.index(seat) - 1]
                self._misdeal(("DEAL-8", "DEAL-12"), "the first card (draw %d) went to seat %d, not seat %d: the deal "
                              "started as if the button were on seat %d" % (n, seat, seats[0], btn), out, draw=n,
                              seat=seat)
        else:
            expected = self._next_seat()
            btn = self.plan.button
            skip_ok = expected == btn or (seat == btn and self._last_seat == btn)  # DEAL-23
            if expected is not None and seat != expected and not skip_ok and not self._misdeal_pending():
                self._add(Finding("out_of_order", ("DEAL-2",), ENGINE, "draw %d went to seat %d, expected seat %d" % (
                    n, seat, expected), "continue; the seat counts are checked at the end of the deal",
                    draw=n, seat=seat), out)
        if len(self.holes[seat]) >= self._expect[seat]:
            self._extra_card(seat, card)
        else:
            self.holes[seat].append(card)
        two = seat == self._last_seat
        self._last_seat = seat
        self._maybe_complete(out)
        self._button_last_card(n, seat, two, out)

    def _button_last_card(self, n, seat, two, out):
        # DEAL-2: the button receives the last card of every round, so its last card ends the initial
        # deal even when a seat was passed over: the counts are checked now (DEAL-26) and a seat left
        # short is a misdeal before SA (DEAL-9, DEAL-10) instead of a card the table waits for forever.
        # DEAL-23: the button's last two cards in a row are no misdeal.
        btn = self.plan.button
        if seat != btn or len(self.holes[btn]) < self._expect[btn]:
            return
        if two and self.draws[n - 2][1] == btn and self.plan.rounds > 1 and not self._extra.get(btn):
            self._add(Finding("button_two_cards", ("DEAL-23",), ENGINE, "the button (seat %d) received two cards "
                              "in a row (draws %d and %d)" % (btn, n - 1, n), "no misdeal: the deal stands", draw=n,
                              seat=btn), out)
        if not self.deal_done:
            self._deal_complete(out)

    def _next_seat(self):
        # DEAL-2: clockwise from the seat after the last one served, skipping seats already full
        seats = self.plan.seats
        start = 0 if self._last_seat is None else seats.index(self._last_seat) + 1
        for i in range(len(seats)):
            seat = seats[(start + i) % len(seats)]
            if len(self.holes[seat]) + self._owed.get(seat, 0) < self._expect[seat]:
                return seat
        return None

    def _stud_card(self, n, card, seat, out):
        s = self.street
        if len(self._street_burns.get(s, ())) < self._need_burn(s):
            self._note(("noburn", s), Finding("missing_burn", ("DEAL-3",), ENGINE, "%s dealt without a burn" %
                                              self.street_name(), "one burn precedes every later street", draw=n), out)
        if self._served.get(seat):
            self._extra_card(seat, card)
            return
        expected = None
        for live_seat in self.plan.seats:
            if live_seat in self.live and not self._served.get(live_seat):
                expected = live_seat
                break
        if expected is not None and seat != expected:
            self._add(Finding("out_of_order", ("DEAL-2",), ENGINE, "draw %d went to seat %d, expected seat %d" % (
                n, seat, expected), "continue; every live seat gets one card", draw=n, seat=seat), out)
        self._served[seat] = True
        self.holes[seat].append(card)
        self._maybe_complete(out)

    def _maybe_complete(self, out):
        if self.phase != DEALING:
            return
        s = self.street
        plan = self.street_plan(s)
        if s == 0:
            total = 0
            for seat in self.plan.seats:
                total += len(self.holes[seat]) + self._owed.get(seat, 0)
            if total >= self.plan.rounds * len(self.plan.seats):
                self._deal_complete(out)
            return
        if self._rebuild is not None and self._rebuild.status == PROPOSED:
            return
        if plan.draw:
            for seat in self.live:
                if not self._drew.get(seat) or self._owed.get(seat, 0):
                    return
        elif plan.hole:
            for seat in self.live:
                if not self._served.get(seat):
                    return
        if plan.board and len(self.board) < self._board_target(s):
            return
        self.phase = BETTING
        self._complete_draw = len(self.draws)

    def _deal_complete(self, out):
        if self.deal_done:
            return
        self.deal_done = True
        if self.phase == DEALING and self.street == 0:
            self.phase = BETTING
            self._complete_draw = len(self.draws)
        counts = {}
        for seat in self.plan.seats:
            counts[seat] = len(self.holes[seat])
        self._add(Finding("deal_complete", ("DEAL-2", "DEAL-26"), ENGINE, "initial deal complete: " + ", ".join(
            "seat %d %d" % (s, counts[s]) for s in self.plan.seats), detail={"counts": counts}), out)
        if self.rules.presence_check == "seat_button" and self.rules.mode != CASH:
            for seat in self.live:
                if not self._present.get(seat):
                    self.absent(seat, _out=out)

    # ---------------------------------------------------------------- console marks and rulings (marks.py)

    def hold(self):
        from felt.engine.dealing import marks
        return marks.hold(self)

    def mark_boxed(self, draw):
        from felt.engine.dealing import marks
        return marks.mark_boxed(self, draw)

    def mark_exposed(self, draw, betting_remains=True):
        from felt.engine.dealing import marks
        return marks.mark_exposed(self, draw, betting_remains)

    def foreign(self, place):
        from felt.engine.dealing import marks
        return marks.foreign(self, place)

    def absent(self, seat, _out=None):
        from felt.engine.dealing import marks
        return marks.absent(self, seat, _out)

    def kill(self, seat, rule="DEAL-38"):
        from felt.engine.dealing import marks
        return marks.kill(self, seat, rule)

    def discard(self, seat, cards):
        from felt.engine.dealing import marks
        return marks.discard(self, seat, cards)

    def reshuffled(self, include=()):
        from felt.engine.dealing import marks
        return marks.reshuffled(self, include)

    # ---------------------------------------------------------------- confirm / reject (remedies.py)

    def confirm(self, fid, card=None):
        from felt.engine.dealing import remedies
        return remedies.confirm(self, fid, card)

    def reject(self, fid):
        from felt.engine.dealing import remedies
        return remedies.reject(self, fid)
