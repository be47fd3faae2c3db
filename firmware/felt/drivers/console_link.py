# Dealer-console link driver -- drivers layer: owns an injected UART-like object (read(n), write(b),
# any()) and the FELT1 codec (felt.proto.console); poll(now_ms) -> received messages. It handles the
# session only -- sequence numbers, hello/ping, error replies to broken lines, retransmitted lines --
# and hands every valid entry to the caller; what an entry means is the controller's business.
# Implements hardware/protocols/console.md ("Session rules").
from felt.proto import console as proto

_NONE = []  # what a poll without entries returns: shared, never appended to (issue 20 item 4)

class ConsoleHealth:
    def __init__(self):
        self.lines = 0  # valid lines received
        self.errors = 0  # broken lines (each answered with an error reply)
        self.duplicates = 0  # retransmitted lines answered again, not delivered twice
        self.last_seen_ms = None


class ConsoleLink:
    """One end of a FELT1 link. `role` is proto.TABLE (the firmware: accepts console verbs) or
    proto.CONSOLE (a console or test harness: accepts table verbs). Each received Message gets
    `at_ms`. Broken lines are answered with `error re=<seq> code=<name>` (table role only) and
    counted; `ping` is answered with `pong`, and the table answers `hello` with its own (neither
    is delivered).
    A line that repeats the previous line's seq and bytes is a retransmission: the reply that went
    out for it is sent again and the line is not delivered twice. text_filters: fn(text) -> text,
    applied in list order to every text= this link sends (the caller's list, kept: the table's
    secrecy guard); None: texts go out as given."""

    def __init__(self, uart, role=proto.TABLE, fw="0.1.0", log=None, text_filters=None):
        self.uart = uart
        self.role = role
        self.fw = fw
        self.log = log
        self.text_filters = text_filters if text_filters is not None else []
        self.health = ConsoleHealth()
        self.peer_version = None  # from the peer's hello, e.g. "1.0"
        self._parser = proto.Parser(proto.CONSOLE if role == proto.TABLE else proto.TABLE)
        self._seq = 0
        self._last_line = None  # (seq, message) of the last delivered line
        self._last_reply = None  # bytes of the reply sent for it

    def next_seq(self):
        seq = self._seq
        self._seq = (self._seq + 1) % (proto.MAX_SEQ + 1)
        return seq

    def send(self, verb, args=(), opts=None, text=None):
        """Encode and write one message with our next seq; returns that seq."""
        if text:
            for f in self.text_filters:
                text = f(text)
        msg = proto.Message(self.next_seq(), verb, args, opts, text)
        wire = proto.encode(msg)
        self.uart.write(wire)
        if self._last_line is not None and opts and opts.get("re") == self._last_line[0]:
            self._last_reply = wire
        return msg.seq

    def remember(self, msg, reply):
        """Take `msg` as the last line delivered and `reply` (bytes) as what went out for it: a
        retransmission of it is answered with `reply` again (after a reboot: the journal knows)."""
        self._last_line = (msg.seq, msg)
        self._last_reply = reply

    def reply_ok(self, re, **results):
        results["re"] = re
        return self.send("ok", (), results)

    def reply_error(self, re, text, rule=None, legal=None, code=None):
        opts = {"re": re}
        for k, v in (("rule", rule), ("legal", legal), ("code", code)):
            if v is not None:
                opts[k] = v
        return self.send("error", (), opts, text)

    def alert(self, level, text, rule=None, seat=None, device=None):
        opts = {}
        for k, v in (("rule", rule), ("seat", seat), ("device", device)):
            if v is not None:
                opts[k] = v
        return self.send("alert", [level], opts, text)

    def hello(self):
        return self.send("hello", (), {"proto": proto.VERSION, "role": self.role, "fw": self.fw})

    def poll(self, now_ms):
        n = self.uart.any()
        if not n:
            return _NONE  # the steady poll allocates nothing (and its frame fits the C stack)
        return self._take(self.uart.read(n), now_ms)

    def _take(self, data, now_ms):
        if not data:
            return _NONE
        out = []
        for item in self._parser.feed(data):
            if isinstance(item, proto.ConsoleError):
                self._broken(item)
                continue
            self.health.last_seen_ms = now_ms
            if self._last_line is not None and self._last_line[0] == item.seq and self._last_line[1] == item:
                self.health.duplicates += 1
                if self._last_reply is not None:
                    self.uart.write(self._last_reply)
                continue
            self.health.lines += 1
            self._last_line = (item.seq, item)
            self._last_reply = None
            if item.verb == "ping":
                self.send("pong", (), {"re": item.seq})
            elif item.verb == "hello":
                self.peer_version = item.opts.get("proto")
                if self.role == proto.TABLE:  # only the table answers, so two links never loop
                    self.hello()
            else:
                item.at_ms = now_ms
                out.append(item)
        return out

    def _broken(self, err):
        self.health.errors += 1
        if self.role != proto.TABLE:
            if self.log is not None:
                self.log("console: %s" % err)
            return
        # a broken line's error quotes what was typed: inert before any filter sees it (issue 12 item 1)
        reply = proto.error_reply(self.next_seq(), err)
        reply.text = proto.inert(reply.text)
        if self.log is not None:
            self.log("console: %s" % reply.text)
        self.uart.write(proto.encode(reply))
