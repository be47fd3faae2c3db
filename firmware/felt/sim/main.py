# Entry of the simulated table (sim layer): reads STIMULUS statements from stdin, one per line, and
# prints one JSON line per `state` statement (hardware/sim-protocol.md). Run from firmware/:
#   micropython -X heapsize=128K -m felt.sim.main [--ascii] [--log] < statements.txt
#   python -m felt.sim.main ...   (CPython, same output)
import sys

from felt.sim.runner import run_lines


def _lines():
    while True:
        line = sys.stdin.readline()
        if not line:
            return
        yield line


def main(argv):
    shoe = "ascii" if "--ascii" in argv else "pn532"
    log = None
    if "--log" in argv:
        def log(text):
            print("# " + text)
    return run_lines(_lines(), print, shoe=shoe, log=log)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
