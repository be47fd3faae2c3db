# Hole-card secrecy (felt.security.secrecy) on the simulated table (real controller, loop and
# drivers): the guard's redaction, commitments published when the deal completes, reveal and
# sealed broadcast only after hand end + delay, delay changed only by a floor command.
# Runs under CPython and MicroPython.
from check import eq, raises

from felt.security import AuthError
from felt.security import secrecy
from felt.security.auth import FloorCommand
from felt.sim.runner import Sim

BKEY = b"\x33" * 32


def _nonces():
    state = [0]

    def source(n):
        state[0] += 1
        return bytes([(state[0] + i) & 255 for i in range(n)])
    return source


def _table(delay_ms=60000):
    logs = []
    public = []
    bcast = []
    sim = Sim(log=logs.append)
    sim.run("table holdem no_limit seats=3 sb=50 bb=100 button=1")
    feed = secrecy.SecretFeed("table1", BKEY, _nonces(), public=public.append, broadcast=bcast.append,
                              delay_ms=delay_ms)
    secrecy.install(sim.rt, feed)
    for s in (1, 2, 3):
        sim.run("seat %d 1000" % s)
    return sim, feed, logs, public, bcast


HOLE = {2: "AhQs", 3: "KdQh", 1: "Kc2s"}


def _play(sim):
    sim.run("hand")
    for c, seat in (("Ah", 2), ("Kd", 3), ("Kc", 1), ("Qs", 2), ("Qh", 3), ("2s", 1)):
        sim.run("draw %s to seat %d" % (c, seat))
    for line in ("act 1 call", "act 2 call", "act 3 check", "draw 3c to burn", "draw 7h to board",
                 "draw 8h to board", "draw 9c to board", "act 2 check", "act 3 check", "act 1 fold"):
        sim.run(line)
    for line in ("draw 4c to burn", "draw Jd to board", "act 2 check", "act 3 check", "draw 5d to burn",
                 "draw 2d to board", "act 2 check", "act 3 check"):
        sim.run(line)


def test_commit_then_reveal_after_the_delay_and_broadcast_opens():
    sim, feed, logs, public, bcast = _table(delay_ms=3000)
    _play(sim)
    eq(sim.table.state, "over")
    commits = [r for r in public if r["kind"] == "commit" and r["place"] != "board"]
    eq(sorted([r["place"] for r in commits]), ["seat1", "seat2", "seat3"])
    assert [r for r in public if r["kind"] == "hand-end"]
    eq([r for r in public if r["kind"] == "reveal"], [])
    eq(bcast, [])  # nothing about the hand leaves before hand end + delay
    sim.run("wait 1500")
    eq(bcast, [])
    sim.run("wait 1600")
    reveal = [r for r in public if r["kind"] == "reveal"][0]
    end = [r for r in public if r["kind"] == "hand-end"][0]
    assert reveal["t_ms"] >= end["t_ms"] + 3000
    eq(reveal["seats"], {"seat1": "Kc2s", "seat2": "AhQs", "seat3": "KdQh"})
    eq(reveal["board"], "7h8h9cJd2d")
    for r in commits:
        n, salt = reveal["salts"][r["place"]][-1]
        eq(secrecy.commitment("table1", 1, r["place"], reveal["seats"][r["place"]][:2 * n], salt), r["c"])
    eq(len(bcast), 1)
    assert "AhQs" not in str(bcast[0])
    opened = secrecy.open_broadcast(BKEY, "table1", bcast[0])
    eq(opened["seats"], reveal["seats"])
    with raises(ValueError):
        secrecy.open_broadcast(b"\x34" * 32, "table1", bcast[0])


def test_shown_hands_are_public_mucked_stay_secret_in_the_log():
    sim, feed, logs, public, bcast = _table()
    _play(sim)
    text = "\n".join(logs)
    for card in ("Kc", "2s"):  # seat 1 folded: its cards are never named
        assert card not in text, text
    # seats 2 and 3 tabled their cards at the showdown (SHOW-1): public from then on
    assert "AhQs" in text or "KdQh" in text, text


def test_guard_redacts_secret_cards_and_uids():
    sim, feed, logs, public, bcast = _table()
    sim.run("hand")
    sim.run("draw Ah to seat 2")
    t = sim.table
    eq(feed.clean("seat 2 has Ah", t), "seat 2 has ??")
    eq(feed.clean("cards AhKd here", t), "cards ??Kd here")  # only the secret one goes
    eq(feed.clean("Kd and As are fine; Ahead too", t), "Kd and As are fine; Ahead too")
    uid = "04FE17410000" + "%02X" % 50  # the sim's tag of Ah (card 50)
    eq(feed.clean("tag %s read" % uid, t), "tag %s read" % ("?" * len(uid)))
    assert feed.redactions == 3
    # a finding naming a hole card reaches the display and the log only redacted
    t.log("deal: one extra card (Ah) dealt to seat 2")
    assert "(??)" in logs[-1], logs[-1]


def test_delay_changes_only_by_floor_command():
    sim, feed, logs, public, bcast = _table()

    class Fake:
        verb = "delay"
        who = "mallory"
        args = [0]
    with raises(AuthError, match="authenticated floor command"):
        feed.set_delay(Fake())
    with raises(AuthError):
        feed.set_delay(FloorCommand("alice", "void", [], "void"))
    feed.set_delay(FloorCommand("alice", "delay", [1000], "delay 1000"), 5)
    eq(feed.delay_ms, 1000)
    _play(sim)
    sim.run("wait 1100")
    eq(len(bcast), 1)


def test_every_alert_is_audited_with_hole_cards_hidden():
    from felt.security import audit as al
    log = al.AuditLog(al.MemStore(), al.signer(b"\x42" * 32))
    sim = Sim()
    sim.run("table holdem no_limit seats=3 sb=50 bb=100 button=1")
    feed = secrecy.SecretFeed("table1", BKEY, _nonces())
    secrecy.install(sim.rt, feed, audit=log)
    for s in (1, 2, 3):
        sim.run("seat %d 1000" % s)
    sim.run("hand")
    sim.run("fault double-read Ah to seat 2")  # the alert names the tag of a card going to a seat
    recs = al.verify(log.store.lines(), al.signer(b"\x42" * 32))
    eq([r.kind for r in recs], ["alert"])
    eq(recs[0].who, "shoe")
    assert "DECK-5" in recs[0].text and "04FE1741000032" not in recs[0].text, recs[0].text
    assert "??????????????" in recs[0].text


def test_guard_finds_cards_glued_to_other_text():
    sim, feed, logs, public, bcast = _table()
    sim.run("hand")
    sim.run("draw Kd to seat 3")
    sim.run("draw Th to seat 1")
    t = sim.table
    eq(feed.clean("S3Kd 7hKd AhKdQsJc2c3c4c5c6c7c8c9c", t), "S3?? 7h?? Ah??QsJc2c3c4c5c6c7c8c9c")
    eq(feed.clean("The Thing; Kdx; seat1:Th.", t), "The Thing; Kdx; seat1:??.")


class _NoTable:
    """A table that must not be looked at."""

    def __getattr__(self, name):
        raise AssertionError("the guard read table.%s for a text without a card" % name)


def test_guard_leaves_a_text_without_a_card_alone_without_reading_the_table():
    # issue 20: no scan (and no look at the table) for a text that carries no card
    feed = secrecy.SecretFeed("table1", BKEY, _nonces())
    for text in ("seat 3 calls 20", "pot 1,250 - action on seat 4", "", "NO CARD HERE: 1234567"):
        eq(feed.clean(text, _NoTable()), text)


def test_secret_set_is_made_once_per_change_of_the_cards_in_play():
    sim, feed, logs, public, bcast = _table()
    sim.run("hand")
    sim.run("draw Ah to seat 2")
    line = "seat 2 holds Ah"
    eq(feed.clean(line, sim.table), "seat 2 holds ??")
    tokens = feed.secret_tokens()
    eq(feed.clean(line + " still", sim.table), "seat 2 holds ?? still")
    assert feed.secret_tokens() is tokens  # nothing moved: the same set, not rebuilt
    sim.run("draw Kd to seat 3")
    eq(feed.clean("Kd and Ah", sim.table), "?? and ??")
    assert feed.secret_tokens() is not tokens  # a card was dealt: made again
    eq(feed.clean("the 7h and 9c are nobody's", sim.table), "the 7h and 9c are nobody's")  # not secret
    eq(feed.clean("AhKd", sim.table), "????")  # inside a word too


def test_a_hand_waiting_for_its_release_keeps_no_commitment_text():
    # the commitments went out on the public feed; until the release (30 minutes by default) the
    # hand keeps only what the reveal needs -- each commitment's card count and salt -- not the
    # 64-digit texts (~1 KB a ten-seat hand on a 32-bit board: hardware/memory.md, "The firmware's
    # own live RAM")
    sim, feed, logs, public, bcast = _table(delay_ms=60000)
    _play(sim)
    eq(sim.table.state, "over")
    hs = feed.hands[-1]
    assert hs.end_ms is not None and not hs.released
    commits = [r for r in public if r["kind"] == "commit" and r["place"] != "board"]
    eq(sorted(hs.commits), [1, 2, 3])
    for seat in hs.commits:
        for entry in hs.commits[seat]:
            eq((len(entry), entry[0]), (2, 2))  # (cards covered, salt)
            assert entry[1] not in [r["c"] for r in commits]
