# The room's MQTT links (host tools, and the Raspberry Pi table, which runs CPython): paho-mqtt,
# QoS 1. TableLink sends a table's outbox (felt.room.outbox) and drops each message when its PUBACK
# comes; it takes floor command lines from the table's cmd topic. MqttPort is the floor's end of the
# same path: a Transport-like port for feltctl.commands.floor.FloorClient, so a floor command over
# MQTT is the same challenge/HMAC exchange as over the console (issue 15 item 2).
import collections
import queue
import threading
import uuid

import paho.mqtt.client as mqtt

from felt.errors import DeviceTimeout, FeltError
from felt.room import message
from feltctl.room.broker import parse_url


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
        self.connected = threading.Event()
        self._acked_mids = collections.deque()  # PUBACKs (network thread -> pump)
        self._inflight = {}  # mid -> seq (pump's own)
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
        while self._acked_mids:
            seq = self._inflight.pop(self._acked_mids.popleft(), None)
            if seq is not None:
                self.outbox.ack(seq)
                self._sent.pop(seq, None)
                self.acks += 1
        if not self.connected.is_set():
            return 0
        n = 0
        for seq, kind, payload in self.outbox.pending():
            if seq in self._sent:
                continue
            info = self.c.publish(message.topic(self.room, self.table, kind), payload, qos=1,
                                  retain=kind in message.RETAINED)
            if info.rc != mqtt.MQTT_ERR_SUCCESS:
                break
            self._inflight[info.mid] = seq
            self._sent[seq] = True
            n += 1
        self.published += n
        return n


class MqttPort:
    """The floor's end of a table's command path: write(bytes) publishes one FELT1 line on the
    table's cmd topic; read_until() returns its next reply line. For FloorClient."""

    def __init__(self, url, room, table, client_id=None, connect_timeout_s=5.0):
        self.room = room
        self.table = table
        self.replies = queue.Queue()
        self._ready = threading.Event()
        host, port = parse_url(url)
        self.c = client(client_id, url)
        self.c.on_connect = self._on_connect
        self.c.on_subscribe = lambda *a: self._ready.set()
        self.c.on_message = lambda c, u, m: self.replies.put(m.payload)
        self.c.connect_async(host, port, keepalive=10)
        self.c.loop_start()
        if not self._ready.wait(connect_timeout_s):
            self.close()
            raise DeviceTimeout("no MQTT broker answered at %s:%d within %.0f s" % (host, port, connect_timeout_s))

    def _on_connect(self, c, userdata, flags, reason, props):
        if not reason.is_failure:
            c.subscribe(message.topic(self.room, self.table, message.REPLY), qos=1)

    def write(self, data):
        self.c.publish(message.topic(self.room, self.table, message.COMMAND), bytes(data).strip(), qos=1)

    def read_until(self, ending=b"\n", what="", timeout_s=3.0, watch_reset=False):
        try:
            return bytes(self.replies.get(timeout=timeout_s)) + b"\r\n"
        except queue.Empty:
            raise DeviceTimeout("no reply from table %s/%s %s" % (self.room, self.table, what))

    def close(self):
        self.c.disconnect()
        self.c.loop_stop()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def parse_table_url(url):
    """'mqtt://HOST:PORT/ROOM/TABLE' -> (broker url, room, table); FeltError otherwise."""
    head, _sep, path = url.partition("://")
    rest = path.split("/")
    if head != "mqtt" or len(rest) != 3 or not all(rest):
        raise FeltError("a table over MQTT is mqtt://HOST:PORT/ROOM/TABLE, not %r" % url)
    return "mqtt://" + rest[0], rest[1], rest[2]
