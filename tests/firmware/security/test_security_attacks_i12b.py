# Issue 12 (items 6-8, branch i12b): attacks on the ASSEMBLED firmware -- felt.runtime.app.build on a
# provisioned board with a signed running tree, in production mode -- each the way an attacker
# would try it. Runs on CPython and MicroPython; the host side of each attack (feltctl) is in
# tests/host/test_security_i12b_cli.py, which uses the harness below.
import os

from check import eq

import kit
from felt.security import audit as auditlib
from felt.security import bootcheck
from felt.security import manifest as mf
from felt.security import secrecy
from kit import (audit_set, console_line, deck_record, decoded_wire, DEVICE, floor_auth, flooded_board,
                 HOLE, OWNER, play_one_hand, ProductionSim, provisioned_root, seated_board, send_deck)


def test_item6_every_public_feed_record_carries_the_boards_signature():
    root, slot = provisioned_root("i12b_feed")
    sim = ProductionSim(root, slot)
    recs = play_one_hand(sim)
    kinds = [r["kind"] for r in recs]
    for k in ("commit", "hand-end", "reveal", "broadcast"):
        assert k in kinds, kinds
    pub = secrecy.feed_public(OWNER)
    for r in recs:
        assert "sig" in r, r  # fails before issue 12 item 6: the board signed nothing
        assert secrecy.check_signature(pub, DEVICE, r), r
    # a signature covers every field: one card changed, one field added, another device
    rev = [r for r in recs if r["kind"] == "reveal"][0]
    forged = dict(rev)
    forged["seats"] = dict(rev["seats"])
    place = sorted(forged["seats"])[0]
    forged["seats"][place] = forged["seats"][place] + "2c"
    assert not secrecy.check_signature(pub, DEVICE, forged)
    assert not secrecy.check_signature(pub, DEVICE, dict(rev, extra="x"))
    assert not secrecy.check_signature(pub, "table2", rev)
    assert not secrecy.check_signature(secrecy.feed_public(b"\x43" * 32), DEVICE, rev)
    kit.rm_tree(root)


def test_item6_canonical_text_is_the_same_on_every_interpreter():
    # MicroPython dicts are not ordered: the signed text must not depend on the order
    a = {"kind": "reveal", "hand": 3, "seats": {"seat2": "AhKd", "seat10": "2c3c"}, "salts": {"seat2": [[2, "ab"]]}}
    b = {"salts": {"seat2": [[2, "ab"]]}, "seats": {"seat10": "2c3c", "seat2": "AhKd"}, "hand": 3, "kind": "reveal"}
    eq(secrecy.canonical(a), secrecy.canonical(b))
    eq(secrecy.canonical(a), '{"hand":3,"kind":"reveal","salts":{"seat2":[[2,"ab"]]},'
                             '"seats":{"seat10":"2c3c","seat2":"AhKd"}}')
    for bad in (1.5, True, None):
        try:
            secrecy.canonical({"x": bad})
            raise AssertionError("canonical accepted %r" % (bad,))
        except ValueError:
            pass


# ---- item 7: audit records pushed off the board ---------------------------------------------------


def test_item7_a_flood_of_floor_warnings_is_rate_and_size_limited_and_leaves_a_gap_record():
    # 3 files of 16 KB: 300 warnings (~110 KB) rotated every earlier record away before the fix
    root, sim, boot = flooded_board("i12b_flood", 300, max_bytes=16384)
    recs = auditlib.verify_files(audit_set(root), auditlib.signer(OWNER))
    # before issue 12 item 7 the flood rotated the boot record (and any floor command) away
    eq(recs[0].seq, 1)
    assert [r for r in recs if r.line == boot.line], "the boot record was pushed off the board"
    alerts = [r for r in recs if r.kind == "alert"]
    assert 0 < len(alerts) <= auditlib.Intake().burst + 1, len(alerts)
    for r in alerts:
        assert len(r.text) <= auditlib.Intake().max_text, r.text
    # every refusal is on record: a gap record before the next record written says how many, when
    sim.hal.clock.advance_ms(auditlib.Intake().per_ms)  # the rate limit lets one more in
    console_line(sim, "floor", ["warning", 3], None, "after the flood")
    recs = auditlib.verify_files(audit_set(root), auditlib.signer(OWNER))
    gaps = [r for r in recs if r.kind == "audit" and r.text.startswith(auditlib.GAP)]
    assert gaps and recs[-2] is gaps[-1], [r.text for r in recs[-3:]]
    for g in gaps:
        assert "unauthenticated records refused (rate limit) between " in g.text, g.text
    refused = sum([int(g.text[len(auditlib.GAP):].split(" ")[0]) for g in gaps])
    eq(refused + len([r for r in recs if r.kind == "alert"]), 301)
    assert refused > 250, refused  # the flood took seconds of table time, not minutes
    eq(recs[-1].kind, "alert")
    assert "after the flood" in recs[-1].text
    kit.rm_tree(root)


def test_item7_unexported_records_are_never_rotated_away_new_alerts_are_refused_with_an_alert():
    # a slow flood (one warning each 3 s gets past the rate limit) fills every file the rotation
    # keeps: the board keeps the unexported records and refuses further unauthenticated ones
    root, sim, boot = flooded_board("i12b_full", 40, gap_ms=3000)
    recs = auditlib.verify_files(audit_set(root), auditlib.signer(OWNER))
    eq(recs[0].seq, 1)
    assert [r for r in recs if r.line == boot.line]
    full = [r for r in recs if r.kind == "audit" and r.text.startswith("audit log full")]
    eq(len(full), 1)
    assert [a for a in sim.table.alerts if a.device == "audit" and "audit log full" in a.text], sim.table.alerts
    before = audit_set(root)
    for i in range(20):  # the flood goes on: nothing more is written, nothing deleted
        console_line(sim, "floor", ["warning", 2], None, "more %d" % i)
        sim.hal.clock.advance_ms(3000)
    eq(audit_set(root), before)
    assert len(before) <= sim.rotation.keep + 2, [n for n, _ in before]  # the 'full' record may open one more
    # an authenticated record still goes in (over the quota), nothing is deleted for it
    sim.app.audit.append("floor", "void", who="alice", t_ms=sim.hal.clock.ticks_ms())
    recs = auditlib.verify_files(audit_set(root), auditlib.signer(OWNER))
    eq(recs[0].seq, 1)
    eq(recs[-1].text, "void")
    # the refusals are on record before it (checked here: once exported, signed records -- longer
    # since issue 16 item 1 -- roll that file off below)
    gaps = [r for r in recs if r.kind == "audit" and r.text.startswith(auditlib.GAP)]
    assert gaps and "log full" in gaps[-1].text, [r.text for r in recs]
    # exported (what feltctl audit verify --port writes): rotation may delete those, alerts resume
    exported = recs[-1].seq
    with open(root + "/audit.log" + auditlib.EXPORTED, "w") as f:
        f.write("%d %s\n" % (recs[-1].seq, auditlib.line_hash(recs[-1].line)))
    sim.hal.clock.advance_ms(60000)
    console_line(sim, "floor", ["warning", 2], None, "after the export")
    recs = auditlib.verify_files(audit_set(root), auditlib.signer(OWNER))
    eq(recs[-1].kind, "alert")
    assert "after the export" in recs[-1].text
    for i in range(8):  # until the live file rotates: exported files are deleted then
        sim.hal.clock.advance_ms(3000)
        console_line(sim, "floor", ["warning", 2], None, "later %d" % i)
        first = audit_set(root)[0][1]
        if auditlib.parse_line(first[-1], 0).seq > exported:
            break  # every exported file gone (signed records are longer since issue 16: fewer a file)
    recs = auditlib.verify_files(audit_set(root), auditlib.signer(OWNER))
    assert recs[0].seq > 1  # exported records rolled off
    # every file left holds a record not yet exported (issue 16 item 4 adds the board's own 'event log
    # N% full' warning and its alert, so the small log can fill again with unexported records)
    files = audit_set(root)
    for k in range(len(files) - 1):
        last = auditlib.parse_line(files[k][1][-1], 0).seq
        assert last > exported, (files[k][0], last, exported)
    assert len(files) <= sim.rotation.keep + 2, [n for n, _ in files]
    kit.rm_tree(root)


# ---- item 8: floor-auth challenges: a flood, a power cut ---------------------------------------------
def test_item8_a_flood_of_challenges_does_not_lock_the_floor_out():
    root, sim = seated_board("i12b_chflood")
    n = decoded_wire(sim, "challenge").opts["nonce"]
    for _ in range(40):  # anyone on the console line asks for challenges while the floor answers
        eq(decoded_wire(sim, "challenge").verb, "ok")
    r = floor_auth(sim, n, "stack 2 2500")
    eq(r.verb, "ok", r.text)  # before the fix: refused, the 4-challenge list had evicted it
    eq(sim.table.stacks[1], 2500)
    r = floor_auth(sim, n, "stack 2 2500")  # and still one use each
    eq(r.verb, "error")
    assert "already used" in r.text, r.text
    kit.rm_tree(root)


def test_item8_floor_commands_and_challenges_across_a_power_cut():
    root, sim = seated_board("i12b_chcut")
    n = decoded_wire(sim, "challenge").opts["nonce"]
    eq(floor_auth(sim, n, "stack 2 2500").verb, "ok")
    pending = decoded_wire(sim, "challenge").opts["nonce"]
    sim.app = sim.table = sim.rt = None  # power cut
    sim.boot()
    eq(sim.table.stacks[1], 2500)  # the floor command is journaled
    recs = auditlib.verify_files(audit_set(root), auditlib.signer(OWNER))
    eq(len([r for r in recs if r.kind == "floor"]), 1)  # audited once, not again by the replay
    for nonce, cmd in ((pending, "stack 3 3000"), (n, "stack 2 2500")):
        r = floor_auth(sim, nonce, cmd)  # a challenge of the last boot, answered or replayed after it
        eq(r.verb, "error")
        assert "never issued by this board since it started" in r.text, r.text
    eq(sim.table.stacks[2], 1000)
    n = decoded_wire(sim, "challenge").opts["nonce"]
    eq(floor_auth(sim, n, "stack 3 3000").verb, "ok")  # a fresh one works
    kit.rm_tree(root)


# ---- item 8: deck-record staging ------------------------------------------------------------------
def test_item8_anyone_on_the_console_cannot_fill_the_deck_staging_slots():
    root, sim = seated_board("i12b_stage")
    junk = "felt-deck 1\ntag 04000000000000 2c\nsig 00\n"
    for i in range(5):  # unsigned, foreign-key and other-board records: none is staged
        r = send_deck(sim, junk)
        eq(r.verb, "error")
    for bad in (deck_record("X", key=b"\x66" * 32), deck_record("Y", device="table2")):
        r = send_deck(sim, bad)
        eq(r.verb, "error")
        assert "refused" in r.text, r.text
    r = send_deck(sim, deck_record("C"))
    eq(r.verb, "ok")  # before the fix: "2 deck records wait for their floor command already"
    n = decoded_wire(sim, "challenge").opts["nonce"]
    r = floor_auth(sim, n, "deck C " + r.opts["sha256"])
    eq(r.verb, "ok", r.text)
    eq(sim.table.registry.lookup(bytes([4, 0x33, 0x44, 0, 0, 0, 0]), "C"), 0)
    kit.rm_tree(root)


# ---- item 8: signed manifests: paths and files the tree walk leaves out -------------------------
def boot_refusal(root, slot):
    """Boot the board from `slot`; the refusal text (None: it ran)."""
    from felt.hal.sim.hal import SimHAL
    hal = SimHAL()
    hal.add_display(0, 0x3C)
    from felt.sim.runner import registry
    from felt.table.controller import TableConfig

    def table(history, log):
        return kit.Table(TableConfig(game="holdem", structure="no_limit", seats=3, sb=1, bb=2), registry(),
                         log=log, history=history)
    a = kit.in_slot(slot, lambda: kit.applib.build(hal, kit.boardlib_sim(3), table, root, pressed=False,
                                                    micropython_module=kit.FakeMicropython()))
    eq(a.mode, bootcheck.PRODUCTION)
    return a.halted


def resign(root, slot, entries):
    with open(slot + "/" + mf.NAME, "w") as f:
        f.write(mf.sign(DEVICE, kit.RELEASE, "v1", 1, entries))


def test_item8_manifest_paths_with_dot_segments_duplicates_or_outside_the_tree_are_refused():
    root, slot = provisioned_root("i12b_mfpath")
    size, digest = mf.file_hash(slot + "/main.py")
    # the owner's signing key signs what it is given: the board must still refuse these manifests
    body = mf.sign(DEVICE, kit.RELEASE, "v1", 1, [["main.py", size, digest]])
    for extra in ("./main.py", "sub/../main.py", "sub//main.py", "/main.py", "../felt.keys", "main.py"):
        text = body.split("sig ")[0] + "file %s %d %s\n" % (extra, size, digest)
        from felt.security import ed25519
        from felt.security.hmac import hexlify
        with open(slot + "/" + mf.NAME, "w") as f:
            f.write(text + "sig " + hexlify(ed25519.sign(kit.RELEASE, mf.signed_message(text))) + "\n")
        why = boot_refusal(root, slot)
        # before the fix './main.py' and 'main.py' twice booted (the same file listed twice)
        assert why is not None and "manifest" in why, (extra, why)
    for bad in (["./main.py", size, digest], ["main.py", size, digest]):
        try:
            mf.sign(DEVICE, kit.RELEASE, "v1", 1, [["main.py", size, digest], bad])
            raise AssertionError("signed %r" % (bad,))
        except mf.ManifestError:
            pass
    kit.rm_tree(root)


def test_item8_files_the_walk_skipped_outside_the_slot_root_must_be_signed():
    root, slot = provisioned_root("i12b_mfskip")
    os.mkdir(slot + "/felt")
    for name in ("felt/.felt-ok", "felt/felt.manifest"):
        with open(slot + "/" + name, "w") as f:
            f.write("import os\n")
        why = boot_refusal(root, slot)
        assert why is not None and "not in the signed manifest" in why and name in why, (name, why)
        os.remove(slot + "/" + name)
    with open(slot + "/felt/table.py.tmp", "w") as f:  # deploy bookkeeping is still left out
        f.write("half a file\n")
    sim = ProductionSim(root, slot)
    sim.run(kit.HEAD)
    eq(sim.app.halted, None)
    kit.rm_tree(root)


def test_item8_a_dangling_link_does_not_hide_an_unsigned_module():
    if not hasattr(os, "symlink"):
        import check
        raise check.Skip("no os.symlink on this port (a Pico's filesystem has no links)")
    root, slot = provisioned_root("i12b_mflink")
    with open(slot + "/json.py", "w") as f:  # would shadow the standard json module on a Pi
        f.write("raise SystemExit('unsigned code ran')\n")
    os.symlink(slot + "/nowhere", slot + "/zz")
    why = boot_refusal(root, slot)
    # before the fix: stat of the dangling link failed, the walk skipped the whole root, it booted
    assert why is not None and "symbolic link" in why, why
    kit.rm_tree(root)


# ---- item 8: a console fuzz of the production loop ----------------------------------------------
WORDS = ("1", "2", "3", "0", "99", "65535", "4294967296", "-1", "x", "Ah", "AhKd", "rule=DEAL-3", "amount=5",
         "amount=99999999999", "seat=2", "to=900", "\"a b\"", "\"\"", "warning", "dead", "penalty", "clock",
         "kill", "void", "stack", "deck", "C", "alice", "00" * 16, "ab" * 32, "=", "x=", "=y", "\"unterminated",
         "fold", "call", "raise", "bet", "check", "allin", "level", "structure", "delay")


TYPED = {
    "seat": ("1", "2", "3", "0", "4", "10"), "amount": ("0", "50", "100", "250", "1000", "999999"),
    "chips": ("0", "100", "5000"), "id": ("1", "2", "7", "60000"), "word": ("warning", "dead", "penalty", "clock",
    "continue", "kill", "misdeal", "void", "stack", "deck", "sb", "bb", "x"), "rule": ("DEAL-3", "CASH-4", "X-1"),
    "mark": ("boxed", "exposed", "x"), "key": ("level_clock", "hand_for_hand", "hr.cash_action_timer", "delay",
    "sb", "x"), "value": ("on", "off", "1", "0:30", "pause", "x"), "name": ("alice", "bob", "x"),
    "nonce": ("00" * 16, "ab" * 16), "tag": ("00" * 32,), "line": ("1", "2", "53", "60"),
    "declared": ("0", "100"), "pulled": ("0", "1"),
}


def _typed(rng, type_name):
    pick = TYPED.get(type_name) or WORDS
    return pick[rng.getrandbits(8) % len(pick)]


def _line(rng, verbs):
    """A FELT1 line with a valid CRC: a verb of the protocol (or not) and arguments of the types
    its schema names (or any words), options and a quoted text now and then."""
    from felt.proto import console as proto
    name = verbs[rng.getrandbits(8) % len(verbs)]
    schema = proto.verb(name)
    toks = [name]
    if schema is not None and rng.getrandbits(3):
        types = list(schema.args) + list(schema.optional)[:rng.getrandbits(1)]
        toks += [_typed(rng, t) for t in types]
        for k in schema.opt_order:
            if rng.getrandbits(2) == 0:
                toks.append("%s=%s" % (k, _typed(rng, schema.opts[k])))
        if schema.text != "no" and rng.getrandbits(1):
            toks.append('"%s"' % WORDS[rng.getrandbits(8) % len(WORDS)].replace('"', ""))
    else:
        toks += [WORDS[rng.getrandbits(8) % len(WORDS)] for _ in range(rng.getrandbits(3))]
    body = ("FELT1 %d %s" % (rng.getrandbits(16), " ".join(toks))).encode()
    return body + (" *%04X" % proto.crc16(body + b" ")).encode()


def fuzz_lines(rng, verbs):
    """Lines a console (or a laptop on its wire) could send: valid CRC over random verbs and
    arguments (most lines), oversized, NUL, bare CR, broken checksums, binary."""
    from felt.proto import console as proto
    out = []
    for i in range(300):
        kind = rng.getrandbits(4)
        line = _line(rng, verbs)
        if kind == 1:
            line = line[:-6] + b" \x00 *0000"
        elif kind == 2:
            line = line + b"\r" + _line(rng, verbs)  # a bare CR inside a line
        elif kind == 3:
            line = b"FELT1 1 " + b"A" * (proto.MAX_LINE + 50)
        elif kind == 4:
            line = bytes([rng.getrandbits(8) for _ in range(rng.getrandbits(6) + 1)])
        out.append(line + (b"\r\n" if kind != 5 else b"\n"))
    return out


def test_item8_console_fuzz_never_raises_out_of_the_production_loop():
    import random
    from felt.proto import console as proto
    root, sim = seated_board("i12b_fuzz")
    rng = random.Random(12) if hasattr(random, "Random") else random
    if rng is random:
        random.seed(12)
    verbs = proto.verb_names() + ["nosuchverb", "FELT1"]
    lines = fuzz_lines(rng, verbs)
    sim.run("hand")  # mid-hand: cards out, floor traffic and junk arrive while the hand runs
    for c, s in (("Ah", 2), ("Kd", 3), ("Qs", 1), ("Qh", 2)):
        sim.run("draw %s to seat %d" % (c, s))
    n = decoded_wire(sim, "challenge").opts["nonce"]
    for k in range(len(lines)):
        sim.console.feed(lines[k])
        sim.settle(sweeps=0)  # Runtime.step runs here: any exception out of it fails the test
        if k % 50 == 0:
            eq(decoded_wire(sim, "challenge").verb, "ok")  # the floor channel still answers
            send_deck(sim, "felt-deck 1\nsig 00\n")
    # the table is consistent and playable: the floor can still act, the hand goes on
    r = floor_auth(sim, n, "void")
    assert r.verb in ("ok", "error"), r
    sim.run("state")
    recs = auditlib.verify_files(audit_set(root), auditlib.signer(OWNER))
    assert recs, "the audit log verifies after the fuzz"
    kit.rm_tree(root)


# ---- item 8: a tag UID seen twice in one hand (cloned tag) ------------------------------------------
def test_item8_a_tag_seen_at_two_seats_in_one_hand_is_an_alert():
    root, sim = seated_board("i12b_clone")
    kit.play_app_hand(sim, HOLE)  # Ah is dealt to seat 2; the preflop betting is done
    n = len(sim.table.alerts)
    # seat 2 lifts its Ah off the antenna; a tag with the same UID (a clone) appears at seat 3
    sim.run("remove Ah from seat 2")
    sim.run("move Ah from nowhere to seat 3")
    got = [a for a in sim.table.alerts[n:] if "cloned tag" in a.text]
    eq(len(got), 1, [a.line() for a in sim.table.alerts[n:]])  # before the fix: no alert at all
    eq(got[0].rules, ("DECK-5",))
    assert "seat 2" in got[0].text and "seat 3" in got[0].text, got[0].text
    assert "Ah" not in got[0].line() and "04FE1741000032" not in got[0].line().upper()
    kit.rm_tree(root)
