"""Results for paired rounds, drawn at random: for the pairing tests and ``bench/pairing.py``
(and for tournament tests to come), so that a whole tournament can be played out without
games."""

from __future__ import annotations

import random

from bot.pairing import PairingResult, Round


def results_of(played: Round, rng: random.Random) -> list[PairingResult]:
    """A result for each pairing of ``played``: a bye won by its player, each game won by one
    of its two players, chosen by ``rng``."""
    return [
        PairingResult.bye(pairing.first)
        if pairing.second is None
        else PairingResult(pairing.first, pairing.second, rng.choice(pairing.players))
        for pairing in played.pairings
    ]
