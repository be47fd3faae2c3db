# Helpers of the room tests (tests/host/test_room_*.py): a simulated table that publishes
# (the firmware's Sim with the secrecy feed, the publisher and its outbox), a collector on the
# broker that keeps every message by seq and acknowledges it as the floor does (`stored`), and the
# hand they play.
import socket
import threading
import time
import uuid

import paho.mqtt.client as mqtt

from felt.room import ack, message, publisher, wire
from felt.room.outbox import Outbox
from felt.security import secrecy
from felt.sim.runner import Sim

OWNER = b"\x07" * 32
FLOOR = b"\x21" * 32  # the floor key "alice" of these tables: floor commands and the `stored` acknowledgements
HAND = ["hand", "draw Ah to seat 2", "draw Kd to seat 3", "draw Kc to seat 1", "draw Qs to seat 2",
        "draw Qh to seat 3", "draw 2s to seat 1", "act 1 call", "act 2 call", "act 3 check", "draw 3c to burn",
        "draw 7h to board", "draw 8h to board", "draw 9c to board", "act 2 check", "act 3 check", "act 1 fold",
        "draw 4c to burn", "draw Jd to board", "act 2 check", "act 3 check", "draw 5d to burn",
        "draw 2d to board", "act 2 check", "act 3 check"]


def acks(name="t1", floor_keys=None):
    """The table's check of the floor's `stored` acknowledgements (felt.room.ack): its floor keys."""
    return ack.AckCheck(name, floor_keys or {"alice": FLOOR})


def nonces():
    state = [0]

    def source(n):
        state[0] += 1
        return bytes([(state[0] * 7 + i) & 255 for i in range(n)])
    return source


class SimTable:
    """A table that publishes: sim, feed, publisher (pub), outbox (box)."""

    def __init__(self, name="t1", room="room1", folder=None, delay_ms=2000, owner=OWNER, signer=None):
        self.pub = None
        self.name = name
        self.sim = Sim(log=self._log, history=self._history)
        self.sim.run("table holdem no_limit seats=3 sb=50 bb=100 button=1")
        self.feed = secrecy.SecretFeed(name, b"\x33" * 32, nonces(), delay_ms=delay_ms,
                                       signer=secrecy.feed_signer(owner))
        secrecy.install(self.sim.rt, self.feed)
        self.box = Outbox(folder)
        self.sent = []  # (seq, kind, payload) of every message made (a replay test publishes one again)
        put = self.box.put

        def keep(seq, kind, payload):
            self.sent.append((seq, kind, payload))
            put(seq, kind, payload)
        self.box.put = keep
        self.pub = publisher.Publisher(name, room, name, self.sim.table, signer or message.signer(owner), self.box)
        publisher.install(self.sim.rt, self.pub, self.feed)
        for s in (1, 2, 3):
            self.sim.run("seat %d 1000" % s)

    def _log(self, line):
        if self.pub is not None:
            self.pub.event(line)

    def _history(self, text):
        if self.pub is not None:
            self.pub.hand(text)


class Collector:
    """Subscribes to felt/<room>/# with a persistent session (QoS 1): msgs[(table, seq)] = message;
    dups counts repeats dropped by seq; replies lists reply lines. ack: answers each message on its
    table's `stored` topic, as the floor server does (a second collector says ack=False)."""

    def __init__(self, url, room="room1", client_id=None, clean=False, ack=True, floor=("alice", FLOOR)):
        from feltctl.room.broker import parse_url
        host, port = parse_url(url)
        self.msgs = {}
        self.dups = 0
        self.retained = []
        self.lock = threading.RLock()
        self.c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id or "col-" + uuid.uuid4().hex[:8],
                             protocol=mqtt.MQTTv311, clean_session=clean)
        self.c.reconnect_delay_set(0.1, 1)
        self.room = room
        self.ack = ack
        self.floor = floor  # (name, key) the acknowledgements are signed with
        self.subscribed = 0  # subscriptions acknowledged (one per connection)
        self.c.on_connect = lambda c, u, f, rc, p: c.subscribe("felt/%s/#" % room, qos=1)
        self.c.on_subscribe = lambda *a: setattr(self, "subscribed", self.subscribed + 1)
        self.c.on_message = self._on
        self.c.connect(host, port, keepalive=10)
        self.c.loop_start()

    def _on(self, c, u, m):
        parts = message.parse_topic(m.topic)
        if parts is None or parts[2] not in message.KINDS:
            return
        msg = message.decode(m.payload)
        with self.lock:
            if m.retain:
                self.retained.append(msg)
            key = (msg["table"], msg["seq"])
            if key in self.msgs:
                self.dups += 1
            self.msgs[key] = msg
        if self.ack:
            who, key = self.floor
            c.publish(message.topic(self.room, msg["table"], message.STORED),
                      ack.payload(key, msg["table"], who, str(msg["seq"])), qos=1)

    def seqs(self, table="t1"):
        with self.lock:
            return sorted(s for t, s in self.msgs if t == table)

    def wait_for(self, pred, timeout_s=10.0, pump=None):
        end = time.monotonic() + timeout_s
        while time.monotonic() < end:
            if pump is not None:
                pump()
            with self.lock:
                if pred():
                    return True
            time.sleep(0.02)
        return False

    def close(self):
        self.c.disconnect()
        self.c.loop_stop()


class PicoOnSocket:
    """A Pico table whose console is a TCP socket (pyserial socket:// on the bridge's side): the
    simulated board runs in this thread; bytes go between the socket and its console UART."""

    def __init__(self, t, desk, todo=None, floor_keys=None):
        self.t = t
        table = t.sim.table
        self.sender = wire.ConsoleSender(t.sim.rt.link, t.box, acks(t.name, floor_keys),
                                         lambda text: table.device_alert("room", "warn", text))
        t.sim.rt.console_filters.insert(0, self.sender)
        t.sim.rt.after_step.append(self.sender.step)
        t.sim.rt.desk = desk
        self.srv = socket.socket()
        self.srv.bind(("127.0.0.1", 0))
        self.srv.listen(1)
        self.url = "socket://127.0.0.1:%d" % self.srv.getsockname()[1]
        self.stop = False
        self.todo = list(todo if todo is not None else HAND)
        self.th = threading.Thread(target=self._run, daemon=True)
        self.th.start()

    def _run(self):
        conn, _a = self.srv.accept()
        conn.settimeout(0.005)
        sim = self.t.sim
        while not self.stop:
            try:
                data = conn.recv(4096)
                if data:
                    sim.console.feed(data)
            except socket.timeout:
                pass
            # step by step, taking what the board wrote to its console after every main-loop step
            # (the sim keeps only the last 20 lines of a statement: pub pieces would be lost)
            out = bytearray()
            sim.replies = []
            for _step in sim.run_steps(self.todo.pop(0) if self.todo else "wait 5"):
                out += sim.console.sent
                sim.console.sent = bytearray()
            # the statement's end moved the last step's lines into sim.replies (at most 20)
            out += "".join([r + "\r\n" for r in sim.replies]).encode() + bytes(sim.console.sent)
            sim.console.sent = bytearray()
            sim.replies = []
            if out:
                try:
                    conn.sendall(bytes(out))
                except OSError:
                    break  # the bridge went away (the test is ending)
        conn.close()
