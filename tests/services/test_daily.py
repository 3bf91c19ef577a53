"""The daily position's rules on a real database: chosen from finished games with a blunder's
margin between the best turn and the next, never the same position twice in a year, from the
computer's self-play on a new bot; answers once each, judged by the stored ranking; streaks;
a group's morning post claimed by one worker; nothing of the verdicts told before the day
ends, and streaks made by accounts that have played rated games only."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.ai import daily as ai_daily
from bot.ai.analysis import BLUNDER
from bot.engine import Dice, Game, Position
from bot.i18n import create_i18n
from bot.model import DailyPosition, RankedTurn, Rating, Streak, User
from bot.services import compose
from bot.services import errors as e
from bot.services.computer import Brain
from bot.services.daily import (
    DailyService,
    alive,
    day_of,
    next_streak,
    replay_taps,
    shift_day,
    tap_letter,
)
from bot.storage import Store, open_database
from bot.views.common import translator
from bot.views.daily import group_caption, outcome_caption
from tests.services.conftest import Clock
from tests.services.test_analysis import _group_game

DAY = 86_400.0
NOON = dt.datetime(2026, 12, 3, 12, 0, tzinfo=dt.UTC).timestamp()


class InProcessBrain(Brain):
    """Finds positions in the test's process (the same functions the worker processes run)."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[str] = []
        self.candidates: list[Game] = []
        """The finished games' positions the last search looked at."""

    async def daily_position(
        self, candidates: Sequence[Game], exclude: frozenset[str]
    ) -> ai_daily.Found | None:
        self.calls.append("games")
        self.candidates = list(candidates)
        return ai_daily.find(candidates, exclude)

    async def daily_self_play(
        self, variant: str, seed: int, exclude: frozenset[str]
    ) -> ai_daily.Found | None:
        self.calls.append("self-play")
        return ai_daily.self_play(variant, seed, exclude)


@pytest.fixture
async def sqlite_store(tmp_path: Path) -> AsyncIterator[Store]:
    db = await open_database(tmp_path / "daily.sqlite3")
    yield Store(db)
    await db.close()


def _margin(position: DailyPosition) -> float:
    return position.ranking[0].equity - position.ranking[1].equity


def _qualifying(candidates: Sequence[Game]) -> list[str]:
    """The keys of every daily position among ``candidates``, in the order they are taken."""
    keys: list[str] = []
    for candidate in candidates:
        found = ai_daily.find([candidate], frozenset(keys))
        if found is not None:
            keys.append(ai_daily.key(found.game))
    return keys


@pytest.mark.slow
async def test_chosen_from_finished_games_never_twice_in_a_year(sqlite_store: Store) -> None:
    clock = Clock()
    clock.now = NOON
    services = compose(sqlite_store, random.Random(3), clock=clock)
    users = [
        await services.users.see(i, username=name, first_name=name, language_code="en")
        for i, name in ((1, "anna"), (2, "boris"))
    ]
    games = []
    for _ in range(5):  # five finished games, with two positions or more that qualify
        stored = await _group_game(services, users, 60)
        await services.game_service.resign(stored.id, users[1].id)
        games.append(stored.id)
    brain = InProcessBrain()
    daily = DailyService(sqlite_store, brain, clock=clock)

    first = await daily.position("long")
    assert first.source_game_id in games and first.day == "2026-12-03"
    assert _margin(first) >= BLUNDER and first.game.cube is None
    assert await daily.position("long") == first and brain.calls == ["games"]  # kept
    # every turn is ranked, best first: any answer can be judged
    assert len(first.ranking) == len(first.game.legal_turns()) >= 2
    assert [r.equity for r in first.ranking] == sorted(
        (r.equity for r in first.ranking), reverse=True
    )
    qualifying = _qualifying(brain.candidates)
    assert len(qualifying) >= 2, "play more or longer games: the net finds fewer than two"
    assert qualifying[0] == first.key

    # each next day the same games, the days before left out, until none is left
    for day, expected in enumerate(qualifying[1:], start=1):
        clock.now = NOON + day * DAY
        taken = await daily.position("long")
        assert taken.source_game_id in games and _margin(taken) >= BLUNDER
        assert taken.key == expected

    clock.now = NOON + len(qualifying) * DAY  # none left this year: self-play
    third = await daily.position("long")
    assert third.source_game_id is None and _margin(third) >= BLUNDER
    assert third.key not in qualifying

    # 366 days after the first: it may come back, the second (365 days ago) may not
    clock.now = NOON + 366 * DAY
    again = await daily.position("long")
    assert again.key == first.key and again.day == "2027-12-04"
    # each day one search of the games; the day none is left, a search that finds nothing
    assert brain.calls == ["games"] * (len(qualifying) + 1) + ["self-play", "games"]


async def test_a_new_bot_takes_a_position_from_self_play(sqlite_store: Store) -> None:
    clock = Clock()
    clock.now = NOON
    brain = InProcessBrain()
    daily = DailyService(sqlite_store, brain, clock=clock)
    position = await daily.position("short")
    assert brain.calls == ["self-play"] and position.source_game_id is None
    assert _margin(position) >= BLUNDER
    seed = dt.date(2026, 12, 3).toordinal()
    again = ai_daily.self_play("short", seed)  # seeded by the day: the same position
    assert again is not None and ai_daily.key(again.game) == position.key
    with pytest.raises(e.NoDailyPosition):
        await daily.position("gulbara")


async def test_answers_once_each_with_streaks(sqlite_store: Store) -> None:
    clock = Clock()
    clock.now = NOON
    brain = InProcessBrain()
    daily = DailyService(sqlite_store, brain, clock=clock)
    anna, boris = User(1, "anna", "Anna", "en"), User(2, "boris", "Boris", "en")
    position = await daily.position("long")
    best_taps = _taps_for(position, position.best.reaches)
    worse = position.ranking[1]

    await sqlite_store.users.upsert(
        anna.id, username="anna", first_name="Anna", language_code="en", now=NOON
    )
    await sqlite_store.ratings.set(anna.id, "long", Rating(games=1))  # streaks: rated only
    right = await daily.answer(position, anna, replay_taps(position.game, best_taps).input.turn())
    assert right.answer is not None and right.answer.correct and right.answer.loss == 0.0
    assert right.streak == Streak(1, 1, 1, "2026-12-03")
    with pytest.raises(e.AlreadyAnswered):  # a second answer changes nothing
        await daily.answer(position, anna, replay_taps(position.game, best_taps).input.turn())
    wrong_turn = replay_taps(position.game, _taps_for(position, worse.reaches)).input.turn()
    wrong = await daily.answer(position, boris, wrong_turn)
    assert wrong.answer is not None and not wrong.answer.correct and wrong.streak is None
    assert wrong.answer.loss == pytest.approx(position.best.equity - worse.equity)
    assert (wrong.tally.answers, wrong.tally.percent) == (2, 50)
    again = await daily.outcome(position, anna)
    assert again is not None and again.answer == right.answer and again.tally == wrong.tally
    with pytest.raises(e.StaleAction):  # letters that name no button
        replay_taps(position.game, "Z")

    clock.now += 2 * DAY  # a day without a right answer ends the streak
    assert await daily.streak(anna.id) == 0
    assert [s.user_id for _, s in await daily.top_streaks()] == []


def _taps_for(position: DailyPosition, reaches: str) -> str:
    """The taps (the buttons' letters) that play the turn reaching ``reaches``: the whole-turn
    buttons where there are few ways, else the steps one by one."""
    todo = [""]
    while todo:
        taps = todo.pop()
        tapped = replay_taps(position.game, taps)
        if tapped.input.is_complete:
            if tapped.input.turn().position.to_text() == reaches:
                return taps
            continue
        if tapped.finishes is not None:
            todo += [taps + tap_letter(i, finish=True) for i in range(len(tapped.finishes))]
        else:
            todo += [taps + tap_letter(i, finish=False) for i in range(len(tapped.input.options))]
    raise AssertionError(f"no taps reach {reaches}")


@given(st.lists(st.integers(0, 40), min_size=1, max_size=30))
def test_a_streak_is_the_last_run_of_days_in_a_row(offsets: list[int]) -> None:
    start = dt.date(2026, 1, 1)
    days = [(start + dt.timedelta(days=n)).isoformat() for n in offsets]
    streak = None
    for day in days:
        streak = next_streak(streak, 1, day)
    assert streak is not None
    right = sorted({d for d in days if d <= streak.last_day})
    run = 1
    while run < len(right) and shift_day(right[-run], -1) == right[-run - 1]:
        run += 1
    # answers in order: a late answer to an older day never changes the streak
    in_order = days == sorted(days)
    if in_order:
        assert streak.current == run
    assert 1 <= streak.current <= streak.best
    assert alive(streak, shift_day(streak.last_day, 1)) == streak.current
    assert alive(streak, shift_day(streak.last_day, 2)) == 0


async def test_a_morning_post_is_claimed_by_one_worker(sqlite_store: Store) -> None:
    clock = Clock()
    moscow_nine = dt.datetime(2026, 12, 3, 6, 0, tzinfo=dt.UTC).timestamp()
    clock.now = moscow_nine - 10
    first = DailyService(sqlite_store, InProcessBrain(), clock=clock)
    second = DailyService(sqlite_store, InProcessBrain(), clock=clock)
    with pytest.raises(e.UnknownTimeZone):
        await first.subscribe(-7, zone="Europe/Nowhere", variant="long", locale="en")
    group = await first.subscribe(-7, zone="europe/moscow", variant="long", locale="en")
    assert group.time_zone == "Europe/Moscow" and group.next_post == moscow_nine
    assert await first.due_posts() == []
    clock.now = moscow_nine + 1
    got = await first.due_posts() + await second.due_posts()
    assert [(g.chat_id, p.day) for g, p in got] == [(-7, day_of(clock.now))]
    assert await second.due_posts() == [] and await first.due_posts() == []
    assert (await first.group(-7)).next_post == moscow_nine + DAY  # type: ignore[union-attr]


async def _seeded(store: Store, day: str, now: float) -> DailyPosition:
    """A long-nardy 6-5 with its turns ranked by a made-up equity, as the day's position."""
    game = Game.setup(Position.from_text("long w / 24:14 13:1 / 24:15")).with_dice(Dice(6, 5))
    ranking = sorted(
        (
            RankedTurn(str(turn), turn.position.to_text(), -0.1 * number)
            for number, turn in enumerate(game.legal_turns())
        ),
        key=lambda r: -r.equity,
    )
    return await store.daily.add_position(
        variant="long",
        day=day,
        key="seeded",
        game=game,
        ranking=tuple(ranking),
        source_game_id=None,
        now=now,
    )


async def test_nothing_is_told_before_the_day_ends_and_only_rated_accounts_make_streaks(
    store: Store, clock: Clock
) -> None:
    clock.now = NOON
    daily = DailyService(store, InProcessBrain(), clock=clock)
    position = await _seeded(store, "2026-12-03", clock.now)
    best = replay_taps(position.game, _taps_for(position, position.best.reaches)).input.turn()
    anna, boris = User(1, "anna", "Anna", "en"), User(2, "boris", "Boris", "en")
    for user in (anna, boris):
        await store.users.upsert(
            user.id, username=user.username, first_name=user.first_name, language_code="en",
            now=clock.now,
        )  # fmt: skip
    await store.ratings.set(anna.id, "long", Rating(games=3))  # Boris has played no rated game
    _ = translator(create_i18n(), "en")

    # both find the best move; neither they, nor a second account, learn it before midnight
    answered = [await daily.answer(position, user, best) for user in (anna, boris)]
    for outcome in answered:
        caption = outcome_caption(outcome, daily.today(), _)
        assert "Your answer: " + str(best) in caption
        assert "Best:" not in caption and "%" not in caption and "✅" not in caption
    assert "Streaks count for players who have played a rated game." in caption  # Boris's
    post = group_caption(position, await daily.tally(position.id), _, revealed=False)
    assert "2 answered so far." in post and str(best) not in post
    # Anna's streak has today's answer, shown when the day is over; Boris's none
    assert await store.daily.streak(anna.id) == Streak(1, 1, 1, "2026-12-03")
    assert await store.daily.streak(boris.id) is None
    assert await daily.streak(anna.id) == 0 and await daily.top_streaks() == []
    await store.daily.add_post(-7, position.id, "en")
    assert await daily.to_reveal() == []

    # midnight: the best move, the verdicts and the share of right answers, to all
    clock.now += DAY / 2
    shown = await daily.outcome(position, anna)
    assert shown is not None and shown.revealed
    caption = outcome_caption(shown, daily.today(), _)
    assert f"Best: {position.best.turn}" in caption and "the best move!" in caption
    assert "2 answered, 100% found the best move." in caption
    stranger = await daily.outcome(position, User(3, "vera", "Vera", "en"))  # never answered
    assert stranger is not None and f"Best: {position.best.turn}" in outcome_caption(
        stranger, daily.today(), _
    )
    with pytest.raises(e.DailyOver):  # too late to answer: nothing changes
        await daily.answer(position, User(3, "vera", "Vera", "en"), best)
    # /top daily: Anna's streak of one; a streak of an account with no rated game is not
    # listed (one kept from before the rule, here)
    await store.daily.set_streak(Streak(boris.id, 4, 4, "2026-12-03"))
    assert [(u.id, s.current) for u, s in await daily.top_streaks()] == [(anna.id, 1)]
    assert await daily.to_reveal() == [position.id]  # the group's post: to be edited
    await daily.mark_revealed(position.id)
    assert await daily.to_reveal() == []
