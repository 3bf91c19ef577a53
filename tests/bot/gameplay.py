"""Playing nardy through the fake Telegram: find the board, read its buttons, tap like a user,
play a game against the computer to its end, and read the game as the bot stored it."""

from __future__ import annotations

import re
from pathlib import Path

from bot.callbacks import GameButton
from bot.model import StoredGame
from bot.services.actions import GameAction
from bot.storage import Store, open_database
from tests.support.fake_telegram import FakeChat, FakeMessage, FakeTelegram, FakeUser
from tests.support.harness import BotHarness


def game_buttons(board: FakeMessage) -> list[GameButton]:
    """The board's game buttons, parsed."""
    found = []
    for button in board.buttons:
        data = button.callback_data or ""
        if data.startswith("g:"):
            found.append(GameButton.unpack(data))
    return found


def version(board: FakeMessage) -> int | None:
    """The game version the board's buttons were drawn for (None without game buttons)."""
    buttons = game_buttons(board)
    return buttons[0].version if buttons else None


def first_choice(board: FakeMessage) -> GameButton:
    """The board's first button that plays something: a way to finish the turn, or a step."""
    return next(b for b in game_buttons(board) if b.action in (GameAction.FINISH, GameAction.STEP))


def mover(board: FakeMessage, players: list[FakeUser]) -> FakeUser:
    """The player the caption names as the one to act: to move, to roll or double, to strike a
    die (named first on a ``🎲`` line), or (named last on a ``⏫`` line) to take or drop an
    offered double, or (on a ``↪`` line) to play the opponent's remainder. (A board in text,
    an inline game's without pictures, names them the same way.)"""
    caption = board.content
    lines = [line for line in caption.splitlines() if line.startswith(("🎲", "⏫", "↪"))]
    assert lines, f"nobody to act in {caption!r}"
    line = lines[0]
    named = sorted((line.index(f"@{p.username}"), p) for p in players if f"@{p.username}" in line)
    return named[-1][1] if line.startswith(("⏫", "↪")) else named[0][1]


async def ask(harness: BotHarness, user: FakeUser, chat: FakeChat, text: str) -> FakeMessage:
    """``user`` sends ``text`` in ``chat``; returns the bot's answer."""
    sent = harness.fake.send_text(user, chat, text)
    await harness.settle()
    answer = harness.fake.last_message(chat)
    assert answer.message_id > sent.message_id, f"no answer to {text!r}"
    return answer


async def wait_for_board(fake: FakeTelegram, chat: FakeChat) -> FakeMessage:
    """Waits for the bot's board photo in ``chat`` and returns it."""
    return await fake.wait_for_message(chat, where=lambda m: m.photo is not None, timeout=10)


async def tap_and_wait(
    fake: FakeTelegram,
    user: FakeUser,
    board: FakeMessage,
    action: GameButton,
    *,
    timeout: float = 10,
) -> None:
    """Taps ``action`` and waits (``timeout`` seconds at most) until the board has been
    redrawn for a newer version."""
    before = board.edit_count
    tap = fake.tap(user, board, action.pack())
    answer = await fake.next_answer_to(tap, timeout=timeout)
    assert not answer.show_alert, answer.text
    await fake.wait_for(
        lambda: board.edit_count > before and version(board) != action.version,
        timeout=timeout,
        description=f"board redrawn after {action}",
    )


async def play_turn(
    fake: FakeTelegram, board: FakeMessage, players: list[FakeUser], *, timeout: float = 10
) -> None:
    """The player to move taps the first offered way to finish the turn (or the first step,
    until the turn is complete), then Confirm; when the cube waits, it rolls first. Each tap's
    redrawn board is waited for ``timeout`` seconds at most."""
    user = mover(board, players)
    strike = [b for b in game_buttons(board) if b.action is GameAction.STRIKE]
    if strike:  # anti three dice: the opponent strikes the highest die first
        await tap_and_wait(fake, user, board, strike[0], timeout=timeout)
        return
    roll = [b for b in game_buttons(board) if b.action is GameAction.ROLL]
    if roll:
        await tap_and_wait(fake, user, board, roll[0], timeout=timeout)
        after = game_buttons(board)
        if is_over(board) or mover(board, players) is not user:
            return  # the game ended, or a pass or a forced turn played itself
        if not after or after[0].action is GameAction.ROLL:
            return  # a pass or a forced turn played itself (and maybe the opponent's too)
    while True:
        buttons = game_buttons(board)
        confirm = [b for b in buttons if b.action is GameAction.CONFIRM]
        if confirm:
            await tap_and_wait(fake, user, board, confirm[0], timeout=timeout)
            return
        steps = [b for b in buttons if b.action in (GameAction.FINISH, GameAction.STEP)]
        assert steps, f"nothing to tap on {board}"
        await tap_and_wait(fake, user, board, steps[0], timeout=timeout)


async def start_private_game(
    harness: BotHarness, terms: str = ""
) -> tuple[FakeUser, FakeUser, dict[FakeUser, FakeMessage]]:
    """Alice invites Bob (who has opened a private chat with the bot) from her private chat on
    ``terms``; Bob accepts. Returns both and each one's board, in their own chats."""
    fake = harness.fake
    alice = fake.create_user("Alice", username="alice", language_code="en")
    bob = fake.create_user("Bob", username="bob", language_code="en")
    alice_chat, bob_chat = fake.private_chat(alice), fake.private_chat(bob)
    fake.send_text(bob, bob_chat, "/start")
    await harness.settle()  # Bob is known before he is challenged
    fake.send_text(alice, alice_chat, f"/play @bob {terms}".strip())
    await harness.settle()
    fake.press(bob, fake.last_message(bob_chat), "✅ Accept")
    boards = {
        alice: await wait_for_board(fake, alice_chat),
        bob: await wait_for_board(fake, bob_chat),
    }
    return alice, bob, boards


async def start_group_game(
    harness: BotHarness,
) -> tuple[FakeUser, FakeUser, FakeChat, FakeMessage]:
    """Alice challenges Bob in a group, Bob accepts; returns them, the group and the board."""
    fake = harness.fake
    alice = fake.create_user("Alice", username="alice")
    bob = fake.create_user("Bob", username="bob")
    group = fake.create_group("club", [alice, bob])
    sent = fake.send_text(alice, group, "/play @bob")
    challenge = await fake.wait_for_message(group, after=sent)
    assert not (await fake.next_answer_to(fake.press(bob, challenge, "✅ Accept"))).show_alert
    board = await fake.wait_for_message(group, after=challenge, where=lambda m: bool(m.photo))
    await harness.settle()
    return alice, bob, group, board


def is_over(board: FakeMessage) -> bool:
    return "🏆" in board.content


def game_number(board: FakeMessage) -> int:
    """The game's number, as its board's caption shows it (`` · #12``)."""
    found = re.search(r" · #(\d+)", board.caption or "")
    assert found, board.caption
    return int(found[1])


async def stored_game(database_path: Path | str, number: int) -> StoredGame:
    """The game as the bot stored it, read from its database (a file, or a PostgreSQL URL)."""
    db = await open_database(database_path)
    try:
        stored = await Store(db).games.get(number)
    finally:
        await db.close()
    assert stored is not None
    return stored


async def start_computer_game(
    harness: BotHarness, terms: str = ""
) -> tuple[FakeUser, FakeChat, FakeMessage]:
    """Alice challenges the computer from her private chat on ``terms`` (``level 1 short``…)
    and starts the game. Returns her, her chat and the board."""
    fake = harness.fake
    alice = fake.create_user("Alice", username="alice", language_code="en")
    chat = fake.private_chat(alice)
    fake.send_text(alice, chat, f"/play bot {terms}".strip())
    await harness.settle()
    fake.press(alice, fake.last_message(chat), "▶ Start")
    return alice, chat, await wait_for_board(fake, chat)


MAX_TURNS = 400
"""More turns than a game against the computer takes."""


async def computer_done(fake: FakeTelegram, board: FakeMessage) -> None:
    """Waits until the board asks the person for something, or the game is over."""
    await fake.wait_for(
        lambda: bool(game_buttons(board)) or is_over(board),
        timeout=20,
        description="the computer's answer",
    )


async def ask_hint(fake: FakeTelegram, board: FakeMessage, person: FakeUser) -> str:
    """Taps 💡 and returns the alert; the board is not edited for it."""
    hint = next(b for b in game_buttons(board) if b.action is GameAction.HINT)
    before = board.edit_count
    answer = await fake.next_answer_to(fake.tap(person, board, hint.pack()))
    assert answer.show_alert
    assert board.edit_count == before
    return answer.text or ""


async def play_to_the_end(harness: BotHarness, board: FakeMessage, person: FakeUser) -> list[str]:
    """The person plays the first offered way each turn (taking every double) until the game
    is over, asking for a hint at the first three turns that have one; returns the hints."""
    fake = harness.fake
    hints: list[str] = []
    for _ in range(MAX_TURNS):
        if is_over(board):
            return hints
        buttons = game_buttons(board)
        if len(hints) < 3 and any(b.action is GameAction.HINT for b in buttons):
            hints.append(await ask_hint(fake, board, person))
        if not buttons:
            await computer_done(fake, board)
            continue
        take = [b for b in buttons if b.action is GameAction.TAKE]
        if take:
            await tap_and_wait(fake, person, board, take[0])
            continue
        await play_turn(fake, board, [person])
    raise AssertionError("the game did not end")
