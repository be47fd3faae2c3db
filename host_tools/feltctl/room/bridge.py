# The bridge of a Pico table (host tools): the table has no network, so a Pi or PC on its FELT1
# console port publishes for it. It reassembles the table's `pub` lines (felt.room.wire), checks
# that each is a room message of this table, publishes it (QoS 1; state and health retained) and
# relays the floor's `stored` acknowledgement as `puback NAME TAG "SEQS"` (the floor's HMAC, checked
# by the table: felt.room.ack) (the broker's PUBACK is
# not enough: a floor that had not subscribed yet never gets the message) -- only then does the
# table drop it from its outbox.
# It cannot sign: the messages are signed on the table, so a bridge can delay but not forge.
# Floor command lines from the table's cmd topic are written to the console as they are, and the
# table's ok/error replies go back on the reply topic (issue 15 items 1-2).
import collections
import time

import paho.mqtt.client as mqtt

from felt.proto import console as proto
from felt.room import ack, message, wire
from feltctl.room.broker import parse_url
from feltctl.room.mqtt import client


class Bridge:
    """port: a pyserial-like object (read(n) with a short timeout, write(bytes)); url, room, table:
    where to publish. step() does one round; run(duration_s) loops."""

    def __init__(self, port, url, room, table, log=None):
        self.port = port
        self.room = room
        self.table = table
        self.log = log or (lambda text: None)
        self.parser = proto.Parser(proto.TABLE)
        self.asm = wire.Reassembler()
        self.commands = collections.deque()  # cmd topic lines (network thread -> step)
        self.stored = collections.deque()  # (who, tag, seqs) the floor stored (network thread -> step)
        self._retained = {}  # kind -> highest seq published retained
        self._seq = 0
        self.published = 0
        self.refused = 0
        self.c = client(None, url)
        self.connected = False
        self.c.on_connect = self._on_connect
        self.c.on_disconnect = lambda *a: setattr(self, "connected", False)
        self.c.on_message = self._on_message
        host, p = parse_url(url)
        self.c.connect_async(host, p, keepalive=10)
        self.c.loop_start()

    def _on_connect(self, c, userdata, flags, reason, props):
        if not reason.is_failure:
            c.subscribe([(message.topic(self.room, self.table, message.COMMAND), 1),
                         (message.topic(self.room, self.table, message.STORED), 1)])
            self.connected = True

    def _on_message(self, c, userdata, m):
        if m.topic.endswith("/" + message.STORED):
            try:
                self.stored.append(ack.split_payload(m.payload))  # the table checks the tag, not the bridge
            except ack.AckError as e:
                self.log("bridge: %s" % e)
        else:
            self.commands.append(bytes(m.payload))

    def _line(self, verb, args, text=None):
        self._seq = (self._seq + 1) % (proto.MAX_SEQ + 1)
        self.port.write(proto.encode(proto.Message(self._seq, verb, args, None, text)))

    def step(self):
        if not self.connected:
            # the console is not read while the broker is away: the table's lines wait in the
            # port (then in its outbox), rather than pieces taken here with nowhere to go
            time.sleep(0.01)
            return
        data = self.port.read(4096)
        for item in self.parser.feed(data) if data else ():
            if isinstance(item, proto.ConsoleError):
                continue  # a damaged line: the table sends the message again (no puback)
            if item.verb == "pub":
                self._piece(item)
            elif item.verb in ("ok", "error"):
                self.c.publish(message.topic(self.room, self.table, message.REPLY),
                               proto.encode(item).strip(), qos=1)
        while self.commands:
            self.port.write(self.commands.popleft().strip() + b"\r\n")
        while self.stored:
            who, tag, text = self.stored.popleft()
            try:
                self._line("puback", [who, tag], text)
            except ValueError as e:  # not a line the console takes: the table would refuse it anyway
                self.log("bridge: stored acknowledgement not relayed: %s" % e)

    def _piece(self, item):
        try:
            done = self.asm.feed(item)
        except wire.WireError as e:
            self.log("bridge: %s" % e)
            return
        if done is None:
            return
        seq, payload = done
        try:
            msg = message.decode(payload)
        except message.RoomError as e:
            self.refused += 1
            self.log("bridge: message %d refused: %s" % (seq, e))
            return
        if msg["seq"] != seq or msg["room"] != self.room or msg["table"] != self.table:
            self.refused += 1
            self.log("bridge: message %d is for %s/%s, not this table's" % (seq, msg["room"], msg["table"]))
            return
        # retained only when newer than the last one retained: a state sent again must not replace
        # the broker's newer one
        retain = msg["kind"] in message.RETAINED and seq > self._retained.get(msg["kind"], 0)
        if retain:
            self._retained[msg["kind"]] = seq
        info = self.c.publish(message.topic(self.room, self.table, msg["kind"]), payload, qos=1, retain=retain)
        if info.rc == mqtt.MQTT_ERR_SUCCESS or info.rc == mqtt.MQTT_ERR_NO_CONN:
            self.published += 1  # paho sends it once connected; the table waits for the floor's word

    def run(self, duration_s=None):
        end = None if duration_s is None else time.monotonic() + duration_s
        while end is None or time.monotonic() < end:
            self.step()

    def close(self):
        self.c.disconnect()
        self.c.loop_stop()
