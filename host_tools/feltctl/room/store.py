# The floor's store (host tools): every accepted room message, the finished hands and the floor's
# own alerts. Store is the interface; SqlStore implements it once in plain SQL on a DB-API
# connection, with two backends: SqliteStore (the default, one file) and PostgresStore (a room that
# outgrows one machine: `--db postgresql://...`). open_store() picks one by what --db says.
import json
import sqlite3
import threading
from urllib.parse import unquote, urlparse

from felt.errors import ConfigError


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

    def messages(self, table):
        """[(seq, kind)] of `table`'s stored messages, by seq."""
        raise NotImplementedError

    def add_audit(self, table, record, status, received_s):
        """Keep one of `table`'s audit records (felt.security.audit.Record) with the floor's verdict
        on it (AUDIT_STATUS); False when that table's record number is there already."""
        raise NotImplementedError

    def audit_line(self, table, seq):
        """The stored line of `table`'s audit record `seq`, or None."""
        raise NotImplementedError

    def set_audit_status(self, table, seq, status):
        raise NotImplementedError

    def audit_trail(self, table, limit=200):
        """`table`'s newest audit records, newest first: [{seq, t_ms, wall, who, kind, text, status}]."""
        raise NotImplementedError

    def floor_alerts(self, limit=50):
        raise NotImplementedError

    def counts(self):
        raise NotImplementedError


SQLITE_SCHEMA = """
CREATE TABLE IF NOT EXISTS messages (tbl TEXT, seq INTEGER, kind TEXT, t_ms INTEGER, received REAL, body TEXT,
                                     PRIMARY KEY (tbl, seq));
CREATE TABLE IF NOT EXISTS hands (id INTEGER PRIMARY KEY AUTOINCREMENT, tbl TEXT, hand INTEGER, phh TEXT,
                                  sealed INTEGER, UNIQUE (tbl, hand));
CREATE TABLE IF NOT EXISTS floor_alerts (id INTEGER PRIMARY KEY AUTOINCREMENT, tbl TEXT, text TEXT, received REAL);
CREATE TABLE IF NOT EXISTS audit (tbl TEXT, seq INTEGER, t_ms INTEGER, wall INTEGER, who TEXT, kind TEXT, text TEXT,
                                  line TEXT, status TEXT, received REAL, PRIMARY KEY (tbl, seq));
"""
POSTGRES_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS messages (tbl TEXT, seq BIGINT, kind TEXT, t_ms BIGINT, received DOUBLE PRECISION,"
    " body TEXT, PRIMARY KEY (tbl, seq))",
    "CREATE TABLE IF NOT EXISTS hands (id BIGSERIAL PRIMARY KEY, tbl TEXT, hand INTEGER, phh TEXT, sealed INTEGER,"
    " UNIQUE (tbl, hand))",
    "CREATE TABLE IF NOT EXISTS floor_alerts (id BIGSERIAL PRIMARY KEY, tbl TEXT, text TEXT,"
    " received DOUBLE PRECISION)",
    "CREATE TABLE IF NOT EXISTS audit (tbl TEXT, seq BIGINT, t_ms BIGINT, wall BIGINT, who TEXT, kind TEXT,"
    " text TEXT, line TEXT, status TEXT, received DOUBLE PRECISION, PRIMARY KEY (tbl, seq))",
)
# the floor's verdict on a stored audit record: its signature and its link to the record before
AUDIT_STATUS = ("linked", "first", "unlinked", "broken", "bad-signature")


class SqlStore(Store):
    """The Store on a DB-API connection (self.db); the SQL is written once with ? placeholders and
    each backend says how its dialect differs (placeholder, insert-if-new, case-blind LIKE)."""

    PLACEHOLDER = "?"
    INSERT_NEW = "INSERT OR IGNORE INTO %s"  # ... VALUES (...): a row whose key is there already is left
    ON_CONFLICT = ""
    LIKE = "LIKE"  # case-blind for ASCII in SQLite

    def __init__(self, db):
        self.db = db
        self.lock = threading.Lock()  # the connection's
        self._rows = []  # messages taken, not yet written (their own lock: taking one never waits for the database)
        self._rows_lock = threading.Lock()

    def _x(self, sql, args=()):
        cur = self.db.cursor()
        cur.execute(sql.replace("?", self.PLACEHOLDER) if self.PLACEHOLDER != "?" else sql, tuple(args))
        return cur

    def _insert_new(self, table, columns, args):
        marks = ",".join("?" * len(args))
        sql = (self.INSERT_NEW % table) + ("" if columns is None else " (%s)" % columns)
        self._x(sql + " VALUES (%s)%s" % (marks, self.ON_CONFLICT), args)

    def _sync(self):
        # (the connection's lock held) the messages taken since the last time, one INSERT per 100,
        # then one commit: a commit, or a round trip to a PostgreSQL server, per message is what
        # limits a store, and the floor's network thread never waits for one
        with self._rows_lock:
            rows, self._rows = self._rows, []
        for i in range(0, len(rows), 100):
            chunk = rows[i:i + 100]
            sql = (self.INSERT_NEW % "messages") + " VALUES " + ",".join(["(?,?,?,?,?,?)"] * len(chunk))
            self._x(sql + self.ON_CONFLICT, [v for r in chunk for v in r])
        self.db.commit()

    def flush(self):
        with self.lock:
            if self._rows:
                self._sync()

    def add_message(self, msg, received_s):
        """Kept until the next flush() (the floor server's acknowledgement loop, every 50 ms) or
        any other write, or a read of messages."""
        row = (msg["table"], msg["seq"], msg["kind"], msg["t_ms"], received_s, json.dumps(msg["body"]))
        with self._rows_lock:
            self._rows.append(row)

    def add_hand(self, table, hand, phh, sealed):
        with self.lock:
            self._insert_new("hands", "tbl, hand, phh, sealed", (table, hand, phh, sealed))
            self._sync()

    def reveal_hand(self, table, hand, seats):
        with self.lock:
            row = self._x("SELECT id, phh FROM hands WHERE tbl=? AND hand=?", (table, hand)).fetchone()
            if row is None:
                return False
            self._x("UPDATE hands SET phh=?, sealed=0 WHERE id=?", (fill_phh(row[1], seats), row[0]))
            self._sync()
            return True

    def hand_phh(self, table, hand):
        with self.lock:
            row = self._x("SELECT phh FROM hands WHERE tbl=? AND hand=?", (table, hand)).fetchone()
        return row[0] if row else None

    def add_floor_alert(self, table, text, received_s):
        with self.lock:
            self._x("INSERT INTO floor_alerts (tbl, text, received) VALUES (?,?,?)", (table, text, received_s))
            self._sync()

    def hands(self, table=None, text=None, limit=50):
        q = "SELECT id, tbl, hand, sealed, phh FROM hands WHERE 1=1"
        args = []
        if table:
            q += " AND tbl=?"
            args.append(table)
        if text:
            q += " AND phh %s ?" % self.LIKE
            args.append("%" + text + "%")
        q += " ORDER BY id DESC LIMIT ?"
        args.append(limit)
        with self.lock:
            rows = self._x(q, args).fetchall()
        return [{"id": r[0], "table": r[1], "hand": r[2], "sealed": r[3], "players": _players(r[4])} for r in rows]

    def hand(self, hand_id):
        with self.lock:
            r = self._x("SELECT id, tbl, hand, sealed, phh FROM hands WHERE id=?", (hand_id,)).fetchone()
        if r is None:
            return None
        return {"id": r[0], "table": r[1], "hand": r[2], "sealed": r[3], "phh": r[4], "actions": phh_actions(r[4])}

    def messages(self, table):
        """[(seq, kind)] of `table`'s stored messages, by seq (what a test or an export reads)."""
        with self.lock:
            self._sync()
            return [tuple(r) for r in self._x("SELECT seq, kind FROM messages WHERE tbl=? ORDER BY seq",
                                              (table,)).fetchall()]

    def add_audit(self, table, record, status, received_s):
        with self.lock:
            if self._x("SELECT 1 FROM audit WHERE tbl=? AND seq=?", (table, record.seq)).fetchone():
                return False
            self._x("INSERT INTO audit (tbl, seq, t_ms, wall, who, kind, text, line, status, received) VALUES "
                    "(?,?,?,?,?,?,?,?,?,?)", (table, record.seq, record.t_ms, record.wall, record.who, record.kind,
                                              record.text, record.line, status, received_s))
            self._sync()
            return True

    def audit_line(self, table, seq):
        with self.lock:
            row = self._x("SELECT line FROM audit WHERE tbl=? AND seq=?", (table, seq)).fetchone()
        return row[0] if row else None

    def set_audit_status(self, table, seq, status):
        with self.lock:
            self._x("UPDATE audit SET status=? WHERE tbl=? AND seq=?", (status, table, seq))
            self._sync()

    def audit_trail(self, table, limit=200):
        with self.lock:
            rows = self._x("SELECT seq, t_ms, wall, who, kind, text, status FROM audit WHERE tbl=? "
                           "ORDER BY seq DESC LIMIT ?", (table, limit)).fetchall()
        return [{"seq": r[0], "t_ms": r[1], "wall": r[2], "who": r[3], "kind": r[4], "text": r[5], "status": r[6]}
                for r in rows]

    def floor_alerts(self, limit=50):
        with self.lock:
            rows = self._x("SELECT id, tbl, text, received FROM floor_alerts ORDER BY id DESC LIMIT ?",
                           (limit,)).fetchall()
        return [{"id": r[0], "table": r[1], "text": r[2], "received": r[3]} for r in rows]

    def counts(self):
        with self.lock:
            self._sync()
            return {"messages": self._x("SELECT COUNT(*) FROM messages").fetchone()[0],
                    "hands": self._x("SELECT COUNT(*) FROM hands").fetchone()[0]}

    def close(self):
        with self.lock:
            self._sync()
            self.db.close()


class SqliteStore(SqlStore):
    """One SQLite file (the default; one machine)."""

    def __init__(self, path):
        self.path = path
        db = sqlite3.connect(path, check_same_thread=False)
        db.executescript(SQLITE_SCHEMA)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")  # a commit survives the floor machine's power cut
        SqlStore.__init__(self, db)


class PostgresStore(SqlStore):
    """A PostgreSQL database (a room that outgrows one machine), by URL
    postgresql://USER[:PASSWORD]@HOST[:PORT]/DATABASE; pg8000 (pure Python) as the driver."""

    PLACEHOLDER = "%s"
    INSERT_NEW = "INSERT INTO %s"
    ON_CONFLICT = " ON CONFLICT DO NOTHING"
    LIKE = "ILIKE"  # as SQLite's LIKE: the same search finds the same hands

    def __init__(self, url):
        import pg8000.dbapi

        u = urlparse(url)
        if u.scheme not in ("postgresql", "postgres") or not u.path.strip("/"):
            raise ConfigError("a PostgreSQL store is postgresql://USER[:PASSWORD]@HOST[:PORT]/DATABASE, not %r"
                              % url)
        self.url = url
        try:
            db = pg8000.dbapi.connect(user=unquote(u.username or "postgres"), host=u.hostname or "127.0.0.1",
                                      port=u.port or 5432, database=unquote(u.path.strip("/")),
                                      password=unquote(u.password) if u.password else None, timeout=10)
        except (pg8000.dbapi.Error, OSError) as e:
            raise ConfigError("cannot open the PostgreSQL store %s: %s" % (_hide_password(u), e))
        SqlStore.__init__(self, db)
        for sql in POSTGRES_SCHEMA:
            self._x(sql)
        db.commit()


def open_store(where):
    """The floor's store for --db: a postgresql:// URL, else a SQLite file's path."""
    if where.startswith(("postgresql://", "postgres://")):
        return PostgresStore(where)
    return SqliteStore(where)


def _hide_password(u):
    return u._replace(netloc=u.netloc.replace(":" + u.password + "@", ":***@") if u.password else u.netloc).geturl()


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
