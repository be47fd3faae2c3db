# Dealer-console link driver (felt.drivers.console_link) over an in-memory cable joining two links,
# manual clock. Checks the session rules of hardware/protocols/console.md.
from check import eq

from felt.drivers.console_link import ConsoleLink
from felt.proto import console as proto
from felt.proto.console import Message


class End:
    """One end of a cable: what one side writes, the other reads."""

    def __init__(self):
        self.rx = bytearray()
        self.peer = None
        self.written = []

    def write(self, data):
        self.written.append(bytes(data))
        self.peer.rx.extend(data)
        return len(data)

    def any(self):
        return len(self.rx)

    def read(self, n):
        if not self.rx:
            return None
        chunk = bytes(self.rx[:n])
        self.rx[0:n] = b""
        return chunk


def cable():
    a, b = End(), End()
    a.peer, b.peer = b, a
    return a, b


def pair():
    t, c = cable()
    return ConsoleLink(t, proto.TABLE), ConsoleLink(c, proto.CONSOLE), t, c


def test_entry_delivered_and_ok_reply_reaches_console():
    table, desk, t, c = pair()
    seq = desk.send("raise", [4, 6000])
    (msg,) = table.poll(10)
    eq((msg.verb, msg.args, msg.at_ms), ("raise", [4, 6000], 10))
    table.reply_ok(msg.seq, total=6000)
    (reply,) = desk.poll(11)
    eq((reply.verb, reply.opts), ("ok", {"re": seq, "total": 6000}))


def test_sequence_numbers_count_and_wrap():
    table, desk, t, c = pair()
    desk._seq = proto.MAX_SEQ
    eq([desk.send("ping"), desk.send("ping")], [proto.MAX_SEQ, 0])


def test_ping_and_hello_are_session_level():
    table, desk, t, c = pair()
    desk.send("ping")
    desk.hello()
    eq(table.poll(0), [])
    eq(table.peer_version, proto.VERSION)
    got = desk.poll(1)
    eq([m.verb for m in got], ["pong"])  # the table's hello is session-level on this side too
    eq(desk.peer_version, proto.VERSION)
    eq(b" role=table " in c.peer.written[-1], True)
    eq(table.poll(2), [])  # the console never answers a hello: no hello loop
    eq(len(c.written), 2)


def test_broken_line_gets_named_error_reply_and_next_line_survives():
    table, desk, t, c = pair()
    good = proto.encode(Message(9, "fold", [3]))
    bad = good.replace(b"fold 3", b"fold 4")  # checksum no longer matches
    c.write(bad + good)
    (msg,) = table.poll(5)
    eq((msg.verb, msg.args), ("fold", [3]))
    eq(table.health.errors, 1)
    (reply,) = desk.poll(6)
    eq((reply.verb, reply.opts["re"], reply.opts["code"]), ("error", 9, "checksum"))


def test_retransmitted_line_is_not_applied_twice_and_reply_is_repeated():
    table, desk, t, c = pair()
    wire = proto.encode(Message(3, "bet", [2, 300]))
    c.write(wire)
    (msg,) = table.poll(0)
    table.reply_ok(3, total=300)
    first = t.written[-1]
    c.write(wire)  # the console did not hear the ok and sends the same line again
    eq(table.poll(100), [])
    eq(table.health.duplicates, 1)
    eq(t.written[-1], first)
    c.write(proto.encode(Message(4, "bet", [2, 300])))  # same entry, new seq: a new entry
    eq(len(table.poll(200)), 1)


def test_wrong_direction_verbs_are_refused_by_the_table():
    table, desk, t, c = pair()
    c.write(proto.encode(proto.ok(1, 0)))
    eq(table.poll(0), [])
    (reply,) = desk.poll(1)
    eq(reply.opts["code"], "direction")


def test_alert_and_error_reply_shapes():
    table, desk, t, c = pair()
    table.alert("warn", "shoe reader stopped answering", device="shoe")
    table.reply_error(7, "minimum raise is 1,700", rule="BET-7", legal=(1700, 5000))
    got = desk.poll(0)
    eq([(m.verb, m.args, m.text) for m in got],
       [("alert", ["warn"], "shoe reader stopped answering"), ("error", [], "minimum raise is 1,700")])
    eq(got[1].opts, {"re": 7, "rule": "BET-7", "legal": (1700, 5000)})
