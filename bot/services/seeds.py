"""Where the secrets of fair dice come from (:mod:`bot.engine.fair`): a game's server seed,
drawn when its challenge is made (so that the challenge can show its commitment before anyone
accepts) or when a match's next game starts, and a made-up client value for a game started
without a tap.

With a :class:`random.SystemRandom` (production) the bytes come from :mod:`secrets`; with a
seeded :class:`random.Random` (tests and benchmarks) from that source, so that they replay.
One :class:`DiceSeeds` is shared by every service that draws them.
"""

from __future__ import annotations

import logging
import random
import secrets

from bot.engine import FairDiceError
from bot.engine.fair import SEED_BYTES, check_client

logger = logging.getLogger(__name__)


class DiceSeeds:
    """Secret seeds and client values for fair dice, from one random source."""

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng

    def new_seed(self) -> bytes:
        """A new secret seed for a game's fair dice."""
        return self.secret(SEED_BYTES)

    def secret(self, size: int) -> bytes:
        """``size`` random bytes: from :mod:`secrets` when the random source is the system's
        (production), else from the seeded source (tests and benchmarks replay)."""
        if isinstance(self._rng, random.SystemRandom):
            return secrets.token_bytes(size)
        return self._rng.randbytes(size)

    def client(self, given: str | None) -> str:
        """The client value of a new game's dice: ``given`` (a tap's id) when it is one, else
        one made up (a game started without a tap: tests, benchmarks)."""
        if given is not None:
            try:
                check_client(given)
                return given
            except FairDiceError:
                logger.warning("a client value that is not one (%d characters)", len(given))
        return "made-" + self.secret(8).hex()
