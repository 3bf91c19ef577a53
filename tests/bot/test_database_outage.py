"""The database out of reach in the middle of a game, end to end: the tests' PostgreSQL server
stopped (``pg_ctl stop -m fast``) for longer than a whole move's time, then started again.
Every tap and command meanwhile is answered "try again" and changes nothing; nobody loses on
time (the deadline is moved later by the outage's length, once); the game goes on.

The outage lasts :data:`OUTAGE_SECONDS` against :data:`MOVE_SECONDS` a move (the issue stopped
the server for 22 s against 90: what matters is that the deadline falls inside the outage).
"""

from __future__ import annotations

import asyncio
import dataclasses
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import asyncpg
import pytest

from bot.app import build_services
from bot.config import Settings
from bot.services import Services
from bot.services.database_outages import DatabaseWatch
from tests.support.fake_telegram import FakeTelegram
from tests.support.harness import running_bot, watch_logs
from tests.support.postgres import PostgresServer

from .gameplay import (
    first_choice,
    game_number,
    is_over,
    mover,
    play_turn,
    start_group_game,
    version,
)

MOVE_SECONDS = 4
OUTAGE_SECONDS = 5.0
TRY_AGAIN = "The bot cannot reach its records right now: try again in a minute."
PROBE_SECONDS = 2.0
"""How often the bot asks the database whether it is back, here: slower than the timers' tick,
so that they would find the deadline passed before the deadlines are moved, if they looked."""


@asynccontextmanager
async def _slow_probe(settings: Settings) -> AsyncIterator[Services]:
    async with build_services(settings) as services:
        watch = DatabaseWatch(services.store, services.game_service, probe_seconds=PROBE_SECONDS)
        try:
            yield dataclasses.replace(services, database_watch=watch)
        finally:
            await watch.close()


async def _stored(url: str, game_id: int) -> tuple[int, float | None, str | None, list[str]]:
    """The game's version, deadline, winner and turns (its history's lines)."""
    conn = await asyncpg.connect(url)
    try:
        row = await conn.fetchrow(
            "SELECT version, deadline, winner, history FROM games WHERE id = $1", game_id
        )
    finally:
        await conn.close()
    assert row is not None
    history = row["history"] or ""
    return row["version"], row["deadline"], row["winner"], history.splitlines()


@pytest.mark.slow
async def test_a_database_outage_costs_no_game_and_every_tap_is_answered(
    fake_telegram: FakeTelegram, postgres: PostgresServer, tmp_path: Path
) -> None:
    fake = fake_telegram
    url = await postgres.new_migrated_database()
    async with running_bot(
        fake,
        tmp_path / "unused.sqlite3",
        database_url=url,
        move_seconds=MOVE_SECONDS,
        services_factory=_slow_probe,
    ) as harness:
        alice, bob, group, board = await start_group_game(harness)
        await harness.idle()
        game_id, step, player = game_number(board), first_choice(board), mover(board, [alice, bob])
        before, deadline, _, turns = await _stored(url, game_id)
        assert deadline is not None and deadline > time.time() + 1  # still in time
        with watch_logs(fake, "bot") as logs:
            postgres.halt()
            try:
                # the player taps twice in time, and asks for their games: each answered at once
                taps = [fake.tap(player, board, step.pack()) for _ in range(2)]
                answers = [await fake.next_answer_to(tap) for tap in taps]
                command = fake.send_text(player, group, "/games")
                reply = await fake.wait_for_message(group, after=command)
                await asyncio.sleep(OUTAGE_SECONDS)  # the outage itself: the deadline passes
            finally:
                postgres.resume()
            await fake.wait_for(
                lambda: logs.count("database back after"), timeout=10, description="the return"
            )
            await harness.idle()
        assert [(a.text, a.show_alert) for a in answers] == [(TRY_AGAIN, False)] * 2
        assert reply.text == TRY_AGAIN and reply.reply_to is command
        assert logs.count("database unreachable") == 1
        # nobody lost on time: the deadline moved by the outage's length; nothing changed
        now, moved, winner, turns_now = await _stored(url, game_id)
        assert (now, winner, turns_now) == (before, None, turns)
        assert moved is not None and moved - deadline >= OUTAGE_SECONDS
        assert not is_over(board) and version(board) == before
        # the game goes on: the player's turn, played now, follows the turns before
        await play_turn(fake, board, [alice, bob])
        after, _, winner, turns_after = await _stored(url, game_id)
        assert after > before and winner is None and turns_after[: len(turns)] == turns
        side = "w" if player is alice else "b"  # alice challenged: she plays white
        assert turns_after[len(turns)].startswith(side)
    assert not fake.double_answers
