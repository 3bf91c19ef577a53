"""Telegram handlers, one router per feature.

To add a feature, write ``bot/handlers/<feature>.py`` with a ``create_router() -> Router`` and
list it in :func:`get_routers`. Order matters: the dispatcher tries routers in this order and
stops at the first handler whose filters pass.
"""

from __future__ import annotations

from aiogram import Router

from bot.handlers import (
    analysis,
    basic,
    daily,
    dice,
    errors,
    fallback,
    find,
    groups,
    inline,
    language,
    league,
    learn,
    lobby,
    operator,
    play,
    positions,
    privacy,
    scores,
    tournaments,
    watch,
)


def get_routers() -> list[Router]:
    """Returns new routers for one dispatcher, in the order they are tried."""
    return [
        inline.create_router(),  # first: the taps on inline messages it takes are its own
        # next the taps on boards, most of all updates: each router passed costs a tap about
        # 25 us, and no filter here overlaps those of the routers it comes before
        play.create_router(),
        lobby.create_router(),  # before basic: it claims /start links that carry a challenge
        watch.create_router(),  # before basic too: /start links that make a watcher
        find.create_router(),
        daily.create_router(),  # before basic too: /start links to a daily position
        learn.create_router(),  # before basic too: /start learn, the link to /learn
        basic.create_router(),
        scores.create_router(),
        dice.create_router(),
        # the operators' (their filter lets nobody else's through); before league: an
        # operator's /flags in private is theirs
        operator.create_router(),
        league.create_router(),
        tournaments.create_router(),
        language.create_router(),
        analysis.create_router(),
        positions.create_router(),
        privacy.create_router(),
        groups.create_router(),
        fallback.create_router(),  # last: answers presses nothing else understood
        errors.create_router(),  # errors of every router above
    ]
