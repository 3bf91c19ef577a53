"""``kill -9`` at any moment loses no committed turn: the real ``python -m bot`` process is
killed mid-game and started again on the same database; and a tournament killed mid-round
(while its pinned message is being edited, and while a new round's games are being sent)
starts no round twice, counts no result twice, and its pinned message ends up showing the
truth."""

from __future__ import annotations

import asyncio
import os
import re
import sqlite3
import sys
from pathlib import Path

import pytest

from tests.support.fake_telegram import FakeChat, FakeMessage, FakeTelegram, FakeUser

from .gameplay import game_buttons, mover, play_turn, version, wait_for_board

ROOT = Path(__file__).resolve().parents[2]


async def _start(fake: FakeTelegram, workdir: Path, **settings: str) -> asyncio.subprocess.Process:
    environment = {
        "PATH": os.environ.get("PATH", ""),
        "PYTHONPATH": str(ROOT),
        "BOT_TOKEN": fake.token,
        "TELEGRAM_API_URL": fake.url,
        "DATABASE_URL": f"sqlite:///{workdir / 'nardy.sqlite3'}",
        "MOVE_SECONDS": "600",
        "GROUP_MESSAGES_PER_MINUTE": "60000",
        "LOG_LEVEL": "WARNING",
        **settings,
    }
    mark = fake.mark()
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        cwd=workdir,
        env=environment,
        stderr=asyncio.subprocess.DEVNULL,
    )
    await fake.wait_for(
        lambda: fake.requests_for("getUpdates", since=mark), timeout=60, description="polling"
    )
    return process


@pytest.mark.slow
async def test_kill_9_in_the_middle_of_a_game_loses_no_committed_turn(
    fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    fake = fake_telegram
    alice = fake.create_user("Alice", username="alice")
    bob = fake.create_user("Bob", username="bob")
    group = fake.create_group("club", [alice, bob])
    process = await _start(fake, tmp_path)
    try:
        fake.send_text(alice, group, "/play @bob")
        challenge = await fake.wait_for_message(group, timeout=30)
        fake.press(bob, challenge, "✅ Accept")
        board = await wait_for_board(fake, group)
        for _ in range(3):
            await play_turn(fake, board, [alice, bob])
        committed = version(board)
        process.kill()  # SIGKILL: no shutdown of any kind
        await process.wait()
        process = await _start(fake, tmp_path)
        assert version(board) == committed
        step = game_buttons(board)[0]
        before = board.edit_count
        tap = fake.tap(mover(board, [alice, bob]), board, step.pack())
        answer = await fake.next_answer_to(tap, timeout=30)
        assert not answer.show_alert, answer.text  # the board's buttons are still current
        await fake.wait_for(lambda: board.edit_count > before, timeout=30)
        assert len([m for m in fake.messages(group) if m.photo]) == 1
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()


LINE = re.compile(r"Tournament #\d+, round (\d+): your game against @(\w+)")


def _opponents(fake: FakeTelegram, user: FakeUser, number: int) -> list[str]:
    """Who ``user`` was told they play in round ``number`` (one line per telling)."""
    return [
        m[2]
        for message in fake.messages(fake.private_chat(user))
        if (m := LINE.search(message.content)) and int(m[1]) == number
    ]


async def _say(fake: FakeTelegram, user: FakeUser, chat: FakeChat, text: str) -> FakeMessage:
    sent = fake.send_text(user, chat, text)
    return await fake.wait_for_message(chat, after=sent, timeout=30)


async def _resign(fake: FakeTelegram, user: FakeUser) -> None:
    chat = fake.private_chat(user)
    sent = fake.send_text(user, chat, "/resign")
    question = await fake.wait_for_message(
        chat, after=sent, where=lambda m: any("🏳" in b.text for b in m.buttons), timeout=30
    )
    assert not (await fake.next_answer_to(fake.press(user, question, "🏳"), timeout=30)).show_alert


async def _kill(process: asyncio.subprocess.Process) -> None:
    process.kill()  # SIGKILL: no shutdown of any kind
    await process.wait()


@pytest.mark.slow
async def test_kill_9_mid_round_starts_no_round_twice_and_the_pinned_message_catches_up(
    fake_telegram: FakeTelegram, tmp_path: Path
) -> None:
    fake = fake_telegram
    names = ["anna", "boris", "carl", "dora"]
    players = {n: fake.create_user(n.title(), username=n, language_code="en") for n in names}
    group = fake.create_group("Nardy club", list(players.values()))
    fake.set_bot_admin(group, can_pin_messages=True)
    fast = {"PRIVATE_MESSAGES_PER_SECOND": "1000"}
    process = await _start(fake, tmp_path, **fast)
    try:
        for user in players.values():
            await _say(fake, user, fake.private_chat(user), "/start")
        anna = players["anna"]
        picker = await _say(fake, anna, group, "/tournament")
        assert not (await fake.next_answer_to(fake.press(anna, picker, "✅ Create"))).show_alert
        for user in players.values():
            await fake.wait_for(lambda: any(b.text == "✅ Join" for b in picker.buttons))
            assert not (await fake.next_answer_to(fake.press(user, picker, "✅ Join"))).show_alert
        await fake.wait_for(lambda: "Players: 4" in picker.content, timeout=30)
        assert not (await fake.next_answer_to(fake.press(anna, picker, "▶ Start"))).show_alert
        # equal ratings: seeds by id, 1 v 4 and 2 v 3
        for name, other in (("anna", "dora"), ("boris", "carl"), ("carl", "boris")):

            def paired(n: str = name, o: str = other) -> bool:
                return _opponents(fake, players[n], 1) == [o]

            await fake.wait_for(paired, timeout=30)
        pinned = await fake.wait_for(
            lambda: next(
                (m for m in fake.messages(group) if m.photo and "Tournament #" in m.content), None
            ),
            timeout=30,
            description="the pinned tournament message",
        )
        await fake.wait_for(lambda: group.pinned == [pinned.message_id], description="the pin")

        # 1. killed while the pinned message is being edited to show Dora's resignation
        fake.hold_chats(group)
        mark = fake.mark()
        await _resign(fake, players["dora"])
        await fake.wait_for(
            lambda: fake.holding and fake.requests_for("editMessageMedia", since=mark),
            timeout=30,
            description="the pinned message's edit, held",
        )
        await _kill(process)
        fake.fail_next("editMessageMedia")  # that edit never reaches the group
        fake.release_chats()
        assert "@anna won" not in pinned.content
        process = await _start(fake, tmp_path, **fast)
        await fake.wait_for(
            lambda: "@anna won" in pinned.content, timeout=30, description="the result shown"
        )

        # 2. killed while the final's games are being sent, round 2 saved
        finalists = [fake.private_chat(players[n]) for n in ("anna", "boris")]
        fake.hold_chats(*finalists)
        mark = fake.mark()
        await _resign(fake, players["carl"])
        await fake.wait_for(
            lambda: any(
                "round 2" in str(r.params.get("text", ""))
                for r in fake.requests_for("sendMessage", since=mark)
            ),
            timeout=30,
            description="round 2 started",
        )
        await _kill(process)
        fake.release_chats()
        process = await _start(fake, tmp_path, **fast)
        for chat in finalists:  # each finalist's board of the final, once

            def final_shown(c: FakeChat = chat) -> bool:
                return len([m for m in fake.messages(c) if m.photo]) == 2

            await fake.wait_for(final_shown, timeout=30, description="the final's board")
        await _resign(fake, players["boris"])
        await fake.wait_for(
            lambda: "Winner: @anna" in pinned.content, timeout=30, description="the winner"
        )
        await asyncio.sleep(1.0)  # the timers' next looks: nothing more to do
        for name, user in players.items():
            for number in (1, 2):
                assert len(_opponents(fake, user, number)) <= 1, (name, number)
            boards = [m for m in fake.messages(fake.private_chat(user)) if m.photo]
            assert len(boards) == (2 if name in ("anna", "boris") else 1), name
        assert group.pinned == [pinned.message_id]
        assert [m.message_id for m in fake.messages(group) if m.photo] == [pinned.message_id]
    finally:
        if process.returncode is None:
            await _kill(process)
    with sqlite3.connect(tmp_path / "nardy.sqlite3") as db:
        pairings = db.execute(
            "SELECT round_no, COUNT(*), SUM(decided) FROM tournament_pairings GROUP BY round_no"
        ).fetchall()
        assert pairings == [(1, 2, 2), (2, 1, 1)]  # each round paired once, every board decided
        games = db.execute("SELECT COUNT(*), COUNT(winner) FROM games").fetchone()
        assert games == (3, 3)
        counted = db.execute("SELECT COUNT(*) FROM tournament_games").fetchone()
        assert counted == (3,)  # each result counted once in the group's league
        (version, shown) = db.execute("SELECT version, shown_version FROM tournaments").fetchone()
        assert shown == version
