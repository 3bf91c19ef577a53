"""Watching games between private chats, end to end: the Watch link, watchers' boards that
follow the game to its end without buttons, the refusals, private games, and 50 watchers who
never hold up the players."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from bot.services.watchers import MAX_WATCHERS
from tests.support.fake_telegram import (
    FakeChat,
    FakeMessage,
    FakeTelegram,
    FakeUser,
    RecordedRequest,
)
from tests.support.harness import BotHarness

from .gameplay import (
    first_choice,
    game_buttons,
    play_turn,
    start_private_game,
    stored_game,
    tap_and_wait,
    wait_for_board,
)
from .gameplay import mover as player_to_act
from .gameplay import version as board_version

WATCH_LINK = re.compile(r"https://t\.me/nardy_test_bot\?start=w(\d+)")
WRITES: tuple[str, ...] = (
    "sendMessage",
    "sendPhoto",
    "sendDocument",
    "editMessageText",
    "editMessageMedia",
)
WRITES += ("editMessageCaption", "editMessageReplyMarkup")


def watched_game(board: FakeMessage) -> int:
    """The game a players' board's Watch link names (fails without one)."""
    found = WATCH_LINK.search(board.caption or "")
    assert found, f"no watch link in {board.caption!r}"
    return int(found.group(1))


def _writes(fake: FakeTelegram, since: int) -> list[RecordedRequest]:
    return [r for r in fake.requests[since:] if r.method in WRITES]


def _state(fake: FakeTelegram, *chats: FakeChat) -> list[tuple[Any, ...]]:
    """Every message of ``chats`` as Telegram shows it."""
    return [
        (m.chat.id, m.message_id, m.text, m.caption, m.photo, m.reply_markup, m.edit_count)
        for chat in chats
        for m in fake.messages(chat, from_bot=None)
    ]


def _without_watch_line(caption: str) -> str:
    """The caption without the watcher's own line and without the luck line: the automatic
    analysis puts that on the players' result alone (:mod:`bot.messages.luck`), whenever
    its worker gets to the game."""
    return "\n".join(line for line in caption.splitlines() if not line.startswith(("👁", "🍀")))


def _shown(fake: FakeTelegram, request: RecordedRequest) -> tuple[bytes, str]:
    """What an editMessageMedia request puts on its board: the picture (uploaded, or sent by
    its file id) and the caption without its watching line."""
    media = request.params["media"]
    reference = str(media["media"])
    if reference.startswith("attach://"):
        picture = request.files[reference.removeprefix("attach://")]
    else:
        picture = fake.files[reference]
    return bytes(picture), _without_watch_line(str(media.get("caption", "")))


async def _watch(harness: BotHarness, watchers: list[FakeUser], game_id: int) -> list[FakeMessage]:
    """Each of ``watchers`` opens the game's Watch link; returns their boards."""
    fake = harness.fake
    for watcher in watchers:
        fake.send_text(watcher, fake.private_chat(watcher), f"/start w{game_id}")
    await harness.settle()
    return [await wait_for_board(fake, fake.private_chat(w)) for w in watchers]


def _current_version(boards: dict[FakeUser, FakeMessage]) -> int:
    """The version on the board of the player to move (the other has no buttons)."""
    found = [v for board in boards.values() if (v := board_version(board)) is not None]
    assert len(found) == 1, found
    return found[0]


def _board_to_act(boards: dict[FakeUser, FakeMessage]) -> FakeMessage:
    return next(board for board in boards.values() if game_buttons(board))


async def _players_in_step(fake: FakeTelegram, boards: dict[FakeUser, FakeMessage]) -> None:
    """Waits until both players' boards show the same state (their captions are the same
    text, one state's)."""
    first, second = boards.values()
    await fake.wait_for(
        lambda: (
            first.caption == second.caption
            and len([b for b in boards.values() if game_buttons(b)]) <= 1
        ),
        description="both players' boards to show the same state",
    )


def _shows_like(watcher_board: FakeMessage, board: FakeMessage) -> bool:
    """A watcher's board (in English) shows what the white player's board shows."""
    return watcher_board.photo == board.photo and _without_watch_line(
        watcher_board.caption or ""
    ) == _without_watch_line(board.caption or "")


async def test_watchers_follow_a_private_game_to_its_end_without_buttons(
    bot_harness: BotHarness, database_path: Path
) -> None:
    harness, fake = bot_harness, bot_harness.fake
    alice, bob, boards = await start_private_game(harness)
    players = [alice, bob]
    board = boards[alice]  # white's: drawn from the side a watcher sees
    game_id = watched_game(board)
    assert watched_game(boards[bob]) == game_id
    joined_at = _current_version(boards)
    watchers = [
        fake.create_user("Carol", username="carol"),
        fake.create_user("Dave", username="dave"),
        fake.create_user("Erin", username="erin", language_code="ru"),
    ]
    carol_board, dave_board, erin_board = await _watch(harness, watchers, game_id)
    for watcher_board in (carol_board, dave_board, erin_board):
        assert watcher_board.buttons == []
        assert "start=w" not in (watcher_board.caption or "")
    assert "You are watching this game: /unwatch stops it." in (carol_board.caption or "")
    assert "Вы смотрите эту партию" in (erin_board.caption or "")
    assert _shows_like(carol_board, board) and _shows_like(dave_board, board)

    for _turn in range(3):
        await play_turn(fake, _board_to_act(boards), players)
        await _players_in_step(fake, boards)
        await fake.wait_for(
            lambda: _shows_like(carol_board, board) and _shows_like(dave_board, board),
            description="the watchers' boards to follow",
        )
        assert carol_board.buttons == dave_board.buttons == erin_board.buttons == []

    fake.send_text(alice, fake.private_chat(alice), "/resign")
    await harness.settle()
    fake.press(alice, fake.last_message(fake.private_chat(alice)), "🏳 Yes, resign")
    await fake.wait_for(lambda: "🏆" in (erin_board.caption or ""))
    await fake.wait_for(lambda: _shows_like(carol_board, board) and _shows_like(dave_board, board))
    await harness.stop()
    assert "🏆" in (board.caption or "") and "start=w" not in (board.caption or "")
    assert carol_board.caption == dave_board.caption  # the final state
    assert _without_watch_line(board.caption or "") == _without_watch_line(
        carol_board.caption or ""
    )
    assert "побеждает" in (erin_board.caption or "") and erin_board.buttons == []
    assert carol_board.buttons == dave_board.buttons == []
    states = (await stored_game(database_path, game_id)).version - joined_at
    for watcher_board in (carol_board, dave_board, erin_board):
        assert 1 <= watcher_board.edit_count <= states
    # watching again: the game is over, and the answer says how it ended
    await harness.start()
    mark = fake.mark()
    fake.send_text(watchers[0], fake.private_chat(watchers[0]), f"/start w{game_id}")
    await harness.settle()
    [reply] = _writes(fake, mark)
    assert reply.method == "sendMessage"
    assert f"Game #{game_id} is over: @bob wins" in str(reply.params["text"])


async def _invite(
    harness: BotHarness, challenger: FakeUser, target: FakeUser, terms: str = ""
) -> tuple[FakeMessage, FakeMessage]:
    """``challenger`` invites ``target`` (who has opened a chat with the bot) from a private
    chat on ``terms``; ``target`` accepts. Returns both boards."""
    fake = harness.fake
    mine, theirs = fake.private_chat(challenger), fake.private_chat(target)
    fake.send_text(target, theirs, "/start")
    await harness.settle()  # known before they are challenged
    fake.send_text(challenger, mine, f"/play @{target.username} {terms}".strip())
    await harness.settle()
    fake.press(target, fake.last_message(theirs), "✅ Accept")
    return await wait_for_board(fake, mine), await wait_for_board(fake, theirs)


async def test_a_private_game_has_no_watch_link_and_refusals_change_nothing(
    bot_harness: BotHarness,
) -> None:
    harness, fake = bot_harness, bot_harness.fake
    alice, bob, boards = await start_private_game(harness)
    game_id = watched_game(boards[alice])
    carol = fake.create_user("Carol", username="carol")
    [carol_board] = await _watch(harness, [carol], game_id)
    # a private game, chosen with the Russian word; the challenge says so
    dave = fake.create_user("Dave", username="dave", language_code="ru")
    erin = fake.create_user("Erin", username="erin")
    fake.send_text(erin, fake.private_chat(erin), "/start")
    await harness.settle()  # known before they are challenged
    fake.send_text(dave, fake.private_chat(dave), "/play @erin закрытая")
    await harness.settle()
    challenge = fake.messages(fake.private_chat(dave))[-2]  # then the note with the link
    assert "🔒 закрытая" in (challenge.text or "")
    fake.press(erin, fake.last_message(fake.private_chat(erin)), "✅ Accept")
    private_board = await wait_for_board(fake, fake.private_chat(dave))
    await wait_for_board(fake, fake.private_chat(erin))
    await harness.settle()
    assert "start=w" not in (private_board.caption or "")
    private_id = int((private_board.caption or "").split("· #")[1].split()[0])
    gina = fake.create_user("Gina", username="gina")  # alice and bob play: one game each
    group = fake.create_group("Club", [alice, bob, carol, gina])
    fake.send_text(carol, group, "/play @gina")
    await harness.settle()
    fake.press(gina, fake.last_message(group), "✅ Accept")
    group_game = first_choice(await wait_for_board(fake, group)).game
    frank = fake.create_user("Frank", username="frank")
    chats = [fake.private_chat(u) for u in (alice, bob, carol, dave, erin, frank)] + [group]
    await harness.settle()

    refusals = [
        (frank, f"/start w{private_id}", "This game is private: its players keep it to them"),
        (frank, "/start w999999", "This game does not exist."),
        (frank, "/start w" + "9" * 40, "This game does not exist."),
        (frank, f"/start w{group_game}", "This game is played in a chat where everyone there"),
        (alice, f"/start w{game_id}", "You are playing in this game: your board is in this chat."),
        (carol, f"/start w{game_id}", f"You are watching game #{game_id} already"),
        (frank, "/unwatch twelve", "Send /unwatch to stop watching every game"),
        (frank, "/unwatch", "You are not watching any game."),
        (carol, f"/unwatch {private_id}", f"You are not watching game #{private_id}."),
    ]
    for user, command, answer in refusals:
        state, mark = _state(fake, *chats), fake.mark()
        chat = fake.private_chat(user)
        fake.send_text(user, chat, command)
        await harness.settle()
        [reply] = _writes(fake, mark)
        assert (reply.method, reply.params["chat_id"]) == ("sendMessage", str(chat.id)), reply
        assert answer in str(reply.params["text"]), (command, reply.params["text"])
        known = {s[:2] for s in state}
        after = _state(fake, *chats)
        assert [s for s in after if s[:2] in known] == state  # nothing else changed
        assert [s[0] for s in after if s[:2] not in known] == [chat.id] * 2  # asked, answered
    # in a group, a watch link is not for there
    mark = fake.mark()
    fake.send_text(frank, group, f"/start w{game_id}")
    await harness.settle()
    [reply] = _writes(fake, mark)
    assert "Watching works in a private chat with me" in str(reply.params["text"])
    assert len([m for m in fake.messages(fake.private_chat(carol)) if m.photo]) == 1

    # Carol stops watching: the game goes on without her board
    fake.send_text(carol, fake.private_chat(carol), "/unwatch")
    await harness.settle()
    assert fake.last_message(fake.private_chat(carol)).text == f"You no longer watch: #{game_id}."
    edits = carol_board.edit_count
    await play_turn(fake, _board_to_act(boards), [alice, bob])
    await harness.stop()  # every board shown
    assert carol_board.edit_count == edits


async def test_the_challenger_makes_a_game_private_with_a_button(bot_harness: BotHarness) -> None:
    harness, fake = bot_harness, bot_harness.fake
    alice = fake.create_user("Alice", username="alice")
    bob = fake.create_user("Bob", username="bob")
    fake.send_text(bob, fake.private_chat(bob), "/start")
    await harness.settle()  # Bob is known before he is challenged
    fake.send_text(alice, fake.private_chat(alice), "/play @bob")
    await harness.settle()
    challenge = fake.messages(fake.private_chat(alice))[-2]
    assert "👁 open to watchers" in (challenge.text or "")
    answer = await fake.next_answer_to(fake.press(bob, challenge, "👁 open to watchers"))
    assert answer.show_alert  # only the challenger changes the options
    fake.press(alice, challenge, "👁 open to watchers")
    await harness.settle()
    assert "🔒 private" in (challenge.text or "") and "👁" not in (challenge.text or "")
    fake.press(bob, fake.last_message(fake.private_chat(bob)), "✅ Accept")
    board = await wait_for_board(fake, fake.private_chat(alice))
    await harness.settle()
    assert "start=w" not in (board.caption or "")


async def test_fifty_watchers_never_hold_up_the_players(
    bot_harness: BotHarness, database_path: Path
) -> None:
    harness, fake = bot_harness, bot_harness.fake
    alice, bob, boards = await start_private_game(harness)
    players = [alice, bob]
    game_id = watched_game(boards[alice])
    joined_at = _current_version(boards)
    watchers = [fake.create_user(f"W{n}", username=f"watcher{n:02}") for n in range(MAX_WATCHERS)]
    watcher_boards = await _watch(harness, watchers, game_id)
    chats = {fake.private_chat(w).id for w in watchers}
    late = fake.create_user("Late", username="latecomer")
    mark = fake.mark()
    fake.send_text(late, fake.private_chat(late), f"/start w{game_id}")
    await harness.settle()
    [reply] = _writes(fake, mark)
    assert "This game has 50 watchers already" in str(reply.params["text"])
    player_chats = {str(fake.private_chat(p).id) for p in players}

    # each tap: both players' boards are edited before any watcher's
    for _tap in range(3):
        board = _board_to_act(boards)
        mark = fake.mark()
        counts = {m.chat.id: m.edit_count for m in (*boards.values(), *watcher_boards)}
        await tap_and_wait(fake, player_to_act(board, players), board, game_buttons(board)[0])

        def shown(counts: dict[int, int] = counts) -> bool:
            every = (*boards.values(), *watcher_boards)
            return all(m.edit_count > counts[m.chat.id] for m in every) and all(
                _shows_like(w, boards[alice]) for w in watcher_boards
            )

        await fake.wait_for(shown, timeout=20, description="every board to show the tap")
        edits = fake.requests_for("editMessageMedia", since=mark)
        order = ["player" if r.params["chat_id"] in player_chats else "watcher" for r in edits]
        assert order == ["player"] * 2 + ["watcher"] * MAX_WATCHERS, order
        uploads = [r for r in edits[2:] if r.files]
        assert len(uploads) == 1  # drawn and uploaded once, then sent by its file id

    # the watchers' link stalls: the players play on, the watchers get one edit in flight
    mark = fake.mark()
    fake.hold_chats(*(fake.private_chat(w) for w in watchers))
    before = _current_version(boards)
    for _turn in range(2):
        await play_turn(fake, _board_to_act(boards), players)
        await _players_in_step(fake, boards)
    after = _current_version(boards)
    assert after - before >= 3
    await fake.wait_for(lambda: fake.holding == 1)
    held = [r for r in fake.requests[mark:] if r.params.get("chat_id") in {str(c) for c in chats}]
    assert len(held) == 1
    fake.release_chats()
    await fake.wait_for(
        lambda: all(_shows_like(w, boards[alice]) for w in watcher_boards), timeout=20
    )
    for watcher_board in watcher_boards:  # behind, they skipped states
        edits = [
            r
            for r in fake.requests_for("editMessageMedia", since=mark)
            if r.params["chat_id"] == str(watcher_board.chat.id)
        ]
        assert 1 <= len(edits) <= 2 < after - before

    await harness.stop()
    # never ahead of the players: whatever a watcher was shown, a player was shown first
    shown_to_players: set[tuple[bytes, str]] = set()
    for request in fake.requests_for("editMessageMedia"):
        if request.params["chat_id"] == str(fake.private_chat(alice).id):
            shown_to_players.add(_shown(fake, request))
        elif int(request.params["chat_id"]) in chats:
            assert _shown(fake, request) in shown_to_players
    states = (await stored_game(database_path, game_id)).version - joined_at
    assert all(1 <= w.edit_count <= states for w in watcher_boards)
