"""The Mini App board with several workers: two real worker processes over one PostgreSQL
database (webhook mode, the fake Telegram's balancer in front), each serving boards. A move
made on a board on one worker, or by a tap in the chat on whichever worker Telegram's post
reaches, shows on every board open on either worker (the change feed over ``LISTEN``/
``NOTIFY``); when a worker is killed with ``kill -9`` its boards connect to the other and
catch up."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import aiohttp
import pytest

from tests.bot.gameplay import game_number, play_turn, version
from tests.support.fake_telegram import FakeChat, FakeMessage, FakeTelegram, FakeUser
from tests.support.postgres import PostgresServer
from tests.support.webapp import BoardClient, sign_init_data
from tests.support.workers import Worker, start_worker

SHOWN_WITHIN = 5.0
"""Seconds a move may take to reach the boards (it takes milliseconds; this is a busy machine
running two workers, their database and the tests: ``bench/webapp.py`` measures it)."""


async def _group_game(fake: FakeTelegram) -> tuple[list[FakeUser], FakeChat, FakeMessage]:
    players = [
        fake.create_user("Anna", username="anna", language_code="en"),
        fake.create_user("Boris", username="boris", language_code="en"),
    ]
    group = fake.create_group("club", players)
    fake.send_text(players[0], group, "/play @boris short")
    challenge = await fake.wait_for_message(group, timeout=30)
    fake.press(players[1], challenge, "✅ Accept")
    board = await fake.wait_for_message(group, where=lambda m: m.photo is not None, timeout=30)
    return players, group, board


def _socket(worker: Worker) -> str:
    return f"http://127.0.0.1:{worker.port}/app/ws"


async def _all_show(boards: list[BoardClient], target: int) -> None:
    """Waits until every board shows version ``target`` of the game."""
    await asyncio.gather(
        *(b.wait(lambda state: state["version"] >= target, SHOWN_WITHIN) for b in boards)
    )
    assert {b.state["version"] for b in boards} == {target}


def _chat_version(board: FakeMessage) -> int:
    found = version(board)
    assert found is not None, board
    return found


@pytest.mark.slow
async def test_a_move_made_on_any_worker_shows_on_every_board_and_a_killed_workers_boards_catch_up(
    postgres: PostgresServer, tmp_path: Path
) -> None:
    async with FakeTelegram() as fake:
        await _two_workers(fake, await postgres.new_migrated_database(), tmp_path)


async def _two_workers(fake: FakeTelegram, url: str, tmp_path: Path) -> None:
    workers: list[Worker] = []
    for index in range(2):
        workers.append(
            await start_worker(
                fake,
                url,
                tmp_path,
                environment={"WEBAPP_URL": "http://127.0.0.1:9/app/"},
                log=tmp_path / f"worker{index}.log",
            )
        )
    fake.balancer = [w.url for w in workers]
    try:
        players, _group, board = await _group_game(fake)
        game = game_number(board)
        async with aiohttp.ClientSession() as session:
            # Anna's board on the first worker, Boris's on the second
            boards = [
                await BoardClient.open(
                    session, _socket(worker), sign_init_data(fake.token, player), game
                )
                for player, worker in zip(players, workers, strict=True)
            ]
            for _ in range(2):
                # the player to move plays on their board, whichever worker it is on
                mover = next(b for b in boards if b.state["you"] == b.state["to_act"])
                at = mover.state["version"]
                await mover.play()
                await _all_show(boards, at + 1)
                # a turn tapped in the chat, each tap on whichever worker the post reaches
                await fake.wait_for(lambda target=at + 1: version(board) == target, timeout=30)
                await play_turn(fake, board, players, timeout=30)
                await _all_show(boards, _chat_version(board))
            # the first worker dies: Anna's board connects to the second, and catches up
            await workers[0].kill()
            await asyncio.wait_for(_closed(boards[0]), SHOWN_WITHIN)
            fake.balancer = [workers[1].url]
            await play_turn(fake, board, players, timeout=30)  # meanwhile a move in the chat
            moved = await boards[1].wait(
                lambda state: state["version"] >= _chat_version(board), SHOWN_WITHIN
            )
            again = await BoardClient.open(
                session, _socket(workers[1]), sign_init_data(fake.token, players[0]), game
            )
            assert again.state["version"] == moved["version"]
            assert again.state["pips"] == moved["pips"]  # each side's, whoever reads
            for each in (again, boards[1]):
                await each.close()
    finally:
        for worker in workers:
            await worker.stop()


async def _closed(board: BoardClient) -> None:
    started = time.monotonic()
    while not board.closed:
        board.changed.clear()
        await board.changed.wait()
    assert time.monotonic() - started < SHOWN_WITHIN
