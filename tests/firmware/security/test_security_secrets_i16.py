# Issue 16 item 5 (secrets at rest), attacked on the ASSEMBLED firmware -- felt.runtime.app.build on a
# provisioned board in production mode (kit.ProductionSim): whoever reads the data folder mid-hand
# (an SD card, a backup, a littlefs dump) finds no live hole-card tag UID in any file, and a power cut
# mid-hand still recovers the hand exactly (the sealed records open again); a sealed record that does
# not verify tilts the table. CPython and MicroPython.
import os

from check import eq

import kit
from felt.engine.cards import parse_card
from felt.recovery import journal as jr
from felt.sim.runner import card_uid


def _files(root):
    out = []
    for name in os.listdir(root):
        path = root + "/" + name
        try:
            os.listdir(path)
        except OSError:
            with open(path, "rb") as f:
                out.append((path, f.read()))
            continue
        out.extend(_files(path))
    return out


def _leaks(root, cards):
    """(file, card) for every hole card whose tag UID stands in a file: raw, or as hex in either case."""
    found = []
    for path, data in _files(root):
        low = data.lower()
        for c in cards:
            uid = card_uid(parse_card(c))
            hexu = "".join(["%02x" % b for b in uid]).encode()
            if uid in data or hexu in low:
                found.append((path, c))
    return found


def _state(sim):
    t = sim.table
    h = t.hand
    return (t.state, t.hand_no, list(t.stacks), h.pot_total(), h.actor, [list(x) for x in h.hole])


def test_item5_no_live_hole_card_uid_on_flash_mid_hand_and_a_cut_still_recovers_the_hand():
    root, sim = kit.seated_board("i16_rest")
    kit.play_app_hand(sim, kit.HOLE)  # pre-flop done: six hole cards live on the seat antennas
    # before the fix: the journal's CARD and ANTENNA records held every UID ({"$b": "04..."})
    eq(_leaks(root, kit.HOLE), [])
    before = _state(sim)
    sim.app = sim.table = sim.rt = None  # power cut mid-hand
    sim.boot()
    eq(sim.app.report.level, "info")
    eq(sim.table.tilted, None)
    eq(_state(sim), before)  # nothing lost: the sealed records opened and replayed
    eq(_leaks(root, kit.HOLE), [])
    kit.finish_app_hand(sim)  # the hand plays to its end after the cut ...
    ref_root, ref = kit.seated_board("i16_rest_ref")
    kit.play_app_hand(ref, kit.HOLE)
    kit.finish_app_hand(ref)
    eq(sim.table.stacks, ref.table.stacks)  # ... with the result of the same hand never cut
    eq(sim.table.results, ref.table.results)
    kit.rm_tree(root)
    kit.rm_tree(ref_root)


def test_item5_a_sealed_record_that_does_not_verify_tilts_the_table():
    root, sim = kit.seated_board("i16_sealbad")
    kit.play_app_hand(sim, kit.HOLE)
    folder = root + "/journal"
    name = sorted([n for n in os.listdir(folder) if n.startswith("j")])[-1]
    with open(folder + "/" + name, "rb") as f:
        data = bytearray(f.read())
    records, damage = jr.scan(bytes(data))
    eq(damage, None)
    card = [r for r in records if r.kind == jr.CARD][1]
    # flip a bit inside the sealed payload and fix the CRC: only the seal can tell
    data[card.offset + jr.HEADER + 12] ^= 0x04
    end = card.offset + jr.HEADER + len(card.payload)
    import binascii
    import struct
    crc = binascii.crc32(bytes(data[card.offset:end])) & 0xFFFFFFFF
    data[end:end + 4] = struct.pack("<I", crc)
    with open(folder + "/" + name, "wb") as f:
        f.write(bytes(data))
    sim.app = sim.table = sim.rt = None
    sim.boot()
    eq(sim.app.report.level, "error")
    t = sim.table
    assert t.tilted is not None and "journal does not verify" in t.tilted and "does not verify" in t.tilted, t.tilted
    eq(kit.decoded_wire(sim, "fold", [2]).opts.get("code"), "tilt")
    kit.rm_tree(root)
