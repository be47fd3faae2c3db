# Floor commands from the room (room layer, pure): the floor sends the same FELT1 lines a console
# would -- `challenge`, then `auth NAME NONCE TAG "command"` -- on the table's cmd topic, and the
# table answers with the same reply lines on its reply topic. They go through the floor desk's
# challenge/HMAC path (security/floordesk.py, auth.py): no new trust path (issue 15 item 2).
# Only the floor verbs pass; anything else is refused by name.
from felt.proto import console as proto

FLOOR_VERBS = ("challenge", "auth")


class _Replies:
    """What FloorDesk.answer writes its replies to: FELT1 lines collected for the reply topic."""

    def __init__(self):
        self.lines = []
        self._seq = 0

    def _send(self, verb, opts, text=None):
        self._seq = (self._seq + 1) % (proto.MAX_SEQ + 1)
        self.lines.append(proto.encode(proto.Message(self._seq, verb, (), opts, text)).decode().strip())

    def reply_ok(self, re, **results):
        results["re"] = re
        self._send("ok", results)

    def reply_error(self, re, text, rule=None, legal=None, code=None):
        opts = {"re": re}
        for k, v in (("rule", rule), ("legal", legal), ("code", code)):
            if v is not None:
                opts[k] = v
        self._send("error", opts, text)


class RoomDesk:
    """desk: FloorDesk (None: the table has no floor keys; every command is refused). handle(line,
    now_ms) -> [reply lines]. Lines come from the broker's thread into `inbox` (a list the caller
    appends to); step(now_ms) answers them in the loop, and reply(line) publishes each answer."""

    def __init__(self, desk, reply=None):
        self.desk = desk
        self.reply = reply
        self.inbox = []
        self._parser = proto.Parser(proto.CONSOLE)

    def handle(self, line, now_ms):
        out = _Replies()
        if isinstance(line, str):
            line = line.encode()
        for msg in self._parser.feed(bytes(line).strip() + b"\r\n"):
            if isinstance(msg, proto.ConsoleError):
                out.reply_error(msg.seq if msg.seq is not None else 0, "bad line: %s" % msg.code, code=msg.code)
            elif msg.verb not in FLOOR_VERBS:
                out.reply_error(msg.seq, "only challenge and auth come from the room", code="direction")
            elif self.desk is None:
                out.reply_error(msg.seq, "this table has no floor keys (unprovisioned)", code="auth")
            else:
                self.desk.answer(msg, out, now_ms)
        return out.lines

    def step(self, now_ms):
        while self.inbox:
            for r in self.handle(self.inbox.pop(0), now_ms):
                if self.reply is not None:
                    self.reply(r)
