"""Tournament pairing: knock-out brackets and round-robin tables (:mod:`.draws`), Swiss rounds
(:mod:`.swiss`), and the standings (:mod:`.rounds`, with the boards and results all share).

Pure arithmetic on player ids: no storage, no clock, no randomness, standard library only, so
the tournament service can pair a round again after a restart and get the same round. Every
game has a winner (nardy has no draws); a :class:`PairingResult` with no winner is a double
forfeit, where neither player scores. Knock-out: seeded by rating in the standard bracket
order, byes to the top seeds. Round robin: FIDE's Berger tables. Swiss: score groups, no
repeated pairing while a repeat-free one exists, the bye to the lowest-ranked player who has
not had one. Standings: score, Buchholz, head-to-head, rating.
"""

from __future__ import annotations

from .draws import KnockoutDraw, bracket_order, knockout_bracket, round_robin, round_winners
from .rounds import (
    Pairing,
    PairingResult,
    Placing,
    PlayerId,
    Round,
    SeededPlayer,
    scores,
    seeded,
    standings,
)
from .swiss import swiss_round, swiss_rounds

__all__ = [
    "KnockoutDraw",
    "Pairing",
    "PairingResult",
    "Placing",
    "PlayerId",
    "Round",
    "SeededPlayer",
    "bracket_order",
    "knockout_bracket",
    "round_robin",
    "round_winners",
    "scores",
    "seeded",
    "standings",
    "swiss_round",
    "swiss_rounds",
]
