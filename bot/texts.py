"""Texts the handlers share: refusals explained, and the rules of each variant."""

from __future__ import annotations

from typing import Final

from aiogram.utils.i18n import gettext as _

from bot.i18n import N_
from bot.services import GameError

REFUSALS: Final = {
    "game_not_found": N_("This game does not exist."),
    "not_a_player": N_("You are not playing in this game."),
    "not_your_turn": N_("It is not your turn."),
    "stale": N_("This button is out of date: the board has changed. Use the current board."),
    "game_finished": N_("This game is already over."),
    "challenge_not_found": N_("This challenge does not exist."),
    "challenge_closed": N_("This challenge is closed: accepted, declined or expired."),
    "not_for_you": N_("This challenge is for someone else."),
    "own_challenge": N_("You cannot accept your own challenge."),
    "not_challenger": N_("Only the challenger can change the options."),
    "self_challenge": N_("You cannot challenge yourself."),
    "bot_challenge": N_("Bots do not play nardy here. Challenge a person."),
    "not_your_question": N_("This question was not asked of you."),
    "not_enough_chips": N_("{name} has only {chips} chips: lower the stake."),
    "no_next_game": N_("There is no next game to start here: the match is over or going on."),
    "not_an_admin": N_("Only the group's admins can do that."),
}


def explain(error: GameError) -> str:
    """The refusal as a sentence in the current locale."""
    text = _(REFUSALS.get(error.code, N_("That did not work.")))
    return text.format_map(error.params) if error.params else text


RULES: Final = {
    "long": N_(
        "<b>Long nardy</b>\n"
        "Each side has 15 checkers on its head (its point 24). Both sides move the same way, "
        "counter-clockwise, round to their home (points 1–6) and bear off from there.\n"
        "• Each die moves one checker that many points; a double gives four moves.\n"
        "• A checker may not stop on a point held by the opponent. Nothing is ever hit.\n"
        "• Only one checker may leave the head per turn; on the first turn, 6-6, 4-4 and 3-3 "
        "let two leave.\n"
        "• You may not build six points in a row unless an opponent checker is already past "
        "them.\n"
        "• Play both dice if you can; if only one, the larger one.\n"
        "• Bear off once all 15 are home. Oin: 1 point; mars (the loser bore off nothing): 2.\n"
        "Rule sets: classic; Shesh Besh (koks 3, home mars 4, the higher die first when "
        "bearing off, resigning costs 4); karzar (no six in a row before an opponent checker "
        "is home)."
    ),
    "short": N_(
        "<b>Short nardy</b>\n"
        "Backgammon movement: the sides move towards each other from the standard start.\n"
        "• You may land on a point with at most one opponent checker; a single checker is hit "
        "and goes to the bar.\n"
        "• Checkers on the bar must enter into the opponent's home before anything else moves.\n"
        "• Play both dice if you can; if only one, the larger one.\n"
        "• Oin 1 point, mars 2, koks (the loser has a checker on the bar or in your home) 3."
    ),
    "cube": N_(
        "<b>Matches, the cube, chips</b>\n"
        "• A match is played to 3, 5, 7 or 9 points; each game adds its points.\n"
        "• With the doubling cube, before rolling you may offer to double. Your opponent takes "
        "(the game is worth twice as much and the cube is theirs: only they may double next) or "
        "drops (and loses the game at its value so far). In a match, the game after someone "
        "reaches match point minus one is played without the cube (Crawford rule).\n"
        "• A stake in chips: the loser pays stake × the result (× the cube), by the rules' own "
        "table, amateur (oin 0.5, mars 1) or PRO (oin 1, mars 2, koks 3). Games given up before "
        "three turns move no chips."
    ),
}
