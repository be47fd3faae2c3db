# felt.history.selfplay: the demo's seeded dealer and bots -- the same numbers and the same hands on
# CPython and MicroPython, chips conserved, every written PHH replays to the same stacks.
from check import eq
from felt.history import phh
from felt.history import replay
from felt.history import selfplay


def test_rng_is_the_same_on_every_interpreter():
    r = selfplay.Rng(7)
    eq([r.next() for _ in range(3)], [2302196500, 1427436313, 2776720098])
    r = selfplay.Rng(7)
    items = list(range(10))
    r.shuffle(items)
    eq(items, [6, 3, 8, 4, 5, 9, 1, 2, 7, 0])


def test_series_replays_identically_and_conserves_chips():
    saved = {}
    lines = []

    def save(name, text):
        saved[name] = text

    status = selfplay.play_series(len(selfplay.SERIES), 3, save, lines.append)
    eq(status, 0, "status")
    eq(len(saved), len(selfplay.SERIES))
    assert lines[-1].endswith("-> conserved"), lines[-1]
    assert ("replay: %d of %d" % (len(saved), len(saved))) in lines[-2], lines[-2]
    for name in sorted(saved):
        h = phh.read(saved[name])
        r = replay.replay(h)
        eq(r["finishing_stacks"], h.finishing_stacks, name)
        eq(sum(h.finishing_stacks), sum(h.starting_stacks), name)


def test_each_game_of_the_series_is_played():
    lines = []
    selfplay.play_series(len(selfplay.SERIES), 5, None, lines.append)
    for code, _structure in selfplay.SERIES:
        assert any((" %s " % code) in x for x in lines), code
