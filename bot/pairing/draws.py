"""The formats drawn at the start: knock-out brackets (each round from the last one's winners)
and round-robin tables."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .rounds import (
    Pairing,
    PairingResult,
    PlayerId,
    Round,
    SeededPlayer,
    check_unique,
    seeded,
)


def bracket_order(size: int) -> tuple[int, ...]:
    """Seed numbers (1-based) in the order of a bracket's places, for ``size`` a power of two.

    Places ``2i`` and ``2i + 1`` meet in round 1, each pair's seeds adding up to ``size + 1``,
    the better seed in the upper place. Built by doubling: each seed ``s`` of the bracket of
    ``m`` places is joined by ``2m + 1 - s``, alternately after and before it, so that every
    half, quarter, ... holds one of the seeds 1, 2; 1-4; 1-8 and so on. For 16: 1 16 8 9 5 12
    4 13 3 14 6 11 7 10 2 15.
    """
    if size < 1 or size & (size - 1):
        raise ValueError(f"a bracket's size is a power of two, not {size}")
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        doubled: list[int] = []
        for index, seed in enumerate(order):
            doubled += [seed, total - seed] if index % 2 == 0 else [total - seed, seed]
        order = doubled
    return tuple(
        seed
        for upper, lower in zip(order[::2], order[1::2], strict=True)
        for seed in sorted((upper, lower))
    )


@dataclass(frozen=True, slots=True)
class KnockoutDraw:
    """A knock-out bracket: the players by seed and the bracket's size (a power of two).

    Seeds past the number of players are byes; they fall against the top seeds, one each, so
    a bye never meets a bye and every bye is used up in round 1.
    """

    seeds: tuple[PlayerId, ...]
    size: int

    @property
    def byes(self) -> int:
        return self.size - len(self.seeds)

    @property
    def rounds(self) -> int:
        """Rounds up to and including the final."""
        return self.size.bit_length() - 1

    def seed_of(self, player: PlayerId) -> int:
        """The player's seed, 1 the top."""
        return self.seeds.index(player) + 1

    def _pairing(self, one: PlayerId, other: PlayerId | None) -> Pairing:
        if other is None:
            return Pairing(one)
        if self.seed_of(other) < self.seed_of(one):
            one, other = other, one
        return Pairing(one, other)

    def first_round(self) -> Round:
        """Round 1 in bracket order: the better seed plays first; a top seed's bye is a
        pairing of its own, kept in its place so that round 2 pairs by place."""
        places: list[PlayerId | None] = [
            self.seeds[seed - 1] if seed <= len(self.seeds) else None
            for seed in bracket_order(self.size)
        ]
        pairings = []
        for upper, lower in zip(places[::2], places[1::2], strict=True):
            assert upper is not None  # the upper place holds the better seed, never a bye
            pairings.append(self._pairing(upper, lower))
        return Round(1, tuple(pairings))

    def next_round(self, previous: Round, results: Iterable[PairingResult]) -> Round:
        """The round after ``previous``: the winners of boards ``2i`` and ``2i + 1`` meet, the
        better seed playing first. Raises ValueError after the final or when a game of
        ``previous`` has no winner in ``results``."""
        if len(previous.pairings) < 2:
            raise ValueError("the final has no next round")
        winners = round_winners(previous, results)
        pairings = tuple(
            self._pairing(upper, lower)
            for upper, lower in zip(winners[::2], winners[1::2], strict=True)
        )
        return Round(previous.number + 1, pairings)


def knockout_bracket(entrants: Iterable[SeededPlayer]) -> KnockoutDraw:
    """A bracket for the entrants, seeded by rating (:func:`seeded`), of the smallest power of
    two that holds them all."""
    players = check_unique(entrant.player for entrant in seeded(entrants))
    return KnockoutDraw(tuple(players), 1 << (len(players) - 1).bit_length())


def round_winners(played: Round, results: Iterable[PairingResult]) -> tuple[PlayerId, ...]:
    """Who goes through from each board of a knock-out round, in board order: a bye's player,
    else the game's winner. The champion is the final's one winner."""
    winner_of: dict[frozenset[PlayerId], PlayerId | None] = {
        frozenset((result.first, result.second)): result.winner
        for result in results
        if result.second is not None
    }
    winners = []
    for pairing in played.pairings:
        if pairing.second is None:
            winners.append(pairing.first)
            continue
        winner = winner_of.get(frozenset(pairing.players))
        if winner is None:
            raise ValueError(f"no winner yet between {pairing.first} and {pairing.second}")
        winners.append(winner)
    return tuple(winners)


def round_robin(players: Sequence[PlayerId]) -> tuple[Round, ...]:
    """Every round of a single round robin by FIDE's Berger tables.

    ``players`` are the table's numbers 1, 2, ... in order (the caller seeds them by rating
    or draws lots). With ``n`` players, ``n`` even: ``n - 1`` rounds; ``n`` odd: number
    ``n + 1`` is a dummy and whoever meets it has a bye, ``n`` rounds. Round 1 is 1 v n,
    2 v n-1, ...; each next round adds ``n/2`` to every number but the last (modulo ``n - 1``)
    and the last number changes colour every round, which is how the published tables read.
    """
    listed = check_unique(players)
    size = len(listed) + len(listed) % 2
    half = size // 2
    last = size - 1  # the table's number n, 0-based
    rounds = []
    for index in range(size - 1):

        def number(seat: int, index: int = index) -> int:
            return (seat + index * half) % (size - 1)

        opponent = number(0)
        boards = [(opponent, last) if index % 2 == 0 else (last, opponent)]
        boards += [(number(k), number(size - 1 - k)) for k in range(1, half)]
        pairings = []
        for first, second in boards:
            if first >= len(listed):
                pairings.append(Pairing(listed[second]))
            elif second >= len(listed):
                pairings.append(Pairing(listed[first]))
            else:
                pairings.append(Pairing(listed[first], listed[second]))
        rounds.append(Round(index + 1, tuple(pairings)))
    return tuple(rounds)
