"""The automatic analysis through the real bot and the fake Bot API: a rated group game is
refused to analysis while it runs (to its players and everyone else), analysed by itself once
it ends, and its result board gets the luck line by one edit of its caption (no new message);
``/stats`` draws no trend of one game, ``📊 Analysis`` the per-turn graph, ``/flags`` lists a
PR flag; a rated inline game gets the line in its inline message."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest

from tests.support.fake_telegram import FakeTelegram
from tests.support.harness import BotHarness, running_bot

from .gameplay import game_number, is_over, play_turn, wait_for_board

LUCK_LINE = re.compile(r"🍀 luck: ⚪ [+−]?\d\.\d\d ⚫ [+−]?\d\.\d\d · PR \d+\.\d / \d+\.\d")


async def test_a_rated_game_gets_its_luck_line_trend_graph_and_flags(
    bot_harness: BotHarness, database_path: Path
) -> None:
    harness, fake = bot_harness, bot_harness.fake
    alice = fake.create_user("Alice", username="alice", language_code="en")
    bob = fake.create_user("Bob", username="bob", language_code="en")
    carol = fake.create_user("Carol", username="carol", language_code="en")
    dave = fake.create_user("Dave", username="dave", language_code="en")
    group = fake.create_group("Nardy club", [alice, bob, carol])
    fake.send_text(alice, group, "/play @bob short")
    await harness.settle()
    fake.press(bob, fake.last_message(group), "✅ Accept")
    board = await wait_for_board(fake, group)
    game_id = game_number(board)

    # while it runs, nobody gets its analysis: its player, an onlooker, a stranger
    for user, chat in ((alice, group), (carol, group), (dave, fake.private_chat(dave))):
        fake.send_text(user, chat, f"/analyse {game_id}")
        await harness.settle()
        assert fake.last_message(chat).text in (
            "This game is not over yet: it can be analysed once it has ended.",
            "You are not playing in this game.",
        )
    for _ in range(6):
        await play_turn(fake, board, [alice, bob])
    mark = fake.mark()
    fake.send_text(alice, group, "/resign")
    await harness.settle()
    await fake.next_answer_to(fake.press(alice, fake.last_message(group), "🏳"))
    await fake.wait_for(lambda: is_over(board), description="the board after resigning")
    photo = board.photo
    last = fake.last_message(group)

    await fake.wait_for(
        lambda: LUCK_LINE.search(board.caption or "") is not None,
        timeout=60,
        description="the luck line on the result",
    )
    await harness.idle()
    lines = (board.caption or "").splitlines()
    assert "🏆" in lines[lines.index(LUCK_LINE.search(board.caption or "")[0]) - 1]  # type: ignore[index]
    assert board.photo == photo  # the caption edited, not the picture
    assert [b.text for b in board.buttons] == [
        "🔁 Rematch",
        "📊 Analysis",
        "🎞 Replay",
        "🔎 Play anyone",
    ]
    edits = [
        r
        for r in fake.requests_for("editMessageCaption", since=mark)
        if r.params.get("message_id") in (board.message_id, str(board.message_id))
    ]
    assert len(edits) == 1
    assert fake.last_message(group) is last  # no new message

    # /stats: the record, and no chart: one analysed game makes no line (one dot, once)
    asked = fake.send_text(alice, group, "/stats")
    stats = await fake.wait_for_message(group, after=asked)
    await harness.idle()
    assert "@alice" in stats.content
    chart = fake.last_message(group)
    assert chart is stats and all(m.photo is None for m in fake.messages(group)[-2:])

    # 📊 Analysis: the summary, then the per-turn graph first among the pictures
    answer = await fake.next_answer_to(fake.press(carol, board, "📊 Analysis"))
    assert not answer.show_alert
    graph = await fake.wait_for_message(
        group,
        where=lambda m: "white's equity before each roll" in (m.caption or ""),
        after=chart,
        timeout=30,  # drawn on cores the suite shares
    )
    assert graph.photo is not None

    # a PR flag (the formula's own test is tests/services/test_fairplay.py) in /flags
    with sqlite3.connect(database_path, timeout=5) as db:
        db.execute(
            """INSERT INTO pr_flags (user_id, variant, games, pr, expected, rating, created_at)
               VALUES (?, 'short', 20, 2.5, 11.8, 1512, 1.7e9)""",
            (bob.id,),
        )
    fake.set_bot_admin(group)
    await harness.settle()
    sent = fake.send_text(alice, group, "/flags")
    listed = (await fake.wait_for_message(group, after=sent)).content
    assert "Play far better than the rating predicts" in listed
    assert (
        "@bob (short nardy): PR 2.5 over 20 rated games, 11.8 expected at rating 1512, 2023-11-14"
    ) in listed


@pytest.mark.parametrize("pictures", [True, False], ids=["pictures", "text"])
async def test_a_rated_inline_game_gets_its_luck_line(
    fake_telegram: FakeTelegram, database_path: Path, pictures: bool
) -> None:
    """Inline games between people are rated and analysed like any other: the inline message
    gets the line by one edit, of its caption (a picture board) or its text (a text board)."""
    fake = fake_telegram
    storage = fake.create_channel("nardy boards")
    storage_chat = (storage.id,) if pictures else ()
    async with running_bot(fake, database_path, storage_chat_id=storage_chat) as harness:
        alice = fake.create_user("Alice", username="alice", language_code="en")
        bob = fake.create_user("Bob", username="bob", language_code="en")
        chat = fake.chat_between(alice, bob, title="Friends")
        asked = fake.inline_query(alice, "short", chat=chat)
        answer = await fake.next_inline_answer(asked)
        invitation = fake.choose_inline_result(asked, answer.results[0]["id"])
        await harness.settle()
        fake.press(bob, invitation, "✅ Join")
        await fake.wait_for(lambda: invitation.photo is not None or "🎲" in (invitation.text or ""))
        for _ in range(6):
            await play_turn(fake, invitation, [alice, bob])
        private = fake.private_chat(bob)
        fake.send_text(bob, private, "/resign")
        await harness.settle()
        fake.press(bob, fake.last_message(private), "🏳 Yes, resign")
        await fake.wait_for(lambda: is_over(invitation), description="the inline board's result")
        await harness.settle()
        mark = fake.mark()

        def shown() -> str:
            return (invitation.caption if pictures else invitation.text) or ""

        await fake.wait_for(
            lambda: LUCK_LINE.search(shown()) is not None,
            timeout=60,
            description="the luck line on the inline result",
        )
        await harness.idle()
        edits = [
            r
            for r in fake.requests[mark:]
            if r.method.startswith("editMessage")
            and r.params.get("inline_message_id") == invitation.inline_message_id
            and r.ok
        ]
        assert [r.method for r in edits] == [
            "editMessageCaption" if pictures else "editMessageText"
        ]
        assert "🏆" in shown()
        assert [b.text for b in invitation.buttons] == [
            "🔁 Play again",
            "🏆 Leaderboard",
            "📊 Analysis",
        ]
