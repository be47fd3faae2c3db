# Command-line entry for replaying PHH files and blackjack histories (.bjh) (`feltctl replay`); the same module runs under
# CPython and inside the MicroPython unix port, so both print byte-identical lines.
# usage: micropython -m felt.history.replay_main [--json|--jsonl] FILE...   (directories are expanded by
# the host tool; this module only reads the files it is given)
import sys

from felt.history import replay


def read_text(path):
    """File text, or None with an error object when it cannot be read. Read as bytes and decoded:
    CPython's text mode would turn a lone CR into a newline and MicroPython's does not, so the two
    runtimes would read different text (TOML, and so PHH, knows only LF and CRLF)."""
    try:
        with open(path, "rb") as f:
            return f.read().decode(), None
    except OSError as e:
        code = e.args[0] if e.args and isinstance(e.args[0], int) else 0
        return None, {"file": path, "error": "cannot read the file (errno %d)" % code}
    except UnicodeError:
        return None, {"file": path, "error": "the file is not UTF-8 text"}


def _blackjack(path, write=None):
    # a blackjack history (hardware/blackjack-history.md; loaded only here), read a line at a time;
    # with `write` each result is written as it comes (--jsonl: a long history never whole in RAM)
    from felt.history import blackjack

    out = []
    bad = 0
    try:
        with open(path, "rb") as f:
            for r in blackjack.iter_lines(f):
                r["file"] = path
                if "error" in r:
                    bad = 1
                if write is None:
                    out.append(r)
                else:
                    write(replay.dumps(r) + "\n")
    except OSError as e:
        code = e.args[0] if e.args and isinstance(e.args[0], int) else 0
        return None, {"file": path, "error": "cannot read the file (errno %d)" % code}
    except UnicodeError:
        return None, {"file": path, "error": "the file is not UTF-8 text"}
    return (out if write is None else bad), None


def results_for(path):
    """[result dict] for one file: one per hand (per round in a .bjh); each carries `file` (and `hand` in a .phhs)."""
    if path.endswith(".bjh"):
        out, err = _blackjack(path)
        return [err] if err is not None else out
    text, err = read_text(path)
    if err is not None:
        return [err]
    try:
        out = replay.replay_text(text)
    except Exception as e:  # an engine bug must not end a --jsonl run over many files
        out = [{"error": "internal error: %s: %s" % (type(e).__name__, e)}]
    for r in out:
        r["file"] = path
    return out


def run(paths, mode, write):
    """Replays `paths`; write(str) gets each output line (with its newline). Exit status:
    0 when every hand replayed, 1 when any result is an error."""
    bad = 0
    for path in paths:
        if mode == "--jsonl" and path.endswith(".bjh"):
            some, err = _blackjack(path, write)
            if err is not None:
                write(replay.dumps(err) + "\n")
            bad = max(bad, 1 if err is not None else some)
            continue
        results = results_for(path)
        for r in results:
            if "error" in r:
                bad = 1
        if mode == "--json":
            obj = results[0] if len(results) == 1 else {"file": path, "hands": results}
            write(replay.dumps(obj) + "\n")
        else:
            for r in results:
                write(replay.dumps(r) + "\n")
    return bad


def main(argv):
    mode = "--jsonl"
    paths = []
    for a in argv:
        if a in ("--json", "--jsonl"):
            mode = a
        else:
            paths.append(a)
    return run(paths, mode, sys.stdout.write)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
