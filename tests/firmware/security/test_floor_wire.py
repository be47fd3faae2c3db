# Authenticated floor commands over the FELT1 console wire (issue 6; hardware/protocols/console.md
# "Floor commands"): challenge -> nonce, auth NAME NONCE TAG "command" -> FloorDesk -> the table's
# entry points, audited. Every refusal -- replayed nonce, wrong key, tampered arguments, stale
# challenge, unknown name -- is `error code=auth`, audited, and changes nothing. Runs under CPython
# and MicroPython against the simulated table (deterministic nonce counter).
from check import eq

from felt.proto import console as proto
from felt.security import audit as al
from felt.security import deckmap, secrecy
from felt.security.auth import FloorGate, answer
from felt.security.floordesk import FloorDesk
from felt.sim.runner import Sim

FLOOR = b"\x21" * 32
DEVICE = "table1"


def setup(ttl_ms=60000, levels=None):
    sim = Sim()
    sim.run("table holdem no_limit seats=3 sb=50 bb=100 button=1")
    for s in (1, 2, 3):
        sim.run("seat %d 1000" % s)
    count = [0]

    def nonces(n):  # deterministic in the simulator; os.urandom on a board (felt/runtime/app.py)
        count[0] += 1
        return bytes([count[0]]) * n
    log = al.AuditLog(al.MemStore(), al.signer(b"\x42" * 32))
    feed = secrecy.SecretFeed(DEVICE, b"\x33" * 32, nonces, delay_ms=1800000, audit=log)
    gate = FloorGate(DEVICE, {"alice": FLOOR}, nonces, audit=log, ttl_ms=ttl_ms)
    sim.rt.desk = FloorDesk(gate, sim.table, feed, {"alice": FLOOR}, DEVICE)  # (felt.runtime.app passes it to the Runtime)
    if levels is not None:
        sim.table.config.levels = levels
    return sim, feed, log


def line(sim, verb, args=(), opts=None, text=None):
    sim.seq = (sim.seq + 1) % 65536
    sim.console.feed(proto.encode(proto.Message(sim.seq, verb, args, opts, text)))
    sim.settle(sweeps=0)
    got = [r for r in sim.replies if (" re=%d " % sim.seq) in r and (" ok " in r or " error " in r)]
    assert len(got) == 1, (verb, sim.replies)
    return proto.decode_line(got[0].encode())


def challenge(sim):
    r = line(sim, "challenge")
    eq(r.verb, "ok")
    eq(r.opts["ttl"] > 0, True)
    return r.opts["nonce"]


def auth(sim, command, key=FLOOR, signed=None, who="alice", nonce=None):
    """Answer a fresh challenge (or `nonce`) for `command`; `signed` = the text the MAC covers."""
    n = nonce or challenge(sim)
    tag = answer(key, DEVICE, n, who, signed if signed is not None else command)
    return line(sim, "auth", [who, n, tag], None, command), n, tag


def refused_auth(r, words):
    eq(r.verb, "error")
    eq(r.opts.get("code"), "auth")
    assert words in r.text, r.text


def test_stack_by_floor_key_over_the_wire_is_audited():
    sim, feed, log = setup()
    r, n, tag = auth(sim, "stack 2 2500")
    eq(r.verb, "ok")
    eq(r.opts["cmd"], "stack")
    eq(sim.table.stacks[1], 2500)
    recs = al.verify(log.store.lines(), al.signer(b"\x42" * 32))
    eq(r.opts["audit"], recs[-1].seq)
    eq((recs[-1].who, recs[-1].kind, recs[-1].text), ("alice", "floor", "stack 2 2500"))


def test_replayed_answer_is_refused_and_changes_nothing():
    sim, feed, log = setup()
    r, n, tag = auth(sim, "stack 2 2500")
    eq(r.verb, "ok")
    sim.table.stacks[1] = 1000
    r2 = line(sim, "auth", ["alice", n, tag], None, "stack 2 2500")  # the recorded line, new seq
    refused_auth(r2, "replayed")
    eq(sim.table.stacks[1], 1000)
    eq(al.verify(log.store.lines())[-1].kind, "auth-refused")
    from felt import view
    shown = view.lines(sim.table)
    assert "!console" in shown, shown  # the refusal is on the display too


def test_wrong_key_is_refused():
    sim, feed, log = setup()
    r, n, tag = auth(sim, "stack 2 2500", key=b"\x66" * 32)
    refused_auth(r, "wrong key")
    eq(sim.table.stacks[1], 1000)


def test_tampered_arguments_are_refused():
    sim, feed, log = setup()
    r, n, tag = auth(sim, "stack 2 9500", signed="stack 2 2500")
    refused_auth(r, "altered")
    eq(sim.table.stacks[1], 1000)


def test_unknown_floor_name_is_refused():
    sim, feed, log = setup()
    r, n, tag = auth(sim, "stack 2 2500", who="mallory")
    refused_auth(r, "no floor key")


def test_stale_challenge_is_refused():
    sim, feed, log = setup(ttl_ms=1000)
    n = challenge(sim)
    sim.run("wait 1500")
    r, n, tag = auth(sim, "stack 2 2500", nonce=n)
    refused_auth(r, "expired")
    eq(sim.table.stacks[1], 1000)


def test_one_try_per_challenge_even_after_a_wrong_answer():
    sim, feed, log = setup()
    r, n, tag = auth(sim, "stack 2 2500", key=b"\x66" * 32)
    refused_auth(r, "wrong key")
    r, n, tag = auth(sim, "stack 2 2500", nonce=n)  # the right key, the spent challenge
    refused_auth(r, "replayed")


def test_retransmitted_auth_line_is_answered_again_not_run_twice():
    sim, feed, log = setup()
    n = challenge(sim)
    sim.seq += 1
    wire = proto.encode(proto.Message(sim.seq, "auth", ["alice", n, answer(FLOOR, DEVICE, n, "alice", "stack 2 2500")],
                                      None, "stack 2 2500"))
    sim.console.feed(wire)
    sim.settle(sweeps=0)
    sim.table.stacks[1] = 1000
    sim.console.feed(wire)  # the console missed the reply and sends the same line again
    sim.settle(sweeps=0)
    oks = [r for r in sim.replies if (" ok re=%d " % sim.seq) in r]
    eq(len(oks), 2)
    eq(sim.table.stacks[1], 1000)  # not applied twice


def test_void_a_hand_returns_every_bet():
    sim, feed, log = setup()
    sim.run("hand")
    for card, seat in (("Ah", 2), ("Kd", 3), ("2c", 1), ("Ac", 2), ("Kc", 3), ("3d", 1)):
        sim.run("draw %s to seat %d" % (card, seat))
    sim.run("act 1 raise 400")
    r, n, tag = auth(sim, "void")
    eq(r.verb, "ok")
    eq(sim.table.state, "void")
    eq(sim.table.stacks, [1000, 1000, 1000])
    r, n, tag = auth(sim, "void")  # no hand now: a named rule, not an auth error
    eq((r.verb, r.opts.get("code"), r.opts.get("rule")), ("error", "rule", "GAME-6"))


def test_CASH_4_stack_during_a_hand_is_refused():
    sim, feed, log = setup()
    sim.run("hand")
    r, n, tag = auth(sim, "stack 2 9000")
    eq((r.verb, r.opts.get("rule")), ("error", "CASH-4"))
    eq(sim.table.stacks[1], 1000)


def test_TOUR_1_level_applies_from_the_next_hand():
    sim, feed, log = setup(levels=[{"sb": 50, "bb": 100}, {"sb": 100, "bb": 200, "ante": 25}])
    t = sim.table
    sim.run("hand")
    r, n, tag = auth(sim, "level 2")
    eq(r.verb, "ok")
    eq((t.config.sb, t.config.bb), (50, 100))  # the hand in progress keeps its stakes
    r, n, tag = auth(sim, "level 3")
    eq((r.verb, r.opts.get("rule")), ("error", "TOUR-1"))
    r, n, tag = auth(sim, "void")
    sim.run("clear")
    sim.run("hand")
    eq((t.config.sb, t.config.bb, t.config.ante, t.config.level), (100, 200, 25, 2))
    eq(t.hand.pot_total(), 300 + 3 * 25)


def test_level_without_a_level_table_is_refused():
    sim, feed, log = setup()
    r, n, tag = auth(sim, "level 2")
    eq((r.verb, r.opts.get("code"), r.opts.get("rule")), ("error", "rule", "TOUR-1"))


def test_structure_change_and_a_structure_the_game_lacks():
    sim, feed, log = setup()
    r, n, tag = auth(sim, "structure pot_limit")
    eq(r.verb, "ok")
    eq(sim.table.config.record.structure, "pot_limit")
    r, n, tag = auth(sim, "structure spread")
    eq((r.verb, r.opts.get("rule")), ("error", "GAME-1"))
    eq(sim.table.config.structure, "pot_limit")


def test_broadcast_delay_over_the_wire():
    sim, feed, log = setup()
    r, n, tag = auth(sim, "delay 600000")
    eq(r.verb, "ok")
    eq(feed.delay_ms, 600000)


def test_deck_record_sent_by_lines_then_registered_by_floor_key():
    sim, feed, log = setup()
    uids = [bytes([4, 0x33, 0x44, 0, 0, 0, i]) for i in range(52)]
    e = deckmap.Enrollment()
    for u in uids:
        e.add(u)
    record = deckmap.sign(DEVICE, "C", "alice", FLOOR, e.scan.mapping)
    rows = record.rstrip("\n").split("\n")
    digest = None
    for i in range(len(rows)):
        r = line(sim, "deckline", [i + 1], None, rows[i])
        eq(r.verb, "ok")
        digest = r.opts.get("sha256", digest)
    assert digest is not None
    r = line(sim, "deckline", [5], None, "tag 04334400000000 2c")  # out of order
    eq((r.verb, r.opts.get("code")), ("error", "rule"))
    r, n, tag = auth(sim, "deck D " + digest)
    eq(r.verb, "error")
    assert "names deck D" in r.text, r.text
    r, n, tag = auth(sim, "deck C " + digest)
    eq(r.verb, "ok")
    eq(sim.table.registry.lookup(uids[0], "C"), 0)


def test_a_table_without_floor_keys_refuses_the_floor_verbs():
    sim = Sim()
    sim.run("table holdem no_limit seats=3 sb=50 bb=100 button=1")
    r = line(sim, "challenge")
    eq((r.verb, r.opts.get("code")), ("error", "auth"))
