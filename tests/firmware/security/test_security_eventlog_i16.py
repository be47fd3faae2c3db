# Issue 16 item 4 (event records that outlive export), attacked on the ASSEMBLED firmware --
# felt.runtime.app.build on a provisioned board in production mode (kit.ProductionSim): the wall
# clock only an authenticated floor `time` sets, on every later record beside the board's ms; the
# log's room left on the console and a warning before it fills; power up after a clean stop or a
# cut; a firmware change; the board's own records never refused. CPython and MicroPython.
from check import eq

import kit
from felt.security import audit as auditlib
from felt.security import manifest as mf

NOW = 1764680000  # 2025-12-02 UTC, seconds


def _recs(root):
    return auditlib.verify_files(kit.audit_set(root), auditlib.signer(kit.OWNER))


def _time(sim, unix_s, key=kit.FLOOR):
    n = kit.decoded_wire(sim, "challenge").opts["nonce"]
    return kit.floor_auth(sim, n, "time %d" % unix_s, key)


def test_item4_the_wall_clock_is_set_only_by_an_authenticated_floor_command():
    root, sim = kit.seated_board("i16_wall")
    # the dealer console (no floor key) cannot set it, a wrong key cannot either
    r = kit.decoded_wire(sim, "floor", ["time"])
    eq((r.verb, r.opts.get("code")), ("error", "auth"))
    eq((_time(sim, NOW, key=b"\x22" * 32).verb), "error")
    assert [x for x in _recs(root) if x.wall is not None] == []
    bad = _time(sim, 1000)  # seconds typed wrong: named, nothing set
    eq(bad.verb, "error")
    assert "after 2020" in bad.text, bad.text
    t0 = sim.hal.clock.ticks_ms()
    eq(_time(sim, NOW).verb, "ok")
    sim.hal.clock.advance_ms(5000)
    kit.console_line(sim, "floor", ["warning", 2], None, "slow play")
    recs = _recs(root)  # the whole set still verifies (chain and MACs over the new time field)
    clock = [x for x in recs if x.kind == "clock"]
    eq(len(clock), 1)
    assert "wall clock set to %d" % NOW in clock[0].text, clock[0].text
    assert [x for x in recs if x.kind == "floor" and x.text == "time %d" % NOW and x.who == "alice"]
    last = recs[-1]
    eq(last.kind, "alert")
    # the board's monotonic ms and the wall clock, both on the record
    assert last.t_ms >= t0 + 5000, (last.t_ms, t0)
    eq(last.wall, NOW + (last.t_ms - clock[0].t_ms) // 1000)
    assert "@%d\t" % last.wall in last.line
    kit.rm_tree(root)


def test_item4_the_log_says_its_room_and_warns_before_it_fills():
    root, sim, boot = kit.flooded_board("i16_room", 0)
    r = kit.decoded_wire(sim, "get", ["audit_free"])
    eq(r.verb, "ok")
    room = r.opts["room"]
    eq(room, 3 * 1024)  # (audit_keep + 1) files of audit_max_bytes
    assert 0 < r.opts["free"] < room, r.opts
    eq(r.opts["exported"], 0)
    warned = None
    full = None
    for i in range(40):  # a slow flood of alerts, one past the rate limit every 3 s
        kit.console_line(sim, "floor", ["warning", 2], None, "%d %s" % (i, kit.FLOOD_TEXT))
        sim.hal.clock.advance_ms(3000)
        texts = [a.text for a in sim.table.alerts if a.device == "audit"]
        if warned is None and [x for x in texts if "event log" in x and "% full" in x]:
            warned = i
        if full is None and [x for x in texts if "audit log full" in x]:
            full = i
    # before the fix: the first word was 'audit log full', when alerts were already being refused
    assert warned is not None and full is not None and warned < full, (warned, full)
    shown = [x for x in _recs(root) if x.kind == "audit" and "% full" in x.text]
    eq(len(shown), 1)
    r = kit.decoded_wire(sim, "get", ["audit_free"])
    assert r.opts["free"] < room // 4, r.opts
    # the board's own records are never refused, even now: a floor command and its clock record
    eq(_time(sim, NOW).verb, "ok")
    # (the board's own 'audit' records -- a rotation, the fill warning -- may come between: signed
    # records are longer since issue 16 item 1)
    kinds = [x.kind for x in _recs(root)[-4:] if x.kind != "audit"]
    eq(kinds[-2:], ["floor", "clock"])
    kit.rm_tree(root)


def test_item4_power_up_says_whether_the_run_before_stopped_cleanly():
    from felt.runtime import app as applib

    root, sim = kit.seated_board("i16_power")
    sim.app = sim.table = sim.rt = None  # a power cut: nothing could be written as it went
    sim.boot()
    boot = [x for x in _recs(root) if x.kind == "boot"][-1]
    assert "power up after an unclean stop" in boot.text, boot.text
    applib.stop(sim.app, "stopped by SIGTERM", sim.hal.clock.ticks_ms)  # the service stopped
    eq(_recs(root)[-1].kind, "power")
    assert _recs(root)[-1].text.startswith("power down: stopped by SIGTERM")
    sim.app = sim.table = sim.rt = None
    sim.boot()
    boot = [x for x in _recs(root) if x.kind == "boot"][-1]
    assert "power up after a clean stop" in boot.text, boot.text
    kit.rm_tree(root)


def test_item4_a_firmware_change_is_recorded():
    root, sim = kit.seated_board("i16_fw")
    eq([x for x in _recs(root) if x.kind == "firmware"], [])
    with open(sim.slot + "/main.py", "w") as f:  # a new release, signed (counter 2) and deployed
        f.write("pass  # 1.1\n")
    entries = [[rel] + list(mf.file_hash(sim.slot + "/" + rel)) for rel in mf.walk(sim.slot)]
    with open(sim.slot + "/" + mf.NAME, "w") as f:
        f.write(mf.sign(kit.DEVICE, kit.RELEASE, "v2", 2, entries))
    sim.app = sim.table = sim.rt = None
    sim.boot()
    eq(sim.app.halted, None)
    fw = [x for x in _recs(root) if x.kind == "firmware"]
    eq(len(fw), 1)  # before the fix: nothing said the code had changed
    assert fw[0].text.startswith("firmware changed: signed, manifest "), fw[0].text
    sim.app = sim.table = sim.rt = None
    sim.boot()  # the same tree again: no new record
    eq(len([x for x in _recs(root) if x.kind == "firmware"]), 1)
    kit.rm_tree(root)


def test_item4_the_maintenance_switch_turned_while_the_table_runs_is_recorded():
    root, sim = kit.seated_board("i16_switch")
    sim.hal.pin(28).set(0)  # someone turns the key (GP28 to GND) while the table runs
    sim.run("wait 1000")
    recs = [x for x in _recs(root) if x.kind == "maintenance"]
    eq(len(recs), 1)  # before the fix: the switch was read once at boot, a later turn went unseen
    assert "turned to maintenance while the table runs" in recs[0].text, recs[0].text
    assert [a for a in sim.table.alerts if a.device == "maintenance"], sim.table.alerts
    eq(sim.app.mode, "production")  # the mode changes only at the next boot
    sim.hal.pin(28).set(1)
    sim.run("wait 1000")
    recs = [x for x in _recs(root) if x.kind == "maintenance"]
    eq(len(recs), 2)
    assert "turned to production" in recs[1].text, recs[1].text
    kit.rm_tree(root)
