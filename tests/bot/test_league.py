"""Group leagues through the real bot and a fake Telegram: /league (admins only), the pinned
standings edited after each result, restarts, a deleted message, a bot that may not pin,
/league off and /flags; and the league publisher's coalescing and pacing on its own."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from aiogram import Bot
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer

from bot.i18n import create_i18n
from bot.messages.league import RULE, LeaguePublisher, standings_text
from bot.model import Rating, Standing, User
from bot.outbox.pace import RateLimiter
from bot.services import GameSnapshot, Services, compose
from bot.services.leagues import LeagueLine, LeagueService
from bot.storage import Store, open_database
from bot.views.common import translator
from tests.support.fake_telegram import FakeChat, FakeMessage, FakeTelegram, FakeUser
from tests.support.harness import BotHarness

from .gameplay import is_over

ADMINS_ONLY = "Only the group's admins can do that."


@dataclass
class Club:
    alice: FakeUser  # the group's creator
    bob: FakeUser
    carol: FakeUser
    group: FakeChat


def _club(fake: FakeTelegram, *, can_pin: bool = True) -> Club:
    alice = fake.create_user("Alice", username="alice", language_code="en")
    bob = fake.create_user("Bob", username="bob", language_code="en")
    carol = fake.create_user("Carol", username="carol", language_code="en")
    group = fake.create_group("Nardy club", [alice, bob, carol])
    if can_pin:
        fake.set_bot_admin(group, can_pin_messages=True)
    return Club(alice, bob, carol, group)


def _standings(fake: FakeTelegram, group: FakeChat) -> list[FakeMessage]:
    return [m for m in fake.messages(group) if "League" in m.content]


async def _say(harness: BotHarness, user: FakeUser, group: FakeChat, text: str) -> FakeMessage:
    """``user`` writes ``text``; returns the bot's reply once everything is handled."""
    sent = harness.fake.send_text(user, group, text)
    reply = await harness.fake.wait_for_message(group, after=sent)
    await harness.settle()
    return reply


async def _start_league(harness: BotHarness, club: Club) -> FakeMessage:
    await _say(harness, club.alice, club.group, "/league")
    [standings] = _standings(harness.fake, club.group)
    return standings


async def _resigned_game(
    harness: BotHarness, club: Club, loser: FakeUser, winner: FakeUser
) -> None:
    """``loser`` challenges ``winner``, who accepts; then ``loser`` resigns."""
    fake, group = harness.fake, club.group
    challenge = await _say(harness, loser, group, f"/play @{winner.username}")
    assert not (await fake.next_answer_to(fake.press(winner, challenge, "✅ Accept"))).show_alert
    # This game's board: an earlier game's may be in the group already.
    board = await fake.wait_for_message(group, after=challenge, where=lambda m: bool(m.photo))
    question = await _say(harness, loser, group, "/resign")
    assert not (await fake.next_answer_to(fake.press(loser, question, "🏳"))).show_alert
    await fake.wait_for(lambda: is_over(board), description="the game to end")


def _league_row(database_path: Path) -> tuple[int, int | None] | None:
    with sqlite3.connect(database_path, timeout=5) as db:
        row = db.execute("SELECT chat_id, message_id FROM leagues").fetchone()
    return (row[0], row[1]) if row else None


async def test_only_admins_start_a_league(bot_harness: BotHarness, database_path: Path) -> None:
    harness, fake = bot_harness, bot_harness.fake
    club = _club(fake)
    refusal = await _say(harness, club.carol, club.group, "/league")
    assert refusal.text == ADMINS_ONLY
    assert _league_row(database_path) is None
    assert not club.group.pinned and not _standings(fake, club.group)
    standings = await _start_league(harness, club)
    assert club.group.pinned == [standings.message_id]
    [pin] = fake.requests_for("pinChatMessage")
    assert pin.params["disable_notification"] in (True, "true")  # silently
    assert "No finished games" in standings.content and "Updated:" in standings.content
    assert _league_row(database_path) == (club.group.id, standings.message_id)
    again = await _start_league(harness, club)  # posted again: the old message goes
    assert again is not standings and standings.deleted
    assert club.group.pinned == [again.message_id]
    assert _league_row(database_path) == (club.group.id, again.message_id)


async def test_a_result_edits_the_standings_in_place_across_restarts(
    bot_harness: BotHarness,
) -> None:
    harness, fake = bot_harness, bot_harness.fake
    club = _club(fake)
    standings = await _start_league(harness, club)
    await _resigned_game(harness, club, loser=club.alice, winner=club.bob)
    await fake.wait_for(lambda: standings.edit_count, description="the standings edited")
    assert "1. @bob: 2 pt., 1/1 wins, rating —" in standings.content
    assert "2. @alice: -2 pt., 0/1 wins" in standings.content
    await harness.restart()  # drains the league's refreshes: one result, one edit
    assert standings.edit_count == 1
    await _resigned_game(harness, club, loser=club.alice, winner=club.bob)
    await fake.wait_for(lambda: standings.edit_count == 2, description="the standings edited")
    assert "1. @bob: 4 pt., 2/2 wins" in standings.content
    assert _standings(fake, club.group) == [standings]  # edited, not re-sent
    assert club.group.pinned == [standings.message_id]


async def test_a_deleted_standings_message_is_posted_and_pinned_again(
    bot_harness: BotHarness, database_path: Path
) -> None:
    harness, fake = bot_harness, bot_harness.fake
    club = _club(fake)
    standings = await _start_league(harness, club)
    standings.deleted = True  # an admin deleted it, which unpinned it too
    club.group.pinned.remove(standings.message_id)
    await _resigned_game(harness, club, loser=club.bob, winner=club.carol)
    again = await fake.wait_for_message(
        club.group, after=standings, where=lambda m: "League" in m.content
    )
    assert "1. @carol" in again.content
    await fake.wait_for(lambda: club.group.pinned == [again.message_id], description="a pin")
    assert _league_row(database_path) == (club.group.id, again.message_id)


async def test_without_the_pin_right_the_league_works_unpinned(bot_harness: BotHarness) -> None:
    harness, fake = bot_harness, bot_harness.fake
    club = _club(fake, can_pin=False)
    await _say(harness, club.alice, club.group, "/league")
    [standings] = _standings(fake, club.group)
    assert not club.group.pinned

    def explanations() -> list[FakeMessage]:
        return [m for m in fake.messages(club.group) if "Pin messages" in m.content]

    assert len(explanations()) == 1
    await _resigned_game(harness, club, loser=club.alice, winner=club.bob)
    await fake.wait_for(lambda: standings.edit_count, description="the standings edited")
    await harness.restart()
    assert len(explanations()) == 1 and not club.group.pinned


async def test_league_off_unpins_and_ends_the_refreshes(
    bot_harness: BotHarness, database_path: Path
) -> None:
    harness, fake = bot_harness, bot_harness.fake
    club = _club(fake)
    standings = await _start_league(harness, club)
    assert (await _say(harness, club.bob, club.group, "/league off")).text == ADMINS_ONLY
    assert club.group.pinned == [standings.message_id]
    fake.set_member_status(club.group, club.bob, "administrator")
    reply = await _say(harness, club.bob, club.group, "/league off")
    assert "league is over" in reply.content
    assert not club.group.pinned and _league_row(database_path) is None
    await _resigned_game(harness, club, loser=club.alice, winner=club.bob)
    await harness.restart()  # every refresh is done by now
    assert standings.edit_count == 0
    reply = await _say(harness, club.bob, club.group, "/league off")
    assert "no league here" in reply.content


async def test_flags_lists_held_transfers_to_admins(
    bot_harness: BotHarness, database_path: Path
) -> None:
    harness, fake = bot_harness, bot_harness.fake
    club = _club(fake)
    assert "No transfers" in (await _say(harness, club.alice, club.group, "/flags")).content
    await _resigned_game(harness, club, loser=club.bob, winner=club.alice)
    with sqlite3.connect(database_path, timeout=5) as db:
        [game_id] = db.execute("SELECT id FROM games").fetchone()
        db.execute(
            """INSERT INTO chip_flags
                   (game_id, chat_id, loser_id, winner_id, amount, payments, paid, created_at)
               VALUES (?, ?, ?, ?, 500, 10, 1200, 1.7e9)""",
            (game_id, club.group.id, club.bob.id, club.alice.id),
        )
        # a tournament's entry held: Carol's, to Alice, who won it
        [tournament_id] = db.execute(
            """INSERT INTO tournaments (chat_id, creator_id, format, variant, dice_mode,
                   match_length, entry, state, locale, created_at)
               VALUES (?, ?, 'knockout', 'long', 'two', 0, 500, 'finished', 'en', 1.7e9)
               RETURNING id""",
            (club.group.id, club.alice.id),
        ).fetchone()
        db.execute(
            """INSERT INTO chip_flags (tournament_id, chat_id, loser_id, winner_id, amount,
                   payments, paid, created_at)
               VALUES (?, ?, ?, ?, 500, 2, 1000, 1.7e9 + 1)""",
            (tournament_id, club.group.id, club.carol.id, club.alice.id),
        )
    assert (await _say(harness, club.carol, club.group, "/flags")).text == ADMINS_ONLY
    listed = (await _say(harness, club.alice, club.group, "/flags")).content
    assert "Held transfers" in listed
    assert (
        f"Game #{game_id}: @bob → @alice, 500 chips (10 payments, 1200 chips one way in 24 h), "
        "2023-11-14"
    ) in listed
    assert (
        f"Tournament #{tournament_id}: @carol's entry to the winner @alice, 500 chips "
        "(2 payments, 1000 chips one way in 24 h), 2023-11-14"
    ) in listed


async def test_league_and_flags_in_a_private_chat_explain_themselves(
    bot_harness: BotHarness,
) -> None:
    harness, fake = bot_harness, bot_harness.fake
    alice = fake.create_user("Alice", username="alice", language_code="en")
    chat = fake.private_chat(alice)
    assert "groups" in (await _say(harness, alice, chat, "/league")).content
    assert "group" in (await _say(harness, alice, chat, "/flags")).content


def test_the_standings_text() -> None:
    alice = User(1, "alice", "Alice", "en")
    bob = User(2, None, "Bob <3", "en")
    lines = [
        LeagueLine(Standing(alice, games=3, wins=2, points=3), Rating(1623.4, 80, 0.06, 3)),
        LeagueLine(Standing(bob, games=3, wins=1, points=-3), Rating()),
    ]
    text = standings_text(lines, str, now=1.7e9)
    assert text.splitlines() == [
        "🏆 <b>League</b>",
        RULE,
        "1. @alice: 3 pt., 2/3 wins, rating 1623",
        "2. Bob &lt;3: -3 pt., 1/3 wins, rating —",  # not rated in long nardy yet
        RULE,
        "Updated: 2023-11-14 22:13 UTC",
    ]
    russian = standings_text(lines, translator(create_i18n(), "ru"), now=1.7e9)
    assert "Лига" in russian and "рейтинг 1623" in russian and "Обновлено" in russian


# --- the publisher on its own --------------------------------------------------------------


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@dataclass
class World:
    services: Services
    leagues: LeagueService
    bot: Bot
    group: FakeChat
    snapshot: GameSnapshot


@pytest.fixture
async def world(tmp_path: Path, fake_telegram: FakeTelegram) -> AsyncIterator[World]:
    db = await open_database(tmp_path / "l.sqlite3")
    store = Store(db)
    services = compose(store, random.Random(5), move_seconds=600)
    fake = fake_telegram
    alice = fake.create_user("Alice", username="alice")
    bob = fake.create_user("Bob", username="bob")
    group = fake.create_group("club", [alice, bob], bot_is_admin=True)
    users = [
        await services.users.see(
            u.id, username=u.username, first_name=u.first_name, language_code="en"
        )
        for u in (alice, bob)
    ]
    challenge = await services.challenges.open(
        chat_id=group.id, challenger=users[0], target=users[1], locale="en"
    )
    _, snapshot = await services.lobby.accept(challenge.id, users[1])
    bot = Bot(fake.token, session=AiohttpSession(api=TelegramAPIServer.from_base(fake.url)))
    yield World(services, services.league_service, bot, group, snapshot)
    await bot.session.close()
    await db.close()


def _league(world: World, limiter: RateLimiter, *, settle: float) -> LeaguePublisher:
    return LeaguePublisher(
        world.bot,
        world.leagues,
        world.services.chats,
        world.services.coordination,
        create_i18n(),
        limiter=limiter,
        settle_seconds=settle,
    )


async def test_refreshes_close_together_make_one_edit_paced_with_the_boards(
    world: World, fake_telegram: FakeTelegram
) -> None:
    clock = Clock()
    limiter = RateLimiter(clock=clock, group=(2, 1 / 3600))  # two messages, then an hour each
    publisher = _league(world, limiter, settle=3600)
    assert await publisher.post(await world.leagues.start(world.group.id, "en"))
    standings = fake_telegram.last_message(world.group)
    await world.services.game_service.resign(
        world.snapshot.stored.id, world.snapshot.stored.white_id
    )
    for _ in range(5):  # the worker is settling meanwhile
        publisher.refresh(world.group.id)
        await asyncio.sleep(0)
    await publisher.drain()  # no more settling: the one edit goes now
    assert standings.edit_count == 1 and "1. @bob" in standings.content
    assert limiter.delay(world.group.id) == pytest.approx(3600)  # the post and the edit took both


async def test_a_refresh_waiting_for_its_turn_is_cancelled_cleanly(
    world: World, fake_telegram: FakeTelegram
) -> None:
    limiter = RateLimiter(group=(1, 1 / 3600))
    publisher = _league(world, limiter, settle=0)
    await publisher.post(await world.leagues.start(world.group.id, "en"))
    standings = fake_telegram.last_message(world.group)
    publisher.refresh(world.group.id)
    await publisher.drain(timeout=0.05)  # it waits an hour for the group's next message
    await publisher.close()
    assert standings.edit_count == 0


async def test_the_league_hears_of_each_group_games_result_from_the_change_feed(
    world: World, fake_telegram: FakeTelegram
) -> None:
    """The league listens to the change feed: a group game's result (and nothing before it)
    edits the group's standings, with no client telling it."""
    publisher = _league(world, RateLimiter(group=(100, 100.0)), settle=0)
    world.services.feed.subscribe(publisher.hear)
    assert await publisher.post(await world.leagues.start(world.group.id, "en"))
    standings = fake_telegram.last_message(world.group)
    game_id, white = world.snapshot.stored.id, world.snapshot.stored.white_id
    mover = world.snapshot.stored.player(world.snapshot.game.turn)
    if world.snapshot.turn_input is not None:
        await world.services.game_service.choose(game_id, mover, world.snapshot.stored.version, 0)
    await publisher.drain()
    assert standings.edit_count == 0  # a tap is no result
    await world.services.game_service.resign(game_id, white)
    await publisher.drain()
    assert standings.edit_count == 1 and "1. @bob" in standings.content
    await publisher.close()
