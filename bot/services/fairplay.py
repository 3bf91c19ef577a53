"""Fair play: where hints are allowed, which games are rated, and the flag for an account whose
play is far better than its rating predicts. Pure functions of domain values; the services
that start games, record results and analyse them call them.

Hints are opt-in and allowed only where nothing is at stake: never with chips staked, never in a
tournament, and a game between people with hints on is not rated.

The PR flag. A rating predicts a PR (:mod:`bot.ai.luck`) by a line through two anchors of human
play, never below :data:`PR_FLOOR`::

    expected(r) = max(PR_FLOOR, 12 - 1.5 * (r - 1500) / 100)

An account is flagged in a variant when its last :data:`FLAG_GAMES` analysed rated games in it
have at least :data:`FLAG_DECISIONS` decisions together, and their PR (over all those decisions:
long games weigh more) is at most :data:`FLAG_RATIO` of the expected one *and* at least
:data:`FLAG_GAP` below it. The operators read the flags in ``/flags`` and decide.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from bot.model import PlayerLuck, PrFlag, Rating, StoredGame, Terms

PR_AT_1500: Final = 12.0
PR_PER_100: Final = 1.5
PR_FLOOR: Final = 2.0
FLAG_GAMES: Final = 20
FLAG_DECISIONS: Final = 200
FLAG_RATIO: Final = 1 / 3
FLAG_GAP: Final = 6.0


def hints_allowed(terms: Terms, *, computer: bool, tournament: bool = False) -> bool:
    """Whether a game on ``terms`` may have hints: against the computer always (never rated,
    never staked), between people with no stake and outside tournaments (the tournament
    service passes ``tournament=True`` for its games' terms)."""
    if computer:
        return True
    return not tournament and not terms.stake


def rated(stored: StoredGame) -> bool:
    """Whether a finished game between people counts for the ratings (and is analysed by
    itself): not played on from a chosen position, not with hints (games with the computer and
    early concessions are left out by the caller)."""
    return stored.start is None and not stored.hints


def expected_pr(rating: float) -> float:
    """The PR a rating predicts (see the module docstring)."""
    return max(PR_FLOOR, PR_AT_1500 - PR_PER_100 * (rating - 1500.0) / 100.0)


def pooled_pr(figures: Sequence[PlayerLuck]) -> float:
    """PR over several games: their losses summed over their decisions summed."""
    decisions = sum(f.decisions for f in figures)
    return sum(f.pr * f.decisions for f in figures) / decisions if decisions else 0.0


def pr_flag(
    user_id: int,
    variant: str,
    figures: Sequence[PlayerLuck],
    rating: Rating,
    now: float,
    *,
    games: int = FLAG_GAMES,
    decisions: int = FLAG_DECISIONS,
) -> PrFlag | None:
    """The flag for ``user_id`` in ``variant`` over its ``figures`` (its analysed rated games,
    oldest first; the last ``games`` of them in the variant count, with at least ``decisions``
    decisions together), or None when its play is
    within what its rating predicts (or too few games tell)."""
    mine = [f for f in figures if f.variant == variant and f.user_id == user_id][-games:]
    if len(mine) < games or sum(f.decisions for f in mine) < decisions:
        return None
    pr = pooled_pr(mine)
    expected = expected_pr(rating.rating)
    if pr > FLAG_RATIO * expected or expected - pr < FLAG_GAP:
        return None
    return PrFlag(user_id, variant, len(mine), pr, expected, rating.rating, now)
