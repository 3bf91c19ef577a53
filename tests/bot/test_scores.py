"""Records through the real bot and a fake Telegram: /stats, /top rating, /history with its
moves-file buttons, /moves and /chips; and the /history text of matches."""

from __future__ import annotations

import re

from bot.callbacks import DownloadMoves
from bot.engine import Match, Outcome, Result, Side
from bot.i18n import create_i18n
from bot.model import FinishedGame, User
from bot.views.scores import history_text
from tests.support.fake_telegram import FakeChat, FakeUser
from tests.support.harness import BotHarness

from .gameplay import ask, is_over, play_turn, wait_for_board


async def _finished_game(harness: BotHarness) -> tuple[FakeUser, FakeUser, FakeUser, FakeChat]:
    """Alice (white) and Boris play a long game in the group, eight turns by hand, then Boris
    resigns: a rated game (each side has played three turns), 2 points to Alice."""
    fake = harness.fake
    alice = fake.create_user("Alice", username="alice", language_code="en")
    bob = fake.create_user("Борис", username="bob", language_code="ru")
    carol = fake.create_user("Carol", username="carol", language_code="en")
    group = fake.create_group("Nardy club", [alice, bob, carol])
    fake.send_text(alice, group, "/play @bob")
    await harness.settle()
    challenge = fake.last_message(group)
    assert not (
        await fake.next_answer_to(
            fake.tap(bob, challenge, challenge.buttons[0].callback_data or "")
        )
    ).show_alert
    board = await wait_for_board(fake, group)
    for _ in range(8):
        await play_turn(fake, board, [alice, bob])
    question = await ask(harness, bob, group, "/resign")
    fake.press(bob, question, question.buttons[0].text)
    await fake.wait_for(lambda: is_over(board))
    return alice, bob, carol, group


async def test_stats_top_rating_history_files_and_chips(bot_harness: BotHarness) -> None:
    harness, fake = bot_harness, bot_harness.fake
    alice, bob, carol, group = await _finished_game(harness)

    stats = (await ask(harness, carol, group, "/stats @alice")).text or ""
    lines = stats.splitlines()
    assert lines[0] == "Statistics of @alice"
    assert lines[1].startswith("Rating, long nardy: 1") and lines[1].endswith("(1 game)")
    assert int(lines[1].split(": ")[1].split()[0]) > 1500
    assert lines[2:] == [
        "Games: 1, wins: 1 (100%)",
        "Points: 2 won, 0 lost",
        "Mars: 0 given, 0 taken",
        "Koks: 0 given, 0 taken",
        "Winning streak: longest 1, current 1",
        "Chips: 1000",
    ]
    own = (await ask(harness, bob, group, "/stats")).text or ""
    assert own.startswith("Статистика @bob")
    assert "Партий: 1, побед: 0 (0%)" in own and "поражений подряд: 1" in own
    reply_to = fake.send_text(bob, group, "hello")
    fake.send_text(carol, group, "/stats", reply_to=reply_to)
    await harness.settle()
    assert (fake.last_message(group).text or "").startswith("Statistics of @bob")
    unknown = await ask(harness, carol, group, "/stats @nobody")
    assert "I do not know @nobody yet" in (unknown.text or "")

    rating = (await ask(harness, carol, group, "/top rating")).text or ""
    first, second, third = rating.splitlines()
    assert first == "Rating · long nardy"
    assert second.startswith("1. @alice: ") and second.endswith(", 1 game")
    assert third.startswith("2. @bob: ")
    short = await ask(harness, carol, group, "/top рейтинг short")
    assert short.text == "Nobody here has a rating in short nardy yet. Finish a game with /play."
    assert "Leaderboard" in ((await ask(harness, carol, group, "/top")).text or "")
    private = await ask(harness, alice, fake.private_chat(alice), "/top rating")
    assert "per group" in (private.text or "")

    history = await ask(harness, carol, group, "/history")
    lines = (history.text or "").splitlines()
    assert lines[0] == "Latest games in this chat"
    assert lines[1].startswith("#1 · 20")
    assert lines[1].endswith(
        " · ⚪ @alice — ⚫ @bob · long nardy · @alice wins: resignation, 2 points"
    )
    assert [b.text for b in history.buttons] == ["📄 #1"]
    assert history.buttons[0].callback_data == DownloadMoves(game=1).pack()

    last = history
    for user in (alice, carol):  # a player, and an onlooker in the game's group
        tap = fake.press(user, history, "📄 #1")
        answer = await fake.next_answer_to(tap)
        assert not answer.show_alert, answer.text
        document = await fake.wait_for_message(
            group, after=last, where=lambda m: m.document is not None and m.reply_to is None
        )
        assert document.document_name == "nardy-game-1.txt"
        text = document.document_bytes.decode()
        assert text.startswith("# Nardy game #1\n# Variant: long\n")
        assert "# White: @alice (Alice)" in text and "b resign\nend long w / " in text
        last = document  # the next file comes after this one

    dave = fake.create_user("Dave", username="dave", language_code="en")
    dave_chat = fake.private_chat(dave)
    none_yet = await ask(harness, dave, dave_chat, "/history")
    assert none_yet.text == "You have no finished games yet. Start one with /play."
    assert none_yet.buttons == []
    refused = await fake.next_answer_to(
        fake.tap(dave, none_yet, DownloadMoves(game=1).pack(), check=False)
    )
    # a /history button on a message that shows none: no such message carries it
    assert refused.show_alert and refused.text == "This button is no longer valid."
    nothing = await ask(harness, dave, dave_chat, "/moves 1")
    assert nothing.text == "You are not playing in this game."
    assert not [m for m in fake.messages(dave_chat) if m.document is not None]

    alice_chat = fake.private_chat(alice)
    mine = await ask(harness, alice, alice_chat, "/history")
    assert (mine.text or "").startswith("Your latest games\n#1 · ")
    tap = fake.press(alice, mine, "📄 #1")
    assert not (await fake.next_answer_to(tap)).show_alert
    sent = await fake.wait_for_message(alice_chat, after=mine, where=lambda m: bool(m.document))
    assert sent.document_name == "nardy-game-1.txt"
    moves = await ask(harness, alice, alice_chat, "/moves #1")
    assert moves.document_bytes == sent.document_bytes
    assert (await ask(harness, alice, alice_chat, "/moves 999")).text == "This game does not exist."
    assert (await ask(harness, alice, alice_chat, "/moves x")).text == "This game does not exist."
    usage = await ask(harness, alice, alice_chat, "/moves")
    assert "/moves 12" in (usage.text or "")

    chips = (await ask(harness, alice, alice_chat, "/chips")).text or ""
    lines = chips.splitlines()
    assert lines[0] == "Your chips: 1000"
    assert lines[1].startswith("20") and lines[1].endswith(": +1000, starting grant; balance 1000")
    assert lines[-1] == "Once a day a balance below 100 is topped up to 100."


def _user(user_id: int, name: str) -> User:
    return User(user_id, name, name.title(), "en")


def test_history_names_the_matches_with_their_score() -> None:
    anna, boris, vera = _user(1, "anna"), _user(2, "boris"), _user(3, "vera")
    games = [
        FinishedGame(
            9,
            -5,
            anna,
            boris,
            "long",
            "classic",
            Result(Side.BLACK, Outcome.MARS, 4),
            2,
            86400 * 3,
            match_id=2,
            game_no=3,
            match=Match(7, 7, 5),
        ),
        FinishedGame(
            8,
            -5,
            vera,
            anna,
            "short",
            "standard",
            Result(Side.WHITE, Outcome.OIN, 1),
            1,
            86400 * 2,
            match_id=3,
            game_no=1,
            match=Match(5, 1, 0),
        ),
        FinishedGame(
            7,
            -5,
            anna,
            boris,
            "long",
            "classic",
            Result(Side.WHITE, Outcome.KOKS, 3),
            1,
            86400,
            match_id=2,
            game_no=2,
            match=Match(7, 7, 5),
        ),
        FinishedGame(
            6,
            -5,
            boris,
            vera,
            "long",
            "sheshbesh",
            Result(Side.WHITE, Outcome.TIMEOUT, 2),
            1,
            0,
        ),
    ]
    i18n = create_i18n()
    with i18n.context(), i18n.use_locale("en"):
        text = history_text("Latest games in this chat", games)
    assert text.splitlines() == [
        "<b>Latest games in this chat</b>",
        "Match #2 to 7: @anna 7:5 @boris, won by @anna",
        "Match #3 to 5: @vera 1:0 @anna, in progress",
        "#9 · 1970-01-04 · ⚪ @anna — ⚫ @boris · long nardy · @boris wins: mars, 4 points ×2"
        " · match #2 game 3",
        "#8 · 1970-01-03 · ⚪ @vera — ⚫ @anna · short nardy · @vera wins: oin, 1 point"
        " · match #3 game 1",
        "#7 · 1970-01-02 · ⚪ @anna — ⚫ @boris · long nardy · @anna wins: koks, 3 points"
        " · match #2 game 2",
        "#6 · 1970-01-01 · ⚪ @boris — ⚫ @vera · long nardy · @boris wins: time ran out, 2 points",
        "Tap a game's number to get its moves as a file.",
    ]


async def test_rules_explain_the_variant_then_matches_the_cube_and_chips(
    bot_harness: BotHarness,
) -> None:
    """How a game is won comes first: ойн, марс and кокс are explained before any other part
    uses them (the long rules said «Ойн — 1 очко» and «кокс 3» with no word of what they
    are)."""
    fake = bot_harness.fake
    vera = fake.create_user("Вера", username="vera", language_code="ru")
    chat = fake.private_chat(vera)
    for words, heading in (("short", "Короткие нарды"), ("", "Длинные нарды")):
        text = (await ask(bot_harness, vera, chat, f"/rules {words}".strip())).text or ""
        first, second, *_rest = text.split("\n\n")
        assert first.startswith("Как выигрывают партию") and second.startswith(heading)
        for term in ("ойн", "марс", "кокс"):
            explained = re.search(rf"• {term}\b[^\n]*\(", first)
            assert explained is not None, term
            assert text.lower().index(term) == first.lower().index(term)
    assert "правило Кроуфорда" in text and "PRO (ойн 1, марс 2, кокс 3)" in text
