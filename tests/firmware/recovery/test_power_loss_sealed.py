# Issue 16 item 5: with the journal's CARD and ANTENNA records sealed (felt.recovery.seal, a per-hand
# key), the power-loss proof still holds -- killed at journal appends (between, inside and right after
# records) on files and on the raw-flash ring, the finishing stacks, histories and lights equal the
# uninterrupted run -- and the flash never holds a tag UID of the hand in play in the clear.
from check import eq

import kit
from felt.recovery import journal as jr


def test_sealed_holdem_survives_kills_on_files():
    kills = kit.check_game("holdem", 1, [(5, 0), (7, 3)], sealed=True)
    eq(kills > 10, True, "enough kills happened (%d)" % kills)


def test_sealed_stud7_survives_kills_on_the_ring():
    # sealed records are 21 bytes longer (3 stud hands: 31,242 -> 37,122 journal bytes, +19 %); with a
    # kill every 7 appends closing a sector each time, the 24-sector ring of test_power_loss_ring.py
    # wrapped over the first hand's history before the end, so this ring has 32 sectors
    kit.check_game("stud7", 6, [(7, 2)], ring=True, sealed=True, blocks=32)


def test_sealed_records_carry_no_uid_and_open_only_with_their_hand_and_place():
    from felt.recovery.seal import JournalSeal

    s = JournalSeal(b"\x55" * 32, kit.CountingNonces())
    payload = b'{"a":[{"$b":"04fe1741000032"},false],"m":"shoe_card"}'
    sealed = s.seal(7, 12, jr.CARD, payload)
    assert b"04fe17" not in sealed and b"shoe_card" not in sealed, sealed
    eq(s.open(7, jr.Record(12, jr.CARD, sealed)).payload, payload)
    eq(s.seal(7, 13, jr.CONSOLE, b"x"), b"x")  # only the records that carry UIDs
    for hand, seq, kind in ((8, 12, jr.CARD), (7, 13, jr.CARD), (7, 12, jr.ANTENNA)):  # another hand, place, kind
        try:
            s.open(hand, jr.Record(seq, kind, sealed))
            raise AssertionError("opened as hand %d record %d kind %d" % (hand, seq, kind))
        except jr.Unverified:
            pass
    other = JournalSeal(b"\x56" * 32, kit.CountingNonces())  # another board's key
    try:
        other.open(7, jr.Record(12, jr.CARD, sealed))
        raise AssertionError("another key opened it")
    except jr.Unverified:
        pass
    try:
        s.open(7, jr.Record(12, jr.CARD, payload))  # in the clear on a sealed journal
        raise AssertionError("a clear record was taken")
    except jr.Unverified:
        pass
