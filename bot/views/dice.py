"""What ``/verify`` and ``/dice`` show: a game's fair dice and how to check them, a player's dice
statistics. Texts in the reader's locale (the handler's gettext); :mod:`bot.handlers.dice` only
fetches and sends."""

from __future__ import annotations

from typing import Final

from aiogram import html

from bot.model import User
from bot.services.dice_stats import (
    DEGREES_OF_FREEDOM,
    FAIR_DOUBLES,
    FAIR_PIPS,
    MIN_DICE,
    DiceStats,
)
from bot.services.scores import DiceCheck
from bot.views.common import Translate, player_name

FACE_MARKS: Final = ("⚀", "⚁", "⚂", "⚃", "⚄", "⚅")
UNUSUAL: Final = 0.05
"""Below this p-value the faces are called uneven; below :data:`RARE` very uneven."""
RARE: Final = 0.001

_CHECK: Final = """import hashlib, hmac
seed = bytes.fromhex("{seed}")
assert hashlib.sha256(seed).hexdigest() == "{commitment}"
client = {client!r}
def die(n, k=0):
    for b in hmac.new(seed, f"{{client}}:{{n}}:{{k}}".encode(), hashlib.sha256).digest():
        if b < 252:
            return b % 6 + 1
    return die(n, k + 1)
print([die(n) for n in range({dice})])"""
"""Python that recomputes every die of a finished game from its revealed seed (the formula of
:mod:`bot.engine.fair`), filled in with the game's values: code, so not translated."""


def verify_text(check: DiceCheck, _: Translate) -> str:
    """``/verify``'s answer: the commitment and the client value; for a finished game the seed
    too, the formula with a program that recomputes every die, and the command that checks the
    moves file; for a game being played, that the seed comes at the end."""
    game = check.game_id
    lines = [
        "🎲 " + html.bold(_("Dice of game #{game}").format(game=game)),
        _("Commitment, the SHA-256 of the secret seed, shown on the board from the start:"),
        html.code(check.commitment),
        _("Client value, the id of the tap that started the game: {client}").format(
            client=html.code(html.quote(check.client))
        ),
        _("Rolls: {rolls} ({dice} dice).").format(rolls=check.rolls, dice=check.dice),
    ]
    if check.seed is None:
        lines.append(
            "🔒 "
            + _(
                "The seed stays secret while the game is played. When it ends, /verify {game} "
                "shows it, and every die can then be checked against this commitment."
            ).format(game=game)
        )
        return "\n".join(lines)
    lines += [
        "🔓 " + _("Seed, revealed now that the game is over:"),
        html.code(check.seed),
        "",
        _(
            "To check: the SHA-256 of the seed must be the commitment. Die number n (every die "
            "of the game counts, from 0) is the first byte below 252 of HMAC-SHA256 with the "
            "seed as key and “client value:n:0” as message, modulo 6, plus 1. This Python "
            "recomputes every die:"
        ),
        html.pre(
            html.quote(
                _CHECK.format(
                    seed=check.seed,
                    commitment=check.commitment,
                    client=check.client,
                    dice=check.dice,
                )
            )
        ),
        _(
            "Or send /moves {game} and run {command}: it checks every roll and every turn "
            "played with it."
        ).format(
            game=game,
            command=html.code(f"python -m bot.engine verify {check.file_name}"),
        ),
    ]
    return "\n".join(lines)


def dice_stats_text(user: User, stats: DiceStats, _: Translate) -> str:
    """``/dice``'s answer: how many games and dice, doubles and average pips against fair dice,
    each face's count against the expected one, and the chi-square figure in plain words."""
    name = player_name(user, _)
    title = "🎲 " + html.bold(_("Dice of {name}").format(name=name))
    if not stats.dice:
        return "\n".join(
            [title, _("No finished games with verifiable dice yet: start one with /play.")]
        )
    lines = [
        title,
        _("{games} finished games, {dice} dice of their own.").format(
            games=stats.games, dice=stats.dice
        ),
    ]
    if stats.doubles_share is not None and stats.average_pips is not None:
        lines += [
            _(
                "Doubles: {doubles} of {rolls} rolls of two dice, {share:.1f}% (fair: {fair:.1f}%)"
            ).format(
                doubles=stats.doubles,
                rolls=stats.rolls,
                share=100 * stats.doubles_share,
                fair=100 * FAIR_DOUBLES,
            ),
            _("Pips: {pips:.2f} a roll on average (fair: {fair:.2f})").format(
                pips=stats.average_pips, fair=FAIR_PIPS
            ),
        ]
    lines.append(_("Faces, each expected {expected:.1f} times:").format(expected=stats.expected))
    for face, count in enumerate(stats.faces, start=1):
        lines.append(f"{FACE_MARKS[face - 1]} {face}: {count} ({100 * count / stats.dice:.1f}%)")
    statistic, p_value = stats.chi_square, stats.p_value
    if statistic is None or p_value is None:
        lines.append(
            _("Too few dice for a chi-square figure yet: it needs {count}.").format(count=MIN_DICE)
        )
        return "\n".join(lines)
    if p_value >= UNUSUAL:
        verdict = _("as even as fair dice are")
    elif p_value >= RARE:
        verdict = _("uneven, but fair dice are this uneven for about 1 player in {count}").format(
            count=round(1 / p_value)
        )
    else:
        verdict = _("very uneven: fair dice are this uneven for fewer than 1 player in 1000")
    lines.append(
        _("χ² = {statistic:.2f} with {freedom} degrees of freedom, p = {p:.3f}: {verdict}.").format(
            statistic=statistic, freedom=DEGREES_OF_FREEDOM, p=p_value, verdict=verdict
        )
    )
    return "\n".join(lines)
