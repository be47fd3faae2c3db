# `feltctl monitor PORT`: follow the table's event log live -- every line the firmware prints on
# the console, stamped with host time (host tools). Passive: sends nothing unless --restart.
# Survives the board resetting or being replugged (waits for the port to come back).
import re
import sys
import time

import serial

HELP = "follow a board's event log (console output) live"


def add_arguments(p):
    p.add_argument("port")
    p.add_argument("--baud", type=int, default=115200)
    p.add_argument("--restart", action="store_true", help="soft-reset the board first (main.py starts over)")
    p.add_argument("--duration", type=float, default=None, help="stop after this many seconds")
    p.add_argument("--until", default=None, help="stop after a line matching this regular expression")
    p.add_argument("--no-time", action="store_true", help="do not prefix lines with the host time")


def open_port(port, baud, deadline):
    while True:
        try:
            return serial.serial_for_url(port, baudrate=baud, timeout=0.1, exclusive=True)
        except serial.SerialException as e:
            if deadline is not None and time.monotonic() > deadline:
                raise
            if "exclusively lock" in str(e):
                print("feltctl monitor: %s is in use by another program" % port, file=sys.stderr)
                raise SystemExit(1)
            time.sleep(0.5)


class LineSplitter:
    """Bytes in, complete text lines out (\\r\\n or \\n); a partial line waits for its end."""

    def __init__(self):
        self.buf = b""

    def feed(self, data):
        self.buf += data
        *lines, self.buf = self.buf.split(b"\n")
        return [ln.rstrip(b"\r").decode("utf-8", "replace") for ln in lines]


def run(args, out=None):
    out = out or sys.stdout
    start = time.monotonic()
    deadline = start + args.duration if args.duration is not None else None
    pattern = re.compile(args.until) if args.until else None
    try:
        ser = open_port(args.port, args.baud, deadline)
    except serial.SerialException as e:
        print("feltctl monitor: cannot open %s: %s" % (args.port, e), file=sys.stderr)
        return 1
    if args.restart:
        ser.write(b"\r\x03\x03\x02\x04")   # stop the program, friendly REPL, soft reset
    lines = LineSplitter()
    try:
        while deadline is None or time.monotonic() < deadline:
            try:
                data = ser.read(max(1, ser.in_waiting))
            except serial.SerialException:
                ser.close()
                print("feltctl monitor: %s went away; waiting for it" % args.port, file=sys.stderr)
                ser = open_port(args.port, args.baud, deadline)
                continue
            for line in lines.feed(data):
                stamp = "" if args.no_time else "[%9.3f] " % (time.monotonic() - start)
                out.write(stamp + line + "\n")
                out.flush()
                if pattern and pattern.search(line):
                    return 0
    except KeyboardInterrupt:
        pass
    finally:
        ser.close()
    return 0 if pattern is None else 3
