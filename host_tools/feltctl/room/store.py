# The floor's store (host tools): every accepted room message, the finished hands and the floor's
# own alerts. Store is the interface; SqliteStore the default backend (one file). A room that
# outgrows one machine implements the same methods on PostgreSQL (the SQL below is plain enough
# to carry over: one table per kind of record, JSON text in a column, no SQLite-only features).
import json
import sqlite3
import threading
import time


class Store:
    """What the floor server needs from storage. Every method is called from the server's threads;
    an implementation serialises as it must."""

    def add_message(self, msg, received_s):
        raise NotImplementedError

    def flush(self):
        """Make everything added so far durable (the floor acknowledges a message to its table
        only after this: the table then forgets it)."""
        raise NotImplementedError

    def add_hand(self, table, hand, phh, sealed):
        raise NotImplementedError

    def reveal_hand(self, table, hand, seats):
        """Fill a stored hand's ?? cards from its reveal record (seats: {"seat3": "AhKd"})."""
        raise NotImplementedError

    def add_floor_alert(self, table, text, received_s):
        raise NotImplementedError

    def hand_phh(self, table, hand):
        """The stored PHH of `table`'s hand number `hand`, or None."""
        raise NotImplementedError

    def hands(self, table=None, text=None, limit=50):
        raise NotImplementedError

    def hand(self, hand_id):
        raise NotImplementedError

    def floor_alerts(self, limit=50):
        raise NotImplementedError

    def counts(self):
        raise NotImplementedError


SCHEMA = """
CREATE TABLE IF NOT EXISTS messages (tbl TEXT, seq INTEGER, kind TEXT, t_ms INTEGER, received REAL, body TEXT,
                                     PRIMARY KEY (tbl, seq));
CREATE TABLE IF NOT EXISTS hands (id INTEGER PRIMARY KEY AUTOINCREMENT, tbl TEXT, hand INTEGER, phh TEXT,
                                  sealed INTEGER, UNIQUE (tbl, hand));
CREATE TABLE IF NOT EXISTS floor_alerts (id INTEGER PRIMARY KEY AUTOINCREMENT, tbl TEXT, text TEXT, received REAL);
"""


class SqliteStore(Store):
    def __init__(self, path):
        self.path = path
        self.lock = threading.Lock()
        self.db = sqlite3.connect(path, check_same_thread=False)
        self.db.executescript(SCHEMA)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")  # a commit survives the floor machine's power cut
        self._pending = 0
        self._last_commit = time.monotonic()

    def _commit(self, force=False):
        # one commit per batch (every 0.2 s or 200 rows): a commit per message is what limits SQLite
        self._pending += 1
        if force or self._pending >= 200 or time.monotonic() - self._last_commit > 0.2:
            self.db.commit()
            self._pending = 0
            self._last_commit = time.monotonic()

    def flush(self):
        with self.lock:
            if self._pending:
                self._commit(force=True)

    def add_message(self, msg, received_s):
        with self.lock:
            self.db.execute("INSERT OR IGNORE INTO messages VALUES (?,?,?,?,?,?)",
                            (msg["table"], msg["seq"], msg["kind"], msg["t_ms"], received_s, json.dumps(msg["body"])))
            self._commit()

    def add_hand(self, table, hand, phh, sealed):
        with self.lock:
            self.db.execute("INSERT OR IGNORE INTO hands (tbl, hand, phh, sealed) VALUES (?,?,?,?)",
                            (table, hand, phh, sealed))
            self._commit(force=True)

    def reveal_hand(self, table, hand, seats):
        with self.lock:
            row = self.db.execute("SELECT id, phh FROM hands WHERE tbl=? AND hand=?", (table, hand)).fetchone()
            if row is None:
                return False
            self.db.execute("UPDATE hands SET phh=?, sealed=0 WHERE id=?", (fill_phh(row[1], seats), row[0]))
            self._commit(force=True)
            return True

    def hand_phh(self, table, hand):
        with self.lock:
            row = self.db.execute("SELECT phh FROM hands WHERE tbl=? AND hand=?", (table, hand)).fetchone()
        return row[0] if row else None

    def add_floor_alert(self, table, text, received_s):
        with self.lock:
            self.db.execute("INSERT INTO floor_alerts (tbl, text, received) VALUES (?,?,?)", (table, text, received_s))
            self._commit(force=True)

    def hands(self, table=None, text=None, limit=50):
        q = "SELECT id, tbl, hand, sealed, phh FROM hands WHERE 1=1"
        args = []
        if table:
            q += " AND tbl=?"
            args.append(table)
        if text:
            q += " AND phh LIKE ?"
            args.append("%" + text + "%")
        q += " ORDER BY id DESC LIMIT ?"
        args.append(limit)
        with self.lock:
            rows = self.db.execute(q, args).fetchall()
        return [{"id": r[0], "table": r[1], "hand": r[2], "sealed": r[3], "players": _players(r[4])} for r in rows]

    def hand(self, hand_id):
        with self.lock:
            r = self.db.execute("SELECT id, tbl, hand, sealed, phh FROM hands WHERE id=?", (hand_id,)).fetchone()
        if r is None:
            return None
        return {"id": r[0], "table": r[1], "hand": r[2], "sealed": r[3], "phh": r[4], "actions": phh_actions(r[4])}

    def floor_alerts(self, limit=50):
        with self.lock:
            rows = self.db.execute("SELECT id, tbl, text, received FROM floor_alerts ORDER BY id DESC LIMIT ?",
                                   (limit,)).fetchall()
        return [{"id": r[0], "table": r[1], "text": r[2], "received": r[3]} for r in rows]

    def counts(self):
        with self.lock:
            self.db.commit()
            return {"messages": self.db.execute("SELECT COUNT(*) FROM messages").fetchone()[0],
                    "hands": self.db.execute("SELECT COUNT(*) FROM hands").fetchone()[0]}

    def close(self):
        with self.lock:
            self.db.commit()
            self.db.close()


def phh_actions(phh):
    """The PHH's action strings, in order (what a replay steps through)."""
    out = []
    inside = False
    for line in phh.split("\n"):
        s = line.strip()
        if s.startswith("actions = ["):
            inside = True
            continue
        if inside:
            if s.startswith("]"):
                break
            out.append(s.strip(",").strip("'"))
    return out


def folded_seats(phh):
    """The seats whose player folded in a PHH hand (`pN f`), by its `seats = [...]` line."""
    order = []
    for line in phh.split("\n"):
        if line.startswith("seats = ["):
            order = [int(x) for x in line[9:].rstrip("]").split(",") if x.strip()]
    out = []
    for a in phh_actions(phh):
        w = a.split()
        if len(w) == 2 and w[1] == "f" and w[0][1:].isdigit() and 0 < int(w[0][1:]) <= len(order):
            out.append(order[int(w[0][1:]) - 1])
    return sorted(out)


def _players(phh):
    for line in phh.split("\n"):
        if line.startswith("seats = "):
            return line[8:]
    return ""


def fill_phh(phh, seats):
    """The PHH with each player's ?? dealt cards replaced by the revealed ones, in deal order."""
    order = None
    for line in phh.split("\n"):
        if line.startswith("seats = ["):
            order = [int(x) for x in line[9:].rstrip("]").split(",") if x.strip()]
    if order is None:
        return phh
    left = {}
    for i in range(len(order)):
        cards = seats.get("seat%d" % order[i], "")
        left["p%d" % (i + 1)] = [cards[k:k + 2] for k in range(0, len(cards), 2)]
    out = []
    for line in phh.split("\n"):
        w = line.strip().strip(",").strip("'").split()
        if len(w) == 4 and w[0] == "d" and w[1] == "dh" and "??" in w[3] and left.get(w[2]):
            n = len(w[3]) // 2
            real = "".join(left[w[2]][:n])
            left[w[2]] = left[w[2]][n:]
            if len(real) == len(w[3]):
                line = line.replace(w[3], real)
        out.append(line)
    return "\n".join(out)
