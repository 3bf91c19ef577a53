"""The board's server side without a browser: init data checked as Telegram signs it, the step
tree against the engine's legal turns, and the WebSocket refusing what it must (forged or
expired init data, a stranger, a move for the opponent, a watcher's move, nonsense), each
refusal changing nothing, and a whole turn sent once editing the chat's board once."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

import aiohttp
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine import Game, Side, TurnInput
from bot.webapp.auth import InitDataRefused, check_init_data
from bot.webapp.state import step_tree
from tests.bot.gameplay import computer_done, start_computer_game, start_private_game
from tests.support.fake_telegram import FakeTelegram, FakeUser
from tests.support.webapp import sign_init_data
from tests.webapp.helpers import board_bot, game_of, open_clients

TOKEN = "123456:test-token-for-init-data"
USER = FakeUser(id=42, first_name="Alice", username="alice", language_code="en")


def test_init_data_signed_by_the_bot_is_accepted_and_anything_else_refused() -> None:
    now = time.time()
    good = sign_init_data(TOKEN, USER, auth_date=now - 5, start_param="g12")
    user = check_init_data(TOKEN, good, max_age=60, now=now)
    assert (user.id, user.username, user.start_param) == (42, "alice", "g12")
    forged = good.replace("%22id%22%3A42", "%22id%22%3A43")
    assert forged != good
    for data, expired in (
        (forged, False),
        (sign_init_data("654321:another-bot", USER, auth_date=now), False),
        (sign_init_data(TOKEN, USER, auth_date=now - 61), True),
        (sign_init_data(TOKEN, USER, auth_date=now + 3600), False),
        ("", False),
        ("hash=00", False),
    ):
        try:
            check_init_data(TOKEN, data, max_age=60, now=now)
        except InitDataRefused as error:
            assert error.expired is expired
        else:
            raise AssertionError(f"accepted {data!r}")


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 30))
def test_the_step_tree_holds_exactly_the_legal_turns(seed: int, plies: int) -> None:
    """Every path of the tree that ends complete is a legal turn, and every legal turn's
    resulting position is reached by one (the page offers all and only the legal turns)."""
    rng = random.Random(seed)
    game = Game.start(rng.choice(["long", "short", "abkhaz"]), rng)
    for _ in range(plies):
        if game.is_over:
            return
        if game.moves is None:
            game = game.roll(rng)
            continue
        turns = game.legal_turns()
        game = game.play(rng.choice(turns) if turns else game.turn_input().turn())  # a pass
    if game.is_over or game.moves is None:
        return
    start: TurnInput = game.turn_input()
    tree = step_tree(start, budget=100_000)
    reached = set()

    def walk(node: list[Any], path: tuple[Any, ...]) -> None:
        if node[0]:
            reached.add(start.plan.current(path))
        assert node[1] is not None
        for src, dst, die, hit, child in node[1]:
            option = next(
                o for o in start.plan.options(path) if (o.src, o.dst, o.die) == (src, dst, die)
            )
            assert option.hit == bool(hit)
            walk(child, (*path, option))

    walk(tree, ())
    turns = game.legal_turns()
    expected = {t.position.with_turn(Side.WHITE) for t in turns} or {
        game.position.with_turn(Side.WHITE)
    }
    assert {p.with_turn(Side.WHITE) for p in reached} == expected


async def _hello(session: aiohttp.ClientSession, url: str, init: str, game: int) -> Any:
    socket = await session.ws_connect(url)
    await socket.send_str(json.dumps({"type": "hello", "init": init, "game": game}))
    return socket


async def _next(socket: Any) -> dict[str, Any]:
    message = await socket.receive(timeout=10)
    assert message.type == aiohttp.WSMsgType.TEXT, message
    found: dict[str, Any] = json.loads(message.data)
    return found


async def test_the_socket_refuses_what_it_must_and_a_whole_turn_edits_once(
    tmp_path: Path,
) -> None:
    async with FakeTelegram() as fake, board_bot(fake, tmp_path / "nardy.sqlite3") as harness:
        alice, bob, boards = await start_private_game(harness, "private")
        game = game_of(boards[alice])
        url = f"{harness.web_url}/app/ws"
        carol = fake.create_user("Carol", username="carol", language_code="ru")
        async with aiohttp.ClientSession() as session:
            # forged, expired, and a stranger to a private game: refused, the socket closed
            forged = sign_init_data(fake.token, alice).replace("Alice", "Alicf")
            expired = sign_init_data(fake.token, alice, auth_date=time.time() - 2 * 86_400)
            for init, reason in (
                (forged, "forged"),
                (expired, "expired"),
                (sign_init_data(fake.token, carol), "closed"),
            ):
                socket = await _hello(session, url, init, game)
                refused = await _next(socket)
                assert (refused["type"], refused["reason"]) == ("refused", reason)
                assert (await socket.receive(timeout=5)).type in (
                    aiohttp.WSMsgType.CLOSE,
                    aiohttp.WSMsgType.CLOSED,
                )
            assert "Откройте" not in refused["text"] and refused["text"]
            sockets = {}
            states = {}
            for user in (alice, bob):
                sockets[user] = await _hello(session, url, sign_init_data(fake.token, user), game)
                assert (await _next(sockets[user]))["type"] == "hello"
                states[user] = await _next(sockets[user])
            mover = alice if states[alice]["you"] == states[alice]["to_act"] else bob
            waiter = bob if mover is alice else alice
            tree, version = states[mover]["tree"], states[mover]["version"]
            assert tree is not None and states[waiter]["tree"] is None
            steps, node = [], tree
            while not node[0]:
                src, dst, die, _, node = node[1][0]
                steps.append([src, dst, die])
            edits = {user: boards[user].edit_count for user in (alice, bob)}
            # the opponent sends the mover's turn; nonsense; a stale version: all refused
            for who, message in (
                (waiter, {"type": "turn", "version": version, "steps": steps}),
                (mover, {"type": "turn", "version": version, "steps": [[1, 2]]}),
                (mover, {"type": "turn", "version": version, "steps": steps[:-1]}),
                (mover, {"type": "turn", "version": version - 1, "steps": steps}),
                (mover, {"type": "act", "version": version, "action": "take"}),
            ):
                await sockets[who].send_str(json.dumps(message))
                answer = await _next(sockets[who])
                assert answer["type"] == "refused", (message, answer)
            await harness.idle()
            assert {user: boards[user].edit_count for user in (alice, bob)} == edits
            # the mover's whole turn: done, both sockets pushed the next state, each chat's
            # board edited exactly once for it
            await sockets[mover].send_str(
                json.dumps({"type": "turn", "version": version, "steps": steps})
            )
            pushed = {}
            for user in (alice, bob):
                while True:
                    message = await _next(sockets[user])
                    if message["type"] == "state":
                        pushed[user] = message
                        break
            assert pushed[alice]["version"] == pushed[bob]["version"] > version
            assert pushed[mover]["last"]["steps"] == [
                [s, d, h] for s, d, _, h, _ in _path(tree, steps)
            ]
            await harness.idle()
            assert {user: boards[user].edit_count - edits[user] for user in (alice, bob)} == {
                alice: 1,
                bob: 1,
            }
            for socket in sockets.values():
                await socket.close()


def _path(tree: list[Any], steps: list[list[int]]) -> list[list[Any]]:
    found, node = [], tree
    for src, dst, die in steps:
        option = next(o for o in node[1] if o[:3] == [src, dst, die])
        found.append(option)
        node = option[4]
    return found


async def test_the_computers_opening_turn_is_shown_to_the_player_who_moves_second(
    tmp_path: Path,
) -> None:
    """The computer opens with a forced 6-1, played at once with the person's forced 3-2, and
    plays its next turn: the person's chat board and Mini App board list all three, oldest
    first, not the last alone (each turn in the board's steps, seen from the person's side)."""
    async with (
        FakeTelegram() as fake,
        board_bot(fake, tmp_path / "nardy.sqlite3", seed=1, computer_pause_seconds=0) as harness,
    ):
        alice, _chat, board = await start_computer_game(harness)
        first = board.caption or ""
        assert "⚫ 6-1 24/18 18/17 (forced) → ⚪ 3-2 24/21 21/19 (forced)" in first
        await computer_done(fake, board)
        shown = board.caption or ""
        opening = "⚫ 6-1 24/18 18/17 (forced) → ⚪ 3-2 24/21 21/19 (forced)"
        assert f"Last turns: {opening} → ⚫ 3-3" in shown
        async with aiohttp.ClientSession() as session:
            [client] = await open_clients(harness, session, [alice], game_of(board))
            state = client.state
            assert state["you"] == "w" and state["to_act"] == "w"
            recent = state["recent"]
            assert [(turn["n"], turn["side"]) for turn in recent] == [(0, "b"), (1, "w"), (2, "b")]
            assert recent[0]["text"] == "⚫ 6-1 24/18 18/17 (forced)"
            # black's 24/18 18/17 from white's side of a long board: its points 12, 6, 5
            assert recent[0]["steps"] == [[12, 6, 0], [6, 5, 0]]
            assert recent[1]["steps"] == [[24, 21, 0], [21, 19, 0]]
            assert state["plies"] == 3
            await client.close()
