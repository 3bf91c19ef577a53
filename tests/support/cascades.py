"""A crazy gul-bara cascade whose first look is heavy, reached through dice chosen by their seed:
for the tests and the bench of heavy turns (``tests/services/test_heavy_turns.py``,
``bench/heavy_turns.py``)."""

from __future__ import annotations

from typing import Final

from bot.engine import Position, Side, derive_die
from bot.model import StoredGame, Terms
from bot.services.starts import GameStarts

HEAVY_BEFORE: Final = "crazy_gulbara w / 24:3 21:1 19:1 9:2 4:3 1:5 / 1:9 off:6"
"""Set up with international rules, white rolls 2-1 and plays 4/2 2/1 (:data:`HEAVY_STEPS`);
black's roll then bears two checkers off (forced, played at once); then white rolls 1-1: a
cascade of 24 moves from ``24:3 21:1 19:1 9:2 4:2 1:6`` against ``1:7 off:8`` whose first look
searches about 107,000 nodes (2.8 s on one core of the machine that found it)."""
HEAVY_STEPS: Final = ((4, 2), (2, 1))
CLIENT: Final = "4000000777"
"""The dice client value of the game (a made-up tap id)."""


def heavy_seed() -> bytes:
    """A seed whose dice (with :data:`CLIENT`) are white's 2-1, black's roll that is not a
    double, then white's 1-1."""
    for number in range(100_000):
        seed = number.to_bytes(32, "big")
        dice = [derive_die(seed, CLIENT, n) for n in range(6)]
        if dice[:2] == [2, 1] and dice[2] != dice[3] and dice[4:] == [1, 1]:
            return seed
    raise AssertionError("no seed gives those dice")


async def start_heavy_game(
    service: GameStarts, *, chat_id: int, white_id: int, black_id: int, move_seconds: int
) -> StoredGame:
    """Starts the game of :data:`HEAVY_BEFORE` in ``chat_id`` (white's board there), its dice
    those of :func:`heavy_seed`: white's 2-1 to play first."""
    return await service.start(
        chat_id=chat_id,
        white_id=white_id,
        black_id=black_id,
        terms=Terms(
            variant="crazy_gulbara",
            rule_set="international",
            move_seconds=move_seconds,
            start=Position.from_text(HEAVY_BEFORE),
        ),
        locale="en",
        boards=[(chat_id, Side.WHITE)],
        match_id=None,
        dice_client=CLIENT,
        dice_seed=heavy_seed(),
    )
