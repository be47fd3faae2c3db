# `feltctl bridge PORT --broker URL --room R --table T` (host tools): publish a Pico table's signed
# room messages from its FELT1 console to an MQTT broker, and carry floor commands back
# (feltctl.room.bridge; hardware/floor.md section 5).
import sys

import serial

from feltctl.room.bridge import Bridge

HELP = "publish a Pico table's room messages from its console port to an MQTT broker (and floor commands back)"


def add_arguments(p):
    p.add_argument("port", help="the table's console serial port (or a pyserial URL: socket://HOST:PORT)")
    p.add_argument("--broker", required=True, help="mqtt://HOST:PORT")
    p.add_argument("--room", default="room1", help="the room's name in the topics (default room1)")
    p.add_argument("--table", required=True, help="the table's name in the topics (its device name)")
    p.add_argument("--baud", type=int, default=115200)
    p.add_argument("--duration", type=float, default=None, help="stop after this many seconds")


def run(args):
    try:
        port = serial.serial_for_url(args.port, baudrate=args.baud, timeout=0.02)
    except (serial.SerialException, ValueError) as e:
        print("feltctl bridge: error: cannot open %s: %s" % (args.port, e), file=sys.stderr)
        return 1
    b = Bridge(port, args.broker, args.room, args.table, log=lambda t: print(t, file=sys.stderr))
    print("bridge: %s -> %s as felt/%s/%s" % (args.port, args.broker, args.room, args.table), flush=True)
    try:
        b.run(args.duration)
    except KeyboardInterrupt:
        pass
    finally:
        b.close()
        port.close()
    print("bridge: %d messages published, %d refused" % (b.published, b.refused))
    return 0
