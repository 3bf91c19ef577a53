"""What a replay shows: one board per move of a finished game, and the animation's caption;
what ``/position`` shows. Pure functions of the game and ``_`` (the reader's gettext).

A replay's frames: the start, then the board after each move with the roll that was played
(a struck die, a cascade, the remainder handed over), the steps of the move marked (where the
checkers left, a dot on each that arrived) and ``k/N`` by the dice; the last one also says who
won. White is at the bottom throughout, so that nothing but the move changes from one frame to
the next (which keeps the file small), and the board is drawn at :data:`SCALE` of its size.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from aiogram import html

from bot.engine import Position, Side
from bot.model import StoredGame, User
from bot.services.replays import Replayed, ReplayedTurn
from bot.views.common import (
    OUTCOME_NAMES,
    SIDE_MARKS,
    VARIANT_NAMES,
    Translate,
    mention,
    player_name,
)
from bot.views.numbers import count
from render import DEFAULT_THEME, BoardView

SCALE: Final = 0.6
"""The replay's board against the board of a game (912 × 792): 544 × 480, a phone's width,
about 1.1 MB for a long game of 95 moves (``bench/replay.py``)."""
THEME: Final = DEFAULT_THEME.scaled(SCALE)
FIRST_MS: Final = 1500
"""How long the start is shown, before the first move."""
MOVE_MS: Final = 900
"""How long each move is shown: a long game of 90 moves plays in about a minute and a half."""
LAST_MS: Final = 5000
"""How long the end is shown, with the result, before the replay starts again."""


def replay_frames(replayed: Replayed, _: Translate) -> list[tuple[Position, BoardView]]:
    """The boards of the replay (see the module docstring): the start and one per move."""
    total = len(replayed.moves)
    result = _result(replayed, _)
    plain = BoardView(
        white_name=mention(replayed.white, _),
        black_name=mention(replayed.black, _),
        pip_label=_("pips"),
        theme=THEME,
    )
    first = replace(plain, dice_label=f"0/{total}", result=None if total else result)
    frames = [(replayed.start, first)]
    for number, move in enumerate(replayed.moves, start=1):
        last = result if number == total else None
        frames.append(_frame(plain, move, f"{number}/{total}", last, _))
    return frames


def _frame(
    plain: BoardView, move: ReplayedTurn, label: str, result: str | None, _: Translate
) -> tuple[Position, BoardView]:
    """The board after ``move``, drawn with its mover to move: the dice lie in the mover's
    half, the mover's name is lit."""
    before, turn = move.before, move.turn
    mover = before.turn
    if before.remainder:
        label += " · " + _("remainder")
    elif before.chain:
        label += " · " + _("rolls again")
    if not turn.played:
        label += " · " + _("pass")
    moves = before.moves
    view = replace(
        plain,
        dice=None if before.remainder else before.dice,
        moves=moves.values if moves is not None else (),
        struck=before.struck,
        dice_label=label,
        last_steps=turn.steps,
        last_side=mover,
        result=result,
    )
    return move.after.with_turn(mover), view


def replay_durations(count: int) -> list[int]:
    """Each frame's time in milliseconds, for ``count`` frames: longer on the first and the
    last."""
    if count == 1:
        return [LAST_MS]
    return [FIRST_MS] + [MOVE_MS] * (count - 2) + [LAST_MS]


def _result(replayed: Replayed, _: Translate) -> str | None:
    result = replayed.stored.game.result
    if result is None:
        return None
    return _("{winner} wins: {outcome} ×{points}").format(
        winner=mention(replayed.user(result.winner), _),
        outcome=_(OUTCOME_NAMES[result.outcome]),
        points=result.points,
    )


def replay_caption(stored: StoredGame, white: User, black: User, moves: int, _: Translate) -> str:
    """The animation's caption: the game, its players, its moves and result, and how to play
    on from one of its boards."""
    game = stored.game
    players = {Side.WHITE: white, Side.BLACK: black}
    lines = [
        "🎞 "
        + html.bold(_("Replay of game #{game}").format(game=stored.id))
        + f" · {_(VARIANT_NAMES[game.variant])}",
        f"⚪ {player_name(white, _)} — ⚫ {player_name(black, _)}",
    ]
    result = game.result
    if result is not None:
        lines.append(
            "🏆 "
            + _(
                "{winner} wins: {outcome}, {points} point",
                "{winner} wins: {outcome}, {points} points",
                result.points,
            ).format(
                winner=player_name(players[result.winner], _),
                outcome=_(OUTCOME_NAMES[result.outcome]),
                points=count(result.points, _),
            )
        )
    lines.append(_("{count} move.", "{count} moves.", moves).format(count=count(moves, _)))
    if moves:
        lines.append(
            _("To play on from a board: /from {game} {move} (the board after move {move}).").format(
                game=stored.id, move=max(1, moves // 2)
            )
        )
    return "\n".join(lines)


def position_caption(stored: StoredGame, white: User, black: User, _: Translate) -> str:
    """``/position``'s caption: the game, whose move it is, the position ID to copy, and how
    to play on from it."""
    position = stored.game.position
    position_id = position.to_id()
    mover = white if position.turn is Side.WHITE else black
    lines = [
        _("Game #{game} · {variant}").format(
            game=stored.id, variant=_(VARIANT_NAMES[stored.game.variant])
        ),
        _("{mark} {name} to move").format(
            mark=SIDE_MARKS[position.turn], name=player_name(mover, _)
        ),
        _("Position ID: {id}").format(id=html.code(position_id)),
        _("Play on from it: /from {id} (a challenge) or /from {id} bot (the computer).").format(
            id=position_id
        ),
    ]
    return "\n".join(lines)


def position_view(
    stored: StoredGame, white: User, black: User, viewer: Side, _: Translate
) -> BoardView:
    """``/position``'s picture: the board as it stands, without the roll (the ID has none),
    the reader's side at the bottom."""
    return BoardView(
        bottom=viewer,
        white_name=mention(white, _),
        black_name=mention(black, _),
        pip_label=_("pips"),
    )
