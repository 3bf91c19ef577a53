"""Several real worker processes (``python -m bot`` in webhook mode) over one PostgreSQL
database, behind a proxy that spreads Telegram's posts over them (the fake's ``balancer``):
games played at once, one worker killed with ``kill -9`` in the middle, the same update posted
to two workers, a deadline that falls due while a worker is dead. Nothing is lost or done twice,
every board ends on its game's last state, and the ledger and the ratings add up.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.services.chips import is_early_concession
from bot.storage import Store, open_database
from tests.support.fake_telegram import FakeChat, FakeMessage, FakeTelegram, FakeUser
from tests.support.postgres import PostgresServer
from tests.support.workers import Worker, start_worker

from .gameplay import first_choice, game_buttons, is_over, mover, play_turn, version

MOVE_SECONDS = 20
WAIT = 30.0
"""Seconds a redrawn board is waited for: three workers and PostgreSQL share a busy machine."""


async def _game(fake: FakeTelegram, index: int) -> tuple[list[FakeUser], FakeChat, FakeMessage]:
    players = [
        fake.create_user(f"A{index}", username=f"anna{index}x"),
        fake.create_user(f"B{index}", username=f"boris{index}x"),
    ]
    group = fake.create_group(f"club {index}", players)
    fake.send_text(players[0], group, f"/play @{players[1].username}")
    challenge = await fake.wait_for_message(group, timeout=30)
    fake.press(players[1], challenge, "✅ Accept")
    board = await fake.wait_for_message(group, where=lambda m: m.photo is not None, timeout=30)
    return players, group, board


async def _shows_its_game(store: Store, board: FakeMessage, game_id: int) -> None:
    """Waits until the board shows its game as the database has it: buttons drawn for its
    version, or the result of a finished game."""
    for _ in range(300):  # the sweep's 5 s, and a dead worker's claim running out (10 s)
        stored = await store.games.get(game_id)
        assert stored is not None
        known = stored.version
        if (is_over(board) and stored.game.is_over) or version(board) == known:
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"board of game {game_id} shows {version(board)}, not {known}")


@pytest.fixture
async def cluster(
    fake_telegram: FakeTelegram, postgres: PostgresServer, tmp_path: Path
) -> AsyncIterator[tuple[str, list[Worker]]]:
    url = await postgres.new_database()
    workers: list[Worker] = []
    for index in range(3):
        workers.append(
            await start_worker(
                fake_telegram,
                url,
                tmp_path,
                environment={"MOVE_SECONDS": str(MOVE_SECONDS)},
                log=tmp_path / f"worker{index}.log",
            )
        )
    fake_telegram.balancer = [w.url for w in workers]
    yield url, workers
    for worker in workers:
        await worker.stop()


@pytest.mark.slow
async def test_three_workers_one_killed_mid_game_lose_and_repeat_nothing(
    fake_telegram: FakeTelegram, cluster: tuple[str, list[Worker]]
) -> None:
    fake = fake_telegram
    url, workers = cluster
    games = [await _game(fake, index) for index in range(3)]
    ids = [game_buttons(board)[0].game for _players, _group, board in games]
    for _ in range(2):
        for players, _group, board in games:
            await play_turn(fake, board, players, timeout=WAIT)
    # taps in every game at once, and one worker dies while they are being handled
    taps = []
    for players, _group, board in games:
        taps.append(fake.tap(mover(board, players), board, first_choice(board).pack()))
    await asyncio.sleep(0.05)
    await workers[1].kill()
    database = await open_database(url)
    store = Store(database)
    try:
        # A tap the dead worker saved but did not show is shown by another (its sweep); one it
        # had claimed but not saved is gone, as if never made; none is applied twice.
        for (_players, _group, board), game_id in zip(games, ids, strict=True):
            await _shows_its_game(store, board, game_id)
        # game 0 now waits and will lose on time: nobody taps it again; the others play on,
        # through the two workers left (the proxy still tries the dead one first, in turn)
        for _ in range(2):
            for players, _group, board in games[1:]:
                await play_turn(fake, board, players, timeout=WAIT)
        # the same tap posted to both live workers at once: applied once
        players, _group, board = games[1]
        before = version(board)
        step = first_choice(board)
        update = fake.forge_update(
            {
                "callback_query": {
                    "id": "twice-1",
                    "from": mover(board, players).to_api(),
                    "message": board.to_api(),
                    "chat_instance": "1",
                    "data": step.pack(),
                }
            }
        )
        posts = await asyncio.gather(
            *(fake.post_to_webhook(update, url=w.url) for w in (workers[0], workers[2]))
        )
        assert [p.status for p in posts] == [200, 200]
        requested = [
            r for r in fake.requests_for("answerCallbackQuery")
            if r.params.get("callback_query_id") == "twice-1"
        ]  # fmt: skip
        in_answers = [p for p in posts if "answerCallbackQuery" in p.body and "twice-1" in p.body]
        assert len(requested) + len(in_answers) == 1  # answered once, by one of the workers
        await fake.wait_for(lambda: version(board) != before, timeout=WAIT)
        # game 0's deadline falls due with a worker dead: a live one fires it, once (the
        # others, idle meanwhile, may run out of time too: each once)
        _idle_players, _idle_group, idle_board = games[0]
        await fake.wait_for(lambda: is_over(idle_board), timeout=MOVE_SECONDS + 30)
        assert "time ran out" in (idle_board.caption or "")
        # every board shows its game's last state, and each game has one board
        for (_players, group, board), game_id in zip(games, ids, strict=True):
            await _shows_its_game(store, board, game_id)
            assert len([m for m in fake.messages(group) if m.photo]) == 1
        rows = await database.fetch_all(
            "SELECT id, history, outcome FROM games WHERE winner IS NOT NULL"
        )
        assert ids[0] in [r["id"] for r in rows]
        for row in rows:  # each ended once: by one timeout line, or by none (another end)
            assert str(row["history"]).count("timeout") == (row["outcome"] == "timeout")
        # the ledger and the ratings add up
        totals = await database.fetch_one(
            """SELECT (SELECT COALESCE(SUM(chips), 0) FROM wallets),
                      (SELECT COALESCE(SUM(delta), 0) FROM ledger WHERE kind <> 'game')"""
        )
        assert totals is not None and totals[0] == totals[1]
        rated: dict[int, int] = {}
        for finished in rows:
            stored = await store.games.get(finished["id"])
            assert stored is not None
            if not is_early_concession(stored):
                for user_id in (stored.white_id, stored.black_id):
                    rated[user_id] = rated.get(user_id, 0) + 1
        counted = await database.fetch_all(
            "SELECT user_id, SUM(games) AS n FROM ratings GROUP BY user_id"
        )
        assert {r["user_id"]: r["n"] for r in counted} == rated
    finally:
        await database.close()
    for tap in taps:  # a tap in flight at the kill is answered once at most, never twice
        answered = fake.requests_for("answerCallbackQuery")
        assert len([r for r in answered if r.params.get("callback_query_id") == tap.id]) <= 1
