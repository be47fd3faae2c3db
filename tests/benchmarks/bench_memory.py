# Benchmark (not a test): the RAM of the whole firmware on the emulated board (hardware/memory.md):
# the firmware's ROMFS image in 'flash' (feltctl.board.romfs), RAM = gc.mem_alloc() minus the image block.
#  1. the 128 KB board: N ten-seat limit Omaha hi-lo hands played through the simulated hardware
#     with -X heapsize = 128K + the image; the live RAM after each hand (gc.collect), its high-water
#     mark, and whether the run ends without a MemoryError. Peer figure: the board's 128 KB; ratio.
#  2. where it goes (a large heap, same image): per-module RAM of importing the firmware from the
#     image (an __import__ hook takes gc.mem_alloc() around every import and charges each module
#     its own bytes: its inclusive cost minus the modules it pulled in), then what each part of the
#     run-time state holds at the end (its attributes dropped one by one, deepest first, gc.collect,
#     the freed bytes counted).
#  3. the rules engine alone (felt.engine.hand.machine + evaluate + games + settings) imported from the image,
#     and the same after one ten-seat Omaha hi-lo hand played on it to the showdown (what the engine
#     loads on first use counted), against issue 2's 40 KB target.
#  0. (first) the side-by-side table of hardware/memory.md: the same driver and image on the 64-bit unix
#     port and the 32-bit WebAssembly port (feltctl.wasm_micropython, issue 19): engine after import and
#     after a hand, the whole firmware after import and with the table built, live RAM after each of N
#     hands in a large heap, and with --find-ram HANDS the smallest heap (bisected) that plays HANDS hands.
#  two VMs (--two-vm HANDS [--find-ram N] [--two-vm-peer-heap]): the board's heap with the simulated world in
#     a VM of its own (feltctl.wasm_micropython.run_two_vm; hardware/memory.md "Fourth round"), beside the
#     one-heap figures of the same run, and the smallest fixed board heap for N hands.
#  the app boot (--two-vm-app HANDS [--find-ram N]): the two-VM board booted as firmware/main.py boots it
#     (felt.runtime.app.run), beside the bare table (hardware/memory.md, "A board as it boots").
# usage: python tests/benchmarks/bench_memory.py [--ports unix,wasm] [--step-alloc N] [--table-only] [--table-hands N] [--hands N] [--ram KB] [--breakdown-hands N] [--top N] [--find-ram HANDS] [--peak-hands N]
#        python tests/benchmarks/bench_memory.py --engine-only   (part 3 alone)
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "host_tools"))

from feltctl.board import romfs  # noqa: E402

DRIVER = r'''
import builtins, gc, sys
COSTS = {}  # module -> own bytes
_stack = [0]  # bytes charged to the imports nested in the current one
_orig = builtins.__import__

def _hook(name, *args):
    before = set(sys.modules)
    gc.collect()
    m0 = gc.mem_alloc()
    _stack.append(0)
    try:
        return _orig(name, *args)
    finally:
        nested = _stack.pop()
        new = [k for k in sys.modules if k not in before and k not in COSTS]
        if new:
            gc.collect()
            total = gc.mem_alloc() - m0
            new.sort(key=lambda k: -len(k))  # the deepest name owns the bytes, its packages get 0
            COSTS[new[0]] = total - nested
            for k in new[1:]:
                COSTS[k] = 0
            _stack[-1] += total

def play_hand(Hand):
    """One ten-seat fixed-limit Omaha hi-lo hand on the engine alone, everyone checking or calling
    to the showdown, every contender showing."""
    h = Hand("FO/8", [100000] * 10, blinds=[10, 20], small_bet=20, big_bet=40)
    d = [(i * 19) % 52 for i in range(52)]  # a fixed deal (19 is prime to 52); no shuffler to import
    k = 0
    for _i in range(400):
        if h.finished:
            if h.phase != "done" or not h.reasons:
                raise SystemExit("BROKEN hand: %r" % (h.reasons,))
            return
        if h.actor is not None:
            h.check_call(h.actor)
        elif h.phase == "showdown":
            h.show(h.show_order()[0])
        elif h.pending_board:
            if not h.burned and h.game.streets[h.street].burn:
                h.burn(d[k])
                k += 1
            n = h.pending_board
            h.deal_board(d[k:k + n])
            k += n
        else:
            for p in range(h.n):
                if h.pending_hole[p]:
                    h.deal_hole(p, d[k])
                    k += 1
    raise SystemExit("BROKEN hand: not finished")

def drop(obj, attr):
    """Bytes `obj.attr` held that nothing dropped before it shares (destructive: run at the end)."""
    gc.collect()
    a = gc.mem_alloc()
    setattr(obj, attr, None)
    gc.collect()
    return a - gc.mem_alloc()

def parts(label, obj, out, depth):
    """Drops obj's attributes one by one, the parts of big objects first (depth levels)."""
    try:
        names = sorted(obj.__dict__)
    except AttributeError:
        return
    for n in names:
        v = getattr(obj, n)
        if v is None or isinstance(v, (int, bool, str)) or type(v) is type(drop):
            continue
        if depth and hasattr(v, "__dict__") and not isinstance(v, type):
            parts(label + "." + n, v, out, depth - 1)
        elif depth and isinstance(v, list):  # a list of records: their parts summed under name[]
            for x in v:
                if hasattr(x, "__dict__"):
                    parts(label + "." + n + "[]", x, out, depth - 1)
            x = None
        elif depth and isinstance(v, dict):  # a dict of records (e.g. sim chips by location): name{}
            for k in list(v):
                x = v.get(k)
                if hasattr(x, "__dict__") and not isinstance(x, type):
                    parts(label + "." + n + "{}", x, out, depth - 1)
            x = None
        v = None
        b = drop(obj, n)
        if b:
            out.append((b, label + "." + n))

def _stepped(steps, hand, mode, image, live):
    """Runs the main-loop steps of `steps` (a generator that yields after each), yielding after
    each. mode "steps": live[0] = the highest live heap between steps (collected at the yield on
    wasm); "alloc": prints each step's live heap before it and the heap in use at its end (on the
    WebAssembly port nothing is collected inside a step: the difference is all it allocated)."""
    n = 0
    while True:
        if mode in ("steps", "alloc"):
            gc.collect()
            yield
        m0 = gc.mem_alloc()
        if m0 > live[0] and mode == "steps":
            live[0] = m0
        try:
            next(steps)
        except StopIteration:
            return
        n += 1
        if mode == "alloc":
            print("STEPALLOC %d %d %d %d" % (hand, n, m0 - image, gc.mem_alloc() - image))
        elif mode != "steps":
            yield  # one main-loop step

def main(argv):
    """A generator: each `yield` is a point where the WebAssembly port collects (it cannot collect
    inside a call; feltctl/wasm_micropython/launcher.mjs); on the unix port they cost nothing."""
    hands = int(argv[0])
    breakdown = argv[1] == "breakdown"
    image = int(argv[2])  # heap bytes of the ROMFS image block (feltctl.board.romfs.image_heap_cost; 0 on wasm)
    if argv[1] == "engine":  # the rules engine alone: what a hand of any game imports
        import micropython
        gc.collect()
        yield
        e0 = gc.mem_alloc()
        import felt.engine.hand.machine, felt.engine.rank.evaluate, felt.engine.games, felt.engine.house.rules  # noqa
        gc.collect()
        yield
        print("ENGINE %d" % (gc.mem_alloc() - e0))
        micropython.qstr_info()
        # the honest second figure: what is loaded lazily (showdown, pots, ...) is counted once a
        # ten-seat Omaha hi-lo hand has been played to the showdown (the finished hand dropped)
        play_hand(felt.engine.hand.machine.Hand)
        gc.collect()
        yield
        print("ENGINE_HAND %d" % (gc.mem_alloc() - e0))
        micropython.qstr_info()
        print("DONE")
        return
    if breakdown:
        builtins.__import__ = _hook
    gc.collect()
    yield
    m0 = gc.mem_alloc()
    print("RAM0 %d" % (m0 - image))
    from felt.sim.runner import Sim
    from felt.sim import autoplay
    # what loop.build() imports lazily, so that FIRMWARE is every module a table runs on
    import felt.runtime.board, felt.drivers.antennas, felt.drivers.buttons, felt.drivers.console_link  # noqa: F401,E401
    import felt.drivers.display, felt.drivers.mfrc522, felt.drivers.neopixel_lights  # noqa: F401,E401
    if argv[1] != "nogc":
        from felt.runtime import heap
        heap.collect_early()  # the device's boot policy (felt.runtime.app.run): a collection every few KB
    gc.collect()
    yield
    print("FIRMWARE %d" % (gc.mem_alloc() - image))
    sim = Sim()
    yield
    # the table is built stepped too (hand 0 in the step lists): run whole, one statement's settle
    # steps were one call on the WebAssembly port, and a seat statement's garbage (never collected
    # inside a call there) outgrew a heap that plays the hands
    setup = [0]
    yield from _stepped(sim.run_steps("table omaha8 limit seats=10 sb=10 bb=20 small_bet=20 big_bet=40 button=1"),
                        0, argv[1], image, setup)
    for s in range(1, 11):
        yield from _stepped(sim.run_steps("seat %d 1000000" % s), 0, argv[1], image, setup)
    builtins.__import__ = _orig
    gc.collect()
    yield
    code = 0
    for k in COSTS:
        code += COSTS[k]
    rows = sorted([(COSTS[k], k) for k in COSTS], key=lambda r: (-r[0], r[1]))
    for b, k in rows:
        print("MOD %s %d" % (k, b))
    print("START %d" % (gc.mem_alloc() - image))
    if argv[1] == "peak":  # the live heap between main-loop steps (gc.collect after each)
        PEAK = [0, 0, 0]  # bytes, hand, step

        def _step(_orig_step=sim.rt.step):
            _orig_step()
            PEAK[2] += 1
            gc.collect()
            m = gc.mem_alloc()
            if m > PEAK[0]:
                PEAK[0] = m
                PEAK[1] = HAND[0]

        sim.rt.step = _step  # the instance attribute wins over the method: every settle step goes through it
    HAND = [0]
    rng = autoplay.Lcg(7)
    t = sim.table
    for i in range(hands):
        HAND[0] = i + 1
        live = [0]
        # the hand, then the clear that ends it, one main-loop step at a time: a board collects
        # while a step runs, the WebAssembly port only between steps (run whole, the clear's settle
        # steps made ~110 KB of garbage in one step there, which no board ever holds at once)
        yield from _stepped(autoplay.calling_hand(sim, autoplay.shuffled(rng)), i + 1, argv[1], image, live)
        if t.state != "over" or t.alerts:
            raise SystemExit("BROKEN %s %r" % (t.state, t.alerts[:2]))
        yield from _stepped(sim.run_steps("clear"), i + 1, argv[1], image, live)
        if live[0]:
            print("STEPLIVE %d %d" % (i + 1, live[0] - image))
        gc.collect()
        yield
        print("HAND %d %d" % (i + 1, gc.mem_alloc() - image))
        if argv[1] == "peak":
            print("PEAK %d %d %d" % (i + 1, PEAK[0] - image, PEAK[2]))
            PEAK[0] = PEAK[2] = 0
    if breakdown:
        end = []
        parts("sim", sim, end, 5)
        sums = {}
        for b, k in end:
            sums[k] = sums.get(k, 0) + b
        end = sorted([(sums[k], k) for k in sums], key=lambda r: (-r[0], r[1]))
        for b, k in end:
            print("PART %s %d" % (k, b))
        import micropython
        micropython.qstr_info()  # "qstr pool: ... n_total_bytes=N": interned names, all in RAM
    print("DONE")
'''

# issue 17: the blackjack rows' driver -- the driver above unchanged (its own RAM figures must not move:
# tests/host/test_wasm_budget.py), plus a blackjack table and its poker peer booted by felt.runtime.app.run
BJ_DRIVER = DRIVER + r'''
def poker_app(image, root):
    """The blackjack rows' peer: a seven-seat hold'em table booted by felt.runtime.app.run on the
    same simulated board (unprovisioned, journal files), after import and with the table built."""
    gc.collect()
    yield
    print("RAM0 %d" % (gc.mem_alloc() - image))
    from felt.runtime import heap
    heap.collect_early()
    import felt.runtime.app, felt.runtime.loop, felt.table.controller, felt.view  # noqa
    import felt.drivers.antennas, felt.drivers.buttons, felt.drivers.console_link  # noqa
    import felt.drivers.display, felt.drivers.mfrc522, felt.drivers.neopixel_lights  # noqa
    gc.collect()
    yield
    print("PA_FIRMWARE %d" % (gc.mem_alloc() - image))
    from felt.hal.sim.hal import SimHAL
    from felt.sim.board_map import sim_board
    a = felt.runtime.app.run(SimHAL(), sim_board(7), root, log=lambda line: None, steps=30)
    gc.collect()
    yield
    print("PA_START %d" % (gc.mem_alloc() - image))
    a = None

def blackjack(rounds, image, root):
    """Issue 17: the blackjack engine alone (after import, after a round), then the assembled
    blackjack firmware on the simulated board (felt.sim.blackjack_board: felt.runtime.app.run with a
    blackjack table.json, real drivers, journal files): after import, with the table built, and the
    live RAM after each seven-box round (one bench statement between collections)."""
    gc.collect()
    yield
    e0 = gc.mem_alloc()
    from felt.engine.blackjack.round import Round
    from felt.engine.blackjack.rules import BlackjackRules
    import felt.engine.blackjack.shoe  # noqa: F401
    gc.collect()
    yield
    print("BJ_ENGINE %d" % (gc.mem_alloc() - e0))
    r = Round(BlackjackRules({}))
    for b in range(1, 8):
        r.bet(b, 10)
    r.close_bets()
    d = [(i * 19) % 52 for i in range(52)] * 2
    k = 0
    while r.phase != "done":
        kind, who = r.expect()
        if kind == "card":
            r.deal(d[k], who)
            k += 1
        elif kind == "insurance":
            r.close_insurance()
        else:
            r.decide(who, "hit" if r.acting().total()[0] < 17 else "stand")
    r = None
    gc.collect()
    yield
    print("BJ_ENGINE_ROUND %d" % (gc.mem_alloc() - e0))
    m0 = gc.mem_alloc()
    print("RAM0 %d" % (m0 - image))
    from felt.runtime import heap
    heap.collect_early()  # the device's boot policy (felt.runtime.app.run)
    # what app.run imports for a blackjack table, so that BJ_FIRMWARE is every module it runs on
    import felt.runtime.app, felt.runtime.blackjack, felt.table.blackjack, felt.table.blackjack_view  # noqa
    import felt.history.blackjack, felt.drivers.antennas, felt.drivers.buttons, felt.drivers.console_link  # noqa
    import felt.drivers.display, felt.drivers.mfrc522, felt.drivers.neopixel_lights  # noqa
    gc.collect()
    yield
    print("BJ_FIRMWARE %d" % (gc.mem_alloc() - image))
    print("POKER_LOADED %d" % len([m for m in sys.modules if m in ("felt.table.controller", "felt.view")]))
    from felt.sim.blackjack_board import BlackjackBoard  # the harness (simulated devices, statements)
    from felt.sim.blackjack import Lcg, choose
    from felt.engine.cards import card_text
    b = BlackjackBoard(root)  # a folder of this run: a fresh board, no journal to recover
    b.run("table blackjack decks=6 bj.surrender=late")
    gc.collect()
    yield
    print("BJ_START %d" % (gc.mem_alloc() - image))
    # what a board holds (issue 17): the sim devices' inspection logs -- each MFRC522 model's last 64
    # frames (10 chips: ~71 KB on 64-bit after a round), each output pin's last 64 changes -- dropped and
    # kept off; the SSD1306 and PN532 models' command logs and the UARTs' sent bytes (no bound) emptied
    # each round
    for bus in b.hal._spi.values():
        for m in bus.models.values():
            if hasattr(m, "frame_log"):
                m.frame_log = 0
                m.frames = []
    b.hal.pin_history = 0
    for pin in b.hal._pins.values():
        pin.history = []
    gc.collect()
    yield
    print("BJ_BOARD %d" % (gc.mem_alloc() - image))
    rng = Lcg(3)
    t = b.app.table
    cards = []
    for i in range(rounds):
        if t.shoe is None or t.shoe.left() < 80:
            b.run("shoe")
            cards = [c for _d in range(6) for c in range(52)]
            for j in range(len(cards) - 1, 0, -1):
                x = rng.below(j + 1)
                cards[j], cards[x] = cards[x], cards[j]
            yield
        b.run("round")
        for box in range(1, 8):
            b.run("bet %d %d" % (box, (5, 10, 25)[rng.below(3)]))
            yield
        b.run("close")
        r = t.round
        while r.phase != "done":
            kind, who = r.expect()
            if kind == "card":
                b.run("draw %s to %s" % (card_text(cards.pop()), "dealer" if who == 0 else "box %d" % who))
            elif kind == "insurance":
                b.run("bj noinsure %d" % who[0])
            else:  # console entries: a seat button's 1.7 s long press is 340 simulated loop steps
                b.run("bj %s %d" % (choose(r.acting(), r.dealer[0], r.legal(who)), who))
            yield
        if [a for a in t.alerts if a[0] == "error"]:
            raise SystemExit("BROKEN round %d: %r" % (i + 1, t.alerts[-2:]))
        b.run("clear")  # the dealer gathers the cards
        panel = b.hal.i2c_bus(b.board.i2c["bus"]).models[b.board.i2c.get("display", 0x3C)]
        del panel.commands[:]  # the simulated SSD1306 logs every command byte it gets: no board holds that
        for port in b.hal._uarts.values():  # each simulated UART keeps every byte the firmware sent it
            port.sent = bytearray()
        del b.alerts[:]  # the harness's copy of every alert (the bench's, not the board's)
        del b.reader.commands[:]  # the simulated PN532 keeps every command code it was sent
        print("BJ_HEX %d %d" % (i + 1, len(sys.modules["felt.drivers.antennas"]._HEX)))
        r = None
        gc.collect()
        yield
        print("BJ_ROUND %d %d" % (i + 1, gc.mem_alloc() - image))


_poker_main = main


def main(argv):
    if argv[1] == "blackjack":  # issue 17: the blackjack table, loaded only when configured for it
        yield from blackjack(int(argv[0]), int(argv[2]), argv[3])
    elif argv[1] == "pokerapp":  # its peer: a poker table assembled the same way (felt.runtime.app.run)
        yield from poker_app(int(argv[2]), argv[3])
    else:
        yield from _poker_main(argv)
        return
    print("DONE")
'''

# issue 19 item 3, the faithful measurement (hardware/memory.md, "Fourth round"): the world VM of
# feltctl.wasm_micropython.run_two_vm -- the simulated devices, the statements and the seeded hands
# (felt.sim.runner.Sim on a felt.sim.remote.RemoteBoard) -- drives the board VM, whose fixed heap
# holds only the firmware on felt.hal.machine_hal (board_side.py). A generator: the world collects
# between its steps (one board main-loop step each); the board collects after each of its steps.
# Prints the board's heap (launcher.mjs `board.heap()`: in use after a collection, the highest live
# heap after a board step) after its harness's import, with the table built, and after each hand.
TWO_VM_DRIVER = r'''
import gc
import board as bridge

def _heap(tag, *more):
    # TAG N|- in-use-now live-high-water board-steps peak-in-use-at-a-step's-end its-step
    h = bridge.heap()
    print("%s %s %d %d %d %d %d" % (tag, " ".join(["%d" % x for x in more]) or "-", h[0], h[2], h[4],
                                    bridge.call(16, 0, 0), bridge.call(16, 1, 0)))

def main(argv):
    hands = int(argv[0])
    words = argv[1:]
    from felt.sim.runner import Sim
    from felt.sim.remote import RemoteBoard
    from felt.sim import autoplay
    gc.collect()
    yield
    _heap("B_IMPORT")  # the board: its harness (board_side, board_wire's names) and the launcher's
    # "app": the board boots as firmware/main.py does (felt.runtime.app.run), from the files
    # run_two_vm put into its file system; "delay=MS": then its secrecy feed's delay
    rb = RemoteBoard(bridge, boot="app" if "app" in words else "bare")
    if "phases" in words:  # the board's heap after each phase of its build (board_side._building)
        rb.phase_hook = lambda k: _heap("B_PHASE", k)
    rb.imported_hook = lambda: _heap("B_FIRMWARE")
    for w in words:
        if w.startswith("mods="):  # a measurement: these modules first, one board entry each, in this order
            for name in w[5:].split(","):
                rb.put(19, 0, name.encode())
                print("B_MOD %s %d" % (name, bridge.heap()[0]))
    sim = Sim(board=rb)
    for _s in sim.run_steps("table omaha8 limit seats=10 sb=10 bb=20 small_bet=20 big_bet=40 button=1"):
        yield
    _heap("B_BUILT")
    for w in words:
        if w.startswith("delay="):
            rb.set_feed_delay(int(w[6:]))
    for s in range(1, 11):
        for _s in sim.run_steps("seat %d 1000000" % s):
            yield
    _heap("B_SEATED")
    bridge.reset_high()
    rng = autoplay.Lcg(7)
    t = sim.table
    for i in range(hands):
        for _s in autoplay.calling_hand(sim, autoplay.shuffled(rng)):
            yield
        if t.state != "over" or t.alerts:
            raise SystemExit("BROKEN %s %r" % (t.state, t.alerts[:2]))
        for _s in sim.run_steps("clear"):
            yield
        _heap("B_HAND", i + 1)
    if "phases" in words:
        bridge.call(17, 0, 0)  # the board's qstr pool
    if "modules" in words:
        bridge.call(21, 0, 0)  # the board's modules
    for w in words:
        if w.startswith("parts="):  # a measurement: what each part held, dropped in this order
            print("B_PART - %d" % bridge.heap()[0])
            for path in w[6:].split(","):
                if rb.put(20, 0, path.encode()) < 0:
                    raise SystemExit("no part " + path)
                print("B_PART %s %d" % (path, bridge.heap()[0]))
    if "state" in words:  # the table at the end, to compare with the same hands on one heap
        import json
        snap = sim.snapshot()
        print("STATE " + json.dumps(snap))
    print("DONE")
'''

PORTS = ("unix", "wasm")
PORT_NAMES = {"unix": "unix port (64-bit)", "wasm": "WebAssembly port (32-bit)"}
WASM_BUDGET = 160 * 1024  # issue 19: what a Pico W leaves free


def run_board(hands, mode, heapsize=None, ram=romfs.DEVICE_RAM, port="unix", source=None):
    """Runs the driver on the emulated board (`ram` bytes of RAM beside the image; heapsize: a
    whole heap of that size instead); returns (parsed output, CompletedProcess).
    port "wasm": the 32-bit WebAssembly port (feltctl.wasm_micropython), the image in its ROM
    partition and a fixed GC heap of `ram` (or heapsize) bytes; it collects between the driver's steps.
    source: the driver's text (default DRIVER; BJ_DRIVER for the blackjack rows)."""
    folder = tempfile.mkdtemp(prefix="bench_memory_")
    driver = os.path.join(folder, "bench_memory_driver.py")  # a fixed name: the image cache key
    with open(driver, "w") as f:
        f.write(source or DRIVER)
    try:
        if port == "wasm":
            from feltctl import wasm_micropython

            # a blackjack board's data folder: the port's own in-memory file system, fresh each run
            data = ["/tmp/felt_bench_data"] if source is not None else []
            p = wasm_micropython.run_board("bench_memory_driver", [str(hands), mode, "0"] + data, ram=heapsize or ram,
                                           extra=[driver], timeout_s=7200)
        else:
            image = romfs.build_image([driver])
            cost = romfs.image_heap_cost(os.path.getsize(image))
            # a blackjack board's data folder, removed with the run's folder (the poker driver takes none)
            data = [os.path.join(folder, "data")] if source is not None else []
            p = subprocess.run(romfs.command("bench_memory_driver", [str(hands), mode, str(cost)] + data, ram=ram,
                                             extra=[driver], heapsize=heapsize), capture_output=True, text=True,
                               timeout=7200, cwd=HERE)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    out = {"mods": [], "hands": [], "parts": [], "done": False}
    for line in p.stdout.splitlines():
        w = line.split()
        if not w:
            continue
        if w[0] == "MOD":
            out["mods"].append((w[1], int(w[2])))
        elif w[0] in ("RAM0", "START", "FIRMWARE"):
            out[w[0]] = int(w[1])
        elif w[0] == "HAND":
            out["hands"].append(int(w[2]))
        elif w[0] == "STEPLIVE":
            out.setdefault("steplive", []).append(int(w[2]))
        elif w[0] == "STEPALLOC":
            out.setdefault("alloc", []).append(tuple(int(x) for x in w[1:5]))
        elif w[0] == "PEAK":
            out.setdefault("peaks", []).append((int(w[2]), int(w[3])))
        elif w[0] == "PART":
            out["parts"].append((w[1], int(w[2])))
        elif w[0] == "ENGINE":
            out["engine"] = int(w[1])
        elif w[0] == "ENGINE_HAND":
            out["engine_hand"] = int(w[1])
        elif line.startswith("qstr pool:"):
            kv = dict(x.strip(" ,").split("=") for x in w[2:])
            out["qstr" if "engine_hand" not in out else "qstr_hand"] = (int(kv["n_qstr"]), int(kv["n_total_bytes"]))
        elif w[0] in ("BJ_ENGINE", "BJ_ENGINE_ROUND", "BJ_FIRMWARE", "BJ_START", "BJ_BOARD", "PA_FIRMWARE",
                      "PA_START", "POKER_LOADED"):
            out[w[0]] = int(w[1])
        elif w[0] == "BJ_ROUND":
            out.setdefault("rounds", []).append(int(w[2]))
        elif w[0] == "DONE":
            out["done"] = True
    return out, p


# The app boot's board (run_two_vm(boot="app")): a provisioned board, as `feltctl provision` and a
# signed `feltctl flash` leave it, with the test key set of tests/firmware/kit.py (kit.test_keys:
# fixed seeds, a simulated board's, no secret; the release key's seed, kit.RELEASE, is the host's and
# never goes to the board)
APP_DEVICE = "table1"
APP_TABLE = {"game": "omaha8", "structure": "limit", "seats": 10, "sb": 10, "bb": 20, "small_bet": 20,
             "big_bet": 40, "button": 1}  # TWO_VM_DRIVER's `table` statement, as the board's table.json


def app_board_files(folder, provisioned=True):
    """The app-booted board's own file system, written under `folder` (its "/"): /board.json (the
    Pico's map, hardware/boards/pico.json: the journal in a ring on raw flash, board_app.Flash),
    /table.json (APP_TABLE), /decks.json (the simulated decks, felt.sim.board_map.registry), and if
    `provisioned` /felt.keys, the slot /felt_a the board runs from (firmware/main.py, the release-
    signed felt.manifest listing it and the three configuration files, the deploy's marker) and
    the pointer /felt.slot. Returns the slot's path on the board (its working folder)."""
    import json

    firmware = os.path.join(HERE, "..", "..", "firmware")
    if firmware not in sys.path:
        sys.path.insert(0, firmware)
    tests = os.path.join(HERE, "..", "firmware")
    if tests not in sys.path:
        sys.path.insert(0, tests)
    import kit
    from felt.security import keys as keylib, manifest as mf
    from felt.sim.board_map import DECKS, card_uid

    with open(os.path.join(firmware, "..", "hardware", "boards", "pico.json")) as f:
        board = json.load(f)
    decks = dict([(d, dict([(card_uid(c, d).hex(), c) for c in range(52)])) for d in DECKS])
    configs = []
    for name, data in (("board.json", board), ("table.json", APP_TABLE), ("decks.json", decks)):
        path = os.path.join(folder, name)
        with open(path, "w") as f:
            json.dump(data, f)
        configs.append([name] + list(mf.file_hash(path)))
    if not provisioned:
        return "/"
    with open(os.path.join(folder, "felt.keys"), "w") as f:
        f.write(keylib.encode(kit.test_keys(APP_DEVICE)))
    slot = os.path.join(folder, "felt_a")
    os.mkdir(slot)
    shutil.copy(os.path.join(firmware, "main.py"), os.path.join(slot, "main.py"))
    entries = [[rel] + list(mf.file_hash(os.path.join(slot, rel))) for rel in mf.walk(slot)]
    with open(os.path.join(slot, mf.NAME), "w") as f:
        f.write(mf.sign(APP_DEVICE, kit.RELEASE, "v1", 1, entries, configs=configs))
    with open(os.path.join(slot, ".felt-ok"), "w") as f:
        f.write("bench\n")
    with open(os.path.join(folder, "felt.slot"), "w") as f:
        f.write("a")
    return "/felt_a"


def run_two_vm(hands, board_ram=512 * 1024, fixed=True, state=False, mode=None, boot="bare", delay_ms=None,
               provisioned=True, words=()):
    """TWO_VM_DRIVER on feltctl.wasm_micropython.run_two_vm: the board VM with a fixed heap of
    `board_ram` bytes (a MemoryError, exit 3, when it would have grown). Returns (parsed output,
    CompletedProcess): import / firmware / built / seated = the board's heap in use then (firmware:
    its modules imported, nothing built); hands = [(live after the hand, highest live heap after
    any board step so far)]. boot "bare": the table built as felt.sim.runner.Sim.build builds it;
    "app": booted as firmware/main.py boots (felt.runtime.app.run) from app_board_files (provisioned:
    keys and a signed slot, production mode; else an unprovisioned board), delay_ms: then the
    secrecy feed's delay (None: the house default, secrecy.DELAY_MS)."""
    from feltctl import wasm_micropython

    folder = tempfile.mkdtemp(prefix="bench_memory_")
    driver = os.path.join(folder, "bench_two_vm_driver.py")  # a fixed name: the image cache key
    with open(driver, "w") as f:
        f.write(TWO_VM_DRIVER)
    words = (["state"] if state else []) + ([mode] if mode else []) + list(words)
    copy, cwd = (), None
    if boot == "app":
        root = os.path.join(folder, "board_fs")
        os.mkdir(root)
        cwd = app_board_files(root, provisioned)
        copy = [(root, "/")]
        words += ["app"] + (["delay=%d" % delay_ms] if delay_ms is not None else [])
    try:
        p = wasm_micropython.run_two_vm("bench_two_vm_driver", [str(hands)] + words,
                                        board_ram=board_ram, extra=[driver],
                                        fixed_board=fixed, timeout_s=7200, board_copy=copy, board_cwd=cwd)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    out = {"hands": [], "done": False}
    for line in p.stdout.splitlines():
        w = line.split()
        if len(w) >= 5 and w[0] in ("B_IMPORT", "B_FIRMWARE", "B_BUILT", "B_SEATED"):
            out[w[0][2:].lower()] = int(w[2])
        elif len(w) >= 5 and w[0] == "B_HAND":
            out["hands"].append((int(w[2]), int(w[3])))
            out["peak"] = (int(w[5]), int(w[6]))  # the most in use at a step's end (before collection), its step
        elif w and w[0] in ("B_MOD", "B_PART"):
            out.setdefault(w[0][2:].lower(), []).append((w[1], int(w[2])))
        elif w and w[0] == "B_MODULES":
            out["modules"] = w[1:]
        elif w and w[0] == "STATE":
            out["state"] = line[6:]
        elif w and w[0] == "DONE":
            out["done"] = True
    return out, p


def smallest_two_vm_heap(hands, fails_kb, passes_kb, **kw):
    """Bisects (4 KB steps) the fixed board heap in KB that plays `hands` hands on the two-VM board
    without a MemoryError (kw: run_two_vm's boot, delay_ms, provisioned). Returns (fails, passes) in KB."""
    lo, hi = fails_kb, passes_kb
    while not run_two_vm(hands, board_ram=hi * 1024, **kw)[0]["done"]:
        lo, hi = hi, hi * 2
    while hi - lo > 4:
        mid = (lo + hi) // 8 * 4  # whole 4 KB steps
        if run_two_vm(hands, board_ram=mid * 1024, **kw)[0]["done"]:
            hi = mid
        else:
            lo = mid
    return lo, hi


def two_vm_rows(hands, find_hands, peer_heap):
    """issue 19 item 3, the faithful figure: the board's heap on the two-VM board (the simulated world
    in its own VM) beside the single-heap emulated board's (the peer, measured in the same run)."""
    two, p = run_two_vm(hands)  # a board heap nothing here fills (512 KB)
    if not two["done"]:
        print("two-VM run failed: %s" % (p.stdout + p.stderr).strip().splitlines()[-3:])
        return 1
    one, p = run_board(hands, "run", ram=2048 * 1024, port="wasm")
    steps, p2 = run_board(hands, "steps", ram=2048 * 1024, port="wasm")
    if not (one["done"] and steps["done"]):
        print("single-heap run failed: %s" % (p.stdout + p.stderr + p2.stdout + p2.stderr).strip().splitlines()[-3:])
        return 1
    live = [h[0] for h in two["hands"]]
    rows = [("ten-seat O8 table built and seated", two["seated"], one["START"]),
            ("live after each hand, high-water (%d hands)" % hands, max(live), max(one["hands"])),
            ("live between main-loop steps, high-water", two["hands"][-1][1], max(steps["steplive"]))]
    print("WebAssembly port (32-bit), bytes of the board's heap: two VMs (the board holds only the firmware "
          "on felt.hal.machine_hal) vs one heap (the simulated world in it too), %d hands" % hands)
    print("%-72s %12s %12s %6s" % ("", "two VMs", "one heap", "ratio"))
    for label, a, b in rows:
        print("%-72s %12d %12d %6.2f" % (label, a, b, a / float(b)))
    print("the board's harness before the firmware is imported (two VMs): %d bytes" % two["import"])
    print("most heap in use at the end of a main-loop step (live before it + all it allocated): %d bytes at "
          "board step %d" % two["peak"])
    print("live after each hand (two VMs): %s" % " ".join("%d" % x for x in live))
    if find_hands:
        lo, hi = smallest_two_vm_heap(find_hands, 128, 176)
        print("smallest fixed board heap for %d hands (two VMs, bisected, 4 KB steps): more than %d KB, at most %d KB"
              % (find_hands, lo, hi))
        if peer_heap:
            plo, phi = smallest_heap("wasm", find_hands, hi, hi + 48)
            print("  peer, one heap (the simulated world in it): more than %d KB, at most %d KB; ratio %.2f" % (
                plo, phi, hi / float(phi)))
        print("  issue 19 budget: %d KB (a Pico W): %s" % (WASM_BUDGET // 1024, "met" if hi * 1024 <= WASM_BUDGET
                                                           else "NOT met"))
    return 0


APP_BOOTS = (("bare table (the peer)", dict(boot="bare")),
             ("app boot, 30-min delay", dict(boot="app")),
             ("app boot, 1 s delay", dict(boot="app", delay_ms=1000)),
             ("app, unprovisioned, 30 min", dict(boot="app", provisioned=False)))


def two_vm_app_rows(hands, find_hands):
    """issue 19 item 3: the board as it boots (felt.runtime.app.run on the two-VM board: a provisioned
    board in production mode, the house default secrecy delay and a short one; an unprovisioned board)
    beside the bare table the bench builds (the peer), same driver and hands; bytes of the board's heap
    (2 MB, not fixed); with find_hands also the smallest fixed board heap, where a step's garbage
    allows it (a provisioned board signs in plain-Python Ed25519: megabytes of garbage in one step,
    which this port collects only after it)."""
    cols = []
    for label, kw in APP_BOOTS:
        out, p = run_two_vm(hands, board_ram=2048 * 1024, fixed=False, state=True, **kw)
        if not out["done"]:
            print("%s: run failed: %s" % (label, (p.stdout + p.stderr).strip().splitlines()[-3:]))
            return 1
        cols.append((label, kw, out))
    same = len(set([c[2]["state"] for c in cols])) == 1
    print("WebAssembly port (32-bit), two-VM board, bytes of the board's heap, %d ten-seat O8 hands "
          "(the same hands end with the same table in every column: %s)" % (hands, same))
    print("%-52s" % "" + "".join("%28s" % c[0] for c in cols))
    rows = [("harness before the firmware (board_side, board_wire)", lambda o: o["import"]),
            ("firmware imported, nothing built", lambda o: o["firmware"]),
            ("table built (and started)", lambda o: o["built"]),
            ("seated (10 seats)", lambda o: o["seated"])]
    for i in range(hands):
        rows.append(("live after hand %d" % (i + 1), lambda o, i=i: o["hands"][i][0]))
    rows += [("live between main-loop steps, high-water", lambda o: o["hands"][-1][1]),
             ("most in use at a step's end (before its collection)", lambda o: o["peak"][0]),
             ("  ... at board step", lambda o: o["peak"][1])]
    for label, f in rows:
        print("%-52s" % label + "".join("%28d" % f(c[2]) for c in cols))
    if find_hands:
        for label, kw, out in cols:
            if out["peak"][0] > 1024 * 1024:
                print("smallest fixed board heap, %s: not bisected (a step ends with %d bytes in use: "
                      "Ed25519 garbage this port collects only after the step)" % (label, out["peak"][0]))
                continue
            start = out["peak"][0] // 4096 * 4
            lo, hi = smallest_two_vm_heap(find_hands, start - 16, start + 8, **kw)
            print("smallest fixed board heap, %s, %d hands (bisected, 4 KB steps): more than %d KB, at most %d KB"
                  % (label, find_hands, lo, hi))
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=int(os.environ.get("FELT_BENCH_MEMORY_HANDS", "1000")),
                    help="hands played on the 128 KB board (default 1000, the issue's figure)")
    ap.add_argument("--breakdown-hands", type=int, default=20, help="hands of the breakdown run")
    ap.add_argument("--top", type=int, default=40, help="modules and state parts to list")
    ap.add_argument("--find-ram", type=int, default=0, metavar="HANDS",
                    help="also bisect the board RAM (4 KB steps) that plays HANDS hands without a MemoryError")
    ap.add_argument("--engine-only", action="store_true",
                    help="only the rules-engine figures (after import, after one hand); no board or breakdown run")
    ap.add_argument("--ram", type=int, default=romfs.DEVICE_RAM // 1024, metavar="KB",
                    help="RAM of the board run in KB (default 128, the issue's board; more to see the live figures "
                         "of a run that does not fit)")
    ap.add_argument("--peak-hands", type=int, default=0, metavar="N",
                    help="also play N hands in a large heap with gc.collect after every main-loop step and report "
                         "the highest live RAM inside each hand (slow)")
    ap.add_argument("--no-collect-early", action="store_true",
                    help="board runs without the boot's heap policy (felt.runtime.heap.collect_early): collections only "
                         "when an allocation fails")
    ap.add_argument("--ports", default="unix,wasm",
                    help="side-by-side table: the ports to measure (unix = the 64-bit unix port, wasm = the 32-bit "
                         "WebAssembly port), comma-separated; empty to skip the table")
    ap.add_argument("--table-hands", type=int, default=20, metavar="N",
                    help="hands of the side-by-side table's large-heap run (default 20: the live figure is flat "
                         "from hand to hand; --find-ram HANDS sets the bisection's)")
    ap.add_argument("--step-alloc", type=int, default=0, metavar="N",
                    help="also play N hands on the WebAssembly port and list the main-loop steps that end with the "
                         "most heap in use (live before the step + all it allocated: that port collects only between "
                         "steps), the bound a fixed heap there must hold")
    ap.add_argument("--blackjack", type=int, default=10, metavar="ROUNDS",
                    help="the blackjack table's rows (issue 17) on each of --ports: engine, firmware after import, "
                         "table built, live RAM after each of ROUNDS seven-box rounds, beside the poker table's; 0 to skip")
    ap.add_argument("--blackjack-only", action="store_true", help="only the blackjack rows")
    ap.add_argument("--two-vm", type=int, default=0, metavar="HANDS",
                    help="only the two-VM rows (issue 19 item 3): HANDS hands on the board VM beside the one-heap "
                         "peer; with --find-ram N also the smallest fixed board heap for N hands (and --two-vm-peer-heap: "
                         "the one-heap peer's, bisected too)")
    ap.add_argument("--two-vm-peer-heap", action="store_true", help="with --two-vm and --find-ram: bisect the peer too")
    ap.add_argument("--two-vm-app", type=int, default=0, metavar="HANDS",
                    help="only the app boot rows (issue 19 item 3): HANDS hands on the two-VM board booted by "
                         "felt.runtime.app.run (provisioned: 30-min and 1 s secrecy delay; unprovisioned) beside the "
                         "bare table; with --find-ram N also the smallest fixed board heaps for N hands")
    ap.add_argument("--table-only", action="store_true",
                    help="only the side-by-side table (and --find-ram); not the unix port's detail runs")
    a = ap.parse_args()
    if a.two_vm:
        return two_vm_rows(a.two_vm, a.find_ram, a.two_vm_peer_heap)
    if a.two_vm_app:
        return two_vm_app_rows(a.two_vm_app, a.find_ram)
    if a.blackjack and a.ports:
        blackjack_rows([x for x in a.ports.split(",") if x], a.blackjack)
    if a.blackjack_only:
        return 0
    if a.step_alloc:
        step_alloc(a.step_alloc, a.top)
    if a.ports:
        side_by_side([x for x in a.ports.split(",") if x], a.table_hands, a.find_ram)
    if a.table_only:
        return 0
    if a.engine_only:
        return _engine_report()
    ram = a.ram * 1024
    mode = "nogc" if a.no_collect_early else "run"
    board, p = run_board(a.hands, mode, ram=ram)
    hands = board["hands"]
    high = max(hands) if hands else 0
    err = "" if board["done"] else (p.stderr.strip().splitlines() or ["exit %d" % p.returncode])[-1]
    print("emulated board: firmware in a ROMFS image (%s), %d bytes of RAM beside it (hardware/memory.md)"
          % (os.path.basename(romfs.build_image()), ram))
    print("whole firmware, %d ten-seat limit Omaha hi-lo hands on simulated hardware: %s" % (
        a.hands, "completed without a MemoryError" if board["done"] else "FAILED after %d hands: %s" % (len(hands), err)))
    if "START" not in board:
        print("  failed while importing the firmware and building the table (before any hand); peer: the board's "
              "%d bytes" % ram)
    else:
        print("  RAM after start-up (imports + table built): %d bytes; live RAM after each hand: high-water %d "
              "bytes; peer: the board's %d bytes; ratio %.2f" % (board["START"], high, ram, high / float(ram)))
    if len(hands) >= 4:
        half = len(hands) // 2
        print("  growth over the second half of the run: %d bytes" % (hands[-1] - hands[half - 1]))
    if _engine_report():
        return 1
    if a.find_ram:
        lo, hi = romfs.DEVICE_RAM // 1024, 2048  # KB: lo fails (or is the board), hi is assumed to pass
        while hi - lo > 4:
            mid = (lo + hi) // 2
            got, _ = run_board(a.find_ram, mode, ram=mid * 1024)
            if got["done"]:
                hi = mid
            else:
                lo = mid
        print("RAM the whole firmware needs for %d hands on this port: more than %d KB, at most %d KB "
              "(peer: the board's %d KB; ratio %.1f)" % (a.find_ram, lo, hi, romfs.DEVICE_RAM // 1024,
                                                          hi * 1024.0 / romfs.DEVICE_RAM))
    if a.peak_hands:
        got, p = run_board(a.peak_hands, "peak", heapsize=8 * 1024 * 1024)
        if not got["done"]:
            print("peak run failed:", (p.stdout + p.stderr).strip().splitlines()[-3:])
            return 1
        print("live RAM between main-loop steps (gc.collect after each step), highest in each of %d hands: %s bytes "
              "(%d steps a hand); live RAM at the end of each hand: %s" % (
                  a.peak_hands, " ".join(str(b) for b, _ in got["peaks"]), got["peaks"][0][1],
                  " ".join(str(b) for b in got["hands"])))
    big, p = run_board(a.breakdown_hands, "breakdown", heapsize=8 * 1024 * 1024)
    if not big["done"]:
        print("breakdown run failed:", (p.stdout + p.stderr).strip().splitlines()[-3:])
        return 1
    code = sum(b for _, b in big["mods"])
    print("RAM of importing the firmware from the image: %d bytes in %d modules (the qstr pool, %d bytes for %d names "
          "by the end, is charged to the modules whose import grew it); the biggest:" % (
              code, len(big["mods"]), big["qstr"][1], big["qstr"][0]))
    for name, b in big["mods"][:a.top]:
        print("  %7d  %s" % (b, name))
    print("state by part after %d hands (bytes freed when the part is dropped; the parts of an object are dropped "
          "before it, so a parent's figure is what is left of it):" % len(big["hands"]))
    for name, b in big["parts"][:a.top]:
        print("  %7d  %s" % (b, name))
    # what a real table would not carry in its RAM: the simulated chips, tags, pins and display, and
    # the sim runner (the harness) -- the same heap here, physical hardware there
    sim_code = sum(b for name, b in big["mods"] if _simulated_module(name))
    sim_state = sum(b for name, b in big["parts"] if not name.startswith(("sim.rt", "sim.table", "sim.board")))
    print("of which the simulated hardware and the sim runner: %d bytes of imports (felt.sim.*, felt.hal.sim*) "
          "and %d bytes of state (sim.* parts other than sim.rt, sim.table, sim.board)" % (sim_code, sim_state))
    # a figure over its target is printed as such (FAILED above), like every bench's target; the exit
    # status says only whether the bench itself could run (`make bench` runs the others after it)
    return 0


def step_alloc(hands, top):
    """The steps of `hands` hands on the WebAssembly port that end with the most heap in use."""
    got, p = run_board(hands, "alloc", ram=2048 * 1024, port="wasm")
    if not got["done"]:
        print("step-alloc run failed: %s" % (p.stdout + p.stderr).strip().splitlines()[-3:])
        return 1
    rows = sorted(got["alloc"], key=lambda r: -r[3])
    print("WebAssembly port, %d hands, %d main-loop steps (the clear's numbered from 1 after the hand's): live "
          "between steps at most %d bytes; the steps ending with the most heap in use:" % (
              hands, len(rows), max(r[2] for r in rows)))
    print("  hand  step    live before   in use at end   allocated")
    for h, n, live, end in rows[:top]:
        print("  %4d %5d %14d %15d %11d" % (h, n, live, end, end - live))
    return 0


def smallest_heap(port, hands, fails_kb, passes_kb):
    """Bisects (4 KB steps) the heap in KB of `port` that plays `hands` hands without a MemoryError;
    on the unix port the RAM beside the ROMFS image. Returns (fails, passes) in KB."""
    lo, hi = fails_kb, passes_kb
    while not run_board(hands, "run", ram=hi * 1024, port=port)[0]["done"]:
        lo, hi = hi, hi * 2
    while hi - lo > 4:
        mid = (lo + hi) // 2
        if run_board(hands, "run", ram=mid * 1024, port=port)[0]["done"]:
            hi = mid
        else:
            lo = mid
    return lo, hi


def side_by_side(ports, hands, find_hands):
    """The table of hardware/memory.md: the same driver and image on each port."""
    rows = [("engine after import", "engine"), ("engine after one ten-seat O8 hand", "engine_hand"),
            ("whole firmware after import (table modules and drivers)", "firmware"),
            ("whole firmware, ten-seat O8 table built", "START"),
            ("live RAM after each hand, high-water (%d hands)" % hands, "high"),
            ("live RAM between main-loop steps inside a hand, high-water (3 hands)", "steplive")]
    got = {}
    for port in ports:
        eng, p = run_board(0, "engine", port=port)
        if not eng["done"]:
            print("%s: engine run failed: %s" % (port, (p.stdout + p.stderr).strip().splitlines()[-3:]))
            return 1
        big, p = run_board(hands, "run", ram=2048 * 1024, port=port)  # a heap nothing here fills
        if not big["done"]:
            print("%s: %d-hand run failed: %s" % (port, hands, (p.stdout + p.stderr).strip().splitlines()[-3:]))
            return 1
        steps, p = run_board(3, "steps", ram=2048 * 1024, port=port)
        if not steps["done"]:
            print("%s: stepped run failed: %s" % (port, (p.stdout + p.stderr).strip().splitlines()[-3:]))
            return 1
        g = {"engine": eng["engine"], "engine_hand": eng["engine_hand"], "START": big["START"],
             "firmware": big["FIRMWARE"] - big["RAM0"], "high": max(big["hands"]), "steplive": max(steps["steplive"])}
        if find_hands:
            lo, hi = smallest_heap(port, find_hands, max(64, g["high"] // 1024), g["high"] // 1024 + 64)
            g["heap"] = hi * 1024
            g["heap_lo"] = lo * 1024
            rows_heap = "smallest heap that plays %d ten-seat O8 hands (bisected, 4 KB steps)" % find_hands
        got[port] = g
    if find_hands:
        rows.append((rows_heap, "heap"))
    print("%-66s %s" % ("bytes of RAM", " ".join("%26s" % PORT_NAMES[p] for p in ports)))
    for label, key in rows:
        print("%-66s %s" % (label, " ".join("%26d" % got[p][key] for p in ports)))
    if "wasm" in got:
        g = got["wasm"]
        print("issue 19 goal on the 32-bit port: engine after import %d < 24576: %s; after a hand %d < 24576: %s" % (
            g["engine"], g["engine"] < 24576, g["engine_hand"], g["engine_hand"] < 24576))
        if find_hands:
            # one heap holds the simulated world too: the budget is judged on the two-VM board (--two-vm)
            print("  one heap (the simulated world in the board's heap), %d hands: smallest heap %d bytes (fails at "
                  "%d); the %d-byte budget is judged with the world in its own VM: --two-vm HANDS --find-ram N" % (
                      find_hands, g["heap"], g["heap_lo"], WASM_BUDGET))
    if "unix" in got and "wasm" in got:
        u, w = got["unix"], got["wasm"]
        print("ratio 32-bit / 64-bit: " + ", ".join("%s %.2f" % (k, w[k] / float(u[k])) for _, k in rows))
    return 0


def blackjack_rows(ports, rounds):
    """Issue 17: the blackjack table's RAM on each port, beside the poker table's figures measured
    in the same run (the peer: a seven-seat hold'em table booted by the same felt.runtime.app.run on the
    same simulated board; the poker engine after import and after a ten-seat O8 hand)."""
    rows = [("blackjack engine after import (round, rules, shoe)", "BJ_ENGINE", "engine"),
            ("blackjack engine after one seven-box round", "BJ_ENGINE_ROUND", "engine_hand"),
            ("blackjack firmware after import (runtime, table, view, drivers)", "firmware", "firmware"),
            ("blackjack table built (app.run: journal, audit, drivers, 6-deck shoe; the sim devices)", "BJ_START",
             "START"),
            ("the same, the sim devices' inspection logs dropped (what a board holds)", "BJ_BOARD", None),
            ("live RAM after each of %d seven-box rounds, high-water" % rounds, "high", None)]
    got = {}
    for port in ports:
        bj, p = run_board(rounds, "blackjack", ram=2048 * 1024, port=port, source=BJ_DRIVER)
        if not bj["done"]:
            print("%s: blackjack run failed: %s" % (port, (p.stdout + p.stderr).strip().splitlines()[-3:]))
            return 1
        eng, p = run_board(0, "engine", port=port)
        poker, p2 = run_board(0, "pokerapp", ram=2048 * 1024, port=port, source=BJ_DRIVER)
        if not (eng["done"] and poker["done"]):
            print("%s: poker peer run failed: %s" % (port, (p.stdout + p.stderr + p2.stdout + p2.stderr)
                                                      .strip().splitlines()[-3:]))
            return 1
        got[port] = {"BJ_ENGINE": bj["BJ_ENGINE"], "BJ_ENGINE_ROUND": bj["BJ_ENGINE_ROUND"],
                     "firmware": bj["BJ_FIRMWARE"] - bj["RAM0"], "BJ_START": bj["BJ_START"], "BJ_BOARD": bj["BJ_BOARD"],
                     "high": max(bj["rounds"]), "rounds": bj["rounds"],
                     "peer": {"engine": eng["engine"], "engine_hand": eng["engine_hand"],
                              "firmware": poker["PA_FIRMWARE"] - poker["RAM0"], "START": poker["PA_START"]},
                     "poker_loaded": bj["POKER_LOADED"]}
    print("%-72s %s" % ("bytes of RAM (blackjack; in brackets the poker table's, same run)",
                        " ".join("%34s" % PORT_NAMES[p] for p in ports)))
    for label, key, peer in rows:
        cells = []
        for p in ports:
            g = got[p]
            cells.append("%34s" % ("%d (%d, x%.2f)" % (g[key], g["peer"][peer], g[key] / float(g["peer"][peer]))
                                   if peer else "%d" % g[key]))
        print("%-72s %s" % (label, " ".join(cells)))
    for p in ports:
        print("%s: poker modules (felt.table.controller, felt.view) loaded by the blackjack firmware: %d" % (
            PORT_NAMES[p], got[p]["poker_loaded"]))
        r = got[p]["rounds"]
        print("%s: live RAM after rounds 1, %d, %d: %d, %d, %d bytes" % (
            PORT_NAMES[p], len(r) // 2, len(r), r[0], r[len(r) // 2 - 1], r[-1]))
        print("%s: live RAM after each round: %s" % (PORT_NAMES[p], " ".join(["%d" % x for x in r])))
    return 0


def _engine_report():
    """Prints the rules engine's two figures (hardware/memory.md); returns 1 if its run failed."""
    eng, p = run_board(0, "engine")
    if not eng["done"]:
        print("engine run failed:", (p.stdout + p.stderr).strip().splitlines()[-3:])
        return 1
    print("rules engine (felt.engine.hand.machine + evaluate + games + settings) imported from the image: %d bytes of RAM "
          "(target < 40960: ratio %.2f), of which %d bytes are its %d interned names (qstr pool)" % (
              eng["engine"], eng["engine"] / 40960.0, eng["qstr"][1], eng["qstr"][0]))
    print("  after also playing one ten-seat Omaha hi-lo hand to the showdown (what loads on first use counted; "
          "the finished hand dropped): %d bytes (ratio %.2f), %d bytes of qstr pool for %d names" % (
              eng["engine_hand"], eng["engine_hand"] / 40960.0, eng["qstr_hand"][1], eng["qstr_hand"][0]))
    return 0


def _simulated_module(name):
    return name.startswith(("felt.sim.", "felt.hal.sim")) or name == "felt.sim"


if __name__ == "__main__":
    sys.exit(main())
