# Dealer-console protocol FELT1 (felt.proto.console): every verb encodes and decodes back, lines
# fed whole, one byte at a time and with garbage around them; every protocol fault is a named
# ConsoleError that keeps the line's seq, and the parser carries on with the next line.
import check
from check import eq, raises

from felt.errors import FrameError
from felt.proto import console
from felt.proto.console import CONSOLE, TABLE, ConsoleError, Message


def line(text):
    """A wire line for `text` (body without checksum) with a correct checksum."""
    body = text + " "
    return body.encode() + ("*%04X" % console.crc16(body.encode())).encode() + b"\r\n"


def test_crc16_ccitt_false_check_value():
    eq(console.crc16(b"123456789"), 0x29B1)
    eq(console.crc16(b""), 0xFFFF)


def test_documented_example_lines_are_byte_exact():
    # These lines are quoted in hardware/protocols/console.md.
    eq(console.encode(console.action(7, "raise", 4, 6000)), b"FELT1 7 raise 4 6000 *FD01\r\n")
    eq(console.encode(console.push(12, 4, [1000, 500, 100, 100, 100], declared="raise")),
       b"FELT1 12 push 4 1000,500,100x3 declared=raise *2FA2\r\n")
    eq(console.encode(console.error(3, 12, "minimum raise is 1700", rule="BET-7", legal=(1700, 5000))),
       b'FELT1 3 error re=12 rule=BET-7 legal=1700..5000 "minimum raise is 1700" *524F\r\n')


SAMPLES = (
    # (sender, message)
    (CONSOLE, Message(0, "hello", (), {"proto": "1.0", "role": "console"})),
    (TABLE, Message(0, "hello", (), {"proto": "1.0", "role": "table", "fw": "0.1.0"})),
    (CONSOLE, Message(1, "ping")),
    (TABLE, Message(1, "pong", (), {"re": 1})),
    (CONSOLE, console.action(2, "fold", 3)),
    (CONSOLE, console.action(3, "check", 3)),
    (CONSOLE, console.action(4, "call", 5)),
    (CONSOLE, console.action(5, "call", 5, 600)),
    (CONSOLE, console.action(6, "bet", 6, 300)),
    (CONSOLE, console.action(7, "raise", 4, 6000)),  # BET-8: "raise, six thousand" = total 6,000
    (CONSOLE, console.action(8, "allin", 2)),
    (CONSOLE, console.action(9, "allin", 2, 1300)),
    (CONSOLE, console.action(10, "bringin", 7, 10)),
    (CONSOLE, console.action(11, "complete", 8, 20)),
    (CONSOLE, console.action(12, "bet", 1, 350, declared="pot")),  # BET-28: "pot" said in NL
    (CONSOLE, Message(13, "post", [1, "sb", 50])),
    (CONSOLE, Message(14, "post", [3, "straddle", 200])),
    # BET-12: one 5,000 chip, silent and after "raise"
    (CONSOLE, console.push(15, 2, [5000])),
    (CONSOLE, console.push(16, 2, [5000], declared="raise")),
    # BET-14 (b): 1,000 + 500 + 100 silently; BET-15: last chips 1,000 + three 100s
    (CONSOLE, console.push(17, 5, [1000, 500, 100])),
    (CONSOLE, console.push(18, 5, [1000, 100, 100, 100])),
    # BET-16: BB has two 25s out, drops 1,000 + 500 on them
    (CONSOLE, console.push(19, 2, [1000, 500], prior=[25, 25], pulled="none")),
    # BET-17: 500 + 25 to get change; BET-33/BET-32: amount said, then chips
    (CONSOLE, console.push(20, 6, [500, 25])),
    (CONSOLE, console.push(21, 6, [1000, 1000], declared="allin", said=2000)),
    (CONSOLE, Message(22, "confirm", [7])),
    (CONSOLE, Message(23, "reject", [8])),
    (CONSOLE, Message(24, "kill", [4], {"rule": "DEAL-25"}, "wrong number of cards after SA")),
    (CONSOLE, Message(25, "misdeal", [], {"rule": "DEAL-7"})),
    (CONSOLE, Message(26, "mark", [3, "exposed"], {"card": 2})),
    (CONSOLE, Message(27, "floor", ["penalty", 5], {"rule": "BET-39"}, "one round")),
    (CONSOLE, Message(28, "newhand")),
    (CONSOLE, Message(29, "stack", [9, 20000])),
    (CONSOLE, Message(30, "set", ["game", "omaha8"])),
    (CONSOLE, Message(31, "set", ["structure", "pot_limit"])),
    (CONSOLE, Message(32, "set", ["bb", 100])),
    (CONSOLE, Message(33, "set", ["hr.sa_definition", "two_actions"])),
    (CONSOLE, Message(34, "set", ["hr.rake"], None, "5% cap 150")),
    (CONSOLE, Message(35, "get", ["hr.straddle"])),
    # 1.1 floor-key verbs (hardware/security.md section 5)
    (CONSOLE, Message(36, "challenge")),
    (CONSOLE, Message(37, "auth", ["alice", "01" * 16, "5a" * 32], None, "stack 3 1500")),
    (CONSOLE, Message(38, "auth", ["floor.Night-2", "0123456789" * 3 + "ab", "c4" * 32], None, "deck C " + "9f" * 32)),
    (CONSOLE, Message(39, "deckline", [1], None, "felt-deck 1")),
    (TABLE, console.ok(45, 36, nonce="0123456789" * 3 + "01", ttl=60000)),
    (TABLE, console.ok(46, 39, sha256="0" * 64)),
    (TABLE, console.ok(40, 17, action="raise", total=2000, change=0)),
    (TABLE, console.error(41, 7, "raise must be at least 1,700", rule="BET-7", legal=(1700, 5000))),
    (TABLE, Message(42, "propose", [7], {"rule": "DEAL-8", "seat": 3, "remedy": "misdeal"}, "first card to seat 3, expected seat 2")),
    (TABLE, Message(43, "alert", ["warn"], {"device": "shoe"}, "reader stopped answering")),
    (TABLE, Message(44, "state", [], {"action_on": 5, "pot": 1350, "to_call": 600, "street": "flop"})),
    (TABLE, Message(65535, "alert", ["error"], {"rule": "DECK-5", "seat": 10}, 'tag "04AB" is "foreign" \\ check')),
)


def test_floor_verbs_keep_their_hex_as_text_and_refuse_malformed_fields():
    # an all-digit nonce is text, not a number (ok's other keys turn digits into ints)
    got = console.decode_line(console.encode(console.ok(1, 2, nonce="1" * 32, sha256="2" * 64))[:-2])
    eq((got.opts["nonce"], got.opts["sha256"]), ("1" * 32, "2" * 64))
    n, t = "0a" * 16, "5a" * 32
    for args, text in (
        (["alice", n[:-2], t], "void"),  # nonce 15 bytes
        (["alice", n.upper(), t], "void"),  # upper-case hex
        (["alice", n, t + "00"], "void"),  # tag 33 bytes
        (["x" * 33, n, t], "void"),  # name longer than 32
        (["al ice", n, t], "void"),
        (["alice", n, t], None),  # the command text is required
    ):
        body = "FELT1 9 auth %s%s " % (" ".join(args), (' "%s"' % text) if text else "")
        wire = (body + "*%04X" % console.crc16(body.encode())).encode()
        (err,) = console.Parser(CONSOLE).feed(wire + b"\r\n")
        assert isinstance(err, ConsoleError), (args, err)
        eq((err.code, err.seq), ("bad_args", 9), repr(args))
    for line_no in ("0", "65"):
        body = 'FELT1 3 deckline %s "felt-deck 1" ' % line_no
        (err,) = console.Parser(CONSOLE).feed((body + "*%04X" % console.crc16(body.encode())).encode() + b"\n")
        eq(err.code, "bad_args")


def test_a_table_may_not_send_the_floor_verbs():
    wire = console.encode(Message(4, "challenge"))
    (err,) = console.Parser(TABLE).feed(wire)
    eq(err.code, "direction")


def test_every_sample_round_trips():
    for sender, msg in SAMPLES:
        wire = console.encode(msg)
        assert wire.endswith(b"\r\n")
        eq(console.decode_line(wire[:-2], sender), msg)


def test_samples_fed_whole_bytewise_and_with_garbage():
    for sender in (CONSOLE, TABLE):
        msgs = [m for s, m in SAMPLES if s == sender]
        stream = b"".join(console.encode(m) for m in msgs)
        eq(console.Parser(sender).feed(stream), msgs, "whole")
        p = console.Parser(sender)
        got = []
        for i in range(len(stream)):
            got.extend(p.feed(stream[i:i + 1]))
        eq(got, msgs, "bytewise")
        p = console.Parser(sender)
        got = p.feed(b"\x00\xffnoise\r\n") + p.feed(stream) + p.feed(b"FELT1 garbage\n")
        eq([e.code for e in (got[0], got[-1])], ["not_ascii", "checksum"])
        eq(got[1:-1], msgs, "garbage around")


def test_line_endings_cr_lf_crlf_and_empty_lines():
    wire = console.encode(Message(1, "ping"))[:-2]
    for end in (b"\r", b"\n", b"\r\n"):
        eq(console.Parser().feed(wire + end + end + wire + end), [Message(1, "ping")] * 2)


def test_checksum_errors_keep_seq_and_next_line_survives():
    good = console.encode(console.action(5, "fold", 3))
    bad = bytearray(good)
    bad[good.index(b"fold")] = ord("F")  # corrupted verb: CRC no longer matches
    got = console.Parser(CONSOLE).feed(bytes(bad) + good)
    assert isinstance(got[0], ConsoleError) and isinstance(got[0], FrameError)
    eq((got[0].code, got[0].seq), ("checksum", 5))
    eq(got[1], console.action(5, "fold", 3))
    for wire, code in (
        (b"FELT1 5 fold 3\r\n", "checksum"),  # missing
        (b"FELT1 5 fold 3 *" + line("FELT1 5 fold 3")[-6:-2].lower() + b"\r\n", "checksum"),  # lower-case hex
        (b"FELT1 5 fold 3 *12\r\n", "checksum"),
    ):
        (err,) = console.Parser().feed(wire)
        eq(err.code, code)


def test_version_is_refused_by_name():
    (err,) = console.Parser().feed(line("FELT2 9 fold 3"))
    eq((err.code, err.seq), ("version", 9))
    (err,) = console.Parser().feed(line("HELLO 9 fold 3"))
    eq(err.code, "syntax")


def test_seq_rules():
    for seq in ("007", "65536", "-1", "x"):
        (err,) = console.Parser().feed(line("FELT1 %s ping" % seq))
        eq(err.code, "seq", seq)
    with raises(ValueError):
        console.encode(Message(70000, "ping"))


def test_unknown_verb_and_wrong_direction():
    (err,) = console.Parser().feed(line("FELT1 3 dance 2"))
    eq((err.code, err.seq), ("unknown_verb", 3))
    (err,) = console.Parser(CONSOLE).feed(console.encode(console.ok(1, 2)))
    eq(err.code, "direction")
    (err,) = console.Parser(TABLE).feed(console.encode(console.action(1, "fold", 2)))
    eq(err.code, "direction")
    eq(console.Parser(TABLE).feed(console.encode(Message(1, "ping"))), [Message(1, "ping")])  # both ways


def test_bad_arguments_are_named():
    cases = (
        "FELT1 1 fold",  # seat missing
        "FELT1 1 fold 0",  # seats are 1..10
        "FELT1 1 fold 11",
        "FELT1 1 fold 3 4",  # too many
        "FELT1 1 bet 3",  # amount missing
        "FELT1 1 bet 3 -5",
        "FELT1 1 bet 3 05",  # leading zero
        "FELT1 1 raise 3 1e3",
        "FELT1 1 push 3 1000,0",  # zero chip
        "FELT1 1 push 3 1000,,500",
        "FELT1 1 push 3 100x0",
        "FELT1 1 push 3 100x65",  # more than 64 chips
        "FELT1 1 push 3 500 declared=maybe",
        "FELT1 1 push 3 500 pulled=some",
        "FELT1 1 push 3 500 colour=red",  # unknown option
        "FELT1 1 push 3 500 declared=raise declared=raise",
        "FELT1 1 mark 3 upside_down",
        "FELT1 1 set colour red",
        "FELT1 1 set hr.Bad x",
        "FELT1 1 set bb 1*2",
        'FELT1 1 fold 3 "why"',  # fold takes no text
        "FELT1 1 kill 3 rule=bet-7",
        "FELT1 1 kill 3 rule=BET-07",
    )
    for text in cases:
        (err,) = console.Parser(CONSOLE).feed(line(text))
        assert isinstance(err, ConsoleError), text
        eq((err.code, err.seq), ("bad_args", 1), text)
    for text in ("FELT1 2 error re=1", "FELT1 2 alert warn", "FELT1 2 alert loud \"x\"", "FELT1 2 error re=1 legal=9..3 \"x\""):
        (err,) = console.Parser(TABLE).feed(line(text))
        eq(err.code, "bad_args", text)


def test_syntax_errors_are_named():
    for text in ('FELT1 1 kill 3 "a" rule=BET-1', 'FELT1 1 kill 3 "open', 'FELT1 1 kill 3 "bad \\n"',
                 "FELT1 1 push 3 declared=raise 500", "FELT1 1"):
        (err,) = console.Parser(CONSOLE).feed(line(text))
        eq(err.code, "syntax", text)


def test_overlong_line_reported_once():
    p = console.Parser()
    got = p.feed(b"X" * 1000 + b"\r\n" + console.encode(Message(4, "ping")))
    eq([getattr(e, "code", None) for e in got], ["too_long", None])
    eq(got[1], Message(4, "ping"))


def test_encoder_refuses_what_decoder_would_refuse():
    for msg in (
        Message(1, "fold", []),
        Message(1, "fold", [12]),
        Message(1, "dance", []),
        Message(1, "push", [3, []]),
        Message(1, "fold", [3], {"colour": "red"}),
        Message(1, "fold", [3], None, "text"),
        Message(1, "alert", ["warn"]),
        Message(1, "alert", ["warn"], None, "tab\there"),
        Message(1, "bet", [3, 10 ** 10]),
        Message(1, "alert", ["warn"], None, "x" * 300),  # longer than a line may be
        Message(1, "error", [], {"re": 1, "rule": "\u00c9T-1"}, "x"),  # not ASCII (CPython's isalpha takes it)
        Message(1, "error", [], {"re": 1, "rule": "BET-\u0661"}, "x"),  # an Arabic-Indic digit
    ):
        with raises(ValueError):
            console.encode(msg)
    with raises(ValueError):
        console.action(1, "dance", 3)


def test_chip_list_run_length_and_order_kept():
    msg = console.push(1, 4, [1000, 100, 100, 500, 100])
    wire = console.encode(msg)
    assert b" 1000,100x2,500,100 " in wire
    eq(console.decode_line(wire[:-2]).args[1], [1000, 100, 100, 500, 100])


def test_error_reply_to_a_bad_line_names_its_seq():
    (err,) = console.Parser(CONSOLE).feed(line("FELT1 77 bet 3"))
    reply = console.error_reply(5, err)
    eq((reply.opts["re"], reply.opts["code"]), (77, "bad_args"))
    eq(console.decode_line(console.encode(reply)[:-2], TABLE), reply)
    (err,) = console.Parser(CONSOLE).feed(b"garbage\n")
    reply = console.error_reply(6, err)
    assert "re" not in reply.opts
    console.encode(reply)


def _doc_lines(name):
    with open(check.repo_path("hardware/protocols/" + name)) as f:
        return f.read().split("\n")


def test_every_line_quoted_in_console_md_decodes():
    found = 0
    for text in _doc_lines("console.md"):
        if text.startswith("FELT1 "):
            msg = console.decode_line(text.encode())
            eq(console.encode(msg), text.encode() + b"\r\n", "re-encoded doc line")
            found += 1
    assert found >= 40, found


def test_documented_floor_answer_is_the_real_hmac():
    # console.md "Floor commands": line 41's tag answers nonce 01.. for floor key alice (32 x 0x21)
    from felt.security.auth import answer
    tag = answer(b"\x21" * 32, "table1", "01" * 16, "alice", "stack 3 1500")
    lines = [t for t in _doc_lines("console.md") if t.startswith("FELT1 41 auth alice ")]
    eq(len(lines), 1)
    eq(console.decode_line(lines[0].encode()).args[2], tag)


def test_lines_split_anywhere_give_the_same_messages():
    # the parser takes runs up to CR/LF in slices (issue 20): every split point, exact MAX_LINE,
    # one byte over, CR alone, LF alone, an over-long line arriving in pieces
    ok = console.encode(Message(4, "ping"))
    exact = b"F" * console.MAX_LINE
    stream = b"\r\n" + ok + exact + b"\n" + b"Y" * (console.MAX_LINE + 1) + b"\r" + ok[:-2] + b"\n" + b"\r\r"
    want = None
    for cut in range(len(stream) + 1):
        p = console.Parser()
        got = p.feed(stream[:cut]) + p.feed(stream[cut:])
        codes = [getattr(e, "code", None) for e in got]
        if want is None:
            want = codes
        eq(codes, want, "cut at %d" % cut)
    eq(want, [None, "syntax", "too_long", None])
    p = console.Parser()
    eq([getattr(e, "code", None) for e in [x for b in stream for x in p.feed(bytes([b]))]], want)


def _allocated(fn, *args):
    """Bytes allocated by fn(*args) on MicroPython (gc.mem_alloc() around it: the WebAssembly port
    never collects inside a call, the unix port only when its heap is full, after gc.collect here)."""
    import gc
    gc.collect()
    before = gc.mem_alloc()
    fn(*args)
    return gc.mem_alloc() - before


def test_encoding_a_reply_makes_little_garbage():
    # hardware/memory.md (showdown round): the table's `ok` reply to every console entry allocated
    # 4,096 B on the 32-bit port (7,808 on 64-bit), in every entry's main-loop step, the showdown's
    # too: the line was decoded again to check it, and verb() built its schema record from ~30
    # small objects. Now a line that cannot be refused is not decoded again and the record keeps its
    # options as the schema row's text: 784 B (1,344).
    if not check.MICROPYTHON:
        raise check.Skip("gc.mem_alloc() is MicroPython's")
    reply = console.ok(9, 41)
    eq(console.encode(reply), b"FELT1 9 ok re=41 *ECF0\r\n")
    used = _allocated(console.encode, reply)
    small = check.sys.maxsize < 2 ** 32  # a 32-bit word: the WebAssembly port
    assert used <= (800 if small else 1400), used


def test_decoding_an_action_makes_little_garbage():
    # every console entry is decoded in its main-loop step, the showdown's too (hardware/memory.md,
    # showdown round): a split head and a copy of the rest of the line, a checksum slice, a partition
    # a token and the verb's option dict are no longer made: 1,968 -> 912 B on the 32-bit port,
    # 3,776 -> 1,728 on 64-bit
    if not check.MICROPYTHON:
        raise check.Skip("gc.mem_alloc() is MicroPython's")
    wire = console.encode(console.action(812, "call", 4))[:-2]
    eq(console.decode_line(wire, CONSOLE), console.action(812, "call", 4))
    used = _allocated(console.decode_line, wire, CONSOLE)
    small = check.sys.maxsize < 2 ** 32
    assert used <= (1000 if small else 1900), used
