"""What plays itself after a step (``bot.services.flow.play_automatic``): a gul-bara remainder
of which nothing can be played ends there, and the board says so."""

from __future__ import annotations

import random

from bot.engine import Game, Position, Side, resolve_rules
from bot.i18n import create_i18n
from bot.services.flow import GameDice, play_automatic
from bot.views.boards import history_text
from bot.views.common import translator


def test_a_remainder_that_cannot_be_played_is_lost_and_the_mover_rolls() -> None:
    # black must play white's 6, 6 first, but its 6s are closed (white holds its 18 and 12)
    position = Position.from_text("gulbara b / 24:13 6:2 / 24:1 5:14")
    game = Game(
        "gulbara", resolve_rules("gulbara", None), position, moved=frozenset(Side), remainder=(6, 6)
    )
    after, history, _ = play_automatic(game, (), GameDice(None, random.Random(3)))
    # the lost remainder is one line of the history, then black's own roll goes on
    assert history[0] == "b remainder 6,6 pass"
    assert after.remainder == () and (after.dice is not None or after.is_over or len(history) > 1)
    assert not after.needs_roll  # never left waiting for a roll nobody can tap
    i18n = create_i18n()
    for locale, text in (
        ("en", "⚫ cannot play the remainder 6 6: it is lost"),
        ("ru", "⚫ не может сыграть остаток 6 6: он пропадает"),
    ):
        assert history_text(history[0], translator(i18n, locale)) == text
