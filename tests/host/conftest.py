# Fixtures of the host tests: the floor's store on each backend (issue 15 item 3: SQLite and
# PostgreSQL "through the same interface"). PostgreSQL runs as a real server of the tests' own
# (feltctl.room.pgserver: initdb + pg_ctl in a temporary folder, a free local port), one for the
# session (per xdist worker), a fresh database for each test; stopped however the session ends.
import itertools

import pytest

from feltctl.room.pgserver import PgError, PostgresServer, find_bin

_databases = itertools.count(1)


@pytest.fixture(scope="session")
def pg_server():
    try:
        find_bin()
        import pg8000  # noqa: F401 (the driver: pyproject's dependencies)
    except (PgError, ImportError) as e:  # make sysdeps / make venv install both: said loudly, not hidden
        pytest.skip("POSTGRESQL MISSING: %s" % e)
    srv = PostgresServer()
    try:
        srv.start()
        yield srv
    finally:
        srv.close()


@pytest.fixture
def pg_url(pg_server):
    """A fresh, empty database on the session's server."""
    return pg_server.create_database("floor%d" % next(_databases))


@pytest.fixture(params=["sqlite", "postgresql"])
def store_where(request, tmp_path):
    """What `feltctl floor serve --db` would be given for each backend: a SQLite path or a URL."""
    if request.param == "sqlite":
        return str(tmp_path / "floor.sqlite")
    return request.getfixturevalue("pg_url")
