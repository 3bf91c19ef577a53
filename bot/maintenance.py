"""The operator's commands beside the bot: ``python -m bot backup FILE``, ``restore FILE`` and
``forget USER_ID`` (:func:`main`; docs/operations.md is the operator's guide to them).

They need only ``DATABASE_URL`` (:class:`bot.config.DatabaseSettings`), never the token.

- **backup** copies a running bot's database to one file, consistent as of one moment (SQLite's
  online backup API, checked; PostgreSQL's ``pg_dump --format=custom``), written beside
  ``FILE`` and renamed onto it only when whole.
- **restore** brings a backup back into ``DATABASE_URL`` with the bot stopped, into an empty
  database or with ``--replace``; a newer schema than this release's is refused. Every board is
  marked as not known to show its game (:data:`AFTER_RESTORE`), and the old workers' claims go.
- **forget** deletes what the bot keeps about one user, as ``/forget`` does
  (:class:`bot.services.privacy.Privacy`), for a request made by mail.

Exit status 0 when done, 1 when refused (one line on stderr says why), 2 for wrong arguments
or settings.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import sqlite3
import subprocess
import sys
import time
from collections.abc import Sequence
from contextlib import closing, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Final
from urllib.parse import unquote, urlsplit, urlunsplit

from pydantic import ValidationError
from pydantic_settings import SettingsError

from bot.config import DatabaseSettings, describe_error

PG_BINARIES: Final = ("/usr/lib/postgresql/15/bin",)
"""Where Debian keeps PostgreSQL 15's tools, when they are not on ``PATH``."""


AFTER_RESTORE: Final = (
    "UPDATE boards SET shown_version = NULL WHERE shown_version IS NOT NULL",
    "DELETE FROM leases",
)
"""Run on a restored database: see the module docstring."""


class RestoreRefused(Exception):
    """The command cannot be carried out; the message says why, in one line."""


@dataclass(frozen=True, slots=True)
class Copied:
    """A backup or restore done: how big the file is and how long it took."""

    path: Path
    size: int
    seconds: float


def _pg_tool(name: str) -> str:
    """The path of PostgreSQL's ``pg_dump`` or ``pg_restore``."""
    found = shutil.which(name)
    if found is None:
        candidates = (Path(folder) / name for folder in PG_BINARIES)
        found = next((str(path) for path in candidates if path.exists()), None)
    if found is None:
        raise RestoreRefused(
            f"{name} not found: install PostgreSQL's client tools (Debian: postgresql-client), "
            "of the server's major version or newer"
        )
    return found


def _pg_connection(url: str) -> tuple[str, dict[str, str]]:
    """The URL without its password, for a tool's command line (which anyone on the machine may
    read), and the environment that gives the tool the password."""
    parts = urlsplit(url)
    environment = dict(os.environ)
    if parts.password is not None:
        environment["PGPASSWORD"] = unquote(parts.password)
        host = parts.hostname or ""
        if ":" in host:
            host = f"[{host}]"
        user = f"{parts.username}@" if parts.username else ""
        port = f":{parts.port}" if parts.port else ""
        parts = parts._replace(netloc=f"{user}{host}{port}")
    return urlunsplit(parts), environment


def _run(command: list[str], environment: dict[str, str]) -> None:
    done = subprocess.run(command, env=environment, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1]
        raise RestoreRefused(f"{Path(command[0]).name} failed: {last}")


def _newest_schema() -> int:
    from bot.storage.migrations import MIGRATIONS

    return len(MIGRATIONS)


def backup(database: Path | str, out: Path) -> Copied:
    """Copies ``database`` (an SQLite file or a PostgreSQL URL) to ``out``, which is replaced
    only once the copy is whole (see the module docstring)."""
    started = time.perf_counter()
    partial = out.with_name(f".{out.name}.partial")
    out.parent.mkdir(parents=True, exist_ok=True)
    try:
        if isinstance(database, str):
            url, environment = _pg_connection(database)
            _run(
                [_pg_tool("pg_dump"), "--format=custom", f"--file={partial}", f"--dbname={url}"],
                environment,
            )
        else:
            _sqlite_backup(database, partial)
        os.replace(partial, out)
    finally:
        partial.unlink(missing_ok=True)
    return Copied(out, out.stat().st_size, time.perf_counter() - started)


def _sqlite_backup(source: Path, out: Path) -> None:
    if not source.is_file():
        raise RestoreRefused(f"no database at {source}")
    out.unlink(missing_ok=True)
    with closing(sqlite3.connect(source)) as db, closing(sqlite3.connect(out)) as copy:
        db.backup(copy)  # one step: a snapshot as of one moment, the WAL's pages included
        if (checked := copy.execute("PRAGMA quick_check").fetchone()[0]) != "ok":
            raise RestoreRefused(f"the copy of {source} fails SQLite's check: {checked}")
        copy.execute("PRAGMA journal_mode = DELETE")  # one file, nothing beside it


def restore(backup_file: Path, database: Path | str, *, replace: bool = False) -> Copied:
    """Brings ``backup_file`` back into ``database``; the bot must be stopped meanwhile.

    :raises: :exc:`RestoreRefused` when the database holds tables and ``replace`` is not given, when
        the backup is not one (or is of a newer schema than this release knows).
    """
    started = time.perf_counter()
    if not backup_file.is_file():
        raise RestoreRefused(f"no backup at {backup_file}")
    if isinstance(database, str):
        _pg_restore(backup_file, database, replace=replace)
    else:
        _sqlite_restore(backup_file, database, replace=replace)
    return Copied(backup_file, backup_file.stat().st_size, time.perf_counter() - started)


def _sqlite_restore(backup_file: Path, target: Path, *, replace: bool) -> None:
    try:
        with closing(sqlite3.connect(f"file:{backup_file}?mode=ro", uri=True)) as source:
            if source.execute("PRAGMA quick_check").fetchone()[0] != "ok":
                raise RestoreRefused(f"{backup_file} fails SQLite's check: not a whole backup")
            version = int(source.execute("PRAGMA user_version").fetchone()[0])
            if version > _newest_schema():
                raise RestoreRefused(
                    f"the backup has schema {version}; this release knows {_newest_schema()}"
                )
            target.parent.mkdir(parents=True, exist_ok=True)
            with closing(sqlite3.connect(target)) as db:
                tables = db.execute("SELECT count(*) FROM sqlite_master WHERE type = 'table'")
                if tables.fetchone()[0] and not replace:
                    raise RestoreRefused(
                        f"{target} holds a database: add --replace to overwrite it"
                    )
                source.backup(db)  # through SQLite: a -wal file beside the old one goes with it
                for statement in AFTER_RESTORE:
                    with suppress(sqlite3.OperationalError):  # a schema older than the column
                        db.execute(statement)
                db.commit()
    except sqlite3.DatabaseError as error:
        raise RestoreRefused(f"{backup_file} is not an SQLite backup ({error})") from None


def _pg_restore(backup_file: Path, database: str, *, replace: bool) -> None:
    import asyncpg

    async def tables() -> list[str]:
        conn = await asyncpg.connect(database)
        try:
            rows = await conn.fetch("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
            names = [str(row[0]) for row in rows]
            if names and replace:
                await conn.execute(
                    "DROP TABLE " + ", ".join(f'"{name}"' for name in names) + " CASCADE"
                )
            return names
        finally:
            await conn.close()

    url, environment = _pg_connection(database)
    _run([_pg_tool("pg_restore"), "--list", str(backup_file)], environment)  # a dump, whole?
    if asyncio.run(tables()) and not replace:
        raise RestoreRefused("the database holds tables: add --replace to drop them first")
    _run(
        [
            _pg_tool("pg_restore"), "--no-owner", "--no-privileges", "--exit-on-error",
            "--single-transaction", f"--dbname={url}", str(backup_file),
        ],
        environment,
    )  # fmt: skip

    async def after() -> None:
        conn = await asyncpg.connect(database)
        try:
            for statement in AFTER_RESTORE:
                await conn.execute(statement)
        finally:
            await conn.close()

    asyncio.run(after())


async def forget(database: Path | str, user_id: int) -> str:
    """Forgets the user ``user_id`` (a request made by mail, say): as ``/forget`` does.

    :raises: :exc:`RestoreRefused` while they play, or when the bot knows nothing of them.
    """
    from bot.services.privacy import Privacy, StillPlaying
    from bot.services.users import Users
    from bot.storage import Store, open_database

    db = await open_database(database)
    try:
        store = Store(db)
        service = Privacy(store, Users(store))
        started = time.perf_counter()
        try:
            forgotten = await service.forget(user_id)
        except StillPlaying as playing:
            held = playing.holding
            raise RestoreRefused(
                f"user {user_id} plays now (games {list(held.games)}, tournaments "
                f"{list(held.tournaments)}); ask again when they have ended"
            ) from None
        if not forgotten:
            raise RestoreRefused(f"the bot keeps nothing about user {user_id}")
        seconds = time.perf_counter() - started
    finally:
        await db.close()
    return f"user {user_id} forgotten in {seconds:.2f} s: their games show a deleted player"


def _arguments(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bot",
        description="Runs the bot; or, with a command, looks after its database "
        "(DATABASE_URL, from the environment or .env).",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    saving = commands.add_parser("backup", help="copy the database to FILE while the bot runs")
    saving.add_argument("file", type=Path)
    restoring = commands.add_parser("restore", help="bring a backup back (the bot stopped)")
    restoring.add_argument("file", type=Path)
    restoring.add_argument(
        "--replace", action="store_true", help="overwrite the database that is there"
    )
    forgetting = commands.add_parser(
        "forget", help="delete what the bot keeps about a user (a privacy request)"
    )
    forgetting.add_argument("user_id", type=int, help="the user's Telegram id")
    return parser.parse_args(argv)


def main(argv: Sequence[str]) -> None:
    """Carries out the command in ``argv`` (the words after ``python -m bot``) and exits."""
    arguments = _arguments(argv)
    try:
        settings = DatabaseSettings()
    except ValidationError as error:
        sys.stderr.write(f"config error: {describe_error(error)}\n")
        raise SystemExit(2) from None
    except SettingsError as error:
        sys.stderr.write(f"config error: {error}\n")
        raise SystemExit(2) from None
    try:
        if arguments.command == "backup":
            done = backup(settings.database, arguments.file)
            said = f"backup: {done.path} ({done.size:,} bytes in {done.seconds:.2f} s)"
        elif arguments.command == "restore":
            done = restore(arguments.file, settings.database, replace=arguments.replace)
            said = f"restored {done.path} ({done.size:,} bytes in {done.seconds:.2f} s)"
        else:
            said = asyncio.run(forget(settings.database, arguments.user_id))
    except RestoreRefused as error:
        sys.stderr.write(f"{arguments.command}: {error}\n")
        raise SystemExit(1) from None
    sys.stdout.write(f"{said}\n")
    raise SystemExit(0)
