# Room messages (room layer, pure): the MQTT topic scheme of a card room and the signed envelope
# every table message travels in (hardware/floor.md). The signature is the board's Ed25519 feed
# signature over ROOM_LABEL, the device and the canonical text of every other field, so anyone
# with the board's public key can check a message and nobody on the way (bridge, broker) can
# make or change one. signer()/public_key() are the one place the key scheme is chosen.
import json

from felt.security import ed25519, secrecy
from felt.security.hmac import hexlify, unhexlify

ROOT = "felt"
ROOM_LABEL = "felt-room 1"  # not the feed's label: a feed record is never taken for a room message
VERSION = 1
# table -> floor, one topic each under felt/<room>/<table>/; state and health are retained (a
# dashboard that subscribes later sees the table at once)
KINDS = ("state", "event", "alert", "hand", "health", "feed", "broadcast", "audit")
RETAINED = ("state", "health")
COMMAND = "cmd"  # floor -> table: one FELT1 line (challenge / auth, hardware/protocols/console.md)
REPLY = "reply"  # table -> floor: the table's FELT1 reply line
# floor -> table: the seqs the floor has stored (committed), with the floor key's HMAC (felt.room.ack:
# NAME TAG SEQ-RANGES). Only this takes a message out of a table's outbox: a broker's PUBACK says
# nothing about the floor (a floor that has not subscribed yet never gets a non-retained message
# the broker acknowledged)
STORED = "stored"
FIELDS = ("v", "dev", "room", "table", "kind", "seq", "t_ms", "body")


class RoomError(ValueError):
    """A room message that is malformed (not JSON, a field missing or of the wrong type)."""


def topic(room, table, kind):
    """'felt/<room>/<table>/<kind>'; room and table names are MQTT-safe words."""
    for name in (room, table):
        if not name or "/" in name or "+" in name or "#" in name:
            raise RoomError("room and table names are words without / + #, got %r" % (name,))
    return "%s/%s/%s/%s" % (ROOT, room, table, kind)


def parse_topic(text):
    """(room, table, kind) of a room topic, or None."""
    w = text.split("/")
    if len(w) != 4 or w[0] != ROOT or not w[1] or not w[2] or not w[3]:
        return None
    return w[1], w[2], w[3]


def signer(device_seed):
    """The board's message signer (ed25519.Signer): its device key (keys.Keys.sign), the key that
    signs its feed and audit records (issue 16 item 1: the floor holds only the public half)."""
    return secrecy.feed_signer(device_seed)


def public_key(device_seed):
    """The 32-byte key the floor checks a board's messages with (public)."""
    return secrecy.feed_public(device_seed)


def make(dev, room, table, kind, seq, t_ms, body):
    return {"v": VERSION, "dev": dev, "room": room, "table": table, "kind": kind, "seq": seq,
            "t_ms": t_ms, "body": body}


def signed_bytes(msg):
    """What a message's "sig" signs: the label, the device and every field but "sig"."""
    body = {}
    for k in msg:
        if k != "sig":
            body[k] = msg[k]
    return ("%s\0%s\0%s" % (ROOM_LABEL, msg.get("dev", ""), secrecy.canonical(body))).encode()


def sign(sgn, msg):
    """msg with "sig" set by sgn (an ed25519.Signer or anything with sign(bytes) -> 64 bytes)."""
    msg["sig"] = hexlify(sgn.sign(signed_bytes(msg)))
    return msg


def verify(public, msg, check=None):
    """True when msg["sig"] is the signature of the board whose public key is `public`. check:
    check(public, data, sig) -> bool (default: felt.security.ed25519.verify; the floor passes a
    faster one, same answers)."""
    sig = msg.get("sig")
    if not isinstance(sig, str) or len(sig) != 128:
        return False
    try:
        raw = unhexlify(sig)
        data = signed_bytes(msg)
    except ValueError:
        return False
    return (check or ed25519.verify)(public, data, raw)


def encode(msg):
    """The payload text: canonical JSON (keys sorted, no spaces), the same on every interpreter."""
    return secrecy.canonical(msg)


def decode(payload):
    """The message dict of a payload (bytes or text); RoomError when it is not one."""
    try:
        if isinstance(payload, (bytes, bytearray)):
            payload = bytes(payload).decode()
        msg = json.loads(payload)
    except (ValueError, UnicodeError) as e:
        raise RoomError("not a room message: %s" % e)
    if not isinstance(msg, dict):
        raise RoomError("not a room message: a JSON object is expected")
    for k in FIELDS:
        if k not in msg:
            raise RoomError("room message without %r" % k)
    if not isinstance(msg["seq"], int) or msg["seq"] < 1 or msg["kind"] not in KINDS:
        raise RoomError("room message with seq %r kind %r" % (msg["seq"], msg["kind"]))
    return msg
