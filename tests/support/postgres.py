"""A real PostgreSQL server for the tests, started from the machine's binaries (``initdb``,
``pg_ctl``) in a temporary folder, listening on 127.0.0.1 only, with a fresh database for each
test that asks for one (empty, or with the bot's schema built).

Why not pytest-postgresql: it runs ``pg_ctl`` as the current user, and PostgreSQL refuses to
run as root, which is what CI machines (and this one) are. Here the server runs as the
``postgres`` system user when the tests run as root. It is tuned for tests, not for keeping
data: no fsync, no full-page writes (a crash of the machine loses the server, nothing else).
"""

from __future__ import annotations

import contextlib
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import asyncpg

from bot.storage import open_database

BINARIES = ("/usr/lib/postgresql/15/bin", "/usr/local/bin", "/usr/bin")


def find_binary(name: str) -> str | None:
    """The path of PostgreSQL's ``name`` (``pg_ctl``, ``initdb``), if the machine has it."""
    for folder in BINARIES:
        path = Path(folder) / name
        if path.exists():
            return str(path)
    return shutil.which(name)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class PostgresServer:
    """One server for the whole test session; :meth:`new_database` gives each test its own."""

    def __init__(self) -> None:
        initdb, pg_ctl = find_binary("initdb"), find_binary("pg_ctl")
        if initdb is None or pg_ctl is None:
            raise RuntimeError("PostgreSQL's initdb and pg_ctl are needed (PostgreSQL 15)")
        self._initdb, self._pg_ctl = initdb, pg_ctl
        self._folder = Path(tempfile.mkdtemp(prefix="nardy-pg-"))
        self._data = self._folder / "data"
        self.port = _free_port()
        self._as: list[str] = []
        if os.geteuid() == 0:  # PostgreSQL will not run as root
            user = pwd.getpwnam("postgres")
            os.chown(self._folder, user.pw_uid, user.pw_gid)
            self._as = ["runuser", "-u", "postgres", "--"]
        self.user = "postgres" if self._as else pwd.getpwuid(os.geteuid()).pw_name
        self._numbers = itertools.count(1)
        self._migrated: str | None = None
        """The name of the database every migrated one is a copy of, once made."""

    def start(self) -> None:
        """Creates the cluster and starts the server; returns when it takes connections."""
        self._run(self._initdb, "-D", str(self._data), "-U", self.user, "-A", "trust", "-E", "UTF8")
        self.resume()

    def halt(self) -> None:
        """Stops the server as an operator would (``pg_ctl stop -m fast``: the connections
        are cut, new ones refused), keeping its data; :meth:`resume` starts it again on the
        same port. A database outage, for the tests that need one."""
        self._run(self._pg_ctl, "-D", str(self._data), "-m", "fast", "-w", "stop")

    def resume(self) -> None:
        """Starts the server (again); returns when it takes connections."""
        options = (
            f"-c listen_addresses=127.0.0.1 -c port={self.port} -c unix_socket_directories="
            f"{self._folder} -c fsync=off -c full_page_writes=off -c synchronous_commit=off "
            "-c max_connections=300"
        )
        self._run(
            self._pg_ctl, "-D", str(self._data), "-o", options, "-l",
            str(self._folder / "server.log"), "-w", "start",
        )  # fmt: skip

    def stop(self) -> None:
        """Stops the server at once and removes its files."""
        with contextlib.suppress(subprocess.CalledProcessError):
            self._run(self._pg_ctl, "-D", str(self._data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self._folder, ignore_errors=True)

    def url(self, database: str = "postgres") -> str:
        """The URL of ``database`` on this server."""
        return f"postgresql://{self.user}@127.0.0.1:{self.port}/{database}"

    async def new_database(self, template: str | None = None) -> str:
        """Creates a database, empty or a copy of the database ``template`` (a name; nobody
        may be connected to it); returns its URL."""
        name = f"test_{next(self._numbers)}"
        copy = f" TEMPLATE {template}" if template else ""
        conn = await asyncpg.connect(self.url())
        try:
            await conn.execute(f"CREATE DATABASE {name}{copy}")
        finally:
            await conn.close()
        return self.url(name)

    async def new_migrated_database(self) -> str:
        """Creates a database with the bot's schema already built (a copy of one migrated the
        first time: half the cost of migrating each); returns its URL."""
        if self._migrated is None:
            url = await self.new_database()
            db = await open_database(url)
            await db.close()
            self._migrated = url.rsplit("/", 1)[1]
        return await self.new_database(template=self._migrated)

    @property
    def pid(self) -> int:
        """The server's main process (its connections' processes are its children)."""
        return int((self._data / "postmaster.pid").read_text().split()[0])

    def _run(self, *command: str) -> None:
        subprocess.run([*self._as, *command], check=True, capture_output=True, cwd=self._folder)


@contextlib.contextmanager
def postgres_server() -> Iterator[PostgresServer]:
    """A started :class:`PostgresServer`, stopped on leaving."""
    server = PostgresServer()
    try:
        server.start()
        yield server
    finally:
        server.stop()
