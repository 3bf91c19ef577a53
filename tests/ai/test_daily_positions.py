"""A daily position is a real decision (issue 37): a trivial bear-off between two buttons, or
any roll with fewer than three turns or fewer than three a player could reasonably choose, is
never one, however far the best turn is ahead."""

from __future__ import annotations

import pytest

from bot.ai import daily
from bot.ai.daily import MARGIN, MIN_REASONABLE, MIN_TURNS, REASONABLE
from bot.engine import Dice, Game, Position


@pytest.mark.parametrize(
    ("position", "dice"),
    [
        # bearing off, 1-3: 1/off 2/off is plainly better than 2/1 2/off, and there is nothing
        # else (found by the old rule, which asked only for a blunder's margin)
        ("long b / 5:1 3:4 2:4 1:3 off:3 / 2:2 1:8 off:5", (1, 3)),
        ("long b / 3:4 2:4 1:2 off:5 / 2:1 1:7 off:7", (6, 1)),
        # two ways to play 4-4 (self-play's first find for long nardy, seed 3, by the old rule)
        ("long w / 24:14 17:1 / 24:13 23:1 13:1", (4, 4)),
    ],
)
def test_a_pick_between_two_buttons_is_no_daily_position(
    position: str, dice: tuple[int, int]
) -> None:
    game = Game.setup(Position.from_text(position)).with_dice(Dice(*dice))
    assert len(game.legal_turns()) < MIN_TURNS
    assert daily.find([game]) is None


def test_self_play_finds_real_decisions() -> None:
    found = daily.self_play("long", 3)
    assert found is not None
    equities = found.ranked.equities
    assert len(found.game.legal_turns()) >= MIN_TURNS
    assert equities[0] - equities[1] >= MARGIN
    assert sum(equities[0] - e <= REASONABLE for e in equities) >= MIN_REASONABLE
