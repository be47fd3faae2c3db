# A PostgreSQL server of our own (host tools, for tests and trying the floor's PostgreSQL store):
# Debian's PostgreSQL (`make sysdeps` installs it) initialised in a temporary folder by initdb and
# run by pg_ctl on a free port of 127.0.0.1, trust authentication, stopped and removed with close().
# PostgreSQL refuses to run as root: as root it runs as the unprivileged user `nobody`.
# A room's real server is the distribution's own (README "The room").
import glob
import os
import pwd
import shutil
import subprocess
import tempfile
import time

from felt.errors import FeltError
from feltctl.room.broker import free_port

USER = "felt"


class PgError(FeltError):
    """No PostgreSQL server programs, or the server did not start."""


def find_bin():
    """The folder with initdb and pg_ctl (/usr/lib/postgresql/<newest>/bin), or PgError saying
    how to install them."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4])
                   if p.split("/")[4].isdigit() else 0)
    if found:
        return os.path.dirname(found[-1])
    exe = shutil.which("initdb")
    if exe and shutil.which("pg_ctl"):
        return os.path.dirname(os.path.realpath(exe))
    raise PgError("PostgreSQL server programs (initdb, pg_ctl) are not installed "
                  "(Debian: apt-get install postgresql; `make sysdeps` does it as root)")


class PostgresServer:
    """PostgresServer().start() -> self; .url(database) is postgresql://felt@127.0.0.1:PORT/DATABASE;
    .create_database(name); .close() stops it and removes its folder."""

    def __init__(self, port=None):
        self.port = port or free_port()
        self.dir = tempfile.mkdtemp(prefix="felt-pg-")
        self.data = os.path.join(self.dir, "data")
        self.bin = None
        self.started = False
        self._as = {}
        if os.geteuid() == 0:  # initdb and postgres refuse root
            nobody = pwd.getpwnam("nobody")
            os.chown(self.dir, nobody.pw_uid, nobody.pw_gid)
            self._as = {"user": nobody.pw_uid, "group": nobody.pw_gid}

    def _run(self, args, timeout_s=60):
        r = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=timeout_s,
                           cwd=self.dir, env=dict(os.environ, LC_ALL="C", HOME=self.dir), **self._as)
        if r.returncode != 0:
            raise PgError("%s failed (%d): %s" % (os.path.basename(args[0]), r.returncode, r.stdout.strip()[-600:]))
        return r.stdout

    def start(self):
        self.bin = find_bin()
        self._run([os.path.join(self.bin, "initdb"), "-D", self.data, "-U", USER, "--auth=trust",
                   "--encoding=UTF8", "--no-sync"])
        opts = "-c listen_addresses=127.0.0.1 -p %d -k %s -c fsync=off" % (self.port, self.dir)
        self._run([os.path.join(self.bin, "pg_ctl"), "-D", self.data, "-l", os.path.join(self.dir, "server.log"),
                   "-o", opts, "-w", "-t", "30", "start"])
        self.started = True
        return self

    def url(self, database="postgres"):
        return "postgresql://%s@127.0.0.1:%d/%s" % (USER, self.port, database)

    def create_database(self, name):
        """A new empty database `name` (a word); returns its URL."""
        import pg8000.native

        con = pg8000.native.Connection(USER, host="127.0.0.1", port=self.port, database="postgres")
        try:
            con.run("CREATE DATABASE " + pg8000.native.identifier(name))
        finally:
            con.close()
        return self.url(name)

    def stop(self):
        if self.started:
            self.started = False
            try:
                self._run([os.path.join(self.bin, "pg_ctl"), "-D", self.data, "-m", "immediate", "-w", "stop"])
            except (PgError, subprocess.TimeoutExpired):
                # the server's own pid file names it: ended by its id, nothing else
                with open(os.path.join(self.data, "postmaster.pid")) as f:
                    os.kill(int(f.readline()), 9)

    def close(self):
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.close()
