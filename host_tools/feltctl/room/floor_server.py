# `feltctl floor serve` (host tools): the floor server. It subscribes to a room on the broker with a
# persistent session, accepts only messages whose signature checks against the table's public key
# and whose seq is new (duplicates dropped, gaps and forgeries raised as floor alerts), stores them
# (store.Store; SQLite by default), acknowledges each stored seq to its table on the table's
# `stored` topic once the store has committed it, signed with the floor key (only that empties a
# table's outbox), and serves the dashboard (every table live, lights as drawn,
# proposals with confirm/reject, reader health, level and blinds, chip counts, hand search and
# replay, each table's audit trail with the floor's verdict on every record) and the broadcast overlay, with live updates by server-sent events. Confirm/reject go
# to the table as floor commands over MQTT (challenge + HMAC, feltctl.commands.floor.FloorClient).
import json
import os
import queue
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

from felt.engine.cards import parse_cards
from felt.engine.rank import evaluate
from felt.room import ack, message
from felt.security import audit as auditlib
from feltctl.room import keys
from feltctl.room.broker import parse_url
from feltctl.room.mqtt import MqttPort, client
from feltctl.room.store import folded_seats

WEB = os.path.join(os.path.dirname(os.path.abspath(__file__)), "web")
CLIENT_QUEUE = 2000  # SSE events held for one browser; a slower one is resynchronised, never waited for
REPLAY_S = 30.0  # a copy of a message taken longer ago than this is a replay, not a QoS 1 resend
ACK_S = 0.05  # stored seqs are committed and acknowledged in batches this often


class Floor:
    """url/room: the broker and room; public_keys: {table: 32-byte key}; store: a store.Store;
    floor_name/floor_key: this desk's floor key name and key_for(table) -> its key on that table
    (floor keys are per board; for confirm/reject)."""

    def __init__(self, url, room, public_keys, store, floor_name=None, floor_key=None, client_id=None,
                 replay_s=REPLAY_S):
        self.url = url
        self.room = room
        self.public_keys = dict(public_keys)
        self.store = store
        self.floor_name = floor_name
        self.floor_key = floor_key
        self.replay_s = replay_s
        self.lock = threading.Lock()
        self.tables = {}  # table -> {"state":, "health":, "seq":, "alerts": [...], "reveal":, "events": [...]}
        self.clients = []  # SSE queues
        self.stats = {"accepted": 0, "duplicates": 0, "refused": 0, "replayed": 0, "gaps": 0, "lagged": 0}
        # a persistent session: what the tables published while the server was away waits for it
        self.c = client(client_id or "felt-floor-%s" % room, url, clean=False)
        # the table -> floor kinds only (not cmd/reply/stored: the floor's own lines)
        self.c.on_connect = lambda c, u, f, rc, p: c.subscribe(
            [("%s/%s/+/%s" % (message.ROOT, room, k), 1) for k in message.KINDS])
        self.c.on_subscribe = lambda *a: setattr(self, "subscribed", True)
        self.subscribed = False
        self.c.on_message = self._on_message
        self.connected = False
        self._acks = {}  # table -> [seq] taken (stored or already had), not yet acknowledged
        self._acking = None  # the acknowledging thread
        self._unsigned_said = False

    def start(self, wait_s=5.0):
        """Connect and subscribe; returns once subscribed (or after wait_s: it goes on trying), so
        a floor started before its tables misses nothing they publish."""
        host, port = parse_url(self.url)
        self.c.connect_async(host, port, keepalive=10)
        self.c.loop_start()
        self._acking = threading.Event()
        self._acker = threading.Thread(target=self._ack_loop, args=(self._acking,), daemon=True)
        self._acker.start()
        end = time.monotonic() + wait_s
        while not self.subscribed and time.monotonic() < end:
            time.sleep(0.01)
        return self

    def close(self):
        if self._acking is not None:
            self._acking.set()
            self._acker.join(5)
        self.flush_acks()
        self.c.disconnect()
        self.c.loop_stop()

    def _ack_loop(self, stop):
        while not stop.wait(ACK_S):
            self.flush_acks()

    def flush_acks(self):
        """Commit the store, then tell each table which of its seqs the floor now has (its outbox
        drops them). Also the seqs it had already: their first acknowledgement was lost. Each
        acknowledgement carries the HMAC of this desk's floor key on that table (felt.room.ack): a
        table takes no other. Without a floor key nothing is acknowledged (tables keep their
        outboxes) and one floor alert says so."""
        with self.lock:
            acks, self._acks = self._acks, {}
        if not acks:
            return 0
        self.store.flush()
        if self.floor_key is None or self.floor_name is None:
            if not self._unsigned_said:
                self._unsigned_said = True
                self._refuse("-", "no floor key (--floor NAME): stored messages cannot be acknowledged, "
                             "every table keeps its outbox", time.time())
            return 0
        n = 0
        for table in sorted(acks):
            key = self.floor_key(table) if callable(self.floor_key) else self.floor_key
            for text in ack.ranges_texts(sorted(set(acks[table]))):
                self.c.publish(message.topic(self.room, table, message.STORED),
                               ack.payload(key, table, self.floor_name, text), qos=1)
                n += 1
        return n

    def _acked(self, table, seq):
        with self.lock:
            self._acks.setdefault(table, []).append(seq)

    # ---- intake -------------------------------------------------------------------------------
    def _on_message(self, c, userdata, m):
        parts = message.parse_topic(m.topic)
        if parts is None or parts[2] not in message.KINDS:
            return  # cmd / reply lines: not ours to store
        self.take(parts, m.payload, time.time(), retained=bool(m.retain))

    def take(self, parts, payload, now_s, retained=False):
        """One message off the broker: 'refused' (a floor alert: malformed, on another table's
        topic, unknown table, signature does not check), 'replayed' (a copy of one taken more than
        replay_s ago: dropped and alerted), 'duplicate' (a QoS 1 resend or a retained copy: dropped)
        or 'accepted'."""
        room, table, kind = parts
        try:
            msg = message.decode(payload)
        except message.RoomError as e:
            return self._refuse(table, "malformed message on %s: %s" % (kind, e), now_s)
        if (msg["room"], msg["table"], msg["kind"]) != (room, table, kind):
            return self._refuse(table, "message %s/%s/%s seq %s arrived on the topic of %s/%s/%s" % (
                msg["room"], msg["table"], msg["kind"], msg["seq"], room, table, kind), now_s)
        pk = self.public_keys.get(table)
        if pk is None:
            return self._refuse(table, "message from unknown table %s (no public key)" % table, now_s)
        if msg.get("dev") != table or not message.verify(pk, msg, keys.check):
            return self._refuse(table, "forged or altered message refused: seq %s %s (signature does not check)"
                                % (msg["seq"], kind), now_s)
        with self.lock:
            t = self.tables.setdefault(table, {"state": None, "health": None, "seq": 0, "alerts": [],
                                               "reveal": None, "events": [], "taken": {}})
            # taken before (or older than what is remembered): a duplicate or a replay; a seq below
            # the highest that was never taken fills a gap (a table resending after a broker restart)
            first = t["taken"].get(msg["seq"])
            dup = first is not None or msg["seq"] <= t.get("forgot", 0)
            if dup:
                replayed = not retained and (first is None or now_s - first > self.replay_s)
                self.stats["replayed" if replayed else "duplicates"] += 1
            else:
                if t["seq"] and msg["seq"] > t["seq"] + 1:
                    self.stats["gaps"] += 1
                if msg["seq"] < t["seq"]:
                    self.stats["filled"] = self.stats.get("filled", 0) + 1
                    fresh = False  # an older state than the one shown: stored, not shown
                else:
                    t["seq"] = msg["seq"]
                    fresh = True
                t["taken"][msg["seq"]] = now_s
                if len(t["taken"]) > 4096:  # the oldest are forgotten: anything at or below them is a replay
                    for s in sorted(t["taken"])[:1024]:
                        del t["taken"][s]
                        t["forgot"] = max(t.get("forgot", 0), s)
                self.stats["accepted"] += 1
                if fresh or kind not in ("state", "health"):
                    self._apply(t, msg)
        if dup:
            # the table's own signed message, stored before: acknowledged again (its first
            # acknowledgement may have been lost, and the table sends it until one arrives)
            self._acked(table, msg["seq"])
            if replayed:
                self._refuse(table, "replayed message refused: seq %d %s was taken %s" % (
                    msg["seq"], kind, "long ago" if first is None else "%.0f s ago" % (now_s - first)), now_s)
                return "replayed"
            return "duplicate"
        self.store.add_message(msg, now_s)
        body = msg["body"]
        if kind == "audit":
            self._audit(table, body, now_s)
        elif kind == "hand":
            self.store.add_hand(table, body["hand"], body["phh"], body.get("sealed", 1))
        elif kind == "feed" and body.get("kind") == "reveal":
            self.store.reveal_hand(table, body["hand"], body["seats"])
            phh = self.store.hand_phh(table, body["hand"])
            with self.lock:  # the overlay's view, with who folded (from the stored hand)
                self.tables[table]["reveal"] = overlay_reveal(body, folded_seats(phh) if phh else ())
        self._acked(table, msg["seq"])  # after the store has it: acknowledged once committed
        self._push({"type": "msg", "table": table, "kind": kind, "seq": msg["seq"], "t_ms": msg["t_ms"],
                    "body": body, "received": now_s})
        return "accepted"

    def _audit(self, table, body, now_s):
        """One of the table's audit records (inside its signed message): its own signature checked
        with the table's public key and its link to the records before and after it (whichever
        arrived: they may come out of order), stored with the verdict; a bad signature, a broken
        chain or a record number used twice with another text is a floor alert."""
        line = body.get("line") if isinstance(body, dict) else None
        try:
            if not isinstance(line, str):
                raise auditlib.AuditError("no record line")
            r = auditlib.parse_line(line, 0)
        except auditlib.AuditError as e:
            return self._refuse(table, "audit record refused: %s" % e, now_s)
        alerts = []
        if not auditlib.record_verifies(self.public_keys[table], line):
            status = "bad-signature"
            alerts.append("audit record %d of %s: its signature does not verify (edited, or not written with this "
                          "table's key)" % (r.seq, table))
        elif r.seq == 1:
            status = "linked" if r.prev == auditlib.GENESIS else "broken"
        else:
            before = self.store.audit_line(table, r.seq - 1)
            if before is None:
                status = "unlinked"  # the record before has not arrived (or was written before the room)
            elif auditlib.line_hash(before) == r.prev:
                status = "linked"
            else:
                status = "broken"
        if status == "broken":
            alerts.append("audit chain of %s broken at record %d: it does not follow record %d (records edited, "
                          "removed or inserted)" % (table, r.seq, r.seq - 1))
        if not self.store.add_audit(table, r, status, now_s):
            if self.store.audit_line(table, r.seq) != line:
                alerts.append("audit record %d of %s arrived again with another text (history rewritten)"
                              % (r.seq, table))
        else:
            after = self.store.audit_line(table, r.seq + 1)
            if after is not None and status != "bad-signature":
                nxt = auditlib.parse_line(after, 0)
                if nxt.prev == auditlib.line_hash(line):
                    self.store.set_audit_status(table, nxt.seq, "linked")
                else:
                    self.store.set_audit_status(table, nxt.seq, "broken")
                    alerts.append("audit chain of %s broken at record %d: it does not follow record %d (records "
                                  "edited, removed or inserted)" % (table, nxt.seq, r.seq))
        with self.lock:
            self.stats["audit"] = self.stats.get("audit", 0) + 1
        for text in alerts:
            self._refuse(table, text, now_s)
        self._push({"type": "audit", "table": table, "seq": r.seq, "kind": r.kind, "who": r.who, "text": r.text,
                    "status": status})
        return status

    def _apply(self, t, msg):
        kind = msg["kind"]
        body = msg["body"]
        if kind == "state":
            t["state"] = body
        elif kind == "health":
            t["health"] = body
        elif kind == "alert":
            t["alerts"] = (t["alerts"] + [body])[-20:]
        elif kind == "event":
            t["events"] = (t["events"] + [body["text"]])[-30:]

    def _refuse(self, table, text, now_s):
        with self.lock:
            self.stats["refused"] += 1
        self.store.add_floor_alert(table, text, now_s)
        self._push({"type": "floor-alert", "table": table, "text": text, "received": now_s})
        return "refused"

    # ---- live updates -------------------------------------------------------------------------
    def subscribe(self):
        q = queue.Queue(CLIENT_QUEUE)
        with self.lock:
            self.clients.append(q)
        return q

    def unsubscribe(self, q):
        with self.lock:
            if q in self.clients:
                self.clients.remove(q)

    def _push(self, event):
        data = json.dumps(event)
        with self.lock:
            clients = list(self.clients)
        for q in clients:
            try:
                q.put_nowait(data)
            except queue.Full:
                # a slow subscriber: its backlog is dropped and it is told to reload the snapshot
                with self.lock:
                    self.stats["lagged"] += 1
                while True:
                    try:
                        q.get_nowait()
                    except queue.Empty:
                        break
                q.put_nowait(json.dumps({"type": "resync"}))

    def snapshot(self):
        with self.lock:
            tables = {}
            for name in self.tables:
                t = dict(self.tables[name])
                del t["taken"]
                tables[name] = t
            return {"room": self.room, "tables": json.loads(json.dumps(tables)), "stats": dict(self.stats),
                    "floor_alerts": self.store.floor_alerts(20)}

    # ---- floor commands -------------------------------------------------------------------------
    def command(self, table, text, timeout_s=5.0):
        """Run one floor command on `table` over MQTT (challenge + HMAC); returns the ok Message."""
        from feltctl.commands.floor import FloorClient

        if self.floor_key is None:
            raise PermissionError("this floor server has no floor key (--floor NAME --keys DIR)")
        with MqttPort(self.url, self.room, table) as port:
            key = self.floor_key(table) if callable(self.floor_key) else self.floor_key
            return FloorClient(port, table, self.floor_name, key, timeout_s=timeout_s).command(text)


def overlay_reveal(body, folded=()):
    """The overlay's view of a reveal: each seat's cards, hand strength and (a board of 3-5 cards,
    two hole cards a seat) equity by enumeration over the hands still in, from the engine's
    evaluator; folded seats are marked and left out of the equity."""
    board = parse_cards(body.get("board", "")) if body.get("board") else []
    seats = {}
    holes = {}
    for place in sorted(body.get("seats", {})):
        cards = parse_cards(body["seats"][place])
        out = place[4:].isdigit() and int(place[4:]) in folded
        if not out:
            holes[place] = cards
        strength = ""
        if len(cards) + len(board) >= 5 and len(cards) == 2:
            strength = evaluate.describe(evaluate.high(cards + board))
        seats[place] = {"cards": body["seats"][place], "strength": strength, "folded": 1 if out else 0}
    if 3 <= len(board) <= 5 and len(holes) >= 2 and all(len(h) == 2 for h in holes.values()):
        for place, share in equity(holes, board).items():
            seats[place]["equity"] = share
    return {"hand": body["hand"], "board": body.get("board", ""), "seats": seats}


def equity(holes, board):
    """{place: percent} of the pot each hand wins over every completion of the board (ties split)."""
    used = set(board)
    for h in holes.values():
        used.update(h)
    rest = [c for c in range(52) if c not in used]
    need = 5 - len(board)
    runs = [[]]
    for _ in range(need):
        runs = [r + [c] for r in runs for c in rest if not r or c > r[-1]]
    won = dict((p, 0.0) for p in holes)
    for r in runs:
        vals = dict((p, evaluate.high(holes[p] + board + r)) for p in holes)
        best = max(vals.values())
        winners = [p for p in vals if vals[p] == best]
        for p in winners:
            won[p] += 1.0 / len(winners)
    return dict((p, round(100.0 * won[p] / len(runs), 1)) for p in won)


class _Handler(BaseHTTPRequestHandler):
    floor = None  # set on the class made per server
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):
        pass

    def _send(self, code, body, ctype="application/json"):
        data = body if isinstance(body, bytes) else (json.dumps(body) if ctype == "application/json" else body).encode()
        self.send_response(code)
        self.send_header("Content-Type", ctype + "; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        u = urlparse(self.path)
        q = parse_qs(u.query)
        f = self.floor
        if u.path in ("/", "/index.html"):
            return self._page("dashboard.html")
        if u.path == "/overlay":
            return self._page("overlay.html")
        if u.path == "/api/snapshot":
            return self._send(200, f.snapshot())
        if u.path == "/api/hands":
            return self._send(200, f.store.hands(q.get("table", [None])[0], q.get("q", [None])[0]))
        if u.path == "/api/audit":
            table = q.get("table", [None])[0]
            if not table:
                return self._send(400, {"error": "table= expected"})
            return self._send(200, f.store.audit_trail(table, int(q.get("limit", ["200"])[0] or 200)))
        if u.path.startswith("/api/hand/"):
            h = f.store.hand(int(u.path.rsplit("/", 1)[1]) if u.path.rsplit("/", 1)[1].isdigit() else -1)
            return self._send(200 if h else 404, h or {"error": "no such hand"})
        if u.path == "/events":
            return self._events()
        self._send(404, {"error": "not found"})

    def do_POST(self):
        u = urlparse(self.path)
        n = int(self.headers.get("Content-Length") or 0)
        try:
            req = json.loads(self.rfile.read(n) or b"{}")
        except ValueError:
            return self._send(400, {"error": "JSON body expected"})
        if u.path != "/api/ruling":
            return self._send(404, {"error": "not found"})
        table, aid, decision = req.get("table"), req.get("alert"), req.get("decision")
        if decision not in ("confirm", "reject") or not isinstance(aid, int) or not table:
            return self._send(400, {"error": "table, alert (a number) and decision confirm|reject"})
        try:
            reply = self.floor.command(table, "ruling %d %s" % (aid, decision))
        except Exception as e:  # refused by the table, no answer, no floor key: said to the desk
            return self._send(409, {"error": str(e)})
        self._send(200, {"ok": True, "cmd": reply.opts.get("cmd"), "audit": reply.opts.get("audit")})

    def _page(self, name):
        with open(os.path.join(WEB, name), "rb") as fh:
            self._send(200, fh.read(), "text/html")

    def _events(self):
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.send_header("Connection", "close")
        self.end_headers()
        q = self.floor.subscribe()
        try:
            self.wfile.write(b"retry: 1000\n\n")
            self.wfile.flush()
            while True:
                try:
                    data = q.get(timeout=15)
                except queue.Empty:
                    data = None
                self.wfile.write((": keepalive\n\n" if data is None else "data: %s\n\n" % data).encode())
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError, OSError):
            pass
        finally:
            self.floor.unsubscribe(q)
            self.close_connection = True


def serve_http(floor, port=0, host="127.0.0.1"):
    """Start the dashboard's HTTP server in a thread; returns the server (server.server_port)."""
    handler = type("FloorHandler", (_Handler,), {"floor": floor})
    srv = ThreadingHTTPServer((host, port), handler)
    srv.daemon_threads = True
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv
