# Seats, buttons and the start of a hand (controller layer, part of felt.table.controller.Table): seating and
# stacks, seat-button presses (RULES.md section 14, BLIND-13..20), the next hand's button and blinds
# (engine/button.py), the Hand and dealing check of a hand, a redeal after a misdeal (DEAL-14) and
# the replay after a ruling rebuilt a street. A mixin over the Table instance's state.
from felt.engine.between_hands import blinds as btn
from felt.engine.dealing import check as dealing
from felt.engine.dealing import plan as dealplan
from felt.engine.house import rules as settings
from felt.engine.hand.machine import Hand
from felt.errors import ConfigError, RuleError
from felt.events import INFO, LAPSED, PROPOSED, WARN
from felt.table.state import PLAYING


class Seats:
    # ---- seats and hands -------------------------------------------------------------------
    def sit(self, seat, stack):
        if not 1 <= seat <= self.config.seats:
            raise ConfigError("seat %r is not a seat 1..%d" % (seat, self.config.seats))
        if stack <= 0:
            raise ConfigError("CASH-1: a stack must be more than 0 chips, got %r" % (stack,))
        # before the first hand everyone seated is active (BLIND-17); later a newcomer posts a
        # big blind to play at once (BLIND-16, cash) or is dealt in (tournament placement)
        if self._rec(seat).status == btn.EMPTY:
            status = btn.ACTIVE if self.prev is None else btn.NEW
            self._set_rec(seat, btn.Seat(status, post=True))
        self.stacks[seat - 1] = stack  # a seated player's stack is corrected (BET-51, CASH rebuys)
        self.log("seat %d sits with %d" % (seat, stack))

    def new_hand(self, now_ms=None):
        """The next hand: the button moves by BLIND-*, blinds and antes are posted. now_ms (the
        loop's clock, journaled with the call) counts timed penalties (TOUR-17, minutes)."""
        if self.state == PLAYING:
            raise RuleError("GAME-6", "hand %d is not over yet" % self.hand_no)
        if self.staged:  # floor level/structure changes apply from this hand (TOUR-1)
            from felt.table import rulings as table_rulings
            table_rulings.apply_staged(self)
        for seat in sorted(self._later):  # changes made during a void hand
            self.seat_rec[seat - 1] = self._later[seat]
        self._later = {}
        for i in range(self.config.seats):
            if self.stacks[i] <= 0 and self.seat_rec[i].status != btn.EMPTY:
                self.seat_rec[i] = btn.Seat()  # busted: the seat is empty from now on
        cfg = self.config
        h4h = None
        if self.level_clock is not None:  # TOUR-1: a level that ran out applies now; TOUR-8: 2:00 a hand
            from felt.table import tournament
            h4h = tournament.hand_started(self, now_ms)
        blinds = cfg.record.forced == "blinds"
        try:
            setup = btn.next_hand(self.seat_rec, prev=self.prev, button=cfg.button, sb=cfg.sb if blinds else 0,
                                  bb=cfg.bb if blinds else 1, ante=cfg.ante if blinds else 0, mode=cfg.mode,
                                  rules=cfg.house)
        except (RuleError, ConfigError):
            if h4h is not None:  # no hand started: it took no time (nor a level) off the clock
                h4h[2]()
            raise
        self.hand_no += 1
        self.alerts = []
        self.results = []
        self.misdeals = 0
        self.serving = {}
        if h4h is not None and h4h[0]:
            self.alert(INFO, h4h[1], h4h[0])
        if self.penalties is not None:  # TOUR-17: penalised seats join the absent ones (BLIND-23)
            from felt.table import rulings as table_rulings
            table_rulings.serve_penalties(self, setup, now_ms)
        self._start(setup, None)

    def _rebuild(self):
        """After a ruling moved cards (DEAL-27/28/29 rebuilt street): a fresh Hand replays the
        journal while the dealing check's logical cards are fed whenever they are due."""
        h = self._make_hand(self.setup)
        self.hand = h
        self.fed = {}
        for entry in self.journal:
            self._feed_all(h)
            try:
                if entry[0] == "draw":
                    h.draw(self.position(entry[1]), entry[2])
                else:
                    self._engine_act(h, self.position(entry[1]), entry[2], entry[3])
            except RuleError as e:
                self.rule_alert(e, "replay after the ruling")
                break
        self._feed_all(h)

    def _make_hand(self, setup):
        cfg = self.config
        g = cfg.record
        seats = list(setup.seats)
        stacks = [self.stacks[s - 1] for s in seats]
        dead = ()
        if g.forced == "blinds":
            blinds = setup.blinds_or_straddles
            antes = setup.antes
            dead = setup.dead  # BLIND-14 make-up dead SB, BLIND-25: main pot, no call credit (POT-17)
        else:
            blinds = ()
            antes = cfg.ante
        return Hand(game=g, stacks=stacks, blinds=blinds, antes=antes, bring_in=cfg.bring_in,
                    small_bet=cfg.small_bet, big_bet=cfg.big_bet, min_bet=cfg.bb, unit=cfg.unit,
                    rules=cfg.house, seats=seats, dead=dead, event_heads_up=cfg.players_left == 2)

    def _start(self, setup, plan):
        cfg = self.config
        g = cfg.record
        seats = list(setup.seats)
        self.hand = self._make_hand(setup)
        self.journal = []  # engine inputs other than cards, in order, for _rebuild()
        self._dc_discards = []  # [(seat, cards)] draws not yet told to the dealing check
        if plan is None:
            # BLIND-23: a tournament seat whose player is away or serving a penalty is dealt in and
            # pays, but its hand is dead: the dealing check knows it from the start (plan dead)
            dead = tuple(sorted([seats[i] for i in getattr(setup, "absent", ())]))
            plan = dealplan.make_plan(seats, g.streets, setup.button, dead=dead)
        self.dc = dealing.DealCheck(plan, cfg.house)
        self.setup = setup
        self._pos = dict([(seats[p], p) for p in range(len(seats))])
        self.state = PLAYING
        self._new_account()
        self.log("hand %d: %s, button seat %d, seats %s" % (self.hand_no, g.name, setup.button,
                                                            " ".join([str(s) for s in seats])))
        if plan.dead and g.forced == "blinds":
            # the engine Hand kills them too (Hand.kill, journaled): their blinds and antes stay in
            # the pot, layered with their other chips (POT-17: a blind nobody matches comes back,
            # POT-2), and the action passes them by; the dealer mucks their cards after the deal
            from felt.table import rulings as table_rulings
            table_rulings.kill_dead(self, "BLIND-23")
            if self.hand.finished:  # heads-up: the other hand was the last live one (GAME-6)
                self._sync()
            for seat in plan.dead:
                if self.state == PLAYING:
                    self._dead_alert(seat, "its blinds and antes stay", "muck seat %d's cards when the deal is complete"
                                     % seat)
                else:
                    self._dead_alert(seat, "its blinds and antes stay but what nobody matched (POT-2)",
                                     "deal no cards: the hand is over (GAME-6)")
        elif plan.dead:
            # stud: an absent seat's upcard may be the bring-in card (GAME-11), so the Hand needs
            # its cards; it is killed when the initial deal completes (table_rulings.absent_stud)
            for seat in plan.dead:
                self._dead_alert(seat, "its antes stay", "muck seat %d's cards when the deal is complete; if its "
                                 "upcard brings in, the bring-in is posted for it" % seat)

    def _dead_alert(self, seat, stays, remedy):
        # BLIND-23: the seat is absent, or serving a penalty (TOUR-17: how much is left is said)
        if seat not in self.serving:
            self.alert(INFO, ("BLIND-23",), "seat %d is absent: its hand is dead, %s" % (seat, stays), remedy, seat=seat)
            return
        from felt.table import rulings as table_rulings
        self.alert(INFO, ("TOUR-17", "BLIND-23"), "seat %d serves a penalty: %s; its hand is dead, %s" % (
            seat, table_rulings.penalty_left_text(self, seat), stays), remedy, seat=seat)

    def _redeal(self):
        # DEAL-14: the same hand again -- same button, same blinds, the same seats
        self.misdeals += 1
        plan = self.dc.redeal_plan()
        for a in self.alerts:  # proposals about the misdealt cards name findings of the old check
            if a.status == PROPOSED:
                a.status = LAPSED
                a.remedy = "the hand was misdealt (DEAL-14)"
        self._await = None
        self._start(self.setup, plan)
        self.log("hand %d: misdeal, redeal %d" % (self.hand_no, self.misdeals))

    # ---- seat buttons (RULES.md section 14, BTN) ---------------------------------------------
    def _rec(self, seat):
        return self._later.get(seat) or self.seat_rec[seat - 1]

    def _set_rec(self, seat, rec):
        if self.state == PLAYING:
            self._later[seat] = rec
        else:
            self.seat_rec[seat - 1] = rec

    def button(self, seat, kind):
        if not 1 <= seat <= self.config.seats:
            return
        rec = self._rec(seat)
        if rec.status == btn.EMPTY:
            self.log("seat %d button: the seat is empty" % seat)
            return
        self._undo[seat] = rec  # a stuck switch first looks like a long press: undone then
        if kind == "long":
            if rec.status == btn.OUT:
                self._set_rec(seat, rec.copy(status=btn.BACK, post=False))
                self.log("seat %d returns; waits for the big blind (BLIND-15)" % seat)
            else:
                self._set_rec(seat, rec.copy(status=btn.OUT, post=False, straddle=False))
                self.log("seat %d sits out from the next hand (BLIND-13)" % seat)
            return
        if self.state == PLAYING:
            if self.position(seat) is not None and self.config.mode != settings.CASH:
                self._dc(self.dc.present, seat)  # DEAL-39 presence
            elif self.config.house.get("blind_chop") == "on":
                from felt.table import rulings as table_rulings  # BLIND-26: a blind's press offers or agrees to chop

                if table_rulings.chop_press(self, seat):
                    return
            self.log("seat %d asks for time" % seat)
        elif rec.status in (btn.NEW, btn.BACK):
            self._set_rec(seat, rec.copy(post=True))
            self.log("seat %d posts to play now (BLIND-14, BLIND-16)" % seat)
        elif rec.status == btn.ACTIVE and self.config.house.get("straddle") == "utg_2x":
            self._set_rec(seat, rec.copy(straddle=not rec.straddle))
            self.log("seat %d %s (BLIND-20)" % (seat, "straddles next hand" if not rec.straddle else "no straddle"))
        else:
            self.log("seat %d button" % seat)

    def button_fault(self, seat, fault, cleared):
        undo = self._undo.pop(seat, None)
        if not cleared and undo is not None and fault == "stuck":
            self._set_rec(seat, undo)
            self.log("seat %d: the long press of a stuck switch is undone" % seat)
        if cleared:
            self.alert(INFO, (), "seat %d button is no longer %s" % (seat, fault), device="button%d" % seat)
        else:
            self.alert(WARN, (), "seat %d button is %s: its presses are ignored" % (seat, fault),
                       "check the seat %d switch" % seat, seat=seat, device="button%d" % seat)
