# The MQTT link of a Raspberry Pi table (room layer; CPython only, paho-mqtt: the Pi's firmware runs
# under CPython, a Pico has no network and uses felt.room.wire through the bridge). TableLink sends
# the table's outbox (felt.room.outbox) with QoS 1 -- state and health retained -- and drops each
# message when the floor's `stored` acknowledgement names it and its HMAC under one of the board's
# floor keys verifies (felt.room.ack; not on the broker's PUBACK: that says nothing about the floor); it takes floor command lines from the table's cmd topic into a
# RoomDesk's inbox and publishes the replies (hardware/floor.md sections 4 and 6). feltctl's floor
# tools use the same client() and parse_url().
import collections
import time
import uuid
from urllib.parse import urlparse

import paho.mqtt.client as mqtt

from felt.errors import ConfigError
from felt.room import message
from felt.room.ack import AckError, split_payload


RESEND_S = 5.0  # a message the floor has not acknowledged by then goes again (the floor's replay window is 30 s)
WINDOW = 64  # messages sent and not acknowledged by the floor: a floor that is away gets these again, not the outbox


class Flag:
    """Set by the network thread, read by the loop (an attribute write is atomic in CPython)."""

    def __init__(self):
        self.on = False

    def set(self):
        self.on = True

    def clear(self):
        self.on = False

    def is_set(self):
        return self.on

    def wait(self, timeout_s):
        end = time.monotonic() + timeout_s
        while not self.on and time.monotonic() < end:
            time.sleep(0.01)
        return self.on


def parse_url(url):
    """'mqtt://host:port' (or host:port) -> (host, port); port 1883 by default."""
    if "://" not in url:
        url = "mqtt://" + url
    u = urlparse(url)
    if u.scheme not in ("mqtt", "tcp"):
        raise ConfigError("broker URL %r: only mqtt://HOST:PORT (plain TCP) is supported" % url)
    return u.hostname or "127.0.0.1", u.port or 1883


def client(client_id, url, clean=True):
    """A paho client (MQTT 3.1.1) that reconnects by itself within 2 s of a broker coming back;
    clean=False: a persistent session (the broker keeps QoS 1 messages for it while it is away)."""
    c = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id or "felt-" + uuid.uuid4().hex[:10],
                    protocol=mqtt.MQTTv311, clean_session=clean)
    c.reconnect_delay_set(min_delay=0.1, max_delay=2)
    c.max_inflight_messages_set(200)
    c.max_queued_messages_set(0)  # unlimited: the outbox bounds what waits
    return c


class TableLink:
    """url: mqtt://HOST:PORT; outbox: the table's; room, table: its topic names; inbox: a list the
    cmd topic's lines are appended to (felt.room.desk_link.RoomDesk.inbox), None: not subscribed.
    Call pump() from the table's loop (the outbox is the loop's); acknowledgements come in between.
    At most WINDOW messages wait for the floor's acknowledgement; one that waited RESEND_S goes
    again, and one older than an acknowledged seq goes again at once (the floor has a later one:
    this one was lost on the way, e.g. published before the floor had subscribed)."""

    def __init__(self, url, outbox, room, table, inbox=None, client_id=None, start=True, acks=None, alert=None):
        self.outbox = outbox
        self.room = room
        self.table = table
        self.inbox = inbox
        self.host, self.port = parse_url(url)
        self.connected = Flag()
        self.acks_check = acks  # ack.AckCheck (the board's floor keys); None: nothing is ever dropped
        self.alert = alert  # alert(text) for a refused acknowledgement (the table's device alert)
        self._stored = collections.deque()  # `stored` payloads (network thread -> pump, checked there)
        self._flying = {}  # seq -> monotonic s it was last published (pump's own); 0: due again
        self._reconnected = False
        self._was_connected = False
        self.resent = 0
        self.published = 0
        self.acks = 0
        self.refused = 0  # stored acknowledgements refused (alerted)
        self.c = client(client_id, url)
        self.c.on_connect = self._on_connect
        self.c.on_disconnect = self._on_disconnect
        self.c.on_message = self._on_message
        if start:
            self.start()

    def start(self):
        self.c.connect_async(self.host, self.port, keepalive=10)
        self.c.loop_start()
        return self

    def close(self):
        self.c.disconnect()
        self.c.loop_stop()

    def _on_connect(self, c, userdata, flags, reason, props):
        if not reason.is_failure:
            c.subscribe(message.topic(self.room, self.table, message.STORED), qos=1)
            if self.inbox is not None:
                c.subscribe(message.topic(self.room, self.table, message.COMMAND), qos=1)
            if self._was_connected:
                self._reconnected = True
            self._was_connected = True
            self.connected.set()

    def _on_disconnect(self, c, userdata, flags, reason, props):
        self.connected.clear()

    def _on_message(self, c, userdata, msg):
        if msg.topic.endswith("/" + message.STORED):
            self._stored.append(bytes(msg.payload))
        elif self.inbox is not None:
            self.inbox.append(msg.payload.decode("ascii", "replace"))

    def reply(self, line):
        """A FELT1 reply line to the floor (QoS 1, not retained)."""
        self.c.publish(message.topic(self.room, self.table, message.REPLY), line, qos=1)

    def _take(self, data):
        """The seqs an authentic `stored` payload dropped from the outbox; a refused one (forged,
        altered, replayed, unsigned) drops nothing and is alerted."""
        try:
            if self.acks_check is None:
                raise AckError("refused: stored acknowledgement, but this board has no floor key to check it")
            who, tag, text = split_payload(data)
            return self.acks_check.take(who, tag, text, self.outbox)
        except AckError as e:
            self.refused += 1
            if self.alert is not None:
                self.alert(str(e))
            return ()

    def pump(self):
        """Drop what the floor stored, send what waits. Returns messages sent now (resends too)."""
        flying = self._flying
        while self._stored:
            done = self._take(self._stored.popleft())
            top = 0
            for seq in done:
                if flying.pop(seq, None) is not None:
                    self.acks += 1
                top = max(top, seq)
            for s in flying:
                if s < top:
                    flying[s] = 0  # the floor has a later one: a gap, this one goes again now
        if not self.connected.is_set():
            return 0
        if self._reconnected:
            self._reconnected = False
            for s in flying:
                flying[s] = 0  # whatever the broker had may be gone with it: due again
        now = time.monotonic()
        n = 0
        for seq, kind in self.outbox.waiting():
            at = flying.get(seq)
            if at is not None:
                if now - at < RESEND_S:
                    continue
                # not retained: an older state sent again must not replace the broker's newer one
                retain = False
                self.resent += 1
            elif len(flying) >= WINDOW:
                break  # oldest first: everything after this one is new too
            else:
                retain = kind in message.RETAINED
            info = self.c.publish(message.topic(self.room, self.table, kind), self.outbox.payload(seq), qos=1,
                                  retain=retain)
            if info.rc != mqtt.MQTT_ERR_SUCCESS:
                break
            flying[seq] = now
            n += 1
        self.published += n
        return n
