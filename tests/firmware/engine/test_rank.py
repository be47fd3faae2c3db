# Hand ranking (felt.engine.rank.evaluate): every worked example of RULES.md section 2 (RANK) and the
# ranking examples of DECK-2/DECK-3, plus the lowball/badugi/short-deck orders and a proof
# (MicroPython only) that evaluating allocates nothing.
from check import MICROPYTHON, eq
from felt.engine.rank import evaluate as ev
from felt.engine.cards import parse_cards


def H(text):
    return ev.high(parse_cards(text))


def beats(a, b):
    assert H(a) > H(b), "%s should beat %s" % (a, b)


def ties(a, b):
    eq(H(a), H(b), "%s vs %s" % (a, b))


def omaha(hole, board):
    return ev.omaha_high(parse_cards(hole), parse_cards(board))


def olow(hole, board):
    return ev.omaha_low8(parse_cards(hole), parse_cards(board))


def low8(text):
    return ev.low8(parse_cards(text))


def test_RANK_1_best_five_of_seven_ignores_the_rest():
    v = H("As Ks Qs Js Ts 2c 2d")
    eq(v, H("As Ks Qs Js Ts"))
    eq(ev.category(v), ev.STRAIGHT_FLUSH)
    eq(ev.describe(v), "a royal flush")


def test_RANK_2_category_order():
    beats("2c 2d 2h 3c 3d", "Ah Kh Qh Jh 9h")  # full house beats flush
    beats("2c 2d 2h 2s 3c", "Ac Ad Ah Kc Kd")  # quads beat any full house
    ladder = ["Ac Kd 9h 7s 3c", "2c 2d 7h 8s 9c", "2c 2d 3h 3s 4c", "2c 2d 2h 4s 5c", "Ac 2d 3h 4s 5c",
              "2h 4h 6h 8h Th", "2c 2d 2h 3s 3c", "2c 2d 2h 2s 3c", "Ad 2d 3d 4d 5d"]
    for i in range(len(ladder) - 1):
        beats(ladder[i + 1], ladder[i])
        eq(ev.category(H(ladder[i])), i)


def test_RANK_3_straight_flush_tie_break():
    beats("Kc Qc Jc Tc 9c", "Qh Jh Th 9h 8h")
    beats("6s 5s 4s 3s 2s", "5d 4d 3d 2d Ad")
    ties("9c 8c 7c 6c 5c", "9h 8h 7h 6h 5h")
    eq(ev.describe(H("Kc Qc Jc Tc 9c")), "a straight flush, king high")


def test_RANK_4_four_of_a_kind_tie_break():
    beats("5c 5d 5h 5s 2c", "2c 2d 2h 2s Ac")
    board = "9c 9d 9h 9s 3c"
    assert H("Ah Kd " + board) > H("Qs Qh " + board)  # 9999A beats 9999Q
    eq(ev.describe(H("Ah Kd " + board)), "four of a kind, nines")


def test_RANK_5_full_house_tie_break():
    beats("3c 3d 3h 4c 4d", "2c 2d 2h Ac Ad")
    board = "Kd Ks 5c 5h 2d"
    s1, s2, s3 = H("Kh 2c " + board), H("Kc 9s " + board), H("5s 5d " + board)
    eq(s1, s2)  # both K-K-K-5-5: split
    assert s3 > s1  # 5-5-5-5-K
    eq(ev.describe(s1), "a full house, kings full of fives")
    eq(ev.describe(H("7c 7d 7h Kc Kd")), "a full house, sevens full of kings")


def test_RANK_6_flush_tie_break():
    beats("Ah Jh 8h 4h 2h", "Ad Jd 7d 6d 5d")
    ties("Ah Jh 8h 4h 2h", "As Js 8s 4s 2s")
    eq(ev.describe(H("Ah Jh 8h 4h 2h")), "a flush, ace high")


def test_RANK_7_straight_tie_break_no_wrap_around():
    beats("9c 8d 7h 6s 5c", "5c 4d 3h 2s Ac")
    eq(ev.category(H("Kc Ad 2h 3s 4c")), ev.HIGH_CARD)  # K-A-2-3-4 is only ace high
    eq(ev.category(H("Qc Kd Ah 2s 3c")), ev.HIGH_CARD)
    ties("Ac Kd Qh Js Tc", "As Kh Qd Jc Td")
    eq(ev.describe(H("5c 4d 3h 2s Ac")), "a straight, five high")


def test_RANK_8_three_of_a_kind_tie_break():
    beats("8c 8d 8h Kc Qd", "8c 8d 8s Kc Td")
    beats("Jc Jd Jh 4c 3d", "Tc Td Th Ac Kd")
    eq(ev.describe(H("8c 8d 8h Kc Qd")), "three of a kind, eights")


def test_RANK_9_two_pair_tie_break():
    beats("Ac Ad 2h 2c 3d", "Kc Kd Qh Qc Jd")
    beats("9c 9d 8h 8c 2d", "9h 9s 5h 5c Ad")
    beats("9c 9d 5h 5c Ad", "9h 9s 5d 5s Kd")
    eq(ev.describe(H("Kc Kd 7h 7c 2d")), "two pair, kings and sevens")


def test_RANK_10_one_pair_tie_break():
    beats("Kc Kd Ah Qc 3d", "Kh Ks Ad Qd 2d")
    beats("Jc Jd 4h 3c 2d", "Tc Td 4d 3d 2h")
    eq(ev.describe(H("Jc Jd 4h 3c 2d")), "a pair of jacks")


def test_RANK_11_high_card_tie_break():
    beats("Ac Jd 4h 3c 2d", "Ah Td 9h 8c 7d")
    eq(ev.describe(H("Ac Jd 4h 3c 2d")), "ace high")


def test_RANK_12_exact_ties_split():
    board = "As Ks Qs Js 9d"
    assert H("Ts 2c " + board) > H("Th 3d " + board)  # royal flush wins outright
    board = "Ac Kd Qh Js 9d"
    eq(H("Ts 2c " + board), H("Th 3d " + board))  # both broadway: split


def test_RANK_13_holdem_selection_plays_the_board():
    board = "8c 9d Tc Jh Qs"
    eq(H("2c 3c " + board), H(board))  # plays the board, queen-high straight
    assert H("Kd 4s " + board) > H("2c 3c " + board)
    eq(ev.describe(H("Kd 4s " + board)), "a straight, king high")


def test_RANK_14_omaha_exactly_two_plus_three():
    v = omaha("5h Ts Js As", "3d 4d 6c 7c Kh")
    eq(v, H("As Js Kh 7c 6c"))  # no flush, no straight: A-K-J-7-6
    eq(ev.category(v), ev.HIGH_CARD)
    v = omaha("Qh 9s 8d 3c", "Ah Kh 7h 4h 2c")
    assert ev.category(v) != ev.FLUSH  # only one heart in hand
    eq(v, H("Qh 9s Ah Kh 7h"))
    # hold'em reading of the same cards would be a flush: the 2+3 rule is what differs
    eq(ev.category(H("Qh 9s Ah Kh 7h 4h 2c")), ev.FLUSH)


def test_RANK_15_eight_or_better_qualification():
    assert low8("8c 6d 4h 3s Ac") != ev.NO_LOW
    eq(low8("9c 5d 4h 3s 2c"), ev.NO_LOW)
    eq(low8("Ac 2d 2h 4s 5c"), ev.NO_LOW)
    v = low8("5h 4h 3h 2h Ah")  # a qualifying 5-high low and a straight flush for high
    eq(ev.describe(v, "low8"), "a 5-4-3-2-A low")
    eq(ev.category(H("5h 4h 3h 2h Ah")), ev.STRAIGHT_FLUSH)
    eq(ev.describe(low8("8c 6d 4h 2s Ac Kd Kh"), "low8"), "an 8-6-4-2-A low")


def test_RANK_16_eight_or_better_comparison():
    assert low8("7c 5d 4h 3s 2c") > low8("7d 6d 4c 3c 2d")
    assert low8("7c 6d 5h 4s 3c") > low8("8c 4d 3h 2s Ac")
    assert low8("5c 4d 3h 2s Ac") > low8("6c 4d 3h 2s Ac")  # the wheel is the best low
    eq(low8("7c 5d 4h 3s 2c"), low8("7h 5s 4c 3d 2d"))  # identical lows split
    assert low8("7c 5d 4h 3s 2c") > ev.NO_LOW


def test_RANK_17_omaha_hi_lo_independent_selections():
    hole, board = "As 2c Kd Kh", "3h 5d 8s Kc Qh"
    hi = omaha(hole, board)
    eq(hi, H("Kd Kh Kc Qh 8s"))
    eq(ev.describe(hi), "three of a kind, kings")
    lo = olow(hole, board)
    eq(lo, low8("As 2c 3h 5d 8s"))
    eq(ev.describe(lo, "low8"), "an 8-5-3-2-A low")


def test_RANK_18_no_low_when_board_has_two_low_ranks():
    board = "Kd Qs 9h 8c 2d"
    for hole in ("As 2c 3d 4h", "Ac 3c 4d 5s", "7h 6h 5h 4h"):
        eq(olow(hole, board), ev.NO_LOW)
    # with three low ranks on board, a low becomes possible
    assert olow("As 3c Kh Kc", "Kd 7s 9h 8c 2d") != ev.NO_LOW


def test_RANK_18_omaha_low_needs_two_distinct_low_hole_ranks():
    eq(olow("Ac Ad Kh Kc", "2d 3s 4h 9c Td"), ev.NO_LOW)  # one low rank in hand
    eq(olow("Ac 2c Kh Kc", "Ad 2s 4h 9c Td"), ev.NO_LOW)  # board lows pair the hole cards
    eq(ev.describe(olow("Ac 2c Kh Kc", "Ad 3s 4h 5c Td"), "low8"), "a 5-4-3-2-A low")


def test_RANK_19_stud_seven_cards_high_and_low():
    cards = "2c 3d 4h 5s 6c Kd Kh"
    eq(ev.describe(H(cards)), "a straight, six high")
    eq(low8(cards), low8("6c 5s 4h 3d 2c"))
    eq(ev.describe(low8(cards), "low8"), "a 6-5-4-3-2 low")


def test_RANK_20_stud_showing_hand_order():
    def S(text):
        return ev.showing(parse_cards(text))
    seats = {2: S("Ks 7d"), 5: S("9h 9c"), 7: S("Ah Qd")}
    eq(max(seats, key=lambda k: seats[k]), 5)  # the pair acts first
    assert S("Ah 6c") > S("Ad 6s")  # ranks tie; Ah beats Ad (DECK-4)
    assert S("Ah Kd Qc") > S("Ac Kh Jc")  # kickers as RANK-11
    assert S("2c 2d 3h 3s") > S("Ac Ad Kh Qs")  # two pair beats one pair
    assert S("2c 2d 2h 3s") > S("Ac Ad Kh Ks")  # trips beat two pair
    assert S("2c 2d 2h 2s") > S("Ac Ad Ah Ks")  # quads beat trips
    assert S("5h 6h 7h 8h") < S("2c 2d 3s 4c")  # no four-card straights or flushes
    assert S("Kc") > S("Qs") and S("Kd") > S("Kc")


def test_DECK_2_ace_is_high_and_low():
    eq(ev.describe(H("Ac 2d 3h 4s 5c")), "a straight, five high")
    beats("Ac Kd Qh Js Tc", "Kc Qd Jh Ts 9c")
    eq(ev.describe(low8("Ac 2d 3h 4s 6c"), "low8"), "a 6-4-3-2-A low")


def test_DECK_3_suits_never_decide():
    ties("9s 9h 7c 5c 2h", "9d 9c 7s 5s 2c")
    eq(low8("8c 6d 4h 3s Ac"), low8("8h 6s 4c 3d Ad"))


def test_short_deck_flush_beats_full_house_and_a6789_is_a_straight():
    sd = lambda t: ev.short_deck_high(parse_cards(t))
    assert sd("Ah Jh 9h 8h 6h Kc Kd") > sd("Kc Kd Ks 6c 6d Ah 7c")
    eq(ev.describe(sd("Ah 6c 7d 8s 9h Kd Qd"), "short"), "a straight, nine high")
    assert sd("6c 7d 8s 9h Tc Kd Qd") > sd("Ah 6c 7d 8s 9h Kd Qd")
    eq(ev.describe(sd("Kc Kd Ks 6c 6d Ah 7c"), "short"), "a full house, kings full of sixes")
    eq(ev.describe(sd("Ah Jh 9h 8h 6h Kc Kd"), "short"), "a flush, ace high")


def test_lowA5_razz_order():
    lo = lambda t: ev.lowA5(parse_cards(t))
    assert lo("5c 4d 3h 2s Ac") > lo("6c 4d 3h 2s Ac")  # the wheel is the best razz hand
    eq(lo("5h 4h 3h 2h Ah"), lo("5c 4d 3h 2s Ac"))  # straights and flushes do not count
    assert lo("Kc Qd Jh Ts 8c") > lo("Ac Ad 2h 3s 4c")  # any pair is worse than no pair
    eq(ev.describe(lo("Ac Ad 2c 3d 4h 5s Kd"), "lowA5"), "a 5-4-3-2-A low")
    eq(ev.describe(lo("Ac Ad Ah 2c 2d 2h Ks"), "lowA5"), "two pair, twos and aces")


def test_low27_deuce_to_seven_order():
    lo = lambda t: ev.low27(parse_cards(t))
    assert lo("7c 5d 4h 3s 2c") > lo("7c 6d 4h 3s 2c")  # 7-5-4-3-2 is the best
    assert lo("7c 5d 4h 3s 2c") > lo("Ac 2d 3h 4s 5c")  # the ace is high, A-5-4-3-2 only ace high
    assert lo("8c 6d 4h 3s 2c") > lo("7c 6c 5c 4c 2c")  # a flush counts against you
    assert lo("8c 6d 4h 3s 2c") > lo("6c 5d 4h 3s 2d")  # so does a straight
    eq(ev.describe(lo("7c 5d 4h 3s 2c Kd Kh"), "low27"), "a 7-5-4-3-2 low")


def test_badugi_order():
    b = lambda t: ev.badugi(parse_cards(t))
    assert b("Ac 2d 3h 4s") > b("Ac 2d 3h 5s") > b("4c 8d Kh 3h") > b("Ac Kc Qc Jc")
    eq(b("Ac 2c 3h 4s"), b("Ac 3h 4s 4h"))  # both play the three-card 4-3-A
    eq(ev.describe(b("Ac 2d 3h 4s"), "badugi"), "a badugi, 4-3-2-A")
    eq(ev.describe(b("Ac 2c 3h 4s"), "badugi"), "a three-card hand, 4-3-A")


def test_values_fit_a_micropython_small_int():
    # below 2**30 on every 32-bit port, so values never become heap-allocated long ints
    for t in ("As Ks Qs Js Ts 9s 8s", "Ac Ad Ah As Kc Kd Kh", "2c 3d 4h 5s 7c 8d 9h"):
        assert 0 <= H(t) < (1 << 30)
    assert 0 <= ev.lowA5(parse_cards("Kc Kd Kh Ks Qc")) < (1 << 30)
    assert 0 <= ev.low27(parse_cards("7c 5d 4h 3s 2c")) < (1 << 30)


def test_hand_size_outside_5_to_7_is_refused():
    from check import raises
    with raises(ValueError):
        ev.high(parse_cards("Ac Kd Qh Js"))
    with raises(ValueError):
        ev.low27(parse_cards("Ac Kd Qh Js Tc 9d 8h 7s"))


def _omaha_by_brute_force(hole, board):
    # RANK-14 read literally: the best high() of every two hole cards with every three board cards
    best = 0
    for i in range(len(hole)):
        for j in range(i + 1, len(hole)):
            for a in range(len(board)):
                for b in range(a + 1, len(board)):
                    for c in range(b + 1, len(board)):
                        v = ev.high([hole[i], hole[j], board[a], board[b], board[c]])
                        if v > best:
                            best = v
    return best


def test_RANK_14_omaha_rank_pair_cache_survives_600_boards():
    # omaha_high keeps each hole rank pair's value per board generation (one byte, 1..255, cleared
    # when it wraps): over 600 random boards no stale entry answers for a new board
    seed = 12345
    for n in range(600):
        cards = []
        while len(cards) < 9:
            seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
            c = (seed >> 16) % 52
            if c not in cards:
                cards.append(c)
        eq(ev.omaha_high(cards[:4], cards[4:]), _omaha_by_brute_force(cards[:4], cards[4:]), "board %d" % n)


def test_RANK_14_omaha_cache_generation_wrap_forgets_every_pair():
    # a pair of deuces valued on one board, then 254 other boards (no deuce pair in the hole), then
    # a new board: the 255 generations have come round to the first board's number, and only the
    # clearing at the wrap keeps the old one-pair value from answering for the new trips
    eq(omaha("2c 2d 9h 7s", "Ah Kh Qh 5c 3d"), _omaha_by_brute_force(parse_cards("2c 2d 9h 7s"),
                                                                      parse_cards("Ah Kh Qh 5c 3d")))
    hole = parse_cards("Ac Kd Qh Js")
    seed = 99
    last = None
    for n in range(254):
        board = []
        while len(board) < 5:
            seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
            c = (seed >> 16) % 52
            if c not in board and c not in hole:
                board.append(c)
        assert board != last
        last = board
        ev.omaha_high(hole, board)
    eq(omaha("2h 2s 9c 7d", "2c Kc Qd 5h 3s"), _omaha_by_brute_force(parse_cards("2h 2s 9c 7d"),
                                                                      parse_cards("2c Kc Qd 5h 3s")))


def test_RANK_14_omaha_board_triples_are_every_three_of_the_board():
    from felt.engine.rank.tables import COMBOS
    for n in (3, 4, 5):
        want = []
        for a in range(n):
            for b in range(a + 1, n):
                for c in range(b + 1, n):
                    want += [a, b, c]
        eq(list(COMBOS[n * 8 + 3]), want, "%d board cards" % n)


def test_every_rom_file_is_named_as_its_table_is_read():
    # evaltables._rom opens table.lower() + ".bin" (bytes) or ".table" (2- and 4-byte entries);
    # feltctl.board.romfs writes the files ROM_FILES names: the two must agree
    from felt.engine.rank import tables as evaltables
    words = evaltables.ROM_FILES.split()
    eq(len(words) % 3, 0)
    for i in range(0, len(words), 3):
        name, table, kind = words[i:i + 3]
        eq(name, table.lower() + (".bin" if kind == "B" else ".table"))
        assert getattr(evaltables, table) is not None, table


def _calls():
    # (function, args) for every evaluator, over every code path (flush, full house, quads...)
    hands7 = [parse_cards(t) for t in (
        "As Ks Qs Js Ts 2c 2d", "9c 9d 9h 9s 3c Ah Kd", "Kd Ks 5c 5h 2d Kh 2c", "Ah Jh 8h 4h 2h Kc 3d",
        "2c 3d 4h 5s 6c Kd Kh", "Ac Ad 7c 7s 2d 3c 9h", "8c 8d 8h Kc Qd 2s 3s", "Ac 2d 5h 7s 9c Jd Kh",
        "Ac Ad Ah Kc Kd Ks 2c", "7c 7d 7h 7s Kc Kd 2c", "2c 2d 3h 3s 4c 4d 9h", "Ac Kd 3h 3s 9c 9d 9h")]
    calls = []
    for h in hands7:
        for f in (ev.high, ev.low8, ev.lowA5, ev.low27, ev.short_deck_high):
            calls.append((f, (h,)))
        calls.append((ev.high, (h[:5],)))
        calls.append((ev.high, (h[:6],)))
        calls.append((ev.badugi, (h[:4],)))
        calls.append((ev.showing, (h[:4],)))
    boards = [parse_cards(t) for t in ("3h 5d 8s Kc Qh", "Ah Kh 7h 4h 2c", "9c 9d 9h 5s 5c", "3h 5d 8s")]
    holes = [parse_cards(t) for t in ("As 2c Kd Kh", "Qh 9h 8d 3c", "9s Ac 5h 2d", "Jh Th 6c 6d")]
    for b in boards:
        for h in holes:
            calls.append((ev.omaha_high, (h, b)))
            calls.append((ev.omaha_low8, (h, b)))
    return calls


def _heap_locked_evaluations():
    import micropython
    calls = _calls()
    for f, args in calls:  # warm the Omaha board cache the way a showdown does
        f(*args)
    got = []
    for f, args in calls:
        got.append(f(*args))
    total = 0
    micropython.heap_lock()
    try:
        for i in range(len(calls)):
            f = calls[i][0]
            args = calls[i][1]
            if len(args) == 1:
                v = f(args[0])
            else:
                v = f(args[0], args[1])
            if v == got[i]:
                total += 1
    finally:
        micropython.heap_unlock()
    eq(total, len(calls))


def _frames_on_heap():
    # heap_lock alone cannot see a call frame put on the heap (MicroPython falls back to the
    # C stack while the heap is locked); mem_total counts every byte ever allocated.
    import micropython
    calls = _calls()
    fat = []
    for f, args in calls:
        if len(args) == 1:
            f(args[0])
            before = micropython.mem_total()
            f(args[0])
        else:
            f(args[0], args[1])
            before = micropython.mem_total()
            f(args[0], args[1])
        if micropython.mem_total() != before:
            fat.append(f.__name__)
    # a new board refills the Omaha cache: that path must be as lean
    b1 = parse_cards("3h 5d 8s Kc Qh")
    b2 = parse_cards("Ah Kh 7h 4h 2c")
    hole = parse_cards("As 2c Kd Kh")
    for i in range(4):
        board = b1 if i % 2 else b2
        before = micropython.mem_total()
        ev.omaha_high(hole, board)
        if micropython.mem_total() != before:
            fat.append("omaha_high with a new board")
    eq(fat, [])


if MICROPYTHON:  # micropython.heap_lock exists only there; CPython does not collect these
    def test_evaluation_allocates_nothing():
        _heap_locked_evaluations()

    def test_evaluation_puts_no_frame_on_the_heap():
        import micropython
        if not hasattr(micropython, "mem_total"):
            from check import Skip
            raise Skip("this MicroPython build has no mem_total (MICROPY_MEM_STATS)")
        _frames_on_heap()


def test_unknown_card_is_refused_not_read_as_the_ace_of_spades():
    from check import raises
    hand = parse_cards("Ac Kd Qh Js 9c 2d ??")
    for f in (ev.high, ev.low8, ev.lowA5, ev.low27, ev.short_deck_high):
        with raises(Exception):
            f(hand)
        with raises(Exception):
            f(hand[2:])
    with raises(ValueError):
        ev.omaha_high(parse_cards("As ?? Kd Kh"), parse_cards("3h 5d 8s Kc Qh"))
    with raises(ValueError):
        ev.omaha_high(parse_cards("As 2c Kd Kh"), parse_cards("3h 5d ?? Kc Qh"))
    with raises(Exception):
        ev.omaha_low8(parse_cards("As ?? Kd Kh"), parse_cards("3h 5d 8s Kc Qh"))


def test_describe_other_kinds_and_no_low():
    from check import raises
    eq(ev.describe(ev.NO_LOW, "low8"), "no low")
    eq(ev.describe(ev.low27(parse_cards("Kc Kd 7h 4s 2c")), "low27"), "a pair of kings")
    eq(ev.describe(ev.low27(parse_cards("Kc Qd 9h 4s 2c")), "low27"), "a K-Q-9-4-2 low")
    eq(ev.describe(ev.lowA5(parse_cards("Kc Qd 9h 4s Ac")), "lowA5"), "a K-Q-9-4-A low")
    eq(ev.describe(ev.lowA5(parse_cards("Kc Kd Kh 4s 4c")), "lowA5"), "a full house, kings full of fours")
    eq(ev.describe(ev.badugi(parse_cards("Kc Kd Kh Ks")), "badugi"), "a one-card hand, K")
    eq(ev.describe(H("Qc Qd Qh Qs 2c"), "high"), "four of a kind, queens")
    eq(ev.describe(H("6c 6d 6h 6s 2c"), "high"), "four of a kind, sixes")
    with raises(ValueError):
        ev.describe(0, "omaha")
