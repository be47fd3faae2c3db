# Benchmark (not a test): PHH replay throughput of the Felt engine vs PokerKit 0.7.7, both on CPython,
# same hands, same run. Each side parses the PHH text and plays every action to the end of the hand.
# Hands: seeded random hands of every PHH variant (tests/host/pokerkit_gen.py) plus the real corpus
# in ../shared/phh when present. Target (issue 2): at least 100x PokerKit.
# Each figure is given as wall-clock and CPU (process) time: the machine is often shared, and CPU
# time is the steadier of the two; the ratio is always of two figures from this same run.
import glob
import os
import sys
import time
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path[:0] = [os.path.join(REPO, "firmware"), os.path.join(REPO, "tests", "host")]

from felt.history import replay  # noqa: E402
import pokerkit_gen  # noqa: E402
from pokerkit import HandHistory  # noqa: E402

PER_VARIANT = int(os.environ.get("FELT_BENCH_HANDS", "40"))


def hands():
    texts = []
    for v in pokerkit_gen.VARIANTS:
        for seed in range(PER_VARIANT):
            texts.append(pokerkit_gen.generate(v, 10000 + seed).text)
    corpus = os.path.join(REPO, "..", "shared", "phh", "data")
    for path in sorted(glob.glob(os.path.join(corpus, "**", "*.phh"), recursive=True)):
        with open(path) as f:
            texts.append(f.read())
    return texts


def pokerkit_replay(text):
    hh = HandHistory.loads(text)
    for _state in hh:
        pass


def pokerkit_states(hh):
    for _state in hh:
        pass


def felt_replay(text):
    replay.replay_text(text)


def rate(fn, texts, min_s=1.0):
    """(wall, cpu) hands per second: whole passes over `texts` until at least min_s has gone by."""
    done = 0
    start = time.perf_counter()
    cpu = time.process_time()
    while True:
        for t in texts:
            fn(t)
        done += len(texts)
        elapsed = time.perf_counter() - start
        if elapsed >= min_s:
            return done / elapsed, done / max(time.process_time() - cpu, 1e-9)


def replayable(texts):
    """Only hands both engines replay to the end (the corpus has a few broken records)."""
    out = []
    for t in texts:
        try:
            pokerkit_replay(t)
        except ValueError:
            continue
        if "error" not in replay.replay_text(t)[0]:
            out.append(t)
    return out


def main():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        texts = replayable(hands())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        peer = rate(pokerkit_replay, texts)
    ours = rate(felt_replay, texts)
    # engine only: both sides start from a parsed hand history (no TOML parsing)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        parsed_pk = [HandHistory.loads(t) for t in texts]
        peer_engine = rate(pokerkit_states, parsed_pk)
    parsed_ours = [replay.phh.read(t) for t in texts]
    ours_engine = rate(replay.replay, parsed_ours)
    print("replay throughput, %d hands (%d per PHH variant + corpus), CPython %s" % (
        len(texts), PER_VARIANT, sys.version.split()[0]))
    show("PHH text -> finishing stacks (parse + replay):", ours, peer, "   (target >= 100x)")
    show("parsed hand history -> finishing stacks (engine only):", ours_engine, peer_engine, "")


def show(title, ours, peer, target):
    print("  " + title)
    for k, clock in ((0, "wall"), (1, "cpu")):
        print("    [%s] felt engine %8.0f hands/s (%5.0f us/hand); pokerkit %6.0f hands/s; ratio %5.1fx%s" % (
            clock, ours[k], 1e6 / ours[k], peer[k], ours[k] / peer[k], target))


if __name__ == "__main__":
    main()
