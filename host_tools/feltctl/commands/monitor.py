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


def open_port(port, baud, deadline, wait=True):
    """The port, opened exclusively. With `wait` (the board went away: reset or replug) keep
    trying until `deadline` (None: for ever); without it a failure is raised at once."""
    while True:
        try:
            return serial.serial_for_url(port, baudrate=baud, timeout=0.1, exclusive=True)
        except (serial.SerialException, ValueError) as e:  # ValueError: a URL scheme pyserial lacks
            if "exclusively lock" in str(e):
                print("feltctl monitor: %s is in use by another program" % port, file=sys.stderr)
                raise SystemExit(1)
            if not wait or (deadline is not None and time.monotonic() > deadline):
                raise
            time.sleep(0.5)


def why_not(port, error):
    """One line for a port that would not open (the wording of the other board commands)."""
    text = str(error)
    if "No such file" in text:
        return "no serial port %s (is the board plugged in? try `ls /dev/ttyACM*`)" % port
    if "Permission denied" in text:
        return "no permission to open %s (add yourself to the dialout group)" % port
    return "cannot open %s: %s" % (port, text)


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
    try:
        pattern = re.compile(args.until) if args.until else None
    except re.error as e:
        print("feltctl monitor: error: --until %r is not a regular expression: %s" % (args.until, e), file=sys.stderr)
        return 2
    if args.baud <= 0:  # pyserial's ValueError otherwise; 0 on a real tty hangs the line up
        print("feltctl monitor: error: baud rate %d: must be a whole number above 0" % args.baud, file=sys.stderr)
        return 2
    try:
        # At start a missing port is a mistake to report, not a board to wait for.
        ser = open_port(args.port, args.baud, deadline, wait=False)
    except (serial.SerialException, ValueError) as e:
        print("feltctl monitor: error: %s" % why_not(args.port, e), file=sys.stderr)
        return 1
    if args.restart:
        ser.write(b"\r\x03\x03\x02\x04")   # stop the program, friendly REPL, soft reset
    lines = LineSplitter()
    try:
        while deadline is None or time.monotonic() < deadline:
            try:
                data = ser.read(max(1, ser.in_waiting))
            except (serial.SerialException, OSError):  # in_waiting raises a bare OSError (EIO)
                ser.close()
                print("feltctl monitor: %s went away; waiting for it" % args.port, file=sys.stderr)
                try:
                    ser = open_port(args.port, args.baud, deadline)
                except serial.SerialException as e:
                    ser = None
                    print("feltctl monitor: %s did not come back within --duration (%s)"
                          % (args.port, why_not(args.port, e)), file=sys.stderr)
                    return 1
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
        if ser is not None:
            ser.close()
    return 0 if pattern is None else 3
