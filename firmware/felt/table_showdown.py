# Showdown and the end of a hand (controller layer, part of felt.table.Table): live hands read from
# their seat antennas (SHOW-1: tabled or mucked), stacks settled, seat records carried to the next
# hand, and the finished hand written as PHH to the history sink. A mixin over the Table's state.
from felt.engine import dealing
from felt.engine.cards import UNKNOWN, card_text, cards_text
from felt.errors import RuleError
from felt.events import WARN
from felt.table_state import OVER


class Showdown:
    # ---- showdown and the end of a hand ------------------------------------------------------
    def _showdown(self):
        # the live hands' cards are read from their seat antennas (SHOW-1): all there -> tabled;
        # none there and in the muck -> mucked; otherwise the table asks for them
        h = self.hand
        for p in range(h.n):
            if not h.live[p] or h.mucked[p] or h.shown[p] or h.finished:
                continue
            seat = self.setup.seats[p]
            hole = h.hole[p]
            there = 0
            mucked = 0
            for c in hole:
                if c in self.off:
                    continue
                if self.where.get(c) == seat:
                    there += 1
                elif self.where.get(c) == "muck":
                    mucked += 1
            try:
                if seat in self.killed:  # killed by a ruling while all-in: it never had a turn to fold
                    h.muck(p)
                    self.log("seat %d's dead hand is mucked (%s)" % (seat, self.killed[seat]))
                elif there == len(hole):
                    h.show(p)
                    self.log("seat %d shows %s" % (seat, cards_text(hole)))
                elif mucked == len(hole):
                    h.muck(p)
                    self.log("seat %d mucks" % seat)
                elif seat not in self._showdown_noted:
                    self._showdown_noted[seat] = True
                    self.alert(WARN, ("SHOW-1",), "seat %d's cards are not all on its antenna at the showdown" % seat,
                               "put seat %d's cards on its antenna (or in the muck to give up)" % seat, seat=seat)
            except RuleError as e:
                self.rule_alert(e)

    def _finish(self):
        h = self.hand
        self._findings(self.dc.hand_over() if self.dc.phase not in (dealing.MISDEALT, dealing.VOID) else [])
        for p in range(h.n):
            self.stacks[self.setup.seats[p] - 1] = h.stacks[p]
        self.results = list(h.reasons or [])
        for line in self.results:
            self.log("hand %d: %s" % (self.hand_no, line))
        self.prev = self.setup
        self.seat_rec = [r.copy() for r in self.setup.table]
        for seat in sorted(self._later):  # presses and seatings during the hand count from now
            self.seat_rec[seat - 1] = self._later[seat]
        self._later = {}
        self.state = OVER
        self._write_history()

    def _write_history(self):
        if self._history is None:
            return
        from felt import phh  # only a table with a history sink loads the PHH writer (~21 KB of heap)

        h = self.hand
        g = self.config.record
        acts = []
        for op in h.log:
            a = _phh_action(op)
            if a:
                acts.append(a)
        hist = phh.History(g.code, h.starting_stacks, acts, antes=_antes(h), blinds_or_straddles=(
            list(self.setup.blinds_or_straddles) if g.forced == "blinds" else None),
            bring_in=self.config.bring_in if g.forced == "bring_in" else None,
            small_bet=self.config.small_bet if g.structure == "limit" or g.forced == "bring_in" else None,
            big_bet=self.config.big_bet if g.structure == "limit" or g.forced == "bring_in" else None,
            min_bet=self.config.bb if g.structure != "limit" and g.forced == "blinds" else None,
            players=["seat %d" % s for s in self.setup.seats], finishing_stacks=list(h.stacks),
            extra=[("hand", self.hand_no), ("seats", list(self.setup.seats))] + _opener_field(h, g))
        self.histories += 1
        self._history(phh.write(hist))


def _opener_field(h, g):
    # A live post equal to the big blind (make-up BLIND-14, new player BLIND-16) opens preflop
    # left of the big blind (GAME-3), but a PHH reader (pokerkit, felt.replay) takes a later equal
    # blind for a straddle and opens left of it. The user field (PHH: "_" names) tells felt.replay
    # to open as the table did; written only when the two readings differ.
    if g.forced != "blinds":
        return []
    from felt.engine import streets

    b = h.nominal_blinds
    if streets.position_opener(0, b) == streets.position_opener(0, b, later_ties=True):
        return []
    return [(OPENER_FIELD, True)]


OPENER_FIELD = "_felt_game3_opener"


def _antes(h):
    # PHH has no dead blind: a player's dead money is written as its ante -- an uneven ante is dead
    # money in the main pot that counts toward no call, the same thing (POT-17). Heads-up PHH
    # lists are read swapped unless the button posts the big blind (engine/button.py)
    if not hasattr(h, "antes_posted"):
        return 0
    out = [h.antes_posted[p] + h.dead_posted[p] for p in range(h.n)]
    if h.n == 2 and h.rules.headsup_blinds == "button_is_sb":
        out.reverse()
    return out


def _phh_action(op):
    who = "p%d" % (op.position + 1) if op.position is not None else "d"
    k = op.kind
    if k == "hole":
        return "d dh %s %s" % (who, "".join(["??" if c == UNKNOWN else card_text(c) for c in op.cards]))
    if k == "board":
        return "d db %s" % cards_text(op.cards)
    if k == "fold":
        return who + " f"
    if k in ("check", "call"):
        return who + " cc"
    if k in ("bet", "raise", "complete"):
        return "%s cbr %d" % (who, op.total)
    if k == "bring_in":
        return who + " pb"
    if k == "discard":
        return ("%s sd %s" % (who, cards_text(op.cards))) if op.cards else who + " sd"
    if k == "show":
        return "%s sm %s" % (who, cards_text(op.cards))
    if k == "muck":
        return who + " sm"
    return None
