# Benchmark (not a test): PHH replay throughput of the Felt engine vs PokerKit 0.7.7, both on CPython,
# same hands, same run. Each side parses the PHH text and plays every action to the end of the hand.
# Hands: seeded random hands of every PHH variant (tests/host/pokerkit_gen.py) plus the real corpus
# in ../shared/phh when present. Target (issue 2): at least 100x PokerKit.
import glob
import os
import sys
import time
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path[:0] = [os.path.join(REPO, "firmware"), os.path.join(REPO, "tests", "host")]

from felt import replay  # noqa: E402
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
    """Hands per second: whole passes over `texts` until at least min_s has gone by."""
    done = 0
    start = time.perf_counter()
    while True:
        for t in texts:
            fn(t)
        done += len(texts)
        elapsed = time.perf_counter() - start
        if elapsed >= min_s:
            return done / elapsed


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
    print("  PHH text -> finishing stacks (parse + replay):")
    print("    felt engine : %10.0f hands/s" % ours)
    print("    pokerkit    : %10.0f hands/s" % peer)
    print("    ratio       : %10.1fx   (target >= 100x)" % (ours / peer))
    print("  parsed hand history -> finishing stacks (engine only):")
    print("    felt engine : %10.0f hands/s" % ours_engine)
    print("    pokerkit    : %10.0f hands/s" % peer_engine)
    print("    ratio       : %10.1fx" % (ours_engine / peer_engine))


if __name__ == "__main__":
    main()
