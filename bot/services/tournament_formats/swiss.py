"""A Swiss: ``ceil(log2 n)`` rounds, each paired by score among the players still in (no one
met twice while it can be helped), ranked in a table of standings."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from bot import pairing
from bot.model import TournamentEntrant, TournamentPairing

from .rules import RankedFormat, results, seeds, withdrawn


class Swiss(RankedFormat):
    """See the module docstring."""

    max_players = 64

    def rounds(self, players: int) -> int:
        return pairing.swiss_rounds(players)

    def pair(
        self,
        entrants: Sequence[TournamentEntrant],
        played: Sequence[TournamentPairing],
        number: int,
    ) -> pairing.Round:
        active = [e for e in seeds(entrants) if not withdrawn(entrants, e.player)]
        if len(active) < 2:
            return pairing.Round(number, tuple(pairing.Pairing(e.player) for e in active))
        return pairing.swiss_round(active, results(played), number)


SWISS: Final = Swiss()
