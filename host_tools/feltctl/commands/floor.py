# `feltctl floor PORT --device NAME --floor NAME COMMAND...` (host tools): a floor command from a PC
# over the table's FELT1 console line (hardware/protocols/console.md "Floor commands"). It asks the
# table for a challenge, answers it with HMAC-SHA256 under the floor key (felt.security.auth; the
# key file from the key store) and prints what the table did or why it refused. Every wait has a
# deadline; a lost reply is asked for again by resending the same line (the table answers a
# retransmission without running it twice).
import hashlib
import random
import sys
import time

from felt.errors import DeviceTimeout, FeltError
from felt.proto import console as proto
from felt.security import AuthError, auth, deckmap
from feltctl.board.signing import KeyStore, answer_challenge
from feltctl.board.transport import Transport

HELP = "run an authenticated floor command (void, stack, level, structure, delay, deck, clear, time) on a table"
COMMANDS = ("void | stack SEAT CHIPS | level N | structure no_limit|pot_limit|limit | delay MS | deck RECORD_FILE | "
            "clear (end a tilt) | time UNIX-SECONDS|now (the event log's wall clock) | "
            "ruling ALERT-ID confirm|reject | clock start|pause|resume|off|M:SS | h4h on|off|M:SS")
TRIES = 3  # sends of one line before giving up (the same bytes: a retransmission)


def add_arguments(p):
    p.add_argument("port", help="the table's console serial port (e.g. /dev/ttyUSB0), or "
                   "mqtt://HOST:PORT/ROOM/TABLE for a table in the room (hardware/floor.md)")
    p.add_argument("words", nargs="+", metavar="COMMAND", help=COMMANDS)
    p.add_argument("--device", required=True, help="the board's name in the key store")
    p.add_argument("--floor", required=True, help="your floor key's name (floor-NAME.key in the key store)")
    p.add_argument("--keys", default=None, help="key store folder (default $FELT_KEYS or ~/.felt/keys)")
    p.add_argument("--baud", type=int, default=115200)
    p.add_argument("--timeout", type=float, default=3.0, help="seconds to wait for each reply")


class Refused(FeltError):
    """The table answered `error`: reply is the decoded Message (code, rule, text)."""

    def __init__(self, reply):
        self.reply = reply
        o = reply.opts
        what = o.get("code", "error")
        if o.get("rule"):
            what += " " + o["rule"]
        super().__init__("%s: %s" % (what, reply.text))


class FloorClient:
    """The console end of the floor verbs over a Transport-like port (write(bytes),
    read_until(ending, what, timeout_s, watch_reset)). notes: alert texts the table sent meanwhile."""

    def __init__(self, port, device, who, key, timeout_s=3.0, seq=None):
        self.port = port
        self.device = device
        self.who = who
        self.key = key
        self.timeout_s = timeout_s
        # a random first seq: a line equal to the dealer console's last one would be taken for
        # its retransmission and answered with the old reply
        self.seq = random.randrange(proto.MAX_SEQ + 1) if seq is None else seq
        self.notes = []
        self._parser = proto.Parser(proto.TABLE)

    def request(self, verb, args=(), opts=None, text=None):
        """Send one line and return the table's `ok` Message; Refused for `error`, DeviceTimeout
        when no answer comes after TRIES sends."""
        self.seq = (self.seq + 1) % (proto.MAX_SEQ + 1)
        wire = proto.encode(proto.Message(self.seq, verb, args, opts, text))
        for _ in range(TRIES):
            self.port.write(wire)
            reply = self._await(self.seq)
            if reply is not None:
                if reply.verb == "error":
                    raise Refused(reply)
                return reply
        raise DeviceTimeout("no answer to %s from the table after %d tries of %.1f s (is this the table's "
                            "console port, at this baud rate?)" % (verb, TRIES, self.timeout_s))

    def _await(self, seq):
        end = time.monotonic() + self.timeout_s
        while time.monotonic() < end:
            try:
                raw = self.port.read_until(b"\n", "waiting for the table's reply", timeout_s=max(0.05, end -
                                           time.monotonic()), watch_reset=False)
            except DeviceTimeout:
                return None
            for item in self._parser.feed(raw):
                if isinstance(item, proto.ConsoleError):
                    continue  # a damaged line (or not FELT1 at all): the reply may still come
                if item.verb in ("ok", "error") and item.opts.get("re") == seq:
                    return item
                if item.verb in ("alert", "propose") and item.text:
                    self.notes.append(item.text)
        return None

    def command(self, text):
        """Challenge, answer and run one floor command; returns the ok Message."""
        nonce = self.request("challenge").opts["nonce"]
        tag = answer_challenge(self.key, self.device, nonce, self.who, text)
        return self.request("auth", [self.who, nonce, tag], None, text)

    def send_deck(self, record):
        """Send a deck record line by line (deckline); returns the SHA-256 the table staged."""
        rows = record.rstrip("\n").split("\n")
        if len(rows) > proto.MAX_DECK_LINES:
            raise FeltError("a deck record has at most %d lines, this one %d" % (proto.MAX_DECK_LINES, len(rows)))
        digest = None
        for i in range(len(rows)):
            digest = self.request("deckline", [i + 1], None, rows[i]).opts.get("sha256", digest)
        if digest is None:
            raise FeltError("the table took the record but staged nothing (no sig line?)")
        return digest


def _deck_command(path):
    try:
        with open(path, encoding="utf-8") as f:
            rows = [r.rstrip("\r") for r in f.read().rstrip("\r\n").split("\n")]
    except UnicodeError:
        raise FeltError("%s is not a text file (a deck record is UTF-8 text)" % path)
    record = "\n".join(rows) + "\n"  # the text the table rebuilds from the lines (its SHA-256)
    deck_id = None
    for row in record.split("\n"):
        if row.startswith("deck "):
            deck_id = row[5:].strip()
    if not record.startswith(deckmap.HEADER + "\n") or not deck_id:
        raise FeltError("%s is not a Felt deck record (feltctl deck enroll writes one)" % path)
    digest = hashlib.sha256(record.encode()).hexdigest()
    return record, "deck %s %s" % (deck_id, digest), digest


def _open(args):
    """The table's console port, or its cmd/reply topics for mqtt://HOST:PORT/ROOM/TABLE
    (hardware/floor.md section 6: the same lines over the room's broker)."""
    if args.port.startswith("mqtt://"):
        from feltctl.room.mqtt import MqttPort, parse_table_url

        url, room, table = parse_table_url(args.port)
        return MqttPort(url, room, table, connect_timeout_s=args.timeout)
    return Transport(args.port, baud=args.baud, timeout_s=args.timeout)


def run(args):
    words = args.words
    try:
        key = KeyStore(args.keys).role_key(args.device, "floor-" + args.floor)
        record = None
        if words[0] == "deck":
            if len(words) != 2:
                raise FeltError("usage: feltctl floor PORT deck RECORD_FILE")
            record, text, digest = _deck_command(words[1])
        elif words == ["time", "now"]:  # issue 16 item 4: this PC's clock, UTC seconds, as signed
            text = "time %d" % int(time.time())
        else:
            text = " ".join(words)
        auth.parse_command(text)  # a command the table would refuse is refused before the port opens
        with _open(args) as t:
            client = FloorClient(t, args.device, args.floor, key, timeout_s=args.timeout)
            if record is not None:
                staged = client.send_deck(record)
                if staged != digest:
                    raise FeltError("the table staged SHA-256 %s..., the file is %s... (line damaged on the way)"
                                    % (staged[:12], digest[:12]))
            reply = client.command(text)
    except Refused as e:
        print("feltctl floor: refused by the table: %s" % e, file=sys.stderr)
        return 1
    except (AuthError, FeltError, OSError) as e:
        print("feltctl floor: error: %s" % e, file=sys.stderr)
        return 1
    audit = reply.opts.get("audit")
    print("floor %s: done by %s%s" % (text if len(text) < 60 else text[:57] + "...", args.floor,
                                      (" (audit record %d)" % audit) if audit is not None else ""))
    for note in client.notes:
        print("  table: %s" % note)
    return 0
