"""A match to 7 with the cube and stakes in a group, through the real bot and a fake Telegram,
across a restart: the issue's "done when"."""

from __future__ import annotations

import re

from bot.services.actions import GameAction
from tests.support.fake_telegram import FakeChat, FakeMessage, FakeUser
from tests.support.harness import BotHarness

from .gameplay import (
    game_buttons,
    is_over,
    mover,
    play_turn,
    start_private_game,
    tap_and_wait,
    wait_for_board,
)


async def _press_until(
    harness: BotHarness, user: FakeUser, message: FakeMessage, prefix: str, wanted: str
) -> None:
    """Presses the option button starting with ``prefix`` until it reads ``wanted``."""
    for _ in range(8):
        button = next(b for b in message.buttons if b.text.startswith(prefix))
        if button.text == f"{prefix} {wanted}":
            return
        answer = await harness.fake.next_answer_to(
            harness.fake.tap(user, message, button.callback_data or "")
        )
        assert not answer.show_alert, answer.text
        await harness.settle()
    raise AssertionError(f"{prefix} never read {wanted}: {[b.text for b in message.buttons]}")


async def _tap(
    harness: BotHarness, board: FakeMessage, players: list[FakeUser], move: GameAction
) -> None:
    [action] = [b for b in game_buttons(board) if b.action is move]
    await tap_and_wait(harness.fake, mover(board, players), board, action)


async def _until(
    harness: BotHarness, board: FakeMessage, players: list[FakeUser], move: GameAction
) -> None:
    """Plays turns until the button ``move`` is offered."""
    for _ in range(200):
        if any(b.action is move for b in game_buttons(board)):
            return
        await play_turn(harness.fake, board, players)
    raise AssertionError(f"{move} never offered")


async def _resign(harness: BotHarness, group: FakeChat, user: FakeUser, board: FakeMessage) -> None:
    """``user`` resigns with /resign and its confirmation; waits for the board to show it."""
    fake = harness.fake
    fake.send_text(user, group, "/resign")
    await harness.settle()
    question = fake.last_message(group)
    await fake.next_answer_to(fake.press(user, question, "🏳"))
    await fake.wait_for(lambda: is_over(board), description="the board after resigning")


def _match_line(board: FakeMessage) -> str:
    return next(line for line in (board.caption or "").splitlines() if line.startswith("🏁"))


async def test_a_match_to_7_with_the_cube_and_stakes_survives_a_restart(
    bot_harness: BotHarness,
) -> None:
    harness, fake = bot_harness, bot_harness.fake
    alice = fake.create_user("Alice", username="alice", language_code="en")
    bob = fake.create_user("Bob", username="bob", language_code="en")
    group = fake.create_group("Nardy club", [alice, bob])
    players = [alice, bob]

    fake.send_text(alice, group, "/play @bob")
    await harness.settle()
    challenge = fake.last_message(group)
    await _press_until(harness, alice, challenge, "🏁", "match to 7")
    await _press_until(harness, alice, challenge, "⏫", "cube on")
    await _press_until(harness, alice, challenge, "💰", "stake 100")
    assert "match to 7 · with the doubling cube · stake 100 chips" in challenge.text
    answer = await fake.next_answer_to(fake.press(bob, challenge, "✅ Accept"))
    assert not answer.show_alert, answer.text
    board = await wait_for_board(fake, group)
    assert "🏁 Match to 7 · game 1 · 0:0" in (board.caption or "")
    assert "Stake: 100 chips" in (board.caption or "")

    # game 1: a few turns, a double taken, a redouble dropped: 2 points for the taker
    for _ in range(6):
        await play_turn(fake, board, players)
    await _until(harness, board, players, GameAction.DOUBLE)
    doubler = mover(board, players)
    await _tap(harness, board, players, GameAction.DOUBLE)
    assert "offers to double to 2" in (board.caption or "")
    taker = mover(board, players)
    assert taker is not doubler
    await _tap(harness, board, players, GameAction.TAKE)
    assert re.search(r"Cube: 2, . @" + (taker.username or ""), board.caption or "")
    await _until(harness, board, players, GameAction.DOUBLE)
    assert mover(board, players) is taker  # only the owner may redouble
    await _tap(harness, board, players, GameAction.DOUBLE)
    await harness.restart()  # the offer, open across a restart
    await _tap(harness, board, players, GameAction.DROP)
    assert is_over(board)
    caption = board.caption or ""
    assert f"@{taker.username} wins: double dropped, 2 pt." in caption
    assert f"@{doubler.username} pays @{taker.username} 200 chips." in caption
    assert "Match to 7 · game 1 · " in caption
    assert [b.text for b in board.buttons] == ["▶ Next game", "📊 Analysis", "🎞 Replay"]
    fake.send_text(taker, group, f"/score @{doubler.username}")
    await harness.settle()
    assert "🏁 Match to 7: 2:0, in progress." in fake.last_message(group).text
    # game 2 onwards: the taker wins by resignations until the match is over
    answer = await fake.next_answer_to(fake.press(doubler, board, "▶ Next game"))
    assert not answer.show_alert, answer.text
    second = await fake.wait_for_message(
        group, where=lambda m: m.photo is not None and m is not board
    )
    assert "game 2 · " in _match_line(second)
    # the finished board's keyboard is edited by the tap's handler, the new board is sent by
    # the publisher in the background: either may come first
    await fake.wait_for(
        lambda: [b.text for b in board.buttons] == ["📊 Analysis", "🎞 Replay"],
        description="the finished board's keyboard",
    )
    # games 2, 3 and 4: the doubler resigns at once, 2 points each; no chips move, the loser
    # having played too few turns (unless the dice forced turns on him: then he pays)
    paid = 200
    boards = [second]
    for number in (2, 3, 4):
        current = boards[-1]
        assert f"game {number} · " in _match_line(current)
        if number == 4:  # the taker has 6 of 7: the Crawford game, played without the cube
            assert "Crawford game, no cube" in _match_line(current)
            for _ in range(2):
                assert not any(
                    b.action in (GameAction.ROLL, GameAction.DOUBLE) for b in game_buttons(current)
                )
                await play_turn(fake, current, players)
        await _resign(harness, group, doubler, current)
        payment = re.search(r"pays @\w+ (\d+) chips", current.caption or "")
        assert payment or "No chips move" in (current.caption or "")
        paid += int(payment[1]) if payment else 0
        if number < 4:
            await fake.next_answer_to(fake.press(taker, current, "▶ Next game"))
            boards.append(
                await fake.wait_for_message(
                    group, where=lambda m: m.photo is not None and m not in (board, *boards)
                )
            )
    final = boards[-1].caption or ""
    assert f"@{taker.username} wins the match" in final
    assert [b.text for b in boards[-1].buttons] == [
        "🔁 Rematch",
        "📊 Analysis",
        "🎞 Replay",
        "🔎 Play anyone",
    ]

    async def score() -> str:
        fake.send_text(taker, group, f"/score @{doubler.username}")
        await harness.settle()
        return fake.last_message(group).text

    before = await score()
    assert "4:0 in games, 8:0 in points" in before
    assert "🏁 Last match, to 7: won 8:0." in before
    await harness.restart()
    assert await score() == before
    fake.send_text(taker, group, "/chips")
    await harness.settle()
    assert f"Your chips: {1000 + paid}" in fake.last_message(group).text


async def test_play_takes_the_terms_in_words(bot_harness: BotHarness) -> None:
    harness, fake = bot_harness, bot_harness.fake
    alice = fake.create_user("Alice", username="alice", language_code="en")
    bob = fake.create_user("Bob", username="bob", language_code="en")
    group = fake.create_group("Nardy club", [alice, bob])
    fake.send_text(alice, group, "/play @bob short 5 cube 100 pro")
    await harness.settle()
    text = fake.last_message(group).text
    assert "short nardy" in text
    assert "match to 5 · with the doubling cube · stake 100 chips, PRO" in text
    fake.send_text(alice, group, "/play")  # Bob's invitation is still open: one to anybody
    await harness.settle()
    assert "single game · no cube\n" in fake.last_message(group).text


async def test_between_private_chats_only_the_answering_player_sees_take_and_drop(
    bot_harness: BotHarness,
) -> None:
    harness, fake = bot_harness, bot_harness.fake
    alice, bob, boards = await start_private_game(harness, "3 cube")
    alice_chat, bob_chat = fake.private_chat(alice), fake.private_chat(bob)
    players = [alice, bob]

    def buttons_of(user: FakeUser) -> set[GameAction]:
        return {b.action for b in game_buttons(boards[user])}

    for _ in range(200):  # play until someone may double
        # each chat's board is redrawn on its own: wait until both show the turn that was just
        # handed over (the one who finished it has no buttons left, the other has some)
        await fake.wait_for(lambda: bool(buttons_of(alice)) != bool(buttons_of(bob)))
        actor = alice if buttons_of(alice) else bob
        if GameAction.DOUBLE in buttons_of(actor):
            break
        await play_turn(fake, boards[actor], players)
    doubler = actor
    other = bob if doubler is alice else alice
    assert buttons_of(other) == set()  # the waiting player sees no buttons
    await _tap(harness, boards[doubler], players, GameAction.DOUBLE)
    await fake.wait_for(lambda: buttons_of(other) == {GameAction.TAKE, GameAction.DROP})
    assert buttons_of(doubler) == set()
    assert "offers to double to 2" in (boards[doubler].caption or "")
    await _tap(harness, boards[other], players, GameAction.DROP)
    await fake.wait_for(lambda: is_over(boards[alice]) and is_over(boards[bob]))
    assert "🏁 Match to 3 · game 1 · " in (boards[bob].caption or "")
    # the next game: new boards in both chats, each drawn for its reader; both finished
    # boards keep only 📊 and 🎞, the one not tapped too
    finished = dict(boards)
    assert [b.text for b in finished[doubler].buttons][0] == "▶ Next game"
    fake.press(other, boards[other], "▶ Next game")
    for user, chat in ((alice, alice_chat), (bob, bob_chat)):
        old = boards[user]
        boards[user] = await fake.wait_for_message(
            chat, where=lambda m, old=old: m.photo is not None and m is not old
        )
        assert "game 2 · " in _match_line(boards[user])
    await fake.wait_for(
        lambda: all(
            [b.text for b in finished[user].buttons] == ["📊 Analysis", "🎞 Replay"]
            for user in players
        ),
        description="the finished boards' keyboards",
    )
