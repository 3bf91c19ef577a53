"""Tournament pairing: knock-out brackets and round-robin tables (:mod:`.draws`), Swiss rounds
(:mod:`.swiss`), and the standings (:mod:`.rounds`, with the boards and results all share).

Pure arithmetic on player ids: no storage, no clock, no randomness, standard library only, so
the tournament service can pair a round again after a restart and get the same round. Every
game has a winner (nardy has no draws); a :class:`PairingResult` with no winner is a double forfeit,
where neither player scores.

- Knock-out (:func:`knockout_bracket`): players seeded by rating into a bracket of the next
  power of two, in the standard order (seeds 1 and 2 can meet only in the final, 1-4 and 2-3
  in the semi-finals); the missing places are byes, given to the top seeds in round 1 only.
- Round robin (:func:`round_robin`): FIDE's Berger tables, every pair once, colours (who
  plays first) as the tables give them; with an odd number the player drawn against the dummy
  number has the round's bye.
- Swiss (:func:`swiss_round`): score groups, top half against bottom half, the odd player
  floated down; no repeated pairing while a repeat-free one exists (a matching search decides,
  see :func:`swiss_round`), and the bye to the lowest-ranked player who has not had one.
- Standings (:func:`standings`): score, Buchholz, head-to-head, rating.

No PyPI package fitted: the pairing libraries there (``caissify-pairings``, ``pairing-core``,
``cardarena-tournament-core``, ``gacrux``, ``swisspair``) are young, one-maintainer projects
or bindings, and FIDE's Dutch rules are more than a club tournament in a chat needs. This one is
tested against FIDE's published Berger tables and the bracket order, and by properties.
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
