# The room on a table (room layer): what felt.runtime.app.build adds when the data root has a
# room.json -- {"room": "room1", "name": "T1" (default: the device), "broker": "mqtt://HOST:PORT"}
# on a Raspberry Pi (published directly, paho-mqtt: felt.room.mqtt_link), or {"room": ..., "console":
# true} on a Pico (its messages go out as FELT1 `pub` lines to `feltctl bridge`). The outbox lives in
# <root>/room (hardware/floor.md).
from felt.room import ack, message, publisher
from felt.room.desk_link import RoomDesk
from felt.room.outbox import Outbox
from felt.table.alerts import WARN


class Room:
    """What attach() made: publisher, outbox, desk (RoomDesk, None without floor keys), link
    (mqtt_link.TableLink or wire.ConsoleSender)."""

    def __init__(self):
        self.publisher = self.outbox = self.desk = self.link = None


def _heap():
    try:
        import gc

        return gc.mem_free()  # MicroPython only; CPython has none: -1 in health
    except (ImportError, AttributeError):
        return None


CATCH_UP = 32  # audit records of this boot written before the room was attached, published at most


def publish_audit(log, pub):
    """Every audit record from now on goes to the room (felt.security.audit.AuditLog.on_record),
    and first the ones this boot wrote before the room was there (the boot, power and mode
    records): those after the previous run's last record, in the live file, at most CATCH_UP (the
    floor sees a gap in the chain for any it did not get, never a break)."""
    after = log.last.seq if log.last is not None else 0
    if log.seq > after:
        lines = log.store.lines()
        todo = []
        for line in lines:
            tab = line.find("\t")
            if tab > 0 and line[:tab].isdigit() and int(line[:tab]) > after:
                todo.append(line)
        for line in todo[-CATCH_UP:]:
            pub.audit(line)
    log.on_record = pub.audit


def _ack_check(app, device, log):
    """(ack.AckCheck with the board's floor keys or None, alert(text)): the floor's `stored`
    acknowledgement is checked with the floor keys the board verifies floor commands with, and a
    refused one is a device alert (display, log, audit; hardware/floor.md section 4)."""
    desk = app.desk
    keys = desk.floor_keys if desk is not None else None
    if not keys:
        if log is not None:
            log("room: no floor keys: the floor's acknowledgements cannot be checked, the outbox keeps everything")
        acks = None
    else:
        acks = ack.AckCheck(device, keys)
    table = app.table

    def alert(text):
        table.device_alert("room", WARN, text, "nothing is dropped; check who may publish on the room's "
                           "stored topic (the broker's ACL) and the bridge")
    return acks, alert


def attach(app, config, folder, device, device_key=None, log=None):
    """Build the room side of a table (app: felt.runtime.app.App, its runtime built) and return
    Room. The caller hands the public log and each finished hand to room.publisher (event, hand)."""
    r = Room()
    rt = app.runtime
    r.outbox = Outbox(folder)
    name = config.get("name") or device
    sgn = message.signer(device_key) if device_key is not None else None  # unprovisioned: unsigned, refused by the floor
    r.publisher = publisher.Publisher(device, config.get("room", "room1"), name, app.table, sgn, r.outbox,
                                      heap=_heap, boot_ms=rt.hal.ticks_ms())
    feed = app.feed
    if feed is not None:
        public, bcast = feed.public, feed.broadcast

        def to_public(record):
            if public is not None:
                public(record)
            r.publisher.feed(record)

        def to_broadcast(record):
            if bcast is not None:
                bcast(record)
            r.publisher.broadcast(record)
        feed.public = to_public
        feed.broadcast = to_broadcast
        table = app.table
        r.publisher.guard = lambda text: feed.clean(text, table)
    r.publisher.runtime = rt
    if app.audit is not None:
        publish_audit(app.audit, r.publisher)
    rt.after_step.append(r.publisher.observe)
    rt.alert_sinks.append(r.publisher.alert)
    acks, alert = _ack_check(app, device, log)
    if config.get("console"):
        from felt.room import wire

        r.link = wire.ConsoleSender(rt.link, r.outbox, acks, alert)
        rt.console_filters.insert(0, r.link)  # its puback lines: before the journal's line note
        rt.after_step.append(r.link.step)
        return r  # floor commands arrive on the console itself (the bridge writes them there)
    r.desk = RoomDesk(app.desk)
    rt.after_step.append(r.desk.step)
    if config.get("broker"):
        from felt.room.mqtt_link import TableLink  # CPython (the Pi): paho-mqtt

        r.link = TableLink(config["broker"], r.outbox, r.publisher.room, name, inbox=r.desk.inbox,
                           client_id="felt-table-" + name, acks=acks, alert=alert)
        r.desk.reply = r.link.reply
        rt.after_step.append(lambda now_ms: r.link.pump())
        if log is not None:
            log("room: publishing to %s as %s/%s" % (config["broker"], r.publisher.room, name))
    return r
