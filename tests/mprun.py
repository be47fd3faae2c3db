# Runs firmware test modules inside one interpreter -- written for MicroPython, runs on CPython too.
# usage: micropython tests/mprun.py tests/firmware/LAYER/test_x.py [...]
# Calls every function named test_* (in name order), prints one line per failure and
# a closing "N passed, M failed, K skipped" line; exit status 1 when anything failed.
import sys


def _dirname(path):
    i = path.rfind("/")
    return path[:i] if i > 0 else "."


def main(files):
    """Runs the test files; returns the exit status. With "--steps" first (the WebAssembly port's
    launcher, feltctl.wasm_micropython), returns the run as a generator that yields after every
    test function: that port collects garbage only between such steps."""
    if files and files[0] == "--steps":
        return steps(files[1:])
    run = steps(files)
    while True:
        try:
            next(run)
        except StopIteration as e:
            return e.value


def steps(files):
    try:
        here = _dirname(__file__)  # where this file is, also when imported by a launcher
    except NameError:
        here = _dirname(sys.argv[0])
    root = _dirname(here) if here != "." else ".."
    for p in (root + "/firmware", here + "/firmware", here):
        if p not in sys.path:
            sys.path.insert(0, p)
    import check
    from felt.runtime import heap

    # The device's heap policy (felt.runtime.app.run collects every 8 KB), here every 256 KB: with the
    # default (collect only when an allocation fails) the survivors of a long test file end up
    # spread over the whole test heap and a large buffer (a 96 KB simulated flash ring) finds no
    # hole although megabytes are free -- a failure of the harness, not of the firmware.
    heap.collect_early(256 * 1024)
    passed = failed = skipped = 0
    for path in files:
        name = path.split("/")[-1]
        if name.endswith(".py"):
            name = name[:-3]
        folder = _dirname(path)  # a layer folder (tests/firmware/engine/...): kit and check stay above
        if folder not in sys.path:
            sys.path.insert(0, folder)
        try:
            module = __import__(name)
        except check.Skip as e:
            print("SKIP %s: %s" % (name, e))
            skipped += 1
            continue
        except Exception as e:  # an import failure is one failed test, reported with its cause
            print("FAIL %s (import)" % name)
            sys.print_exception(e) if hasattr(sys, "print_exception") else print(repr(e))
            failed += 1
            continue
        for attr in sorted(dir(module)):
            if not attr.startswith("test_"):
                continue
            fn = getattr(module, attr)
            if not callable(fn):
                continue
            try:
                fn()
                passed += 1
            except check.Skip as e:
                print("SKIP %s.%s: %s" % (name, attr, e))
                skipped += 1
            except Exception as e:
                failed += 1
                print("FAIL %s.%s" % (name, attr))
                if hasattr(sys, "print_exception"):
                    sys.print_exception(e)
                else:
                    import traceback

                    traceback.print_exc()
            yield
    print("%d passed, %d failed, %d skipped" % (passed, failed, skipped))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
