# Issue 16 item 3 (tilt): integrity failures attacked on the ASSEMBLED firmware -- felt.runtime.app.build
# on a provisioned board with a signed running tree in production mode (kit.ProductionSim). Each
# failure must lock play (display, console, audit), survive a power cut, refuse every play entry
# and be cleared only by an authenticated floor `clear`. CPython and MicroPython.
from check import eq

import kit
from felt.security import audit as auditlib
from felt.view import lines as view_lines


def _records(root):
    return auditlib.verify_files(kit.audit_set(root), None)  # chain only (a tilted log may not verify)


def _tilt_records(root):
    return [r.text for r in _records(root) if r.kind == "tilt"]


def _locked(sim, why):
    """The table is in tilt for `why`: display, console refusal of play, the buttons ignored."""
    t = sim.table
    assert t.tilted is not None and why in t.tilted, t.tilted
    shown = sim.oled.text_lines()
    assert shown[:2] == ["TILT", "PLAY LOCKED"], shown
    r = kit.decoded_wire(sim, "newhand")
    eq((r.verb, r.opts.get("code")), ("error", "tilt"))
    assert "TILT" in r.text, r.text
    before = t.hand_no
    sim.run("press 1")  # a seat button: ignored while locked
    eq(t.hand_no, before)


def _clear(sim, key=kit.FLOOR):
    n = kit.decoded_wire(sim, "challenge").opts["nonce"]
    return kit.floor_auth(sim, n, "clear", key)


def _cut(sim):
    sim.app = sim.table = sim.rt = None  # power cut: the board boots again from its flash
    sim.boot()


def test_item3_an_edited_audit_record_tilts_the_table_until_the_floor_clears_it():
    root, sim = kit.seated_board("i16_audit_edit")
    sim.run("wait 100")
    # the attacker edits a record in the middle of the log (e.g. hides a floor command), keeping
    # the line's shape; before the fix the board booted and played on as if nothing happened
    path = root + "/audit.log"
    with open(path) as f:
        text = f.read()
    rows = text.split("\n")
    w = rows[0].split("\t")  # the boot record of this power-up
    w[4] = w[4].replace("production", "maintenance") if "production" in w[4] else w[4] + "!"
    rows[0] = "\t".join(w)
    with open(path, "w") as f:
        f.write("\n".join(rows))
    _cut(sim)
    _locked(sim, "audit log does not verify")
    assert [x for x in _tilt_records(root) if x.startswith("tilt: audit log does not verify")], _tilt_records(root)
    _cut(sim)  # a power cut does not clear it
    _locked(sim, "audit log does not verify")
    bad = _clear(sim, key=b"\x22" * 32)  # a wrong floor key
    eq((bad.verb, bad.opts.get("code")), ("error", "auth"))
    assert sim.table.tilted is not None
    ok = _clear(sim)
    eq((ok.verb, ok.opts.get("cmd")), ("ok", "clear"))
    eq(sim.table.tilted, None)
    assert sim.oled.text_lines()[0] != "TILT"
    r = kit.decoded_wire(sim, "newhand")  # play resumes
    eq(r.verb, "ok")
    _cut(sim)  # the break the floor cleared is not held against the next boot
    eq(sim.table.tilted, None)
    assert [x for x in _tilt_records(root) if x.startswith("cleared by floor alice")], _tilt_records(root)
    kit.rm_tree(root)


def test_item3_a_foreign_deck_tilts_mid_hand_and_the_tilt_survives_a_power_cut():
    root, sim = kit.seated_board("i16_foreign")
    sim.run("hand")
    sim.run("draw Ah to seat 2")
    sim.run("draw uid:DEADBEEF to seat 3")  # a tag of another deck (a cold deck, a ringer)
    _locked(sim, "a tag not of deck A was read at seat 3")
    r = kit.decoded_wire(sim, "fold", [2])
    eq((r.verb, r.opts.get("code")), ("error", "tilt"))
    refused = [x for x in _records(root) if x.kind == "refused"]  # a refused input is an event (item 4)
    assert [x for x in refused if x.text == "console fold refused: the table is in tilt"], [x.text for x in refused]
    eq(len([x for x in _tilt_records(root) if x.startswith("tilt: a tag not of deck A")]), 1)
    _cut(sim)  # the journal replays the foreign read: still locked, recorded once
    _locked(sim, "a tag not of deck A")
    eq(len([x for x in _tilt_records(root) if x.startswith("tilt: a tag not of deck A")]), 1)
    assert [x for x in _tilt_records(root) if x.startswith("still locked after a restart")], _tilt_records(root)
    eq(_clear(sim).verb, "ok")
    eq(sim.table.tilted, None)
    _cut(sim)  # the clear was journaled too
    eq(sim.table.tilted, None)
    # the floor's remedy for the hand: void it (authenticated), then play on
    n = kit.decoded_wire(sim, "challenge").opts["nonce"]
    eq(kit.floor_auth(sim, n, "void").verb, "ok")
    eq(kit.decoded_wire(sim, "newhand").verb, "ok")
    kit.rm_tree(root)


def test_item3_a_journal_that_does_not_verify_tilts_the_table():
    from felt.recovery import journal as jr

    root, sim = kit.seated_board("i16_journal")
    sim.run("hand")
    for c, s in (("Ah", 2), ("Kd", 3), ("Qs", 1), ("Qh", 2), ("Kc", 3)):
        sim.run("draw %s to seat %d" % (c, s))
    folder = root + "/journal"
    import os
    name = [n for n in os.listdir(folder) if n.startswith("j")][-1]
    with open(folder + "/" + name, "rb") as f:
        data = bytearray(f.read())
    records, damage = jr.scan(bytes(data))
    eq(damage, None)
    mid = records[len(records) // 2]
    data[mid.offset + jr.HEADER] ^= 0x01  # flash damage (or an edit) with valid records after it
    with open(folder + "/" + name, "wb") as f:
        f.write(bytes(data))
    _cut(sim)
    # before the fix: an 'error' line on the display, and the dealer played on from a table that
    # had lost the inputs after the damage
    _locked(sim, "journal does not verify")
    assert [x for x in _tilt_records(root) if x.startswith("tilt: journal does not verify")], _tilt_records(root)
    kit.rm_tree(root)


def test_item3_a_refused_tree_is_a_tilt_no_floor_command_clears():
    # the running tree refused (a file altered on the board): nothing of the table is built, so no
    # floor command can reach it; the refusal is recorded as a tilt that needs a signed deploy
    root, slot = kit.provisioned_root("i16_refused")
    with open(slot + "/main.py", "a") as f:
        f.write("# changed on the board\n")
    sim = kit.ProductionSim(root, slot)
    try:
        sim.run(kit.HEAD)
    except AttributeError:
        pass  # AppSim.boot goes on to start a table that was never built
    assert sim.app.halted is not None and "main.py was altered" in sim.app.halted, sim.app.halted
    eq(sim.app.table, None)
    assert [x for x in _tilt_records(root) if x.startswith("not started (needs a signed deploy)")], _tilt_records(root)
    kit.rm_tree(root)


def test_item3_the_display_shows_the_tilt_and_its_reason():
    # view.lines is computed from the table's state: the reason is on the panel, nothing else
    class T:
        tilted = "a tag not of deck A was read at seat 3"
    got = view_lines(T())
    eq(got[:2], ["TILT", "PLAY LOCKED"])
    eq(got[-1], "CALL THE FLOOR")
    assert "seat 3" in " ".join(got), got
