# Issue 12 (items 6-8, branch i12b): attacks on the ASSEMBLED firmware -- felt.app.build on a
# provisioned board with a signed running tree, in production mode -- each the way an attacker
# would try it. Runs on CPython and MicroPython; the host side of each attack (feltctl) is in
# tests/host/test_security_i12b_cli.py, which uses the harness below.
import json
import os

from check import eq

import test_app as kit
from felt.security import audit as auditlib
from felt.security import bootcheck
from felt.security import keys as keylib
from felt.security import manifest as mf
from felt.security import secrecy

OWNER = b"\x42" * 32
DEVICE = "table1"
HOLE = ["Ah", "Kd", "Qs", "Qh", "Kc", "2s"]


def provisioned_root(tag, keys_text=None):
    """A data root with /felt.keys (the given key file text, or a fixed test key set) and a code
    slot holding one file signed by the owner key. Returns (root, slot)."""
    root = kit._tmp(tag)
    os.mkdir(root)
    with open(root + "/felt.keys", "w") as f:
        f.write(keys_text or keylib.encode(keylib.Keys(DEVICE, OWNER, {"alice": b"\x21" * 32}, b"\x33" * 32)))
    slot = root + "/slot"
    os.mkdir(slot)
    with open(slot + "/main.py", "w") as f:
        f.write("pass\n")
    owner = keylib.load(root + "/felt.keys").owner
    entries = [[rel] + list(mf.file_hash(slot + "/" + rel)) for rel in mf.walk(slot)]
    with open(slot + "/" + mf.NAME, "w") as f:
        f.write(mf.sign(keylib.load(root + "/felt.keys").device, owner, "v1", 1, entries))
    return root, slot


class ProductionSim(kit.AppSim):
    """AppSim on a provisioned board, production mode (no maintenance switch), booted from the
    signed slot. feed(): the public and broadcast records the board sent (its FEED lines)."""

    def __init__(self, root, slot):
        kit.AppSim.__init__(self, root, pressed=False)
        self.slot = slot

    def boot(self):
        kit._in_slot(self.slot, lambda: kit.AppSim.boot(self))

    def run(self, text):
        out = kit.AppSim.run(self, text)
        # issue 12 item 5 (fixed by issue 13's explicit hooks): the feed's observer was dropped
        # after the boot antenna check; run it here so this test sees the feed whatever the loop
        # does (observe() is idempotent: a record is published once)
        if self.app is not None and self.app.feed is not None:
            self.app.feed.observe(self.table, self.hal.clock.ticks_ms())
        return out

    def feed(self):
        return [json.loads(ln[5:]) for ln in self.logged if ln.startswith("FEED ")]


def play_one_hand(sim, delay_ms=1000):
    """A whole hold'em hand to showdown, then past its release (hand end + delay)."""
    sim.run(kit.HEAD)
    eq(sim.app.mode, bootcheck.PRODUCTION)
    eq(sim.app.halted, None)
    sim.app.feed.delay_ms = delay_ms
    for s in (1, 2, 3):
        sim.run("seat %d 1000" % s)
    kit._play_hand(sim, HOLE)
    kit._finish_hand(sim)
    sim.run("wait %d" % (delay_ms + 1000))
    return sim.feed()


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
    kit._rm(root)


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
