"""Strangers at the board, against a real worker process: nobody opens a game's board the chat
would not show them (a group's game outside the group, a private game), watchers and one
person's boards are capped, and a socket that stops reading, floods the server with requests
or sends binary frames is cut off without holding back the players' boards; the worker still
stops within 10 s of SIGTERM with such a socket open."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import aiohttp
import pytest

from bot.services.watchers import MAX_WATCHERS
from bot.webapp.server import BOARDS_PER_USER
from tests.bot.gameplay import game_number
from tests.support.fake_telegram import FakeTelegram, FakeUser
from tests.support.webapp import BoardClient, StalledSocket, sign_init_data
from tests.support.workers import Worker, start_worker

SHOWN_WITHIN = 5.0
"""Seconds a move may take to reach a board on this busy machine (it takes milliseconds)."""


async def _refused(
    session: aiohttp.ClientSession, url: str, user: FakeUser, game: int, fake: FakeTelegram
) -> str:
    client = await BoardClient.open(
        session, url, sign_init_data(fake.token, user), game, wait=False
    )
    answer = await client.answer()
    assert answer["type"] == "refused" and answer["text"], answer
    await client.close()
    return str(answer["reason"])


@pytest.mark.slow
async def test_strangers_are_refused_capped_and_cut_off_and_the_players_play_on(
    tmp_path: Path,
) -> None:
    async with FakeTelegram() as fake:
        await _strangers(fake, tmp_path)


async def _strangers(fake: FakeTelegram, tmp_path: Path) -> None:
    worker = await start_worker(
        fake,
        f"sqlite:///{tmp_path / 'nardy.sqlite3'}",
        tmp_path,
        environment={"WEBAPP_URL": "http://127.0.0.1:9/app/"},
        log=tmp_path / "worker.log",
    )
    fake.balancer = [worker.url]
    url = f"http://127.0.0.1:{worker.port}/app/ws"
    try:
        anna = fake.create_user("Anna", username="anna", language_code="en")
        boris = fake.create_user("Boris", username="boris", language_code="en")
        mallory = fake.create_user("Mallory", username="mallory", language_code="en")
        eve = fake.create_user("Eve", username="eve", language_code="en")
        members = [fake.create_user(f"W{n}", username=f"w{n}x") for n in range(MAX_WATCHERS)]
        group = fake.create_group("club", [anna, boris, mallory, *members])
        fake.send_text(anna, group, "/play @boris short")
        challenge = await fake.wait_for_message(group, timeout=30)
        fake.press(boris, challenge, "✅ Accept")
        board = await fake.wait_for_message(group, where=lambda m: m.photo is not None, timeout=30)
        game = game_number(board)
        # a private game nobody may watch: Anna and Carla, between private chats
        carla = fake.create_user("Carla", username="carla", language_code="en")
        fake.send_text(carla, fake.private_chat(carla), "/start")
        await fake.wait_for_message(fake.private_chat(carla), timeout=30)
        fake.send_text(anna, fake.private_chat(anna), "/play @carla private")
        invitation = await fake.wait_for_message(
            fake.private_chat(carla),
            where=lambda m: any(b.text == "✅ Accept" for b in m.buttons),
            timeout=30,
        )
        fake.press(carla, invitation, "✅ Accept")
        private = await fake.wait_for_message(
            fake.private_chat(carla), where=lambda m: m.photo is not None, timeout=30
        )
        closed_game = game_number(private)

        async with aiohttp.ClientSession() as session:
            # the chat's rules: not a member of the group, not a player of a private game
            assert await _refused(session, url, eve, game, fake) == "closed"
            assert await _refused(session, url, mallory, closed_game, fake) == "closed"
            players = [
                await BoardClient.open(session, url, sign_init_data(fake.token, p), game)
                for p in (anna, boris)
            ]
            # the caps: one person's boards, and the boards of people who do not play
            mine = [
                await BoardClient.open(session, url, sign_init_data(fake.token, mallory), game)
                for _ in range(BOARDS_PER_USER)
            ]
            assert await _refused(session, url, mallory, game, fake) == "busy"
            watchers = [
                await BoardClient.open(session, url, sign_init_data(fake.token, m), game)
                for m in members[: MAX_WATCHERS - len(mine)]
            ]
            assert await _refused(session, url, members[-1], game, fake) == "full"
            for client in [*mine, *watchers]:
                await client.close()

            # the attack: a socket that stops reading and floods, one that sends binary frames,
            # one that just stops reading
            hello = {"type": "hello", "init": sign_init_data(fake.token, mallory), "game": game}
            flooder, binary, silent = [await StalledSocket.open(url) for _ in range(3)]
            for each in (flooder, binary, silent):
                each.send_json(hello)
            for _ in range(3000):
                flooder.send_json({"type": "act", "version": 0, "action": "roll"})
            binary.send(b"x", binary=True)
            await asyncio.gather(*(each.flush() for each in (flooder, binary)))
            # the players' boards keep up meanwhile, move by move
            for _ in range(3):
                mover = next(c for c in players if c.state["you"] == c.state["to_act"])
                at = mover.state["version"]
                await mover.play()
                for client in players:
                    await client.wait(lambda s, at=at: s["version"] > at, SHOWN_WITHIN)
            assert await flooder.cut_off(SHOWN_WITHIN)
            assert await binary.cut_off(SHOWN_WITHIN)
            for client in players:
                await client.close()
        # the worker stops within 10 s of SIGTERM, the silent socket still open
        started = time.monotonic()
        worker.process.terminate()
        await asyncio.wait_for(worker.process.wait(), 10)
        assert time.monotonic() - started < 10
        silent.close()
    finally:
        await _stopped(worker)


async def _stopped(worker: Worker) -> None:
    if worker.process.returncode is None:
        await worker.kill()
