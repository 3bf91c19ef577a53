"""Statistics over hand-made finished games: records, mars and koks both ways, streaks, the
rating table and the latest games. Expected values are worked out by hand in the comments."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import pytest

from bot.engine import Cube, Game, Match, Outcome, Result, Side, resolve_rules, starting_position
from bot.model import PlayerStats, Rating
from bot.storage import Store, open_database
from bot.storage import stats as stats_module

ANNA, BORIS, VERA, GLEB = 1, 2, 3, 4
GROUP, OTHER_GROUP = -5, -7


@pytest.fixture
async def store(database: Path | str) -> AsyncIterator[Store]:
    db = await open_database(database)
    store = Store(db)
    for user_id, name in ((ANNA, "anna"), (BORIS, "boris"), (VERA, "vera"), (GLEB, None)):
        await store.users.upsert(
            user_id,
            username=name,
            first_name=(name or "gleb").title(),
            language_code="en",
            now=0,
        )
    yield store
    await db.close()


async def _game(
    store: Store,
    white: int,
    black: int,
    winner: str | None,
    outcome: str | None = None,
    points: int | None = None,
    *,
    finished: float | None = None,
    chat_id: int = GROUP,
    variant: str = "long",
    cube: Cube | None = None,
    match_id: int | None = None,
    game_no: int = 1,
) -> int:
    """A game, finished as the bot finishes one (its result saved, the totals added to) when
    ``winner`` is given."""
    game_id = await _start(store, white, black, chat_id, variant, cube, match_id, game_no)
    if winner and outcome:
        await _finish(store, game_id, Result(Side(winner), Outcome(outcome), points or 0), finished)
    return game_id


async def _start(
    store: Store,
    white: int,
    black: int,
    chat_id: int = GROUP,
    variant: str = "long",
    cube: Cube | None = None,
    match_id: int | None = None,
    game_no: int = 1,
) -> int:
    rules = "classic" if variant == "long" else "standard"
    game = Game(
        variant,
        resolve_rules(variant, rules),
        starting_position(variant),
        moved=frozenset(Side),
        ply=10,
        cube=cube,
    )
    return await store.database.insert(
        """INSERT INTO games (chat_id, white_id, black_id, variant, rule_set, game,
               move_seconds, locale, created_at, match_id, game_no)
           VALUES (?, ?, ?, ?, ?, ?, 60, 'en', 0, ?, ?)
           RETURNING id""",
        (chat_id, white, black, variant, rules, game.to_text(), match_id, game_no),
    )


async def _finish(store: Store, game_id: int, result: Result, finished: float | None) -> None:
    stored = await store.games.get(game_id)
    assert stored is not None
    ended = replace(stored, game=replace(stored.game, result=result))
    await store.games.save(ended, expected_version=stored.version, now=finished or 0.0)


async def _anna_and_boris(store: Store) -> None:
    """Anna's games, started out of order and finished in order of time (the streaks follow
    the order games end in, not their ids):

    time  white  black  winner  outcome     points   for Anna
     1    anna   boris  anna    mars        2        W  mars given
     2    boris  anna   anna    oin         1        W
     3    anna   boris  boris   koks        3        L  koks taken
     4    anna   vera   anna    koks        3        W  koks given
     5    anna   boris  anna    home mars   4        W  home mars given
     6    anna   boris  anna    oin, cube 2 2        W
     7    boris  anna   boris   mars        2        L  mars taken
     8    anna   boris  boris   resign      2        L
     9    boris  vera   boris   oin         1        (not Anna's)
    and an unfinished game of Anna's, which counts nowhere.
    """
    games = [
        (ANNA, BORIS, "w", "home_mars", 4, 5, GROUP, None),
        (BORIS, VERA, "w", "oin", 1, 9, OTHER_GROUP, None),
        (ANNA, BORIS, "b", "resign", 2, 8, GROUP, None),
        (ANNA, BORIS, "w", "mars", 2, 1, GROUP, None),
        (BORIS, ANNA, "b", "oin", 1, 2, GROUP, None),
        (ANNA, BORIS, "w", "oin", 2, 6, GROUP, Cube(2, Side.BLACK)),
        (ANNA, VERA, "w", "koks", 3, 4, GROUP, None),
        (BORIS, ANNA, "w", "mars", 2, 7, GROUP, None),
        (ANNA, BORIS, "b", "koks", 3, 3, GROUP, None),
    ]
    started = [await _start(store, w, b, chat, cube=cube) for w, b, *_, chat, cube in games]
    await _start(store, ANNA, BORIS)
    for game_id, (_, _, winner, outcome, points, finished, _, _) in sorted(
        zip(started, games, strict=True), key=lambda pair: pair[1][5]
    ):
        await _finish(store, game_id, Result(Side(winner), Outcome(outcome), points), finished)


async def test_a_players_record_mars_koks_and_streaks(store: Store) -> None:
    await _anna_and_boris(store)
    await store.ratings.set(ANNA, "short", Rating(1480.6, 200.4, 0.06, 1))
    await store.ratings.set(ANNA, "long", Rating(1612.4, 143.2, 0.06, 7))
    anna = await store.stats.player(ANNA)
    # W W L W W W L L: 8 games, 5 wins; won 2+1+3+4+2 = 12, lost 3+2+2 = 7; best run 3, now 2 lost
    assert anna == PlayerStats(
        games=8,
        wins=5,
        points_won=12,
        points_lost=7,
        mars_given=1,
        mars_taken=1,
        koks_given=1,
        koks_taken=1,
        home_mars_given=1,
        home_mars_taken=0,
        best_streak=3,
        streak=-2,
        ratings=(
            ("long", Rating(1612.4, 143.2, 0.06, 7)),
            ("short", Rating(1480.6, 200.4, 0.06, 1)),
        ),
    )
    boris = await store.stats.player(BORIS)
    # Boris: L L W L L W W W (his games 1, 2, 3, 5, 6, 7, 8, 9): best 3, and 3 now
    assert (boris.games, boris.wins, boris.best_streak, boris.streak) == (8, 4, 3, 3)
    assert (boris.points_won, boris.points_lost) == (3 + 2 + 2 + 1, 2 + 1 + 4 + 2)
    assert (boris.mars_given, boris.mars_taken, boris.home_mars_taken) == (1, 1, 1)
    assert boris.ratings == ()


async def test_a_player_without_games(store: Store) -> None:
    assert await store.stats.player(GLEB) == PlayerStats()


async def test_a_losing_start_has_no_best_streak(store: Store) -> None:
    await _game(store, VERA, GLEB, "b", "oin", 1, finished=1)
    await _game(store, GLEB, VERA, "w", "mars", 2, finished=2)
    vera = await store.stats.player(VERA)
    assert (vera.games, vera.wins, vera.best_streak, vera.streak) == (2, 0, 0, -2)
    assert (vera.points_lost, vera.mars_taken) == (3, 1)


async def test_the_rating_table_has_the_chats_players_only(store: Store) -> None:
    await _anna_and_boris(store)  # Anna, Boris and Vera finished games in GROUP
    await _game(store, GLEB, BORIS, "w", "oin", 1, finished=10, chat_id=OTHER_GROUP)
    await store.ratings.set(ANNA, "long", Rating(1612.4, 143.2, 0.06, 7))
    await store.ratings.set(BORIS, "long", Rating(1700.0, 90.0, 0.06, 8))
    await store.ratings.set(VERA, "long", Rating(1612.4, 120.0, 0.06, 1))  # the same, surer
    await store.ratings.set(GLEB, "long", Rating(1900.0, 80.0, 0.06, 1))  # not of GROUP
    await store.ratings.set(ANNA, "short", Rating(1400.0, 300.0, 0.06, 1))
    table = await store.stats.top_rated(GROUP, "long")
    assert [(p.user.id, p.rating.rating) for p in table] == [
        (BORIS, 1700.0),
        (VERA, 1612.4),
        (ANNA, 1612.4),
    ]
    assert table[0].user.username == "boris" and table[0].rating.games == 8
    assert [p.user.id for p in await store.stats.top_rated(GROUP, "short")] == [ANNA]
    assert [p.user.id for p in await store.stats.top_rated(GROUP, "long", limit=1)] == [BORIS]
    assert await store.stats.top_rated(-99, "long") == []


async def test_latest_games_of_a_chat_and_of_a_player(store: Store) -> None:
    await _anna_and_boris(store)
    match = await store.matches.create(length=7, cube=True, now=0)
    await store.matches.save(match.id, Match(7, 7, 5), now=20)
    first = await _game(
        store, ANNA, GLEB, "w", "mars", 4, finished=11, cube=Cube(2, Side.WHITE), match_id=match.id
    )
    last = await _game(
        store,
        ANNA,
        GLEB,
        "b",
        "oin",
        1,
        finished=12,
        chat_id=OTHER_GROUP,
        match_id=match.id,
        game_no=2,
    )
    in_group = await store.stats.recent(chat_id=GROUP, limit=3)
    assert [g.finished_at for g in in_group] == [11, 8, 7]
    game = in_group[0]
    assert (game.id, game.white.username, game.black.first_name) == (first, "anna", "Gleb")
    assert (game.result.winner, game.result.outcome, game.result.points) == (
        Side.WHITE,
        Outcome.MARS,
        4,
    )
    assert (game.cube, game.match_id, game.game_no, game.match) == (2, match.id, 1, Match(7, 7, 5))
    assert in_group[1].cube == 1 and in_group[1].match is None
    gleb = await store.stats.recent(user_id=GLEB)
    assert [g.id for g in gleb] == [last, first]  # in any chat
    assert gleb[0].game_no == 2 and gleb[0].chat_id == OTHER_GROUP
    anna = await store.stats.recent(user_id=ANNA, limit=20)
    assert len(anna) == 10 and anna[-1].finished_at == 1  # the unfinished game is not listed
    with pytest.raises(ValueError):
        await store.stats.recent()


async def test_a_large_groups_rating_table_walks_the_ratings_to_the_same_table(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(stats_module, "_WALK_FROM", 1)  # every group counts as large
    await test_the_rating_table_has_the_chats_players_only(store)
