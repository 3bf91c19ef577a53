"""A round robin: everyone plays everyone once, by FIDE's Berger tables (n - 1 rounds, n
with an odd n: each round one player's bye), ranked in a table of standings."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from bot import pairing
from bot.model import TournamentEntrant, TournamentPairing

from .rules import RankedFormat, seeds


class RoundRobin(RankedFormat):
    """See the module docstring."""

    max_players = 16
    """A 16-player cross table."""

    def rounds(self, players: int) -> int:
        return players - 1 + players % 2

    def pair(
        self,
        entrants: Sequence[TournamentEntrant],
        played: Sequence[TournamentPairing],
        number: int,
    ) -> pairing.Round:
        return pairing.round_robin([e.player for e in seeds(entrants)])[number - 1]


ROUND_ROBIN: Final = RoundRobin()
