# Dealer-console entries (controller layer, part of felt.table.controller.Table): actions and chip pushes mapped
# to Hand calls, configuration between hands, console marks on shoe draws, and the dealer's rulings
# on ASSIST proposals (confirm / reject). Rejected entries become alerts naming the rule; the state
# stays unchanged. A mixin over the Table's state.
from felt.engine.dealing import check as dealing
from felt.engine.house.rules import CASH
from felt.errors import ConfigError, RuleError
from felt.events import CONFIRMED, INFO, LAPSED, PROPOSED, REJECTED, WARN
from felt.table.state import CONFIG_NUMBERS, DRAW, HOLD, PICK, PLAYING, VOID

DEAD_HAND = ("dead_hand", "absent")  # dealing-check rulings that kill a hand (DEAL-20/25/39)


_KEY_ALIAS = {"bringin": "bring_in"}  # FELT1 configuration key -> TableConfig field


class Entries:
    # ---- console entries ---------------------------------------------------------------------
    def act(self, seat, verb, amount=None):
        """A dealer-console action. Returns the Op, or None when rejected (an alert says why)."""
        h = self.hand
        if self.state != PLAYING:
            self.alert(WARN, ("GAME-6",), "%s by seat %d rejected: no hand is in progress" % (verb, seat))
            return None
        p = self.position(seat)
        if p is None:
            self.alert(WARN, ("DEAL-5",), "%s by seat %d rejected: seat %d is not dealt in" % (verb, seat, seat))
            return None
        self.resolve()
        if self._refuse_held(seat, verb):
            return None
        if h.actor is not None and p != h.actor:
            from felt.table import out_of_turn as table_oot  # BET-39..43: held for its turn, not dropped (loaded on the first)

            if table_oot.applies(self, p, verb):
                return table_oot.entry(self, seat, p, verb, amount)
        if self.oot_limits and p in self.oot_limits and p == h.actor:
            from felt.table import out_of_turn as table_oot

            if not table_oot.in_turn(self, seat, p, verb):
                return None
        if h.phase == DRAW and verb == "check":
            self._finish_draws(seat, True)  # "check" during a draw: stands pat (GAME-15)
            self._sync()
            return True
        if (verb == "check" or verb == "call") and self._nut_refused(h, seat, p):
            return None
        try:
            op = self._engine_act(h, p, verb, amount)
        except RuleError as e:
            self.rule_alert(e, "%s by seat %d" % (verb, seat))
            return None
        return self._acted(seat, verb, amount, op)

    def push(self, seat, chips, said=None, amount=None, earlier=None):
        """Chips pushed at the console (BET-8..17, BET-31..37: engine/declare.py reads them):
        chips = values pushed now; said = what was declared first ("raise", "all_in", "call",
        "check", "fold", "bet", "pot"); amount = a spoken amount. Returns the Op or None."""
        h = self.hand
        p = self.position(seat) if self.state == PLAYING else None
        if p is None:
            return self.act(seat, "push")  # the same rejection as any entry out of a hand
        self.resolve()
        if self._refuse_held(seat, "push"):
            return None
        if h.actor is not None and p != h.actor:
            from felt.table import out_of_turn as table_oot  # BET-39: chips pushed out of turn are held like an action

            if table_oot.string_bet(self, seat, p, said, chips):
                return None
            verb, total = table_oot.push_action(h, p, chips, said, amount)
            if table_oot.applies(self, p, verb):
                return table_oot.entry(self, seat, p, verb, total)
        from felt.engine.hand import chip_push as declare  # chip pushes are rare: load the reader on the first one

        try:
            reading = declare.interpret(h, p, chips, said=said, amount=amount, earlier=earlier)
            if reading.action in ("check", "call") and self._nut_refused(h, seat, p):
                return None
            op = declare.apply(h, p, reading)
        except RuleError as e:
            self.rule_alert(e, "push by seat %d" % seat)
            return None
        if reading.change:
            self.log("seat %d gets %d change (%s)" % (seat, reading.change, reading.rule))
        verb = {"check": "call", "call": "call", "fold": "fold", "bring_in": "bringin"}.get(reading.action, "raise")
        return self._acted(seat, verb, reading.total, op)

    def configure(self, key, value, now_ms=None):
        """Console `set KEY VALUE` between hands: blinds/antes/limits/unit or a house rule hr.NAME
        (validated by engine/settings.py, all-or-nothing). Returns True, or False with an alert.
        now_ms: the loop's time of the entry (the level clock, TOUR-1)."""
        cfg = self.config
        key = _KEY_ALIAS.get(key, key)
        if key == "hand_for_hand":  # TOUR-8: announced during a hand too (that hand counts)
            from felt.table import tournament
            return tournament.configure_h4h(self, value, now_ms)
        if key == "level_clock":  # TOUR-1: started, paused, resumed during a hand too
            from felt.table import tournament
            return tournament.configure(self, value, now_ms)
        if self.state == PLAYING:
            self.alert(WARN, ("GAME-1",), "set %s refused: hand %d is in progress" % (key, self.hand_no))
            return False
        try:
            if key.startswith("hr."):
                cfg.house = cfg.house.replace({key: value})
            elif key in CONFIG_NUMBERS:
                if not isinstance(value, int) or value < 0:
                    raise ConfigError("BET-1: %s must be a whole number of chips, got %r" % (key, value))
                setattr(cfg, key, value)
            elif key == "players_left":
                # TOUR-13: the console supplies the players left in the event; at two, a heads-up
                # limit hand has no raise cap (BET-5 event_heads_up_only), from the next hand
                from felt.engine.between_hands import ledger

                if cfg.mode == "cash":
                    raise ConfigError("TOUR-13: players_left is a tournament setting")
                try:
                    ledger.event_heads_up(value)
                except RuleError as e:
                    raise ConfigError("TOUR-13: " + e.message.split(": ", 1)[-1])
                cfg.players_left = value
            else:
                raise ConfigError("GAME-1: %s cannot be changed at the table (%s players_left or hr.NAME)" % (
                    key, " ".join(CONFIG_NUMBERS)))
        except ConfigError as e:
            text = str(e)
            rule = text.split(":", 1)[0] if text[:1].isupper() and "-" in text.split(":", 1)[0] else "GAME-1"
            self.alert(WARN, (rule,), "set %s refused: %s" % (key, text))
            return False
        self.log("set %s = %s" % (key, value))
        return True

    def setting(self, key, now_ms=None):
        """Console `get KEY`: the value now in force (None for an unknown key)."""
        key = _KEY_ALIAS.get(key, key)
        if key.startswith("hr."):
            return self.config.house.get(key)
        if key == "level_clock":  # TOUR-1: off, or L<level>/<M:SS left>[/paused]
            if self.level_clock is None:
                return "off"
            from felt.table import tournament
            return tournament.get(self, now_ms)
        if key == "jackpot":  # CASH-12: the bad-beat fund of a jackpot table
            return self.jackpot if self.config.mode == CASH and self.config.house.bbj_hand != "off" else "off"
        if key == "dispute":  # POT-18: what about the last hand may still be disputed
            return self._dispute()
        if key == "hand_for_hand":  # TOUR-8: off, on (time not known) or the level clock M:SS
            if self.level_clock is None:
                return "off"
            from felt.table import tournament
            return tournament.get_h4h(self)
        return getattr(self.config, key, None) if key in CONFIG_NUMBERS + ("game", "structure", "mode", "seats",
                                                                           "players_left") else None

    def _dispute(self):
        # POT-18: the reading of a tabled hand until the next hand begins (DEAL-1); counting and
        # awarding errors until substantial action on the next hand; then the last hand is locked
        if self.prev is None:
            return "none"
        if self.state != PLAYING:
            return "reading"
        return "locked" if self.dc.sa else "count"

    def pot_count(self, asker=None):
        """Console `pot [SEAT]`: a player asks for the pot (BET-26). The count dict, or None with an
        alert naming the rule when the house rule gives none here."""
        return self._count("pot_count", asker)

    def stack_count(self, seat, asker=None):
        """Console `count SEAT [ASKER]`: a count of SEAT's stack (BET-48), or None with an alert."""
        return self._count("stack_count", seat, asker)

    def _count(self, name, *args):
        from felt.table import counts as table_counts  # loaded on the first request

        try:
            return getattr(table_counts, name)(self, *args)
        except RuleError as e:
            self.rule_alert(e)
            return None

    def mark(self, seat, what, draw=None):
        """Console mark: the dealer saw draw `draw` (default: the last card drawn to `seat`) face up
        in the deck ("boxed", DEAL-7/17) or exposed by a dealer error ("exposed", DEAL-11/21/22), or
        the seat's player is absent at the end of the deal ("absent": a DEAL-39 proposal)."""
        if self.state != PLAYING:
            self.alert(WARN, ("GAME-6",), "mark %s rejected: no hand is in progress" % what)
            return False
        dc = self.dc
        if draw is None:
            for i in range(len(dc.draws) - 1, -1, -1):
                if dc.draws[i][1] == seat:
                    draw = i + 1
                    break
        if draw is None:
            self.alert(WARN, ("DEAL-17",), "mark %s rejected: no card was drawn to seat %d" % (what, seat))
            return False
        if what == "boxed":
            self._dc(dc.mark_boxed, draw)
        elif what == "exposed":
            self._dc(dc.mark_exposed, draw)
        elif what == "absent":
            # DEAL-39 under hr.presence_check = console: the dealer marks a seat whose player was
            # not at the table when the deal ended. The check proposes the ruling; the confirm
            # kills the hand in the engine too (ruling -> table_rulings.kill_dead -> Hand.kill)
            self._dc(dc.absent, seat)
        elif what == "dealer_error" and self.oot:
            from felt.table import out_of_turn as table_oot  # BET-42: the dealer prompted a held out-of-turn action

            if not table_oot.dealer_error(self, seat):
                self.log("seat %d marked %s (recorded)" % (seat, what))
        else:
            self.log("seat %d marked %s (recorded)" % (seat, what))
        return True

    def _refuse_held(self, seat, verb):
        # DEAL-27/28/29: while the dealer has not ruled on a street's cards, its action is held
        for a in self.pending():
            if a.finding is not None and self.dc.findings[a.finding - 1].kind in HOLD:
                self.alert(WARN, a.rules, "%s by seat %d rejected: the action is held until alert #%d is ruled on" % (
                    verb, seat, a.id))
                return True
        return False

    def _nut_refused(self, h, seat, p):
        # SHOW-19: a check or call by the river's last actor in a high-only board game is looked
        # at (table_rulings.nut_check); True when hr.nut_check_last_to_act = require_bet refuses it
        if h.actor != p or h.street != len(h.game.streets) - 1 or h.game.family != "board" \
                or h.game.lo is not None or h.round.needs.count(True) > 1:
            return False
        from felt.table import rulings as table_rulings

        return table_rulings.nut_check(self, seat, p)

    def _acted(self, seat, verb, amount, op):
        self.journal.append(("act", seat, verb, amount))
        c = self.action_clock
        if c is not None and c.seat == seat:
            self.action_clock = None  # acted in time: the clock stops and the action stands (TOUR-6)
            if c.proposal is not None and c.proposal.status == PROPOSED:
                c.proposal.status = LAPSED  # CASH-13: the player acted before the dealer ruled
        if self.dc.phase not in (dealing.MISDEALT, dealing.VOID):
            self._dc(self.dc.action, seat, "bring_in" if op.kind == "bring_in" else op.kind, op.amount)
        self.log("seat %d %s%s" % (seat, op.kind, (" %d" % op.total) if op.kind in ("bet", "raise", "complete") else ""))
        self._sync()
        if self.level_clock is not None and self.state == PLAYING and self.hand.runout:
            from felt.table import tournament
            tournament.maybe_hold(self)  # TOUR-10: an all-in and call waits for the TD
        if self.oot and self.state == PLAYING:
            from felt.table import out_of_turn as table_oot
            table_oot.follow(self)  # a held out-of-turn action whose turn came binds or is released
        return op

    def _engine_act(self, h, p, verb, amount):
        if verb == "fold":
            return h.fold(p)
        if verb == "check":
            return h.check(p)
        if verb == "call":
            return h.check_call(p)
        if verb in ("bet", "raise", "complete"):
            if amount is None:
                raise RuleError("BET-8", "%s needs the new total for the street" % verb)
            return h.bet_raise_to(p, amount)
        if verb == "allin":
            # every chip pushed: a raise to the whole stack when a raise is open (in limit: the
            # one legal raise, BET-37), else a call, all-in for less when short (BET-47)
            total = h.bets[p] + h.stacks[p]
            lg = h.legal()
            if lg is None or not lg.can_raise or total <= lg.call + h.bets[p]:
                return h.check_call(p)
            if h.structure == "limit" and total > lg.max_to:
                total = lg.max_to
            return h.bet_raise_to(p, total)
        if verb == "bringin":
            return h.post_bring_in(p)
        if verb == "kill":  # a journaled ruling (table_rulings.kill): DEAL-36/38, in or out of turn
            return h.kill(p)
        if verb == "forfeit":  # club_chips_stay: out-of-turn chips stay in the pot (table_oot, BET-39)
            from felt.table import out_of_turn as table_oot

            return table_oot.forfeit_chips(h, p, amount)
        if verb == "chop":  # both blinds agreed (table_rulings.chop_press): BLIND-26
            from felt.engine.house import cash as cashrules

            return cashrules.chop_blinds(h)
        raise RuleError("GAME-16", "unknown action %r" % (verb,), legal=("fold", "check", "call", "bet", "raise",
                                                                          "allin", "bringin", "complete"))

    def ruling(self, aid, accept):
        """The dealer confirms (accept=True) or rejects proposal alert `aid` (None = the newest)."""
        a = None
        for x in self.alerts:
            if x.status == PROPOSED and (aid is None or x.id == aid):
                a = x
        if a is None:
            self.alert(WARN, ("DEAL-15",), "no pending proposal%s to %s" % (
                "" if aid is None else " #%d" % aid, "confirm" if accept else "reject"))
            return False
        if a.finding is None and "SHOW-16" in a.rules:
            from felt.table import out_of_turn as table_oot  # a bet hand mucked with an opponent still in (SHOW-16)

            return table_oot.show16_ruled(self, a, accept)
        if a.finding is None and ("BET-39" in a.rules or "BET-41" in a.rules):
            from felt.table import out_of_turn as table_oot  # an out-of-turn proposal (BET-39..43)

            return table_oot.ruled(self, a, accept)
        if a.finding is None and "CASH-13" in a.rules:
            from felt.table import action_clock as table_clock  # the action timer's kill proposal (CASH-13)

            return table_clock.ruled(self, a, accept)
        dc = self.dc
        pick = None
        if accept and dc.findings[a.finding - 1].kind in PICK:
            for c in dc.board:
                if self.where.get(c) == "burn" and c not in self.off:
                    pick = c  # the floor's pick is the board card the dealer put on the burn antenna
        try:
            out = dc.confirm(a.finding, pick) if accept else dc.reject(a.finding)
        except RuleError as e:
            if accept and pick is None and dc.findings[a.finding - 1].kind in PICK:
                self._await = a
                self.alert(INFO, (e.rule,), "confirmed: move the card the floor picks to the burn antenna",
                           "the table completes the ruling when it sees the card there")
                return True
            self.rule_alert(e)
            return False
        self._await = None
        a.status = CONFIRMED if accept else REJECTED
        self.log("alert #%d %s" % (a.id, a.status))
        self._findings(out)
        if dc.phase == dealing.MISDEALT:
            self._redeal()
        elif dc.phase == dealing.VOID:
            self.state = VOID
            self.log("hand %d is void: every bet is returned (DEAL-18)" % self.hand_no)
        else:
            if accept and dc.findings[a.finding - 1].kind in DEAD_HAND:
                from felt.table import rulings as table_rulings
                table_rulings.kill_dead(self, a.rules[0] if a.rules else "DEAL-38")
            if accept and self._disagrees():
                self._rebuild()
            self._sync()
        return True

    def _disagrees(self):
        # a card the Hand holds that the dealing check no longer places there
        h = self.hand
        dc = self.dc
        for c in h.board:
            if c not in dc.board:
                return True
        for c in h.burns:
            if c not in dc.burns:
                return True
        for p in range(h.n):
            if not h.live[p]:
                continue  # a dead hand's cards go to the muck (a kill, DEAL-25/38)
            held = dc.holes.get(self.setup.seats[p], ())
            for c in h.hole[p]:
                if c >= 0 and c not in held:
                    return True
        return False

    # ---- rulings, postings and floor commands (felt/table/rulings.py, loaded on first use) ----
    def _ruled(self, name, what, *args):
        from felt.table import rulings as table_rulings  # rare entries: their code joins the heap on first use

        try:
            return getattr(table_rulings, name)(self, *args)
        except RuleError as e:
            self.rule_alert(e)  # its message names the entry already
        except ConfigError as e:
            text = str(e)
            self.alert(WARN, (text.split(":", 1)[0],) if "-" in text.split(":", 1)[0] else (),
                       "%s refused: %s" % (what, text))
        return False

    def kill(self, seat, rule=None, text=None):
        """Console `kill SEAT [rule=] ["text"]`: the hand is dead (DEAL-38 unless a rule is given)."""
        return self._ruled("kill", "kill", seat, rule, text)

    def misdeal(self, rule=None, text=None):
        """Console `misdeal`: before substantial action the hand is dealt again (DEAL-14, DEAL-15)."""
        return self._ruled("misdeal", "misdeal", rule, text)

    def post(self, seat, kind, amount=None):
        """Console `post SEAT KIND [AMOUNT]` (BLIND-*): True, or False with an alert naming the rule."""
        done = self._ruled("post", "post", seat, kind, amount)
        if done:
            self.log(done)
        return bool(done)

    def floor_decision(self, decision, seat=None, rule=None, amount=None, text=None, now_ms=None):
        """Console `floor DECISION ...`: recorded, with its mechanical consequence (table_rulings);
        now_ms: the loop's clock, for a timed penalty (TOUR-17)."""
        return self._ruled("floor_decision", "floor %s" % decision, decision, seat, rule, amount, text, now_ms)

    def clock_tick(self, now_ms):
        """The loop: the clock on a seat (TOUR-6) has its countdown or expiry due at now_ms, or the
        board restarted (its ms counter began again below a clock's anchor)."""
        lc = self.level_clock
        if lc is not None and lc.behind(now_ms):
            lc.level(now_ms)  # TOUR-1: the time lost in the outage is not known; the level clock runs on from here
        if self.action_clock is None and (self.config.mode != CASH or self.config.house.cash_action_timer == "off"):
            return False
        from felt.table import action_clock as table_clock
        return table_clock.tick(self, now_ms)

    # floor-key commands (security/floordesk.py): raise RuleError/ConfigError, state unchanged
    def void_hand(self):
        from felt.table import rulings as table_rulings
        return table_rulings.void_hand(self)

    def adjust_stack(self, seat, chips):
        from felt.table import rulings as table_rulings
        return table_rulings.adjust_stack(self, seat, chips)

    def set_level(self, n):
        from felt.table import rulings as table_rulings
        return table_rulings.set_level(self, n)

    def set_structure(self, structure):
        from felt.table import rulings as table_rulings
        return table_rulings.set_structure(self, structure)
