# The floor's store (issue 15 item 3) through its one interface, on every backend: SQLite (a file)
# and PostgreSQL (a real server the tests start, conftest.pg_server), picked by what
# `feltctl floor serve --db` is given (store.open_store). Each test runs once per backend.
import pytest

from felt.errors import ConfigError
from feltctl.room.store import PostgresStore, SqliteStore, open_store

PHH = "\n".join(["variant = 'NT'", "seats = [2, 3, 1]", "actions = [", "  'd dh p1 ????',", "  'd dh p2 ????',",
                 "  'd dh p3 ????',", "  'p3 f',", "  'p1 cc',", "]"])


def _msg(seq, kind="event", table="t1"):
    return {"table": table, "seq": seq, "kind": kind, "t_ms": 100 * seq, "body": {"text": "seat 1 call %d" % seq}}


@pytest.fixture
def store(store_where):
    s = open_store(store_where)
    yield s
    s.close()


def test_open_store_picks_the_backend_by_what_db_says(store, store_where):
    assert isinstance(store, PostgresStore if store_where.startswith("postgresql://") else SqliteStore)


def test_each_seq_is_stored_once_per_table_and_survives_a_reopen(store, store_where):
    for seq in (1, 2, 3, 2, 5, 4):  # a resend of 2; 4 fills a gap
        store.add_message(_msg(seq), 1000.0 + seq)
    store.add_message(_msg(1, "state", table="t2"), 1000.0)
    store.flush()
    assert store.messages("t1") == [(1, "event"), (2, "event"), (3, "event"), (4, "event"), (5, "event")]
    assert store.messages("t2") == [(1, "state")]
    assert store.counts() == {"messages": 6, "hands": 0}
    # what flush() made durable another connection (a restarted floor server) reads
    again = open_store(store_where)
    try:
        assert [s for s, _k in again.messages("t1")] == [1, 2, 3, 4, 5]
    finally:
        again.close()


def test_hands_sealed_then_revealed_searched_case_blind(store):
    store.add_hand("t1", 1, PHH, 1)
    store.add_hand("t1", 1, PHH.replace("cc", "cbr 300"), 1)  # the same hand again: the first stays
    store.add_hand("t2", 7, PHH.replace("'p1 cc'", "'p1 f'"), 1)
    assert [(h["table"], h["hand"], h["sealed"], h["players"]) for h in store.hands()] == [
        ("t2", 7, 1, "[2, 3, 1]"), ("t1", 1, 1, "[2, 3, 1]")]
    assert [h["hand"] for h in store.hands(table="t1")] == [1]
    assert [h["hand"] for h in store.hands(text="P1 CC")] == [1]  # the dashboard's search ignores case
    assert store.hands(text="nothing like it") == []
    assert len(store.hands(limit=1)) == 1
    hid = store.hands(table="t1")[0]["id"]
    assert store.hand(hid)["actions"] == ["d dh p1 ????", "d dh p2 ????", "d dh p3 ????", "p3 f", "p1 cc"]
    assert store.hand_phh("t1", 1) == PHH and store.hand_phh("t1", 2) is None
    assert store.reveal_hand("t1", 1, {"seat2": "AhKd", "seat3": "QsQh", "seat1": "2c7d"}) is True
    h = store.hand(hid)
    assert h["sealed"] == 0 and h["actions"][:3] == ["d dh p1 AhKd", "d dh p2 QsQh", "d dh p3 2c7d"]
    assert store.reveal_hand("t1", 9, {"seat2": "AhKd"}) is False
    assert store.hand(10 ** 6) is None
    assert store.counts()["hands"] == 2


def test_floor_alerts_newest_first(store):
    for i in range(5):
        store.add_floor_alert("t1", "forged or altered message refused: seq %d" % i, 2000.0 + i)
    got = store.floor_alerts(3)
    assert [a["text"][-1] for a in got] == ["4", "3", "2"]
    assert got[0]["table"] == "t1" and got[0]["received"] == 2004.0


def test_a_postgresql_url_that_cannot_be_opened_is_a_named_error(pg_server):
    with pytest.raises(ConfigError, match="postgresql://USER"):
        open_store("postgresql://felt@127.0.0.1:%d/" % pg_server.port)  # no database named
    with pytest.raises(ConfigError, match="cannot open the PostgreSQL store .*:\\*\\*\\*@"):
        open_store("postgresql://felt:secret@127.0.0.1:%d/no_such_database" % pg_server.port)
