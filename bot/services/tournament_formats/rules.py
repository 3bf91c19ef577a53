"""What a tournament format is to the service (:class:`FormatRules`), and what the formats
share: the entrants and results as :mod:`bot.pairing` sees them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from bot import pairing
from bot.model import TournamentEntrant, TournamentPairing


class FormatRules(Protocol):
    """How a format plays: who meets whom each round, how many rounds, who wins."""

    max_players: int
    """The most players it takes: what its picture can show."""
    bracket: bool
    """Played as a bracket (its rounds named by what is left, "Final"; no standings);
    else ranked in a table of standings."""

    def rounds(self, players: int) -> int:
        """How many rounds ``players`` play."""
        ...

    def pair(
        self,
        entrants: Sequence[TournamentEntrant],
        played: Sequence[TournamentPairing],
        number: int,
    ) -> pairing.Round:
        """Round ``number``, from the stored seeds and earlier boards (the same round however
        often it is asked for)."""
        ...

    def standings(
        self, entrants: Sequence[TournamentEntrant], played: Sequence[TournamentPairing]
    ) -> tuple[pairing.Placing, ...]:
        """The table after the boards ``played`` (empty for a bracket)."""
        ...

    def winner(
        self,
        entrants: Sequence[TournamentEntrant],
        played: Sequence[TournamentPairing],
        last_round: int,
    ) -> int | None:
        """Who won, once round ``last_round``, the last, is decided."""
        ...


def seeds(entrants: Sequence[TournamentEntrant]) -> list[pairing.SeededPlayer]:
    """The entrants as pairing sees them (their seed ratings), by seed."""
    return pairing.seeded(pairing.SeededPlayer(e.user_id, e.rating) for e in entrants)


def results(pairings: Sequence[TournamentPairing]) -> list[pairing.PairingResult]:
    """The decided boards as pairing's results, in the order played."""
    return [
        pairing.PairingResult(p.first_id, p.second_id, p.winner_id)
        for p in pairings
        if p.decided and not (p.second_id is None and p.winner_id is None)
    ]


def withdrawn(entrants: Sequence[TournamentEntrant], user_id: int) -> bool:
    """Whether ``user_id`` withdrew."""
    return any(e.user_id == user_id and e.withdrawn for e in entrants)


class RankedFormat:
    """What the formats ranked in a table share: the standings (score, Buchholz,
    head-to-head, rating) and their leader as the winner."""

    bracket = False

    def standings(
        self, entrants: Sequence[TournamentEntrant], played: Sequence[TournamentPairing]
    ) -> tuple[pairing.Placing, ...]:
        return pairing.standings(seeds(entrants), results(played))

    def winner(
        self,
        entrants: Sequence[TournamentEntrant],
        played: Sequence[TournamentPairing],
        last_round: int,
    ) -> int | None:
        table = self.standings(entrants, played)
        return table[0].player if table else None
