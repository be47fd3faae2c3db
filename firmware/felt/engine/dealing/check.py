# Dealing check (engine layer, pure): follows each card leaving the shoe and where it lands against a
# dealing plan (dealplan.py) and reports RULES.md §6 findings (DEAL-1..49): misdeals, fouled deck,
# boxed / exposed / extra / foreign cards, burn errors, premature and four-card boards, rabbit hunting.
# ASSIST findings are proposals: confirm() / reject() apply them and return the dealer's instructions.
# Part 1 of 4: the state, queries, seat-count problems, actions and streets. The shoe draws are in
# dealdraws.py, the console marks in dealmarks.py, the confirm/reject remedies in dealfix.py.
from felt.engine.dealing.draws import DealDraws
from felt.engine.dealing.plan import (APPLIED, ASSIST, BETTING, BOARD, BURN, CONFIRMED, DEALING, ENGINE,  # noqa: F401
                                   FAMILY_BOARD, FAMILY_DRAW, FAMILY_STUD, FLOOR, FOREIGN, INFO, LAPSED, MISDEALT,
                                   MUCK, OVER, PROPOSED, REJECTED, SHOWDOWN, STUB, VOID, Finding, Plan, StreetPlan,
                                   card_text, cards_text, place_text, plan_from_dict, premature_rules,
                                   seventh_street)
from felt.engine.house.rules import CASH, HouseRules, from_dict
from felt.errors import RuleError

ACTIONS = ("fold", "check", "call", "bet", "raise", "complete", "allin")
FORCED = ("post", "bring_in")  # forced bets are not actions for SA (DEAL-6)
_CHIP_ACTIONS = ("call", "bet", "raise", "complete", "allin")

_FOREIGN_KINDS = ("foreign_replace", "foreign_scrap", "void_hand")


class DealCheck(DealDraws):
    """Checks one hand's dealing. plan: a dealplan.Plan or its plain dict; rules: settings.HouseRules
    (or a dict for settings.from_dict; default cash defaults). One DealCheck per hand (a redeal after a
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
            raise RuleError("DEAL-14", "the hand was misdealt; deal it again with a new check (redeal_plan())")
        if self.phase == VOID:
            raise RuleError("DEAL-18", "the hand is void; every bet is returned")

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
            raise RuleError("GAME-16", "unknown action %r" % (kind,), legal=ACTIONS + FORCED)
        if seat not in self.plan.seats:
            raise RuleError("DEAL-5", "seat %r is not dealt in" % (seat,), legal=self.plan.seats)
        if isinstance(chips, bool) or not isinstance(chips, int) or chips < 0:
            raise RuleError("BET-49", "chips must be a whole amount >= 0, got %r" % (chips,))
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
                    self._foreign_after_sa(f.seat, f.detail.get("place"), out)

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

