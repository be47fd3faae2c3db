# The feltctl command table. Each command is a module in feltctl/commands/ named after it
# (dashes as underscores) defining HELP, add_arguments(parser) and run(args) -> exit code.
import argparse
import importlib
import pkgutil
import sys

from feltctl import commands


def command_modules():
    """Name -> module for every command, in name order."""
    found = {}
    for info in pkgutil.iter_modules(commands.__path__):
        if info.name.startswith("_"):
            continue
        found[info.name.replace("_", "-")] = importlib.import_module("feltctl.commands." + info.name)
    return dict(sorted(found.items()))


def main(argv=None):
    parser = argparse.ArgumentParser(prog="feltctl", description="Felt host tools: flash, sim, replay, monitor, export")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    modules = command_modules()
    for name, module in modules.items():
        p = sub.add_parser(name, help=module.HELP, description=module.HELP)
        module.add_arguments(p)
    args = parser.parse_args(argv)
    if not args.command:
        parser.print_help()
        return 2
    try:
        return modules[args.command].run(args) or 0
    except KeyboardInterrupt:
        # Ctrl-C: the `with` blocks on the way out have closed ports and child processes; a flash
        # interrupted part way leaves the board on its previous tree (hardware/flashing.md)
        sys.stderr.write("\nfeltctl %s: interrupted\n" % args.command)
        return 130


if __name__ == "__main__":
    sys.exit(main())
