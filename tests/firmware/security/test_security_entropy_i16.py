# Issue 16 item 6: nonces and salts come from an HMAC-DRBG (felt.security.entropy.Generator) seeded
# from the board's true entropy source after a health test; a provisioned board without one, or
# with a stuck one, does not start the table. CPython, MicroPython and the 32-bit port (no
# os.urandom there: the simulated board's source is its HAL's).
from check import eq, raises

import kit
from felt.security import bootcheck
from felt.security import entropy


class Counter:
    """A source that is not random at all but passes nothing suspicious by itself."""

    def __init__(self):
        self.n = 0

    def __call__(self, n):
        self.n += 1
        return bytes([(self.n * 31 + i * 7) & 255 for i in range(n)])


def test_item6_the_generator_is_seeded_from_the_source_and_personalised():
    a = entropy.Generator(Counter(), b"table1")
    b = entropy.Generator(Counter(), b"table1")
    c = entropy.Generator(Counter(), b"table2")
    x = a.random(48)
    eq(len(x), 48)
    eq(x, b.random(48))  # same seed and personalisation, same stream (deterministic DRBG)
    assert x != c.random(48)  # another board name, another stream even from the same source
    assert a.random(16) != a.random(16)  # never the same output twice
    # reseeds from the source after RESEED_AFTER requests
    src = Counter()
    g = entropy.Generator(src)
    before = src.n
    g.calls = entropy.RESEED_AFTER
    g.random(8)
    eq(src.n, before + 1)


def test_item6_a_stuck_or_repeating_source_fails_its_health_test():
    with raises(entropy.EntropyError, match="health test"):
        entropy.Generator(lambda n: b"\x00" * n)
    with raises(entropy.EntropyError, match="health test"):
        entropy.Generator(lambda n: bytes([i & 3 for i in range(n)]))  # 4 values only
    rep = Counter()
    checked = entropy.Checked(lambda n: rep(n) if rep.n < 2 else bytes([(2 * 31 + i * 7) & 255 for i in range(n)]))
    with raises(entropy.EntropyError, match="health test"):
        checked.read(64)  # the third sample repeats the second
    with raises(entropy.EntropyError):
        checked.read(8)  # and stays failed


def _refused(tag, source):
    root, slot = kit.provisioned_root(tag)
    sim = kit.ProductionSim(root, slot)
    sim.entropy = source
    try:
        sim.run(kit.HEAD)
    except AttributeError:
        pass  # the table was not built: the runner has nothing to set up
    why = sim.app.halted
    kit.rm_tree(root)
    return why


def test_item6_a_provisioned_board_without_a_true_source_does_not_start():
    # Before issue 16 the board fell back to `random` seeded at boot (felt.runtime.app._nonce),
    # silently: floor challenges and hole-card salts predictable to whoever knew the boot time.
    why = _refused("i16_noent", None)
    assert why is not None and "no entropy source" in why, why
    why = _refused("i16_stuck", lambda n: b"\x5a" * n)
    assert why is not None and "health test" in why, why


def test_item6_challenges_differ_across_boots_and_come_from_the_generator():
    root, sim = kit.seated_board("i16_nonces")
    eq(sim.app.mode, bootcheck.PRODUCTION)
    a = kit.decoded_wire(sim, "challenge").opts["nonce"]
    sim.app = sim.table = sim.rt = None
    sim.boot()
    b = kit.decoded_wire(sim, "challenge").opts["nonce"]
    assert a != b, (a, b)
    kit.rm_tree(root)
