# The room's MQTT links (host tools, and the Raspberry Pi table, which runs CPython): paho-mqtt,
# QoS 1. TableLink sends a table's outbox (felt.room.outbox) and drops each message when the
# floor's `stored` acknowledgement names it; it takes floor command lines from the table's cmd topic. MqttPort is the floor's end of the
# same path: a Transport-like port for feltctl.commands.floor.FloorClient, so a floor command over
# MQTT is the same challenge/HMAC exchange as over the console (issue 15 item 2).
import queue
import threading

from felt.errors import DeviceTimeout, FeltError
from felt.room import message
from felt.room.mqtt_link import TableLink, client, parse_url  # noqa: F401 (the host's names for them)


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
