# The RAM-saving shapes of the firmware's long-lived records (hardware/memory.md, whole firmware):
# the event queue as a ring that keeps no taken event, reader chips sharing their transfer
# buffers, the console's verb schema read from one string, simulated tags holding only what differs.
from check import MICROPYTHON, Skip, eq

from felt.drivers.mfrc522 import MFRC522
from felt.runtime.queue import EventQueue
from felt.hal.sim.hal import SimHAL
from felt.hal.sim.mfrc522 import SimMFRC522, SimTag
from felt.proto import console as proto


def test_event_queue_keeps_order_across_the_ring_end_and_drops_when_full():
    q = EventQueue(4)
    for i in range(3):
        q.put(i)
    eq([q.get(), q.get()], [0, 1])
    for i in range(3, 7):  # 2 left + 3 fit, the 4th put is dropped
        q.put(i)
    eq((len(q), q.dropped), (4, 1))
    eq([q.get() for _ in range(5)], [2, 3, 4, 5, None])


def test_a_drained_event_queue_holds_no_event():
    q = EventQueue(8)
    events = [("card-arrived", "seat%d" % i, "04FE17") for i in range(6)]
    q.extend(events)
    while q.get() is not None:
        pass
    eq(q._items, [None] * 8)  # nothing taken is kept alive (a mid-hand burst was kilobytes)
    eq(len(q), 0)


def test_two_reader_chips_on_one_bus_read_their_own_cards_in_turn():
    # the chips share the driver's transfer and answer buffers: one exchange at a time
    hal = SimHAL()
    bus = hal.spi(0)
    chips = [bus.attach(cs, SimMFRC522(hal.clock)) for cs in (17, 18)]
    readers = [MFRC522(bus.device(cs), name="r%d" % cs) for cs in (17, 18)]
    uids = [bytes([0x04, 0xFE, 0x17, 0x41, 0, 0, n]) for n in (5, 9)]
    for k in range(2):
        readers[k].init()
        chips[k].place(SimTag(uids[k]))
    for _round in range(2):
        for k in (1, 0):
            readers[k].field(True)
            hal.clock.advance_ms(6)
            got = readers[k].inventory()
            readers[k].field(False)
            eq(got.uids, [uids[k]])


def test_console_verb_schema_rows():
    v = proto.verb("push")
    eq((v.sender, v.args, v.optional, v.opt_order, v.text),
       (proto.CONSOLE, ("seat", "chips"), (), ("declared", "said", "prior", "pulled"), "no"))
    eq(v.opts["said"], "amount")
    s = proto.verb("state")
    eq((s.sender, s.open_opts), (proto.TABLE, True))
    eq(proto.verb("floor").text, "optional")
    for bad in ("", "hel", "hello ", "ok\n", "nosuch"):
        eq(proto.verb(bad), None)
    names = proto.verb_names()
    eq((len(names), names[0], names[-1]), (36, "hello", "pub"))  # 1.3: puback, pub (issue 15); 1.4: bj (issue 17)


def test_console_line_round_trip_through_the_schema():
    m = proto.push(7, 3, [100, 100, 25], declared="raise", said=250)
    line = proto.encode(m)
    eq(line, b'FELT1 7 push 3 100x2,25 declared=raise said=250 *' + line[-6:])
    eq(proto.decode_line(line[:-2], proto.CONSOLE), m)


def test_simulated_tag_defaults_and_faults():
    t = SimTag(bytes([0x04, 1, 2, 3, 4, 5, 6]))
    eq((t.levels, t.atqa, t.sak, t.power_up_us, t.bad_crc), (2, b"\x44\x00", 0x00, 2000, 0))
    eq(SimTag(bytes(4)).atqa, b"\x04\x00")
    eq(SimTag(bytes(10)).atqa, b"\x84\x00")
    t.bad_crc = 2  # a fault set on one tag stays on that tag
    eq((t.bad_crc, SimTag(bytes(4)).bad_crc), (2, 0))
    eq(SimTag(bytes(4), power_up_us=500).power_up_us, 500)


def test_heap_policy_collects_every_few_kilobytes_on_micropython():
    import gc

    from felt.runtime import heap
    from check import MICROPYTHON

    set_ = heap.collect_early(4096)
    try:
        eq(set_, MICROPYTHON)
        if MICROPYTHON:
            eq(gc.threshold(), 4096)
    finally:
        if MICROPYTHON:
            gc.threshold(-1)  # back to collections on failure only, for the tests that follow


def test_default_light_layout_is_worked_out_not_stored():
    from felt.drivers.neopixel_lights import ROLES, SeatLights, default_layout

    hal = SimHAL()
    chain = hal.neopixel(16, 50)
    lights = SeatLights(chain, 10)
    eq(lights.layout, None)
    explicit = SeatLights(hal.neopixel(17, 50), 10, layout=default_layout(10))
    for seat in range(1, 11):
        for role in ROLES:
            want = {role: [seat]} if role == "all_in" else {role: seat}
            eq(lights.frame(want), explicit.frame(want))


def _reader_with_cards(uids):
    hal = SimHAL()
    bus = hal.spi(0)
    chip = bus.attach(17, SimMFRC522(hal.clock))
    reader = MFRC522(bus.device(17), name="seat1")
    reader.init()
    for u in uids:
        chip.place(SimTag(u))
    reader.field(True)
    hal.clock.advance_ms(6)
    got = reader.inventory(len(uids))
    reader.field(False)
    return reader, got


# a ten-seat Omaha hand has ~45 cards on the antennas, a pile up to 60 (hardware/memory.md, "The firmware's own live RAM")
CARD_UIDS = [bytes([0x04, 0xFE, 0x17, 0x41, 0, k, 7 * k]) for k in range(8)]  # 7-byte UIDs: 2 cascade levels


def test_a_reader_keeps_the_select_frames_of_all_its_cards_in_one_bytes_object():
    reader, got = _reader_with_cards(CARD_UIDS)
    eq(sorted(got.uids), sorted(CARD_UIDS))
    # 13 bytes a cascade level (the SELECT as sent + the SAK and its CRC_A), no object a card
    eq((type(reader._frames), len(reader._frames)), (bytes, 8 * 2 * 13))
    eq(reader._same.uids, got.uids)


def test_a_known_card_costs_the_reader_under_40_bytes_on_micropython():
    # Measured on the unix port (64-bit, 2026-12-02): 8 cards held cost the reader 256 B beside the
    # UIDs the result hands out (32 B a card: 13 bytes a cascade level and the object's share); as a
    # list of (uid, frames bytes) pairs they were 832 B (104 B a card).
    if not MICROPYTHON:
        raise Skip("gc.mem_alloc() measures MicroPython's heap")
    import sys
    if sys.platform == "webassembly":
        raise Skip("the WebAssembly port collects only between calls from JS, never inside a test")
    import gc
    reader, got = _reader_with_cards(CARD_UIDS)
    uids = list(got.uids)  # the UIDs stay alive either way: only what the reader adds is counted
    got = None
    gc.collect()
    held = gc.mem_alloc()
    reader.forget()
    gc.collect()
    per_card = (held - gc.mem_alloc()) // len(CARD_UIDS)
    assert per_card < 40, "a known card costs the reader %d bytes" % per_card
    eq(len(uids), 8)


def test_a_reader_instance_holds_its_chip_and_cards_only_not_the_last_exchange():
    # rx, its length, the collision position and the inventory's first miss are the class's,
    # shared by the 13 readers like the buffers (one exchange at a time): 32 B a reader less on
    # a 32-bit word (hardware/memory.md, "The firmware's own live RAM")
    reader, got = _reader_with_cards(CARD_UIDS[:3])  # three cards: collisions resolved
    eq(len(got.uids), 3)
    assert got.collisions, "no collision: coll_pos never written"
    eq(sorted(reader.__dict__), ["_frames", "_same", "device", "name", "version"])
