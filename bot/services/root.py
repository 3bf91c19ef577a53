"""The composition root of the services: each one built once, here, and handed to the others
it needs. No service builds another or holds the one that holds it; the arrows point one way
(:func:`compose` draws them).

:class:`Services` is what the bot's composition (:func:`bot.app.build_services`) puts into the
dispatcher: each field becomes workflow data by its name, so a handler that declares
``lobby: Lobby`` gets :attr:`Services.lobby` (aiogram's dependency injection by name). The
names are the ones handlers use (``games``, ``board_messages``, ``inline_games``, ``scores``,
``leagues``), not shorter ones that would shadow the handlers' locals. Tests compose the same
way, with a seeded random source and a clock of their own.
"""

from __future__ import annotations

import dataclasses
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.model import Store

from .actions import GameActions
from .analysis import Analyses
from .autoanalysis import AutoAnalyses
from .boards import BoardMessages
from .broadcasts import Broadcasts
from .challenges import CHALLENGE_SECONDS, Challenges
from .chats import Chats
from .computer import Brain
from .coordination import Coordination
from .daily import DailyPositions
from .database_outages import DatabaseWatch
from .deadlines import Deadlines
from .feed import ChangeFeed
from .games import Games
from .inline import InlineGames
from .leagues import Leagues
from .lessons import Lessons
from .lobby import Lobby
from .moderation import Moderation
from .planner import Planner
from .pool import Pool
from .practice import Practice
from .privacy import Privacy
from .processes import ProcessPool
from .replays import Replays
from .results import Results
from .saves import COMPUTER_PAUSE, GameSaves
from .scores import Scores
from .seeds import DiceSeeds
from .snapshots import Snapshots
from .starts import GameStarts
from .timeouts import Timeouts
from .tournaments import Tournaments
from .training import Training
from .updates import Updates
from .users import Users
from .watchers import Watchers


@dataclass(frozen=True, slots=True)
class Services:
    """Every service of one bot process, by the name handlers receive it under."""

    store: Store
    """For the web server's health check and gauges; handlers never take it."""
    feed: ChangeFeed
    """Every change to a game, told once by the service that made it: the boards, the Mini
    App's sockets and the league listen (composed in :mod:`bot.app`); handlers never take it."""
    users: Users
    chats: Chats
    """Group settings (the language a group's admins chose)."""
    coordination: Coordination
    """Claims and pace shared with the other workers of the database."""
    games: Games
    game_starts: GameStarts
    """Games started once their players are free; what keeps a player busy."""
    timeouts: Timeouts
    """The deadlines that passed acted on: the computer's turns, losses on time."""
    deadlines: Deadlines
    """Reminders of correspondence games; the clocks stopped for an outage."""
    updates: Updates
    """The updates handled (Telegram's deliveries again dropped)."""
    game_actions: GameActions
    """What a person can do in a game, for every client (the chat's buttons, the Mini App)."""
    board_messages: BoardMessages
    """Which messages show which game, and which version each shows."""
    challenges: Challenges
    inline_games: InlineGames
    """Invitations posted in inline mode."""
    watchers: Watchers
    lobby: Lobby
    """Accept, join, rematch, watch: what leads to a game."""
    replays: Replays
    """Finished games move by move, positions to play on from, replays' file ids."""
    scores: Scores
    leagues: Leagues
    analyses: Analyses
    pool: Pool
    """Players looking for anyone to play: paired, or offered the computer."""
    tournaments: Tournaments
    """Groups' tournaments: sign-up, rounds played in private, the winner."""
    auto_analyses: AutoAnalyses
    """The automatic analysis of rated games: its queue, luck, PR, trends, flags."""
    daily: DailyPositions
    """The daily position: chosen, answered, posted in the groups that asked."""
    privacy: Privacy
    """Forgetting a user who asks (/forget)."""
    moderation: Moderation
    """The operators (``OWNER_IDS``): bans, decisions on held transfers, their figures."""
    broadcasts: Broadcasts
    """An operator's message to every user, sent once to each."""
    database_watch: DatabaseWatch
    """Whether the database answers; its outages made up for as Telegram's are."""
    lessons: Lessons
    """The course of /learn: progress, answers judged by the engine, the offers of /learn."""
    practice: Practice
    """Practice positions by difficulty, answered once each, with a streak."""
    training: Training
    """Training games: each of the player's turns judged, the coach's messages."""
    workers: tuple[ProcessPool, ...] = ()
    """The worker processes that heal (the computer's, the planner's), for ``/metrics``."""

    def by_name(self) -> dict[str, Any]:
        """The services as the dispatcher's workflow data: each by its field's name."""
        return {field.name: getattr(self, field.name) for field in dataclasses.fields(self)}


def compose(
    store: Store,
    rng: random.Random,
    brain: Brain | None = None,
    *,
    move_seconds: int = 90,
    clock: Callable[[], float] = time.time,
    challenge_seconds: int = CHALLENGE_SECONDS,
    computer_pause: float = COMPUTER_PAUSE,
    planner: Planner | None = None,
    owners: frozenset[int] = frozenset(),
) -> Services:
    """Builds every service over ``store``: dice from ``rng`` (a :class:`random.SystemRandom`
    in production, a seeded one in tests), the computer's moves from ``brain``, time from
    ``clock``; ``move_seconds`` is the default time per move, ``challenge_seconds`` how long a
    challenge stays open, ``computer_pause`` the pause before the computer's answer. Without
    ``brain``, a :class:`Brain` of its own (a process pool started on its first decision).
    ``planner``: the heavy turns' process, which the engine asks (set apart, in
    :func:`bot.engine.stepwise.set_planner`); here only its workers are counted. ``owners``:
    the users who operate the bot (``OWNER_IDS``).

    The arrows, each service built once and handed what it needs (each with the store as well)::

        the change feed, users, chats, seeds, coordination, replays, scores, analyses, watchers,
        the pool, the automatic analyses (<- the brain), the daily position (<- the brain),
        the lessons, training games' judging (<- the brain)
        privacy       <- users
        board messages <- the change feed
        game saves    <- the feed, results (<- the automatic analyses), snapshots (<- users)
        game starts   <- users, seeds, the feed
        timeouts      <- game saves, the brain, board messages
        game service  <- users, the brain, results, game saves, game starts
        challenges    <- users, seeds
        inline games  <- challenges
        leagues       <- scores
        lobby         <- game service, game starts, challenges, inline games, watchers, the
                         pool, the feed
        game actions  <- game service, lobby
        tournaments   <- game service, game starts
        moderation    <- challenges, the pool, tournaments
        database watch <- game service
        practice      <- the brain, the daily position
    """
    brain = brain if brain is not None else Brain()
    users = Users(store, clock=clock)
    seeds = DiceSeeds(rng)
    coordination = Coordination(store, shared=store.shared, clock=clock)
    auto_analyses = AutoAnalyses(store, brain, clock=clock)
    feed = ChangeFeed(store)
    board_messages = BoardMessages(store, feed, clock=clock)
    results = Results(store, auto_analyses)
    saves = GameSaves(
        store,
        feed=feed,
        results=results,
        snapshots=Snapshots(store, users, clock=clock),
        clock=clock,
        computer_pause=computer_pause,
    )
    starts = GameStarts(
        store,
        rng,
        users=users,
        seeds=seeds,
        feed=feed,
        move_seconds=move_seconds,
        computer_pause=computer_pause,
        clock=clock,
    )
    timeouts = Timeouts(
        store, rng, saves=saves, brain=brain, board_messages=board_messages, clock=clock
    )
    games = Games(
        store, rng, users=users, brain=brain, results=results, saves=saves, starts=starts,
        clock=clock,
    )  # fmt: skip
    deadlines = Deadlines(store, users, coordination, games.snapshot_of, clock=clock)
    challenges = Challenges(
        store,
        users,
        seeds,
        move_seconds=move_seconds,
        clock=clock,
        challenge_seconds=challenge_seconds,
    )
    inline = InlineGames(store, challenges)
    watchers = Watchers(store)
    scores = Scores(store, clock=clock)
    pool = Pool(store, clock=clock)
    lobby = Lobby(store, games, starts, challenges, inline, watchers, pool, feed, clock=clock)
    tournaments = Tournaments(store, games, starts, clock=clock)
    daily = DailyPositions(store, brain, clock=clock)
    return Services(
        store=store,
        feed=feed,
        users=users,
        chats=Chats(store, clock=clock),
        coordination=coordination,
        games=games,
        game_starts=starts,
        timeouts=timeouts,
        deadlines=deadlines,
        updates=Updates(store, clock=clock),
        game_actions=GameActions(games, lobby),
        board_messages=board_messages,
        challenges=challenges,
        inline_games=inline,
        watchers=watchers,
        lobby=lobby,
        replays=Replays(store),
        scores=scores,
        leagues=Leagues(store, scores, clock=clock),
        analyses=Analyses(store, brain),
        pool=pool,
        tournaments=tournaments,
        auto_analyses=auto_analyses,
        daily=daily,
        privacy=Privacy(store, users, clock=clock),
        moderation=Moderation(
            store,
            owners=owners,
            challenges=challenges,
            pool=pool,
            tournaments=tournaments,
            clock=clock,
        ),
        broadcasts=Broadcasts(store, clock=clock),
        database_watch=DatabaseWatch(store, deadlines, clock=clock),
        workers=(brain.pool,) + ((planner.pool,) if planner is not None else ()),
        lessons=Lessons(store, clock=clock),
        practice=Practice(store, brain, daily, clock=clock),
        training=Training(store, brain, clock=clock),
    )
