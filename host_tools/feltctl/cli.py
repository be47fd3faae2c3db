# The feltctl command table (host tools). COMMANDS names every command and the module holding it
# (HELP, add_arguments(parser), run(args) -> exit code); a run imports only its own command's
# module, `feltctl --help` all of them for their HELP lines. Errors are reported here, once: a
# FeltError (every host error is one: TransportError, DeployError, ...) is the line
# "feltctl CMD: error: MESSAGE" and exit 1; bad arguments or an unknown command exit 2; Ctrl-C 130;
# a reader that went away (`feltctl ... | head`) ends the command quietly with 141 (128 + SIGPIPE).
import argparse
import difflib
import importlib
import os
import sys

EXIT_PIPE = 141  # what a shell reports for a program that a closed pipe stopped (128 + SIGPIPE)

COMMANDS = {
    "audit": "feltctl.commands.audit",
    "bench": "feltctl.commands.bench",
    "bridge": "feltctl.commands.bridge",
    "deck": "feltctl.commands.deck",
    "demo": "feltctl.commands.demo",
    "export": "feltctl.commands.export",
    "flash": "feltctl.commands.flash",
    "floor": "feltctl.commands.floor",
    "floor-demo": "feltctl.commands.floor_demo",  # also spelled `feltctl floor demo`
    "floor-serve": "feltctl.commands.floor_serve",  # also spelled `feltctl floor serve`
    "info": "feltctl.commands.info",
    "monitor": "feltctl.commands.monitor",
    "provision": "feltctl.commands.provision",
    "replay": "feltctl.commands.replay",
    "romfs": "feltctl.commands.romfs",
    "sign": "feltctl.commands.sign",
    "sim": "feltctl.commands.sim",
    "simboard": "feltctl.commands.simboard",
    "verify-hand": "feltctl.commands.verify_hand",
}


def build_parser(names):
    """The argument parser with a sub-command for each of `names` (their modules imported)."""
    parser = argparse.ArgumentParser(prog="feltctl", description="Felt host tools: flash, sim, replay, monitor, export")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in names:
        module = importlib.import_module(COMMANDS[name])
        p = sub.add_parser(name, help=module.HELP, description=module.HELP)
        module.add_arguments(p)
    return parser


def unknown(name):
    near = difflib.get_close_matches(name, list(COMMANDS), n=1)
    return "feltctl: unknown command %r%s; `feltctl --help` lists the commands" % (
        name, " (did you mean %r?)" % near[0] if near else "")


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:2] in (["floor", "serve"], ["floor", "demo"]):
        argv = ["floor-" + argv[1]] + argv[2:]  # the floor server and demo, beside `feltctl floor PORT COMMAND`
    name = argv[0] if argv and not argv[0].startswith("-") else None
    if name is not None and name not in COMMANDS:
        sys.stderr.write(unknown(name) + "\n")
        return 2
    parser = build_parser([name] if name else sorted(COMMANDS))
    args = parser.parse_args(argv)
    if not args.command:
        parser.print_help()
        return 2
    from felt.errors import FeltError

    try:
        rc = importlib.import_module(COMMANDS[name]).run(args) or 0
        sys.stdout.flush()  # inside the try: the last buffered lines may meet the closed pipe
        return rc
    except BrokenPipeError:
        return _reader_gone()
    except FeltError as e:
        if getattr(e, "interrupted", False):  # Ctrl-C that a command cleaned up after (DeployInterrupted)
            sys.stderr.write("\nfeltctl %s: %s\n" % (name, e))
            return 130
        sys.stderr.write("feltctl %s: error: %s\n" % (name, e))
        return 1
    except KeyboardInterrupt:
        # Ctrl-C: the `with` blocks on the way out have closed ports and child processes; a flash
        # interrupted part way leaves the board on its previous tree (hardware/flashing.md)
        sys.stderr.write("\nfeltctl %s: interrupted\n" % name)
        return 130


def _reader_gone():
    """stdout's reader closed the pipe (`feltctl replay --jsonl DIR | head`): nobody reads the rest.
    stdout goes to /dev/null, so the interpreter's own flush at exit finds nothing to complain of
    (no 'Exception ignored ... BrokenPipeError'); no traceback, exit 141 like a SIGPIPE."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass
    return EXIT_PIPE


if __name__ == "__main__":
    sys.exit(main())
