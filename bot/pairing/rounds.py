"""What every format shares: the players (ids, seeded by rating), a round's boards, their
results, the scores and the standings they make."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

PlayerId = int
"""A player's id (a Telegram user id): the only thing pairing knows of a person."""


@dataclass(frozen=True, slots=True)
class SeededPlayer:
    """A player taking part, with the rating that seeds and ranks them."""

    player: PlayerId
    rating: float


@dataclass(frozen=True, slots=True)
class Pairing:
    """One board of a round: ``first`` plays first (white in the Berger tables); a pairing
    with no ``second`` is a bye."""

    first: PlayerId
    second: PlayerId | None = None

    @property
    def is_bye(self) -> bool:
        return self.second is None

    @property
    def players(self) -> tuple[PlayerId, ...]:
        return (self.first,) if self.second is None else (self.first, self.second)


@dataclass(frozen=True, slots=True)
class Round:
    """A round's boards in order (the top board first; a knock-out round in bracket order)."""

    number: int
    pairings: tuple[Pairing, ...]

    @property
    def matches(self) -> tuple[Pairing, ...]:
        """The boards with two players: the games to start."""
        return tuple(pairing for pairing in self.pairings if pairing.second is not None)

    @property
    def byes(self) -> tuple[PlayerId, ...]:
        return tuple(pairing.first for pairing in self.pairings if pairing.second is None)


@dataclass(frozen=True, slots=True)
class PairingResult:
    """A finished board: the pairing's players and the winner.

    A bye is ``PairingResult(player, None, player)``: it scores a win. ``winner=None`` on a game is
    a double forfeit (both players absent): it counts as a game played, and neither scores.
    """

    first: PlayerId
    second: PlayerId | None
    winner: PlayerId | None

    def __post_init__(self) -> None:
        if self.second is None and self.winner != self.first:
            raise ValueError("a bye is won by its player")
        if self.first == self.second:
            raise ValueError("a player cannot play themselves")
        if self.winner not in (self.first, self.second, None):
            raise ValueError("the winner must be one of the two players")

    @classmethod
    def bye(cls, player: PlayerId) -> PairingResult:
        return cls(player, None, player)

    def points(self, player: PlayerId) -> int:
        """What the board scores for ``player``: 1 for a win or a bye, else 0."""
        return 1 if self.winner == player else 0


def check_unique(players: Iterable[PlayerId]) -> list[PlayerId]:
    listed = list(players)
    if len(listed) < 2:
        raise ValueError("a tournament needs at least two players")
    if len(set(listed)) != len(listed):
        raise ValueError("a player is entered twice")
    return listed


def seeded(entrants: Iterable[SeededPlayer]) -> list[SeededPlayer]:
    """Entrants by seed: the highest rating first; equal ratings by player id, so the order
    never depends on the order of sign-up."""
    return sorted(entrants, key=lambda entrant: (-entrant.rating, entrant.player))


def scores(results: Iterable[PairingResult]) -> Counter[PlayerId]:
    """Each player's score: a point per win and per bye."""
    total: Counter[PlayerId] = Counter()
    for result in results:
        total[result.first] += 0  # listed with 0 when they have not won yet
        if result.second is not None:
            total[result.second] += 0
        if result.winner is not None:
            total[result.winner] += 1
    return total


@dataclass(frozen=True, slots=True)
class Placing:
    """A player's line in the standings, with the figures that placed them."""

    place: int
    player: PlayerId
    score: int
    buchholz: int
    head_to_head: int
    rating: float


def standings(
    entrants: Iterable[SeededPlayer], results: Iterable[PairingResult]
) -> tuple[Placing, ...]:
    """The standings of a round robin or a Swiss, best first.

    Ties are broken by Buchholz (the sum of the opponents' scores), then head-to-head (the
    points each scored in the games among the players still tied, which between two is their
    own game), then rating, then player id so that no two lines share a place.

    A bye counts in Buchholz as an opponent with the player's own score: neither a gift nor a
    penalty for the bye, close to what FIDE's rules do for an unplayed round. A double forfeit
    counts as a game against that opponent.
    """
    listed = list(entrants)
    played = list(results)
    points = scores(played)
    buchholz: Counter[PlayerId] = Counter()
    for result in played:
        if result.second is None:
            buchholz[result.first] += points[result.first]
        else:
            buchholz[result.first] += points[result.second]
            buchholz[result.second] += points[result.first]
    tied: dict[tuple[int, int], set[PlayerId]] = {}
    for entrant in listed:
        key = (points[entrant.player], buchholz[entrant.player])
        tied.setdefault(key, set()).add(entrant.player)
    among: Counter[PlayerId] = Counter()
    for result in played:
        if result.second is None or result.winner is None:
            continue
        key = (points[result.first], buchholz[result.first])
        if result.second in tied.get(key, ()) and result.first in tied.get(key, ()):
            among[result.winner] += 1
    order = sorted(
        listed,
        key=lambda entrant: (
            -points[entrant.player],
            -buchholz[entrant.player],
            -among[entrant.player],
            -entrant.rating,
            entrant.player,
        ),
    )
    return tuple(
        Placing(
            place,
            entrant.player,
            points[entrant.player],
            buchholz[entrant.player],
            among[entrant.player],
            entrant.rating,
        )
        for place, entrant in enumerate(order, start=1)
    )
