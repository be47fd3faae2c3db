# `feltctl floor PORT ...` against the simulated table behind a pty (the real firmware's loop,
# console link and FloorDesk in this process; the manual clock advanced by a bridge thread): a
# floor person's PC runs stack / void / level / structure / delay / deck over the FELT1 wire, and
# each refusal (wrong key, replayed answer, tampered arguments, stale challenge, a silent port)
# is a clear message and a non-zero exit with the table unchanged.
import os
import select
import threading
import time

import pytest

from felt.proto import console as proto
from felt.security import audit as al
from felt.security import deckmap, secrecy
from felt.security.auth import FloorGate, answer
from felt.security.floordesk import FloorDesk
from felt.sim.runner import Sim
from feltctl.cli import main as feltctl
from feltctl.commands.floor import FloorClient, Refused
from feltctl.board.signing import KeyStore
from feltctl.board.transport import Transport

DEVICE = "table1"


class SimTable:
    """The simulated table with its console UART bridged to a pty; `path` is the port to open."""

    def __init__(self, floor_keys, ttl_ms=60000):
        self.sim = Sim()
        for line in ("table holdem no_limit seats=3 sb=50 bb=100 button=1", "seat 1 1000", "seat 2 1000",
                     "seat 3 1000"):
            self.sim.run(line)
        count = [0]

        def nonces(n):
            count[0] += 1
            return bytes([count[0] % 256]) * n
        self.log = al.AuditLog(al.MemStore(), al.signer(b"\x42" * 32))
        self.feed = secrecy.SecretFeed(DEVICE, b"\x33" * 32, nonces, delay_ms=1800000, audit=self.log)
        self.gate = FloorGate(DEVICE, floor_keys, nonces, audit=self.log, ttl_ms=ttl_ms)
        self.sim.rt.desk = FloorDesk(self.gate, self.sim.table, self.feed, floor_keys, DEVICE)
        self.master, slave = os.openpty()
        self.path = os.ttyname(slave)
        self._slave = slave
        self.lock = threading.Lock()
        self.silent = False
        self._stop = False
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self):
        sim = self.sim
        uart = sim.console
        clock = sim.hal.clock
        while not self._stop:
            ready, _, _ = select.select([self.master], [], [], 0.005)
            with self.lock:
                if ready:
                    try:
                        data = os.read(self.master, 4096)
                    except OSError:
                        return
                    if not self.silent:
                        uart.feed(data)
                for _ in range(4):
                    clock.advance_ms(5)
                    sim.rt.step()
                if uart.sent:
                    out = bytes(uart.sent)
                    uart.sent = bytearray()
                    os.write(self.master, out)

    def close(self):
        self._stop = True
        self._thread.join(2)
        os.close(self.master)
        os.close(self._slave)


@pytest.fixture
def store(tmp_path):
    s = KeyStore(str(tmp_path / "keys"))
    s.create(DEVICE, ["alice", "bob"])
    return s


@pytest.fixture
def table(store):
    t = SimTable(store.load(DEVICE).floor)
    yield t
    t.close()


def floor(store, table, *words, who="alice", timeout="2"):
    return feltctl(["floor", table.path, "--device", DEVICE, "--floor", who, "--keys", store.root,
                    "--timeout", timeout] + list(words))


def test_stack_from_the_pc_is_done_and_audited(store, table, capsys):
    assert floor(store, table, "stack", "2", "2500") == 0
    out = capsys.readouterr().out
    assert "floor stack 2 2500: done by alice (audit record" in out, out
    assert table.sim.table.stacks[1] == 2500
    rec = al.verify(table.log.store.lines())[-1]
    assert (rec.who, rec.kind, rec.text) == ("alice", "floor", "stack 2 2500")


def test_delay_structure_level_and_void(store, table, capsys):
    t = table.sim.table
    assert floor(store, table, "delay", "600000") == 0
    assert table.feed.delay_ms == 600000
    assert floor(store, table, "structure", "pot_limit") == 0
    assert t.config.record.structure == "pot_limit"
    with table.lock:
        t.config.levels = [{"sb": 50, "bb": 100}, {"sb": 100, "bb": 200}]
    assert floor(store, table, "level", "2") == 0
    assert (t.config.sb, t.config.bb) == (100, 200)
    assert floor(store, table, "void") == 1  # no hand in progress: a named rule, not done
    err = capsys.readouterr().err
    assert "refused by the table: rule GAME-6" in err, err


def test_deck_record_from_a_file(store, table, tmp_path, capsys):
    key = store.role_key(DEVICE, "floor-alice")
    uids = [bytes([4, 0x55, 0x66, 0, 0, 1, i]) for i in range(52)]
    e = deckmap.Enrollment()
    for u in uids:
        e.add(u)
    path = tmp_path / "deckC.txt"
    path.write_text(deckmap.sign(DEVICE, "C", "alice", key, e.scan.mapping))
    assert floor(store, table, "deck", str(path)) == 0
    assert table.sim.table.registry.lookup(uids[3], "C") == deckmap.sorted_order()[3]  # 5c


def test_wrong_key_is_refused(store, table, capsys):
    folder = store.folder(DEVICE)
    with open(os.path.join(folder, "floor-bob.key")) as f:
        bob = f.read()
    with open(os.path.join(folder, "floor-alice.key"), "w") as f:
        f.write(bob)  # the PC answers for alice with another key
    assert floor(store, table, "stack", "2", "2500") == 1
    err = capsys.readouterr().err
    assert "refused by the table: auth" in err and "wrong key" in err, err
    assert table.sim.table.stacks[1] == 1000


def _client(store, table, who="alice"):
    port = Transport(table.path, timeout_s=2.0)
    return port, FloorClient(port, DEVICE, who, store.role_key(DEVICE, "floor-" + who), timeout_s=2.0)


def test_replayed_and_tampered_answers_are_refused(store, table):
    port, c = _client(store, table)
    try:
        nonce = c.request("challenge").opts["nonce"]
        tag = answer(c.key, DEVICE, nonce, "alice", "stack 2 2500")
        assert c.request("auth", ["alice", nonce, tag], None, "stack 2 2500").verb == "ok"
        with table.lock:
            table.sim.table.stacks[1] = 1000
        with pytest.raises(Refused, match="replayed"):
            c.request("auth", ["alice", nonce, tag], None, "stack 2 2500")  # recorded, sent again
        nonce = c.request("challenge").opts["nonce"]
        tag = answer(c.key, DEVICE, nonce, "alice", "stack 2 2500")
        with pytest.raises(Refused, match="altered"):
            c.request("auth", ["alice", nonce, tag], None, "stack 2 9500")  # arguments changed on the way
        assert table.sim.table.stacks[1] == 1000
    finally:
        port.close()


def test_stale_challenge_is_refused(store):
    table = SimTable(store.load(DEVICE).floor, ttl_ms=1000)
    port, c = _client(store, table)
    try:
        nonce = c.request("challenge").opts["nonce"]
        with table.lock:
            table.sim.hal.clock.advance_ms(1500)
        tag = answer(c.key, DEVICE, nonce, "alice", "stack 2 2500")
        with pytest.raises(Refused, match="expired"):
            c.request("auth", ["alice", nonce, tag], None, "stack 2 2500")
        assert table.sim.table.stacks[1] == 1000
    finally:
        port.close()
        table.close()


def test_a_silent_table_is_a_timeout_not_a_hang(store, table, capsys):
    table.silent = True
    start = time.monotonic()
    assert floor(store, table, "stack", "2", "2500", timeout="0.3") == 1
    assert time.monotonic() - start < 5
    err = capsys.readouterr().err
    assert "no answer to challenge" in err, err


def test_a_malformed_command_is_refused_before_the_port_opens(store, capsys):
    assert feltctl(["floor", "/nonexistent/tty", "--device", DEVICE, "--floor", "alice", "--keys", store.root,
                    "stack", "2"]) == 1
    err = capsys.readouterr().err
    assert "takes 2 argument" in err, err


def test_the_table_answers_a_retransmitted_auth_without_running_it_twice(store, table):
    port, c = _client(store, table)
    try:
        nonce = c.request("challenge").opts["nonce"]
        tag = answer(c.key, DEVICE, nonce, "alice", "stack 2 2500")
        c.seq += 1
        wire = proto.encode(proto.Message(c.seq, "auth", ["alice", nonce, tag], None, "stack 2 2500"))
        port.write(wire)
        assert c._await(c.seq).verb == "ok"
        with table.lock:
            table.sim.table.stacks[1] = 1000
        port.write(wire)  # as if the reply was lost
        assert c._await(c.seq).verb == "ok"
        assert table.sim.table.stacks[1] == 1000
    finally:
        port.close()


def test_time_now_sets_the_event_logs_wall_clock_and_clear_ends_a_tilt(store, table, capsys):
    # issue 16 items 3-4 from the PC: the wall clock every later audit record carries, and the end
    # of a tilt (an integrity failure that locked play)
    import time as clock
    before = int(clock.time())
    assert floor(store, table, "time", "now") == 0
    rec = al.verify(table.log.store.lines())
    assert [r for r in rec if r.kind == "floor" and r.text.startswith("time ")], rec[-3:]
    assert rec[-1].kind == "clock" and before <= rec[-1].wall <= int(clock.time()) + 1, rec[-1]
    t = table.sim.table
    assert floor(store, table, "clear") == 1  # not in tilt: named, nothing done
    assert "not in tilt" in capsys.readouterr().err
    with table.lock:
        t.tilt("a tag not of deck A was read at seat 3")
    assert floor(store, table, "clear") == 0
    assert t.tilted is None
