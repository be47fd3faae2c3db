# Replays PHH hand histories through the engine's Hand and reports the outcome as a plain dict
# (firmware layer above the engine: text in, records out, no I/O). The same code runs on CPython
# and MicroPython, and dumps() writes canonical JSON (sorted keys, no spaces, ASCII) so the two
# interpreters print byte-identical lines.
#
# Output amounts are in the file's own units: plain ints when the file uses whole amounts
# (scale 1), else exact decimal strings with the file's decimal places ("1259450.25"). Players
# are named by their PHH labels "p1".."pN" (file order); `players` gives their names if known.
from felt.history import phh
from felt.engine.cards import RANKS, SUITS, UNKNOWN
from felt.engine.games import GAMES
from felt.engine.hand.machine import Hand
from felt.engine.house.rules import CASH, HouseRules
from felt.errors import FeltError, FormatError, RuleError

# -- canonical JSON (MicroPython's json has no sort_keys and orders dicts by hash) -------------

_JSON_ESC = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f"}


def _json_str(s):
    if not s:
        return '""'
    if min(s) >= " " and max(s) <= "~" and '"' not in s and "\\" not in s:
        # printable ASCII with nothing to escape (names, reasons): as it is, with no list of
        # characters built (on a 128 KB board that list was the allocation that failed)
        return '"' + s + '"'
    out = ['"']
    for c in s:
        o = ord(c)
        if c in _JSON_ESC:
            out.append(_JSON_ESC[c])
        elif o < 32 or o > 126:
            if o > 0xFFFF:
                o -= 0x10000
                out.append("\\u%04x\\u%04x" % (0xD800 + (o >> 10), 0xDC00 + (o & 0x3FF)))
            else:
                out.append("\\u%04x" % o)
        else:
            out.append(c)
    out.append('"')
    return "".join(out)


def dumps(obj):
    """JSON text with sorted keys and no spaces; ints, strings, bools, None, lists, dicts only."""
    if obj is None:
        return "null"
    if obj is True:
        return "true"
    if obj is False:
        return "false"
    if isinstance(obj, int):
        return str(obj)
    if isinstance(obj, str):
        return _json_str(obj)
    if isinstance(obj, (list, tuple)):
        return "[" + ",".join([dumps(x) for x in obj]) + "]"
    if isinstance(obj, dict):
        return "{" + ",".join([_json_str(k) + ":" + dumps(obj[k]) for k in sorted(obj)]) + "}"
    raise TypeError("not JSON: %r" % (obj,))


# -- replay -------------------------------------------------------------------------------------


_LABELS = ("p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8", "p9", "p10")


def _label(p):
    return _LABELS[p] if p < 10 else "p%d" % (p + 1)


def _cards(texts):
    # card texts phh.split_cards checked ('Ah', '??') -> ints (cards.py: rank * 4 + suit)
    return [UNKNOWN if t == "??" else RANKS.find(t[0]) * 4 + SUITS.find(t[1]) for t in texts]


def _dealt(text, line):
    # the cards of a 'd dh'/'d db' action as written ('AhKd', '????') -> ints, by str.find in
    # RANKS/SUITS: no table of card names in RAM (a 53-entry dict grown on a fragmented 128 KB
    # heap was an allocation that failed); phh.split_cards names a bad card
    out = []
    i = 0
    while i + 1 < len(text):  # few locals: no heap frame per call on MicroPython
        r = RANKS.find(text[i])
        u = SUITS.find(text[i + 1])
        if r >= 0 and u >= 0:
            out.append(r * 4 + u)
        elif text[i] == "?" and text[i + 1] == "?":
            out.append(UNKNOWN)
        else:
            break
        i += 2
    if i == len(text) and i:
        return out
    return _cards(phh.split_cards(text, line))


def _error(message, line=None, rule=None, action=None):
    r = {"error": message}
    if line is not None:
        r["line"] = line
    if rule is not None:
        r["rule"] = rule
    if action is not None:
        r["action"] = action
    return r


def _do(hand, p, v, cards, amount, dealee, line):
    # the rarer actions as phh.fields(split=False) gives them -> the Hand method (_play runs the
    # four common verbs itself: cc, dh, f, cbr). Burns are not written in PHH (automatic).
    if v == "db":
        hand.deal_board(_dealt(cards, line))
    elif v == "pb":
        hand.post_bring_in(p)
    elif v == "sm":
        if cards and _shown_again(hand, p, _cards(cards)):
            return
        if cards:
            hand.show(p, _cards(cards))
        else:
            hand.muck(p)
    elif v == "sd":
        # discards now; PHH deals the replacements later with 'd dh pN' (Hand.deal_hole)
        hand.draw(p, _cards(cards))


def _shown_again(hand, p, cards):
    # PHH stud run-outs table a hand, deal more cards, then table it again: a repeat of cards
    # already face up (all held now) is no new action
    if not (0 <= p < hand.n) or not hand.shown[p]:
        return False
    for c in cards:
        if c not in hand.hole[p]:
            return False
    return True


_DEFAULT_RULES = {}  # game code -> HouseRules(cash): built once, a Hand only reads it


def _game3_opener(h):
    # a table-written hand with a live post equal to the big blind opened preflop by GAME-3
    # (felt.table.hand_history writes the user field only then); any other file opens as pokerkit does
    for k, v in h.extra:
        if k == "_felt_game3_opener":
            return v is True
    return False


def _event_heads_up(h):
    # TOUR-13: a table-written limit tournament hand played when two players were left in the
    # event (no raise cap heads-up, BET-5)
    for k, v in h.extra:
        if k == "_felt_event_heads_up":
            return v is True
    return False


def _table_rules(h):
    # house rules a table-written cash hand records in user fields, replayed the same way: a hand
    # raked under hr.rake (POT-20: [basis points, cap or 0]) or whose blinds were chopped
    # (BLIND-26: hr.blind_chop was on); None for any other file
    got = None
    for k, v in h.extra:
        if k == "_felt_rake" and isinstance(v, list) and len(v) == 2:
            from felt.engine.house.values import Rake

            got = got or {}
            got["rake"] = Rake(v[0], v[1] or None)
        elif k == "_felt_bbj" and v is True:
            got = got or {}
            got["bbj_hand"] = "four_sevens"  # CASH-12: the drop (the qualifying hand does not change stacks)
        elif k == "_felt_chop" and v is True:
            got = got or {}
            got["blind_chop"] = "on"
    return got


def replay(h, rules=None):
    """History -> result dict: finishing_stacks, pots, or an error naming the rule or line.
    rules: house rules (None = cash-game defaults, RULES.md section 12.2)."""
    game = GAMES.get(h.variant)
    if game is None:
        return _error("unknown variant %r" % h.variant)
    if rules is None:
        rules = _DEFAULT_RULES.get(game.code)
        if rules is None:
            rules = _DEFAULT_RULES[game.code] = HouseRules(CASH, game.code)
        house = _table_rules(h)
        if house is not None:
            rules = rules.replace(house)
    n = len(h.starting_stacks)
    try:
        hand = Hand(game=game, stacks=h.starting_stacks, blinds=h.blinds_or_straddles or [0] * n,
                    antes=h.antes, bring_in=h.bring_in or 0, small_bet=h.small_bet or 0,
                    big_bet=h.big_bet or 0, min_bet=h.min_bet or 0, unit=1, rules=rules, record=False,
                    phh_order=not _game3_opener(h), event_heads_up=_event_heads_up(h))
    except RuleError as e:
        return _error(e.message, h.line, e.rule)
    except FeltError as e:
        return _error(getattr(e, "message", str(e)), h.line)
    r = _play(hand, h)
    if r is not None:
        return r
    if not hand.finished and hand.phase == "showdown":
        _finish_showdown(hand)
    if not hand.finished:
        return _error("the hand is not finished after its last action", h.action_line(len(h.actions) - 1))
    return _result(h, hand)


def _play(hand, h):
    # every action of h through the hand; an error dict at the first refused one, else None
    actions = h.actions
    lines = h.action_lines
    if not lines or len(lines) != len(actions):
        lines = [h.action_line(k) for k in range(len(actions))]  # None where unknown
    scale = h.scale
    fields = phh.fields
    for text, line in zip(actions, lines):
        try:
            p, v, cards, amount, dealee, _comment = fields(text, scale, line, False)
            # the four common verbs here, the rest in _do (one call less per action)
            if v == "cc":
                hand.check_call(p)
            elif v == "dh":
                hand.deal_hole(dealee, _dealt(cards, line))
            elif v == "f":
                if _comment == "kill":
                    hand.kill(p)  # a table-written kill that no in-turn fold can say (DEAL-36/38)
                elif _comment == "chop":
                    from felt.engine.house import cash as cashrules

                    cashrules.chop_blinds(hand)  # the blinds agreed to chop (BLIND-26)
                else:
                    hand.fold(p)
            elif v == "cbr":
                hand.bet_raise_to(p, amount)
            else:
                _do(hand, p, v, cards, amount, dealee, line)
        except RuleError as e:
            r = _error(e.message, line, e.rule, text)
            legal = _legal(e.rule, e.legal, scale)
            if legal is not None:
                r["legal"] = legal
            return r
        except FeltError as e:
            return _error(getattr(e, "message", str(e)), line, None, text)
    return None


def _legal(rule, legal, scale):
    # the legal (min, max) bet/raise-to range a betting RuleError names, in file units; other
    # `legal` values (a position to act, a card count) are not amounts and are left out
    if not rule.startswith("BET-") or not isinstance(legal, tuple) or len(legal) != 2:
        return None
    for x in legal:
        if not isinstance(x, int) or isinstance(x, bool):
            return None
    return [_amount(legal[0], scale), _amount(legal[1], scale)]


def _finish_showdown(hand):
    # A history may stop before every contender has tabled (PokerKit then shows known cards and
    # mucks unknown ones); do the same, in position order.
    for p in range(hand.n):
        if hand.finished:
            return
        if hand.live[p] and not hand.mucked[p] and not hand.shown[p]:
            if UNKNOWN in hand.hole[p]:
                hand.muck(p)
            else:
                hand.show(p)


def _amount(chips, scale):
    return chips if scale == 1 else phh.format_amount(chips, scale)


def _result(h, hand):
    s = h.scale
    out = {
        "variant": h.variant,
        "finishing_stacks": hand.finishing_stacks() if s == 1 else [_amount(c, s) for c in hand.finishing_stacks()],
        "pots": _pots(hand, s),
    }
    if h.players is not None:
        out["players"] = h.players
    return out


def _pots(hand, s):
    pots = hand.pots()
    by_pot = {}
    texts = hand.reasons or []
    for k, award in enumerate(hand.results):
        by_pot.setdefault(award.pot_index, []).append((award, texts[k] if k < len(texts) else ""))
    out = []
    for pot in pots:
        winners = []
        reasons = []
        for award, reason in by_pot.get(pot.index, []):
            for p, chips in award.shares:
                winners.append({"player": _label(p), "amount": _amount(chips, s), "half": award.half})
            if reason:
                reasons.append(reason)
        out.append({
            "index": pot.index,
            "amount": _amount(pot.amount, s),
            "eligible": [_label(p) for p in pot.eligible],
            "winners": winners,
            "reason": "; ".join(reasons),
        })
    return out


def replay_text(text, rules=None):
    """PHH or PHHS text -> [result dict], one per hand (a .phhs hand also gets `hand`)."""
    try:
        hands = phh.read_all(text)
    except FormatError as e:
        return [_error(e.message, e.line)]
    out = []
    for h in hands:
        r = replay(h, rules)
        if h.name is not None:
            r["hand"] = h.name
        out.append(r)
    return out
