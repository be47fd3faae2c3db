# Deck registry and per-hand card integrity (felt.engine.deck): DECK-1 registration, DECK-5
# alarms as three distinct named errors, DECK-6 missing cards, DECK-7 re-registration.
from check import eq, raises
from felt.engine.cards import parse_card
from felt.engine.deck import DeckRegistry, DeckScan, HandCards, uid_text
from felt.errors import DeckError, DuplicateCard, ForeignDeckCard, RuleError, UnknownTag


def uid(deck, card, size=7):
    # a made-up UID per (deck, card); 7-byte NTAG-style or 4-byte MIFARE-style
    if size == 4:
        return bytes([0xA0 + deck, 0, 0, card])
    return bytes([0x04, deck, 0x10, 0x20, 0x30, 0x40, card])


def deck_mapping(deck, size=7):
    return {uid(deck, c, size): c for c in range(52)}


def test_DECK_1_register_52_distinct_cards():
    reg = DeckRegistry()
    reg.register("A", deck_mapping(1))
    reg.register("B", deck_mapping(2, size=4))
    eq(reg.decks(), ["A", "B"])
    eq(reg.lookup(uid(1, 50), "A"), parse_card("Ah"))
    eq(reg.lookup(uid(2, 0, 4), "B"), parse_card("2c"))


def test_DECK_1_a_53rd_tag_blocks_registration():
    scan = DeckScan()
    for c in range(52):
        assert scan.add(uid(1, c), c)
    assert scan.complete
    with raises(DeckError, match="53rd") as e:
        scan.add(uid(1, 99), 5)
    eq(e.value.rule, "DECK-1")
    eq(scan.count, 52)
    reg = DeckRegistry()
    m = deck_mapping(1)
    m[uid(1, 99)] = 7
    with raises(DeckError, match="DECK-1"):
        reg.register("A", m)
    eq(reg.decks(), [])


def test_DECK_1_two_tags_for_7h_block_registration():
    scan = DeckScan()
    seven_h = parse_card("7h")
    scan.add(uid(1, 1), seven_h)
    with raises(DeckError, match="7h"):
        scan.add(uid(1, 2), seven_h)
    eq(scan.count, 1)
    m = deck_mapping(1)
    m[uid(1, 8)] = seven_h  # now two tags say 7h and 4c (card 8) has none
    reg = DeckRegistry()
    with raises(DeckError, match="DECK-1"):
        reg.register("A", m)


def test_DECK_1_joker_or_bad_uid_blocks_registration():
    scan = DeckScan()
    for bad_card in (52, -1, "Jo"):
        with raises(DeckError, match="no jokers"):
            scan.add(uid(1, 0), bad_card)
    for bad_uid in (b"\x01\x02\x03", b"\x01" * 5, "04A2", None):
        with raises(DeckError, match="4 or 7 bytes"):
            scan.add(bad_uid, 0)
    eq(scan.count, 0)


def test_DECK_1_repeated_read_of_the_same_tag_is_harmless_but_a_changed_card_is_not():
    scan = DeckScan()
    assert scan.add(uid(1, 5), 5)
    assert not scan.add(uid(1, 5), 5)
    eq(scan.count, 1)
    with raises(DeckError, match="DECK-1"):
        scan.add(uid(1, 5), 6)


def test_DECK_1_short_deck_is_refused_and_names_missing_cards():
    m = deck_mapping(1)
    del m[uid(1, parse_card("8d"))]
    reg = DeckRegistry()
    with raises(DeckError, match="8d"):
        reg.register("A", m)


def test_DECK_5_unknown_tag():
    reg = DeckRegistry()
    reg.register("A", deck_mapping(1))
    with raises(UnknownTag) as e:
        reg.lookup(b"\xde\xad\xbe\xef", "A")
    eq(e.value.rule, "DECK-5")
    assert "DEADBEEF" in str(e.value)


def test_DECK_5_card_of_another_registered_deck_is_foreign():
    reg = DeckRegistry()
    reg.register("A", deck_mapping(1))
    reg.register("B", deck_mapping(2))
    with raises(ForeignDeckCard) as e:
        reg.lookup(uid(2, 40), "A")
    eq(e.value.rule, "DECK-5")
    assert "deck B" in str(e.value) and "deck A" in str(e.value)


def test_DECK_5_three_alarms_are_distinct_classes():
    for a, b in ((UnknownTag, DuplicateCard), (UnknownTag, ForeignDeckCard), (DuplicateCard, ForeignDeckCard)):
        assert not issubclass(a, b) and not issubclass(b, a)
        assert issubclass(a, RuleError) and issubclass(a, DeckError)


def test_DECK_5_duplicate_card_in_a_hand():
    # The river reads Qs, but Qs is already at seat 4's antenna: alarm, fouled deck.
    hand = HandCards()
    qs = parse_card("Qs")
    hand.see(qs, "seat 4")
    hand.see(parse_card("2c"), "the board")
    with raises(DuplicateCard, match="seat 4") as e:
        hand.see(qs, "the board")
    eq(e.value.rule, "DECK-5")
    eq(hand.where(qs), "seat 4")  # state unchanged
    eq(hand.count, 2)
    hand.see(-1, "seat 2")  # face-down unknown cards are not tracked
    eq(hand.count, 2)
    hand.reset()
    eq(hand.count, 0)
    hand.see(qs, "the board")
    assert hand.seen(qs)
    hand.forget(qs)
    assert not hand.seen(qs)


def test_DECK_6_missing_cards_after_the_hand():
    reg = DeckRegistry()
    reg.register("A", deck_mapping(1))
    scanned = [uid(1, c) for c in range(52) if c != parse_card("8d")]
    eq(reg.missing("A", scanned), [parse_card("8d")])
    eq(reg.missing("A", [uid(1, c) for c in range(52)]), [])


def test_DECK_7_re_registration_replaces_the_deck_and_tags_stay_unique():
    reg = DeckRegistry()
    reg.register("A", deck_mapping(1))
    m = {uid(3, c): (c + 1) % 52 for c in range(52)}  # new tags for deck A
    reg.register("A", m)
    with raises(UnknownTag):
        reg.lookup(uid(1, 0), "A")  # the old tags are gone
    eq(reg.lookup(uid(3, 0), "A"), 1)
    with raises(DeckError, match="already belongs"):
        reg.register("B", m)  # the same tags cannot be a second deck
    eq(reg.decks(), ["A"])
    reg.unregister("A")
    eq(reg.decks(), [])


def test_uid_text():
    eq(uid_text(b"\x04\xa2\x00"), "04A200")
