"""The operator's side, on both backends: a running bot backed up in the middle of a game and
restored into a new bot that finishes it; ``python -m bot backup`` and ``restore`` from the
command line; a database whose applied migration was edited stops start-up with one line."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest

from bot.maintenance import Refused, backup, restore
from bot.storage import open_database
from tests.support.fake_telegram import FakeMessage, FakeTelegram, FakeUser
from tests.support.harness import make_settings, running_bot
from tests.support.postgres import PostgresServer

from .gameplay import (
    game_buttons,
    game_number,
    is_over,
    play_turn,
    start_private_game,
    stored_game,
    version,
)

ROOT = Path(__file__).resolve().parents[2]


def _url(database: Path | str) -> str:
    return database if isinstance(database, str) else f"sqlite:///{database}"


async def _command(*words: str, database: Path | str, **environment: str) -> tuple[int, str, str]:
    """Runs ``python -m bot WORDS`` on ``database``: exit status, stdout, stderr."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", *words,
        env={
            "PATH": os.environ.get("PATH", ""), "PYTHONPATH": str(ROOT),
            "DATABASE_URL": _url(database), **environment,
        },
        cwd=ROOT / "tests", stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    out, err = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


async def _turn(fake: FakeTelegram, boards: dict[FakeUser, FakeMessage]) -> None:
    """The player to move plays a turn on their own board (the other's has no buttons)."""
    await fake.wait_for(lambda: [bool(game_buttons(b)) for b in boards.values()].count(True) == 1)
    actor = next(user for user, board in boards.items() if game_buttons(board))
    await play_turn(fake, boards[actor], list(boards))


@pytest.mark.slow
async def test_a_bot_backed_up_mid_game_is_restored_into_a_new_bot_that_finishes_the_game(
    fake_telegram: FakeTelegram,
    database: Path | str,
    tmp_path: Path,
    request: pytest.FixtureRequest,
) -> None:
    fake = fake_telegram
    saved = tmp_path / "backups" / "nardy.backup"
    async with running_bot(fake, tmp_path / "unused.sqlite3", database_url=_url(database)) as bot:
        alice, bob, boards = await start_private_game(bot)
        for _ in range(2):
            await _turn(fake, boards)
        number = game_number(boards[alice])
        done = await asyncio.to_thread(backup, database, saved)  # while the bot runs
        assert done.size == saved.stat().st_size > 0
        await _turn(fake, boards)  # played after the backup: lost with the restore
        await bot.stop()
        # a new machine: an empty database of its own, the backup brought back into it
        if isinstance(database, str):
            server: PostgresServer = request.getfixturevalue("postgres")
            target: Path | str = await server.new_database()
        else:
            target = tmp_path / "new" / "nardy.sqlite3"
        await asyncio.to_thread(restore, saved, target)
        with pytest.raises(Refused, match="--replace"):  # never over a database by mistake
            await asyncio.to_thread(restore, saved, target)
        kept = await stored_game(target, number)
        assert not kept.game.is_over and kept.game.ply > 0
        restored = kept.version
        bot.settings = make_settings(
            fake.url, tmp_path / "unused.sqlite3", database_url=_url(target)
        )
        await bot.start()  # the new bot, on the restored database
        # the boards showed the turn played after the backup: drawn again as restored
        await fake.wait_for(
            lambda: [version(b) for b in boards.values() if game_buttons(b)] == [restored],
            description="the boards drawn as restored",
        )
        await _turn(fake, boards)
        fake.send_text(bob, fake.private_chat(bob), "/resign")
        await bot.settle()
        fake.press(bob, fake.last_message(fake.private_chat(bob)), "🏳 Yes, resign")
        await fake.wait_for(lambda: is_over(boards[alice]), description="the game's result")
    finished = await stored_game(target, number)
    assert finished.game.is_over and finished.game.ply > kept.game.ply
    # the same from the command line, over the restored database
    again = tmp_path / "again.backup"
    status, out, err = await _command("backup", str(again), database=target)
    assert (status, err) == (0, "") and out.startswith(f"backup: {again} (")
    status, out, err = await _command("restore", str(again), database=target)
    assert status == 1 and "--replace" in err and err.count("\n") == 1
    status, out, err = await _command("restore", str(again), "--replace", database=target)
    assert (status, err) == (0, "") and out.startswith("restored ")
    assert (await stored_game(target, number)).game == finished.game


@pytest.mark.slow
async def test_an_edited_migration_stops_start_up_with_one_line(
    fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    database = tmp_path / "nardy.sqlite3"  # PostgreSQL's refusal: tests/storage/test_checksums.py
    db = await open_database(database)
    await db.write("UPDATE schema_checksums SET checksum = ? WHERE version = 2", ("f" * 64,))
    await db.close()
    status, _, err = await _command(
        database=database, BOT_TOKEN=fake_telegram.token, TELEGRAM_API_URL=fake_telegram.url
    )
    assert status == 2
    assert err.startswith(
        "error: the database refused by this release: migration 2 was edited after this database"
    )
    assert err.count("\n") == 1  # one line, no traceback
