# The MQTT link of a Raspberry Pi table (room layer; CPython only, paho-mqtt: the Pi's firmware runs
# under CPython, a Pico has no network and uses felt.room.wire through the bridge). TableLink sends
# the table's outbox (felt.room.outbox) with QoS 1 -- state and health retained -- and drops each
# message when its PUBACK comes; it takes floor command lines from the table's cmd topic into a
# RoomDesk's inbox and publishes the replies (hardware/floor.md sections 4 and 6). feltctl's floor
# tools use the same client() and parse_url().
import collections
import time
import uuid
from urllib.parse import urlparse

import paho.mqtt.client as mqtt

from felt.errors import ConfigError
from felt.room import message


RECENT_S = 10.0  # acknowledged messages sent again after a reconnect (the floor's replay window is 30 s)


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
    Call pump() from the table's loop (the outbox is the loop's); PUBACKs come in between."""

    def __init__(self, url, outbox, room, table, inbox=None, client_id=None, start=True):
        self.outbox = outbox
        self.room = room
        self.table = table
        self.inbox = inbox
        self.host, self.port = parse_url(url)
        self.connected = Flag()
        self._acked_mids = collections.deque()  # PUBACKs (network thread -> pump)
        self._inflight = {}  # mid -> (seq, kind, payload) (pump's own)
        self._recent = []  # [(monotonic s, seq, kind, payload)] acknowledged in the last RECENT_S
        self._was_connected = False
        self._reconnected = False
        self.resent = 0
        self._sent = {}  # seq -> True: handed to paho (it resends after a reconnect itself)
        self.published = 0
        self.acks = 0
        self.c = client(client_id, url)
        self.c.on_connect = self._on_connect
        self.c.on_disconnect = self._on_disconnect
        self.c.on_publish = self._on_publish
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
            if self.inbox is not None:
                c.subscribe(message.topic(self.room, self.table, message.COMMAND), qos=1)
            if self._was_connected:
                self._reconnected = True
            self._was_connected = True
            self.connected.set()

    def _on_disconnect(self, c, userdata, flags, reason, props):
        self.connected.clear()

    def _on_publish(self, c, userdata, mid, reason, props):
        self._acked_mids.append(mid)  # no lock here: paho holds its own while it calls this

    def _on_message(self, c, userdata, msg):
        if self.inbox is not None:
            self.inbox.append(msg.payload.decode("ascii", "replace"))

    def reply(self, line):
        """A FELT1 reply line to the floor (QoS 1, not retained)."""
        self.c.publish(message.topic(self.room, self.table, message.REPLY), line, qos=1)

    def pump(self):
        """Drop what the broker acknowledged, send what waits. Returns messages sent now."""
        now = time.monotonic()
        while self._acked_mids:
            entry = self._inflight.pop(self._acked_mids.popleft(), None)
            if entry is not None:
                self.outbox.ack(entry[0])
                self._sent.pop(entry[0], None)
                self.acks += 1
                self._recent.append((now,) + entry)
        while self._recent and now - self._recent[0][0] > RECENT_S:
            self._recent.pop(0)
        if not self.connected.is_set():
            return 0
        n = 0
        if self._reconnected:
            # a broker that went down may have acknowledged messages it never passed on (seen with
            # Mosquitto: a PUBACK, then SIGTERM before the floor's session had them): the last
            # RECENT_S of acknowledged messages go again; the floor drops what it has by seq
            # (and what paho had in flight: it resends that itself at once, maybe before the floor
            # is subscribed again)
            self._reconnected = False
            again = [(seq, kind, payload) for _t, seq, kind, payload in self._recent]
            again += sorted(self._inflight.values())
            for seq, kind, payload in again:
                self.c.publish(message.topic(self.room, self.table, kind), payload, qos=1,
                               retain=kind in message.RETAINED)
                self.resent += 1
        for seq, kind, payload in self.outbox.pending():
            if seq in self._sent:
                continue
            info = self.c.publish(message.topic(self.room, self.table, kind), payload, qos=1,
                                  retain=kind in message.RETAINED)
            if info.rc != mqtt.MQTT_ERR_SUCCESS:
                break
            self._inflight[info.mid] = (seq, kind, payload)
            self._sent[seq] = True
            n += 1
        self.published += n
        return n
