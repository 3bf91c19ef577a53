"""Whole games through the real bot and a fake Telegram: groups, private chats, restarts,
timeouts, duplicates, forged and stale presses. The whole game, the restart and the duplicate run
on both backends (an SQLite file, a PostgreSQL database)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.callbacks import GameButton
from bot.services.actions import GameAction
from tests.support.fake_telegram import FakeChat, FakeTelegram, FakeUser
from tests.support.harness import BotHarness, running_bot

from .gameplay import (
    first_choice,
    game_buttons,
    is_over,
    mover,
    play_turn,
    tap_and_wait,
    version,
    wait_for_board,
)


def _players(fake: FakeTelegram) -> tuple[FakeUser, FakeUser, FakeUser, FakeChat]:
    alice = fake.create_user("Alice", username="alice", language_code="en")
    bob = fake.create_user("Борис", username="bob", language_code="ru")
    carol = fake.create_user("Carol", username="carol")
    group = fake.create_group("Nardy club", [alice, bob, carol])
    return alice, bob, carol, group


async def _start_group_game(harness: BotHarness, text: str = "/play @bob"):  # type: ignore[no-untyped-def]
    fake = harness.fake
    alice, bob, carol, group = _players(fake)
    fake.send_text(alice, group, text)
    await harness.settle()
    challenge = fake.last_message(group)
    assert "@alice" in challenge.text and "@bob" in challenge.text
    tap = fake.press(bob, challenge, "✅ Accept")
    assert not (await fake.next_answer_to(tap)).show_alert
    board = await wait_for_board(fake, group)
    await fake.wait_for(lambda: "game has started" in challenge.text)
    return alice, bob, carol, group, board


async def test_a_whole_group_game_to_the_end_and_the_score(any_backend_bot: BotHarness) -> None:
    harness, fake = any_backend_bot, any_backend_bot.fake
    alice, bob, carol, group, board = await _start_group_game(harness, "/play @bob short")
    assert "short nardy" in (board.caption or "")
    for _ in range(400):
        if is_over(board):
            break
        await play_turn(fake, board, [alice, bob])
    assert is_over(board), board.caption
    # no move button stays usable
    assert [b.text for b in board.buttons] == [
        "🔁 Rematch",
        "📊 Analysis",
        "🎞 Replay",
        "🔎 Play anyone",
    ]
    assert len([m for m in fake.messages(group) if m.photo]) == 1  # one board, edited in place
    fake.send_text(alice, group, "/score @bob")
    await harness.settle()
    score = fake.last_message(group).text
    assert "1 games" in score.replace("(", "").replace(")", "")
    await harness.restart()
    fake.send_text(alice, group, "/score @bob")
    await harness.settle()
    assert fake.last_message(group).text == score
    fake.send_text(carol, group, "/top")
    await harness.settle()
    assert "Leaderboard" in fake.last_message(group).text


async def test_onlookers_and_the_waiting_player_change_nothing(bot_harness: BotHarness) -> None:
    harness, fake = bot_harness, bot_harness.fake
    alice, bob, carol, group, board = await _start_group_game(harness)
    step = first_choice(board)
    edits = board.edit_count
    waiting = bob if mover(board, [alice, bob]) is alice else alice
    refusals = ((carol, "You are not playing"), (waiting, ("It is not your turn", "не ваш ход")))
    for user, expected in refusals:
        answer = await fake.next_answer_to(fake.tap(user, board, step.pack()))
        assert answer.show_alert
        assert any(
            text in (answer.text or "")
            for text in ([expected] if isinstance(expected, str) else expected)
        )
    await harness.settle()
    assert board.edit_count == edits and version(board) == step.version


async def test_forged_and_stale_presses_are_refused(bot_harness: BotHarness) -> None:
    harness, fake = bot_harness, bot_harness.fake
    alice, bob, _carol, _group, board = await _start_group_game(harness)
    player = mover(board, [alice, bob])
    step = first_choice(board)
    forged = [
        "g:999999:0:1:0",  # a game that does not exist
        GameButton(game=step.game, version=step.version, action=GameAction.STEP, arg=97).pack(),
        GameButton(game=step.game, version=step.version + 5, action=GameAction.CONFIRM).pack(),
        "g:not:a:number",
        "zz:1",
    ]
    for data in forged:
        answer = await fake.next_answer_to(fake.tap(player, board, data, check=False))
        assert answer.show_alert, data
    await harness.settle()
    assert version(board) == step.version
    await tap_and_wait(fake, player, board, step)
    stale = await fake.next_answer_to(fake.tap(player, board, step.pack(), check=False))
    assert stale.show_alert
    assert "out of date" in (stale.text or "") or "устарела" in (stale.text or "")


async def test_a_redelivered_tap_is_applied_once(any_backend_bot: BotHarness) -> None:
    harness, fake = any_backend_bot, any_backend_bot.fake
    alice, bob, _carol, _group, board = await _start_group_game(harness)
    player = mover(board, [alice, bob])
    step = first_choice(board)
    tap = fake.tap(player, board, step.pack())
    await fake.wait_for(lambda: version(board) != step.version)
    after = version(board)
    edits = board.edit_count
    fake.redeliver(tap.update_id)
    await harness.settle()
    assert version(board) == after and board.edit_count == edits


async def test_a_restart_in_the_middle_of_a_game_loses_nothing(
    any_backend_bot: BotHarness,
) -> None:
    harness, fake = any_backend_bot, any_backend_bot.fake
    alice, bob, _carol, group, board = await _start_group_game(harness)
    await play_turn(fake, board, [alice, bob])
    player = mover(board, [alice, bob])
    step = first_choice(board)
    await tap_and_wait(fake, player, board, step)  # one step tapped, not confirmed
    caption, buttons = board.caption, [b.callback_data for b in board.buttons]
    await harness.restart()
    assert board.caption == caption and [b.callback_data for b in board.buttons] == buttons
    for _ in range(3):  # the tapped step is still there, and play goes on
        await play_turn(fake, board, [alice, bob])
    assert len([m for m in fake.messages(group) if m.photo]) == 1


async def test_time_runs_out_also_across_a_restart(
    fake_telegram: FakeTelegram, database_path: Path
) -> None:
    fake = fake_telegram
    async with running_bot(fake, database_path, move_seconds=1) as harness:
        alice, bob, _carol, group, board = await _start_group_game(harness)
        await fake.wait_for(lambda: is_over(board), timeout=10)
        assert "time ran out" in (board.caption or "")
        fake.send_text(bob, group, "/play @alice")
        await harness.settle()
        challenge = fake.last_message(group)
        fake.press(alice, challenge, challenge.buttons[0].text)  # Accept, in Boris's Russian
        second = await fake.wait_for_message(group, after=challenge, where=lambda m: bool(m.photo))
        await harness.stop()
        await asyncio.sleep(1.2)  # the deadline passes while the bot is down
        await harness.start()
        await fake.wait_for(lambda: is_over(second), timeout=10)
        assert "время вышло" in (second.caption or "")  # Boris challenged: his Russian


async def test_resign_asks_first(bot_harness: BotHarness) -> None:
    harness, fake = bot_harness, bot_harness.fake
    alice, bob, _carol, group, board = await _start_group_game(harness)
    fake.send_text(bob, group, "/resign")
    await harness.settle()
    question = fake.last_message(group)
    assert "Resign game" in question.text or "Сдать партию" in question.text
    refused = await fake.next_answer_to(fake.press(alice, question, question.buttons[0].text))
    assert refused.show_alert  # not Alice's question to answer
    await harness.settle()
    assert not is_over(board)
    fake.press(bob, question, question.buttons[0].text)
    await fake.wait_for(lambda: is_over(board))
    assert "resignation" in (board.caption or "")
    # Rematch: the same two, the same options, a new challenge and then a new board
    fake.press(bob, board, board.buttons[0].text)
    rematch = await fake.wait_for_message(group, after=question, where=lambda m: "⚔" in m.content)
    assert "@alice" in rematch.text
    fake.press(alice, rematch, rematch.buttons[0].text)  # Accept, in Boris's Russian
    second = await fake.wait_for_message(group, after=rematch, where=lambda m: bool(m.photo))
    assert "#2" in (second.caption or "")


async def test_self_challenge_bot_challenge_and_unknown_username(
    bot_harness: BotHarness,
) -> None:
    harness, fake = bot_harness, bot_harness.fake
    alice, _bob, carol, group = _players(fake)
    fake.send_text(alice, group, "/play @alice")
    fake.send_text(alice, group, "/play @some_helper_bot")
    await harness.settle()
    replies = [m.text for m in fake.messages(group)]
    assert any("cannot challenge yourself" in t for t in replies)
    assert any("Bots do not play" in t for t in replies)
    fake.send_text(alice, group, "/play @dave")  # nobody the bot has seen
    await harness.settle()
    challenge = fake.last_message(group)
    assert "@dave" in challenge.text
    wrong = await fake.next_answer_to(fake.press(carol, challenge, "✅ Accept"))
    assert wrong.show_alert and "someone else" in (wrong.text or "")
    dave = fake.create_user("Dave", username="dave")
    fake.press(dave, challenge, "✅ Accept")
    await wait_for_board(fake, group)


async def test_a_game_between_two_private_chats(bot_harness: BotHarness) -> None:
    harness, fake = bot_harness, bot_harness.fake
    alice = fake.create_user("Alice", username="alice")
    bob = fake.create_user("Борис", username="bob", language_code="ru")
    alice_chat, bob_chat = fake.private_chat(alice), fake.private_chat(bob)
    fake.send_text(bob, bob_chat, "/start")
    await harness.settle()  # Bob is known before he is challenged
    fake.send_text(alice, alice_chat, "/play @bob")
    await harness.settle()
    invitation = fake.last_message(bob_chat)
    assert "вызывает" in invitation.text  # Bob reads Russian
    fake.press(bob, invitation, "✅ Принять")
    alice_board = await wait_for_board(fake, alice_chat)
    bob_board = await wait_for_board(fake, bob_chat)
    assert alice_board.photo != bob_board.photo  # each drawn from its reader's side
    players = [alice, bob]

    def one_to_move() -> bool:
        return bool(game_buttons(alice_board)) != bool(game_buttons(bob_board))

    for _ in range(4):
        await fake.wait_for(one_to_move, description="exactly one board with buttons")
        mover_board, other_board = (
            (alice_board, bob_board) if game_buttons(alice_board) else (bob_board, alice_board)
        )
        assert not game_buttons(other_board)  # only the player to move gets buttons
        user = alice if mover_board is alice_board else bob
        before = other_board.edit_count
        await play_turn(fake, mover_board, players if user is alice else [bob, alice])
        await fake.wait_for(lambda b=other_board, n=before: b.edit_count > n)
    _ = (alice_chat, bob_chat)


async def test_a_private_invitation_to_a_stranger_gives_a_link(bot_harness: BotHarness) -> None:
    harness, fake = bot_harness, bot_harness.fake
    alice = fake.create_user("Alice", username="alice")
    chat = fake.private_chat(alice)
    fake.send_text(alice, chat, "/play @stranger")
    await harness.settle()
    link_message = fake.last_message(chat)
    assert "t.me/nardy_test_bot?start=c" in link_message.text
    payload = link_message.text.rsplit("start=", 1)[1].split()[0]
    stranger = fake.create_user("Stan", username="stranger")
    stranger_chat = fake.private_chat(stranger)
    fake.send_text(stranger, stranger_chat, f"/start {payload}")
    await harness.settle()
    shown = fake.last_message(stranger_chat)
    fake.press(stranger, shown, "✅ Accept")
    await wait_for_board(fake, stranger_chat)
    await wait_for_board(fake, chat)


async def test_a_player_who_blocked_the_bot_does_not_stop_the_game(
    bot_harness: BotHarness,
) -> None:
    harness, fake = bot_harness, bot_harness.fake
    alice = fake.create_user("Alice", username="alice")
    bob = fake.create_user("Bob", username="bob")
    alice_chat, bob_chat = fake.private_chat(alice), fake.private_chat(bob)
    fake.send_text(bob, bob_chat, "/start")
    await harness.settle()  # Bob is known before he is challenged
    fake.send_text(alice, alice_chat, "/play @bob")
    await harness.settle()
    fake.press(bob, fake.last_message(bob_chat), "✅ Accept")
    alice_board = await wait_for_board(fake, alice_chat)
    bob_board = await wait_for_board(fake, bob_chat)
    await fake.wait_for(lambda: bool(game_buttons(alice_board)) != bool(game_buttons(bob_board)))
    mover_board, waiting, waiting_board = (
        (alice_board, bob, bob_board)
        if game_buttons(alice_board)
        else (bob_board, alice, alice_board)
    )
    fake.block_bot(waiting)
    edits = waiting_board.edit_count
    await play_turn(fake, mover_board, [alice, bob])
    await fake.wait_for_request(
        "editMessageMedia", where=lambda r: not r.ok and r.params["chat_id"] == str(waiting.id)
    )
    assert waiting_board.edit_count == edits
    other = alice if waiting is bob else bob
    other_chat = alice_chat if other is alice else bob_chat
    fake.send_text(other, other_chat, f"/play @{waiting.username}")
    await harness.settle()
    assert "t.me/" in fake.last_message(other_chat).text  # a link: the bot cannot write to them


async def test_a_group_that_becomes_a_supergroup_keeps_its_game(bot_harness: BotHarness) -> None:
    harness, fake = bot_harness, bot_harness.fake
    alice, bob, _carol, group, board = await _start_group_game(harness)
    supergroup = fake.migrate_to_supergroup(group)
    await harness.settle()
    player = mover(board, [alice, bob])
    step = first_choice(board)
    fake.tap(player, board, step.pack())
    moved = await wait_for_board(fake, supergroup)
    assert version(moved) != step.version
    await play_turn(fake, moved, [alice, bob])  # play goes on in the supergroup


async def test_an_unexpected_failure_gets_an_apology_and_the_bot_goes_on(
    bot_harness: BotHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    harness, fake = bot_harness, bot_harness.fake
    alice = fake.create_user("Alice", username="alice")
    chat = fake.private_chat(alice)

    async def broken(*_args: object) -> None:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr("bot.services.ScoreService.stats", broken)
    sent = fake.send_text(alice, chat, "/stats")
    apology = await fake.wait_for_message(chat, after=sent)  # sent outside the update's handling
    assert apology.text == "Something went wrong. Please try again."
    [(_update, error)] = harness.take_errors()
    assert "disk on fire" in str(error)
    monkeypatch.undo()
    again = fake.send_text(alice, chat, "/stats")
    assert "0 games" in (await fake.wait_for_message(chat, after=again)).text
