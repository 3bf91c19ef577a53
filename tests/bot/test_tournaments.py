"""A tournament through the real bot and a fake Telegram: /tournament's picker, the sign-up
message with Join and Start, games in the players' private chats with the line that names the
tournament and round, the pinned picture edited in place, a restart of the bot mid-round, and
the winner announced; the games decided by resignations through the real buttons. Also who may
make a tournament (``/tournament anyone|admins``, the admins' setting), the pinned
message's 👁 links, which make their opener a watcher, and two taps on ✅ Create at once,
which make one tournament."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest

from tests.support.fake_telegram import FakeChat, FakeMessage, FakeTelegram, FakeUser
from tests.support.harness import BotHarness

LINE = re.compile(r"Tournament #\d+, round (\d+): your game against @(\w+)")


async def _say(harness: BotHarness, user: FakeUser, chat: FakeChat, text: str) -> FakeMessage:
    sent = harness.fake.send_text(user, chat, text)
    reply = await harness.fake.wait_for_message(chat, after=sent)
    await harness.settle()
    return reply


def _lines(fake: FakeTelegram, user: FakeUser, number: int) -> list[str]:
    """The opponents ``user`` was told of for round ``number``."""
    found = []
    for message in fake.messages(fake.private_chat(user)):
        m = LINE.search(message.content)
        if m and int(m[1]) == number:
            found.append(m[2])
    return found


async def _resign(fake: FakeTelegram, user: FakeUser) -> None:
    """``user`` resigns the game they play, through /resign and its 🏳 button."""
    chat = fake.private_chat(user)
    sent = fake.send_text(user, chat, "/resign")
    question = await fake.wait_for_message(
        chat, after=sent, where=lambda m: any("🏳" in b.text for b in m.buttons)
    )
    assert not (await fake.next_answer_to(fake.press(user, question, "🏳"))).show_alert


async def _play_round(
    harness: BotHarness,
    players: dict[str, FakeUser],
    number: int,
    expected: int,
    *,
    restart: bool = False,
) -> None:
    """Waits for the round's games (``expected`` of them), then in each the player with the
    later name resigns through /resign and its 🏳 button."""
    fake = harness.fake
    pairs: set[frozenset[str]] = set()

    def told() -> bool:
        pairs.clear()
        for name, user in players.items():
            for other in _lines(fake, user, number):
                pairs.add(frozenset((name, other)))
        return len(pairs) == expected

    await fake.wait_for(told, description=f"round {number}'s games")
    if restart:  # mid-round: the games go on, and the round is not started again
        await harness.restart()
    for pair in sorted(pairs, key=sorted):
        loser = players[max(pair)]
        chat = fake.private_chat(loser)
        sent = fake.send_text(loser, chat, "/resign")
        question = await fake.wait_for_message(
            chat, after=sent, where=lambda m: any("🏳" in b.text for b in m.buttons)
        )
        assert not (await fake.next_answer_to(fake.press(loser, question, "🏳"))).show_alert
    await harness.settle()


async def test_a_knockout_of_five_with_a_bye_played_out_across_a_restart(
    bot_harness: BotHarness,
) -> None:
    harness, fake = bot_harness, bot_harness.fake
    names = ["anna", "boris", "carl", "dora", "emil"]
    players = {n: fake.create_user(n.title(), username=n, language_code="en") for n in names}
    group = fake.create_group("Nardy club", list(players.values()))
    fake.set_bot_admin(group, can_pin_messages=True)
    for user in players.values():
        await _say(harness, user, fake.private_chat(user), "/start")
    anna = players["anna"]
    picker = await _say(harness, anna, group, "/tournament")
    assert "New tournament" in picker.content
    assert "🏆 Knock-out" in [b.text for b in picker.buttons]  # the default format
    assert not (await fake.next_answer_to(fake.press(anna, picker, "✅ Create"))).show_alert
    await fake.wait_for(lambda: "Players: 0" in picker.content, description="the sign-up")
    for user in players.values():
        assert not (await fake.next_answer_to(fake.press(user, picker, "✅ Join"))).show_alert
    await fake.wait_for(lambda: "Players: 5" in picker.content)
    refused = await fake.next_answer_to(fake.press(players["boris"], picker, "▶ Start"))
    assert refused.show_alert and "creator" in (refused.text or "")
    assert not (await fake.next_answer_to(fake.press(anna, picker, "▶ Start"))).show_alert
    # eight places, three byes: seeds 4 and 5 (equal ratings: by id, dora and emil) play
    await _play_round(harness, players, 1, expected=1)
    assert _lines(fake, players["dora"], 1) == ["emil"]
    pinned = await fake.wait_for(
        lambda: next(
            (m for m in fake.messages(group) if m.photo and "Tournament #" in m.content), None
        ),
        description="the pinned tournament message",
    )
    await fake.wait_for(lambda: group.pinned == [pinned.message_id], description="the pin")
    await harness.restart()  # between rounds: round 2 is started once
    await _play_round(harness, players, 2, expected=2)
    await harness.restart()
    await _play_round(harness, players, 3, expected=1)
    await fake.wait_for(lambda: "Winner: @anna" in pinned.content, description="the winner")
    assert pinned.edit_count >= 2 and group.pinned == [pinned.message_id]
    for user in players.values():  # one line a round played, never two
        for number in (1, 2, 3):
            assert len(_lines(fake, user, number)) <= 1
    assert "won by @anna" in (await _say(harness, anna, group, "/tournament")).content
    assert not [m for m in fake.messages(group) if m.content.startswith("📌")]  # it could pin


async def test_a_group_where_the_bot_may_not_pin_is_told_so_once(
    bot_harness: BotHarness,
) -> None:
    """The bot is no admin: the tournament's message is posted, its pin refused by Telegram,
    and one line in the group says so and what to do, not one per edit."""
    harness, fake = bot_harness, bot_harness.fake
    players = {
        n: fake.create_user(n.title(), username=n, language_code="en") for n in ("ann", "bo")
    }
    group = fake.create_group("Nardy club", list(players.values()))
    for user in players.values():
        await _say(harness, user, fake.private_chat(user), "/start")
    ann = players["ann"]
    picker = await _say(harness, ann, group, "/tournament")
    assert not (await fake.next_answer_to(fake.press(ann, picker, "✅ Create"))).show_alert
    await fake.wait_for(lambda: "Players: 0" in picker.content, description="the sign-up")
    for user in players.values():
        assert not (await fake.next_answer_to(fake.press(user, picker, "✅ Join"))).show_alert
    assert not (await fake.next_answer_to(fake.press(ann, picker, "▶ Start"))).show_alert

    def told() -> list[FakeMessage]:
        return [m for m in fake.messages(group) if m.content.startswith("📌")]

    await fake.wait_for(told, description="the line that the pin was refused")
    pinned = next(m for m in fake.messages(group) if m.photo and "Tournament #" in m.content)
    assert group.pinned == [] and "Final" in pinned.content and " of " not in pinned.content
    assert "an admin can pin it" in told()[0].content
    await _play_round(harness, players, 1, expected=1)
    await fake.wait_for(lambda: "Winner: @ann" in pinned.content, description="the winner")
    assert len(told()) == 1


@pytest.mark.parametrize(
    ("taps", "count", "rounds", "games"),
    [(1, 4, 3, 2), (2, 7, 3, 3)],
    ids=["round-robin-of-4", "swiss-of-7"],
)
async def test_a_round_robin_and_a_swiss_played_out_with_a_restart_mid_round(
    bot_harness: BotHarness, taps: int, count: int, rounds: int, games: int
) -> None:
    harness, fake = bot_harness, bot_harness.fake
    names = ["anna", "boris", "carl", "dora", "emil", "fedor", "gleb"][:count]
    players = {n: fake.create_user(n.title(), username=n, language_code="en") for n in names}
    group = fake.create_group("Nardy club", list(players.values()))
    fake.set_bot_admin(group, can_pin_messages=True)
    for user in players.values():
        await _say(harness, user, fake.private_chat(user), "/start")
    anna = players["anna"]
    picker = await _say(harness, anna, group, "/tournament")
    for _ in range(taps):
        label = next(b.text for b in picker.buttons if b.text.startswith("🏆"))
        assert not (await fake.next_answer_to(fake.press(anna, picker, label))).show_alert
    assert not (await fake.next_answer_to(fake.press(anna, picker, "✅ Create"))).show_alert
    for user in players.values():
        assert not (await fake.next_answer_to(fake.press(user, picker, "✅ Join"))).show_alert
    await fake.wait_for(lambda: f"Players: {count}" in picker.content)
    assert not (await fake.next_answer_to(fake.press(anna, picker, "▶ Start"))).show_alert
    for number in range(1, rounds + 1):
        await _play_round(harness, players, number, expected=games, restart=number == 2)
    pinned = await fake.wait_for(
        lambda: next(
            (m for m in fake.messages(group) if m.photo and "Winner: @anna" in m.content), None
        ),
        description="the winner",
    )
    assert group.pinned == [pinned.message_id]
    met = set()
    for name, user in players.items():
        for number in range(1, rounds + 1):
            told = _lines(fake, user, number)
            assert len(told) <= 1  # never two games in one round
            met.update(frozenset((name, other)) for other in told)
    assert len(met) == rounds * games  # no pairing repeated


ADMINS_ONLY = "Only the group's admins can do that."


async def _create(fake: FakeTelegram, user: FakeUser, picker: FakeMessage) -> str | None:
    """``user`` taps ✅ Create on ``picker``; returns the alert, or None when it was made."""
    answer = await fake.next_answer_to(fake.press(user, picker, "✅ Create"))
    return answer.text if answer.show_alert else None


async def test_who_may_make_a_tournament_is_the_admins_setting(bot_harness: BotHarness) -> None:
    harness, fake = bot_harness, bot_harness.fake
    anna, boris = (
        fake.create_user(n.title(), username=n, language_code="en") for n in ("anna", "boris")
    )
    group = fake.create_group("Nardy club", [anna, boris])  # Anna made it: an admin
    refused = await _say(harness, boris, group, "/tournament anyone")
    assert refused.content == ADMINS_ONLY
    picker = await _say(harness, boris, group, "/tournament")
    assert await _create(fake, boris, picker) == ADMINS_ONLY  # admins only, by default
    assert "New tournament" in picker.content  # the picker as it was
    said = await _say(harness, anna, group, "/tournament anyone")
    assert said.content == "Anyone here may make a tournament now."
    assert await _create(fake, boris, picker) is None
    await fake.wait_for(lambda: "Players: 0" in picker.content, description="Boris's sign-up")
    said = await _say(harness, anna, group, "/tournament admins")
    assert said.content == "Only the group's admins may make a tournament now."
    await _say(harness, boris, group, "/tournament")
    again = fake.last_message(group)  # the picker follows the list of tournaments
    assert await _create(fake, boris, again) == ADMINS_ONLY
    assert "New tournament" in again.content


async def test_the_pinned_message_links_each_game_to_watch(bot_harness: BotHarness) -> None:
    harness, fake = bot_harness, bot_harness.fake
    names = ["anna", "boris", "carl", "dora"]
    players = {n: fake.create_user(n.title(), username=n, language_code="en") for n in names}
    vera = fake.create_user("Vera", username="vera", language_code="en")
    group = fake.create_group("Nardy club", list(players.values()))
    fake.set_bot_admin(group, can_pin_messages=True)
    for user in (*players.values(), vera):
        await _say(harness, user, fake.private_chat(user), "/start")
    anna = players["anna"]
    picker = await _say(harness, anna, group, "/tournament")
    assert await _create(fake, anna, picker) is None
    for user in players.values():
        assert not (await fake.next_answer_to(fake.press(user, picker, "✅ Join"))).show_alert
    await fake.wait_for(lambda: "Players: 4" in picker.content)
    assert not (await fake.next_answer_to(fake.press(anna, picker, "▶ Start"))).show_alert
    link = re.compile(rf"@(\w+) — @(\w+) · 👁 https://t\.me/{fake.bot_user.username}\?start=w(\d+)")
    pinned = await fake.wait_for(
        lambda: next(
            (m for m in fake.messages(group) if m.photo and len(link.findall(m.content)) == 2),
            None,
        ),
        description="the pinned message with two watch links",
    )
    games = {frozenset((a, b)): int(game) for a, b, game in link.findall(pinned.content)}
    assert set(games) == {frozenset(("anna", "dora")), frozenset(("boris", "carl"))}
    # the link makes its opener a watcher of that game: a board of their own
    chat = fake.private_chat(vera)
    sent = fake.send_text(vera, chat, f"/start w{games[frozenset(('anna', 'dora'))]}")
    board = await fake.wait_for_message(chat, after=sent, where=lambda m: m.photo is not None)
    assert "@anna" in board.content and "@dora" in board.content and not board.buttons
    # a game decided: its link gives way to its result
    await _resign(fake, players["dora"])
    await fake.wait_for(lambda: "@anna won" in pinned.content, description="the result")
    assert [m[2] for m in link.findall(pinned.content)] == [
        str(games[frozenset(("boris", "carl"))])
    ]


async def test_two_taps_on_create_make_one_tournament(
    bot_harness: BotHarness, database_path: Path
) -> None:
    harness, fake = bot_harness, bot_harness.fake
    anna = fake.create_user("Anna", username="anna", language_code="en")
    group = fake.create_group("Nardy club", [anna])
    picker = await _say(harness, anna, group, "/tournament")
    taps = [fake.press(anna, picker, "✅ Create") for _ in range(2)]  # at once
    answers = [await fake.next_answer_to(tap) for tap in taps]
    alerts = [a.text for a in answers if a.show_alert]
    assert len(alerts) == 1 and "created from this message already" in (alerts[0] or "")
    await harness.settle()
    assert "Players: 0" in picker.content
    with sqlite3.connect(database_path) as db:
        made = db.execute("SELECT id, message_id FROM tournaments").fetchall()
    assert made == [(made[0][0], picker.message_id)]
    # a tap long after, from an old keyboard: refused, nothing made
    late = await fake.next_answer_to(fake.tap(anna, picker, taps[0].data, check=False))
    assert late.show_alert
    with sqlite3.connect(database_path) as db:
        assert db.execute("SELECT COUNT(*) FROM tournaments").fetchone() == (1,)
