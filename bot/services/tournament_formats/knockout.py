"""A knock-out: a bracket seeded by rating, the winner of each board on to the next round,
the final's winner the tournament's."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from bot import pairing
from bot.model import TournamentEntrant, TournamentPairing

from .rules import seeds


class Knockout:
    """See the module docstring; rounds: the bracket's (a power of two of places)."""

    max_players = 64
    """A 64-place bracket."""
    bracket = True

    def rounds(self, players: int) -> int:
        return max(1, (players - 1).bit_length())

    def pair(
        self,
        entrants: Sequence[TournamentEntrant],
        played: Sequence[TournamentPairing],
        number: int,
    ) -> pairing.Round:
        bracket = pairing.knockout_bracket(seeds(entrants))
        round_ = bracket.first_round()
        for earlier in range(1, number):
            round_ = bracket.next_round(round_, _results_of(played, earlier))
        return round_

    def standings(
        self, entrants: Sequence[TournamentEntrant], played: Sequence[TournamentPairing]
    ) -> tuple[pairing.Placing, ...]:
        return ()

    def winner(
        self,
        entrants: Sequence[TournamentEntrant],
        played: Sequence[TournamentPairing],
        last_round: int,
    ) -> int | None:
        final = [p for p in played if p.round == last_round]
        return final[0].winner_id if final else None


def _results_of(played: Sequence[TournamentPairing], number: int) -> list[pairing.PairingResult]:
    """A knock-out round's results: a double forfeit goes to the better seed (the first), who
    forfeits their next board in turn, so the bracket always has someone in each place."""
    return [
        pairing.PairingResult(p.first_id, p.second_id, p.winner_id if p.winner_id else p.first_id)
        for p in played
        if p.round == number
    ]


KNOCKOUT: Final = Knockout()
