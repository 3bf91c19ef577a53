"""📊 Analysis through the real bot: the button under a finished board and ``/analyse N``, the
progress note, the summary, the per-turn graph, the worst moves as pictures; one analysis
however often it is asked for, kept once done; refusals for games not over or not there."""

from __future__ import annotations

import asyncio
import functools
import math
import re
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import pytest

from bot.ai.analysis import Review
from bot.app import build_services
from bot.engine import Game, Turn
from bot.services.computer import Brain
from tests.support.fake_telegram import FakeChat, FakeMessage, FakeTelegram
from tests.support.harness import BotHarness, running_bot

from .gameplay import (
    game_number,
    is_over,
    play_to_the_end,
    play_turn,
    start_computer_game,
    wait_for_board,
)


class GatedBrain(Brain):
    """The bot's brain, whose analysis parts wait while ``gate`` is closed; counts them."""

    def __init__(self) -> None:
        super().__init__()
        self.gate = asyncio.Event()
        self.gate.set()
        self.parts = 0

    async def review(self, played: Sequence[tuple[Game, Turn]], indices: range) -> list[Review]:
        self.parts += 1
        await self.gate.wait()
        return await super().review(played, indices)


@pytest.fixture
async def brain() -> AsyncIterator[GatedBrain]:
    thinking = GatedBrain()
    yield thinking
    await asyncio.to_thread(thinking.close)


@pytest.fixture
async def harness(
    fake_telegram: FakeTelegram, database_path: Path, brain: GatedBrain
) -> AsyncIterator[BotHarness]:
    """The bot with the gated brain, no pause before the computer's answers, time to move."""
    async with running_bot(
        fake_telegram,
        database_path,
        services_factory=functools.partial(build_services, brain=brain),
        move_seconds=300,
        computer_pause_seconds=0,
    ) as running:
        yield running


def _after(fake: FakeTelegram, chat: FakeChat, message: FakeMessage) -> list[FakeMessage]:
    return [m for m in fake.messages(chat) if m.message_id > message.message_id]


def _check_summary(summary: str, game_id: int, names: Sequence[str]) -> int:
    """Checks the summary's figures for each player; returns how many worst moves it says
    follow."""
    assert f"Analysis of game #{game_id}" in summary, summary
    for name in names:
        line = next(line for line in summary.splitlines() if name in line)
        assert re.search(
            r"PR \d+\.\d · \d+ moves? with a choice: \d+ errors?, \d+ blunders?", line
        ), line
    assert summary.count("PR (performance rating)") == 1 and "error rate" not in summary
    count = re.search(r"(\d+) worst moves? follows?\.", summary)
    assert count or "No errors to show." in summary, summary
    return int(count[1]) if count else 0


def _check_graph(graph: FakeMessage, game_id: int) -> None:
    """The per-turn equity and luck graph, first after the summary."""
    assert graph.photo is not None
    assert graph.caption == (
        f"📈 Game #{game_id}: white's equity before each roll, and each side's luck so far."
    )


def _check_pictures(pictures: Sequence[FakeMessage], game_id: int, name: str) -> None:
    for picture in pictures:
        caption = picture.caption or ""
        assert picture.photo is not None
        assert f"Game #{game_id} · move " in caption and name in caption, caption
        assert "🟧 Played: " in caption and "🟦 Better: " in caption, caption
        assert "→" in caption and "/" not in caption.split("Played: ")[1], caption
        assert re.search(r"Equity lost: \d\.\d{3} points \((error|blunder)\)", caption), caption


@pytest.mark.slow
async def test_analysis_of_a_game_against_the_computer(
    harness: BotHarness, brain: GatedBrain
) -> None:
    fake = harness.fake
    alice, chat, board = await start_computer_game(harness, "level 1 short")
    game_id = game_number(board)
    fake.send_text(alice, chat, f"/analyse {game_id}")  # not over yet
    await harness.settle()
    refused = fake.last_message(chat).text
    assert refused == "This game is not over yet: it can be analysed once it has ended."
    await play_to_the_end(harness, board, alice)
    await harness.settle()
    assert [b.text for b in board.buttons] == [
        "🔁 Rematch",
        "📊 Analysis",
        "🎞 Replay",
        "🔎 Play anyone",
    ]

    # the analysis waits at its first part: the note shows 0 of the game's turns
    brain.gate.clear()
    answer = await fake.next_answer_to(fake.press(alice, board, "📊 Analysis"))
    assert not answer.show_alert  # answered at once, while the analysis goes on
    note = await fake.wait_for_message(chat, where=lambda m: "Analysing game" in m.content)
    found = re.fullmatch(rf"📊 Analysing game #{game_id}… 0/(\d+) turns", note.text or "")
    assert found, note.text
    total = int(found[1])
    # asked again meanwhile: "already", nothing new sent, no second analysis
    again = await fake.next_answer_to(fake.press(alice, board, "📊 Analysis"))
    assert again.show_alert and "being analysed already" in (again.text or "")
    fake.send_text(alice, chat, f"/analyze {game_id}")
    reply = await fake.wait_for_message(chat, where=lambda m: "already" in m.content)
    assert reply.reply_to is not None and _after(fake, chat, note) == [reply]
    assert brain.parts == 1

    brain.gate.set()
    await harness.settle(timeout=60)  # the whole game's analysis, on cores the suite shares
    assert brain.parts == math.ceil(total / 20)
    summary = note.text or ""
    assert "@alice" in summary and "🤖" in summary
    count = _check_summary(summary, game_id, ["@alice", "🤖"])
    graph, *pictures = [m for m in _after(fake, chat, reply) if m.photo is not None]
    _check_graph(graph, game_id)
    assert len(pictures) == count <= 3  # only the person's worst moves, the computer's not
    _check_pictures(pictures, game_id, "@alice")
    assert len(_after(fake, chat, reply)) == 1 + count
    if pictures:  # 🤖 under a worst move: the computer, from the board before it
        before = fake.last_message(chat)
        practise = fake.press(alice, pictures[0], "🤖 Practise from here")
        assert not (await fake.next_answer_to(practise)).show_alert
        await fake.wait_for_message(chat, after=before, where=lambda m: "▶ Start" in str(m))
        await harness.settle()

    # asked again once done: the same results again, from memory
    last = fake.last_message(chat)
    answer = await fake.next_answer_to(fake.press(alice, board, "📊 Analysis"))
    assert not answer.show_alert
    await harness.settle()
    sent = _after(fake, chat, last)
    assert [m.text for m in sent[:1]] == [summary] and len(sent) == 2 + count
    assert brain.parts == math.ceil(total / 20)


async def test_analysis_of_a_group_game_for_anyone_in_the_group(harness: BotHarness) -> None:
    fake = harness.fake
    alice = fake.create_user("Alice", username="alice", language_code="en")
    bob = fake.create_user("Bob", username="bob", language_code="en")
    carol = fake.create_user("Carol", username="carol", language_code="en")
    dave = fake.create_user("Dave", username="dave", language_code="en")
    group = fake.create_group("Nardy club", [alice, bob, carol])
    fake.send_text(alice, group, "/play @bob")
    await harness.settle()
    fake.press(bob, fake.last_message(group), "✅ Accept")
    board = await wait_for_board(fake, group)
    game_id = game_number(board)
    for _ in range(6):
        await play_turn(fake, board, [alice, bob])
    fake.send_text(alice, group, "/resign")
    await harness.settle()
    await fake.next_answer_to(fake.press(alice, fake.last_message(group), "🏳"))
    await fake.wait_for(lambda: is_over(board), description="the board after resigning")
    await harness.settle()

    # someone else, in a private chat: not theirs to see
    private = fake.private_chat(dave)
    fake.send_text(dave, private, f"/analyse {game_id}")
    await harness.settle()
    assert fake.last_message(private).text == "You are not playing in this game."
    # an onlooker in the group: the analysis comes to the group
    last = fake.last_message(group)
    answer = await fake.next_answer_to(fake.press(carol, board, "📊 Analysis"))
    assert not answer.show_alert, answer.text
    await harness.settle(timeout=60)  # the game's analysis, on cores the suite shares
    sent = _after(fake, group, last)
    summary = sent[0].text or ""
    count = _check_summary(summary, game_id, ["@alice", "@bob"])
    assert len(sent) == 2 + count
    assert all(m.photo is not None for m in sent[1:])
    _check_graph(sent[1], game_id)
    for picture in sent[2:]:
        name = "@alice" if "@alice" in (picture.caption or "") else "@bob"
        _check_pictures([picture], game_id, name)


async def test_analysis_refusals(harness: BotHarness) -> None:
    fake = harness.fake
    alice = fake.create_user("Alice", username="alice", language_code="en")
    chat = fake.private_chat(alice)
    for text, expected in (
        ("/analyse 999", "This game does not exist."),
        ("/analyze #999", "This game does not exist."),
        ("/analyse abc", "This game does not exist."),
        ("/analyse", "Send the game's number: /analyse 12. /history lists the latest."),
    ):
        fake.send_text(alice, chat, text)
        await harness.settle()
        assert fake.last_message(chat).text == expected, text
