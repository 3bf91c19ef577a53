"""Texts about games in progress outside their boards: the private reminder of a
correspondence game, ``/games``, and links that open a board's message."""

from __future__ import annotations

from typing import Final

from aiogram import html

from bot.engine import Side
from bot.model import Board, User
from bot.services import GameSnapshot
from bot.views.common import VARIANT_NAMES, Translate, moment, player_name

SUPERGROUP_BASE: Final = 1_000_000_000_000
"""A supergroup's chat id is -(10¹² + n), and links to its messages take n."""


def board_link(board: Board) -> str | None:
    """A link that opens the board's message, where Telegram gives one: in a supergroup (whose
    id is -100 followed by the number the link takes, i.e. -(10¹² + n)). None for private
    chats and basic groups."""
    if board.message_id is None or board.chat_id >= -SUPERGROUP_BASE:
        return None
    return f"https://t.me/c/{-board.chat_id - SUPERGROUP_BASE}/{board.message_id}"


def reminder_text(snapshot: GameSnapshot, player: User, link: str | None, _: Translate) -> str:
    """The private reminder that half the time for a move of a correspondence game is gone."""
    stored = snapshot.stored
    assert stored.deadline is not None
    side = stored.side_of(player.id)
    opponent = snapshot.user(side.other) if side is not None else snapshot.user(Side.BLACK)
    text = _(
        "⏳ Game #{game} with {opponent}: half your time for this move is gone. It runs out "
        "at {time} UTC."
    ).format(
        game=stored.id,
        opponent=player_name(opponent, _),
        time=moment(stored.deadline, stored.move_seconds),
    )
    if link is not None:
        text += "\n" + html.link(_("Open the board"), link)
    return text


def games_text(games: list[tuple[GameSnapshot, str | None]], user: User, _: Translate) -> str:
    """``/games``: the user's games in progress, whose move it is and until when, with a link
    to each board where Telegram gives one."""
    if not games:
        return _("No games in progress. /play starts one.")
    lines = [_("Your games in progress:")]
    for snapshot, link in games:
        stored = snapshot.stored
        side = stored.side_of(user.id)
        opponent = snapshot.user(side.other) if side is not None else snapshot.user(Side.BLACK)
        turn = _("your move") if stored.player(snapshot.game.to_act) == user.id else _("waiting")
        line = f"#{stored.id} · {_(VARIANT_NAMES[stored.game.variant])} · " + _(
            "with {opponent}"
        ).format(opponent=player_name(opponent, _))
        line += f" · {turn}"
        if stored.deadline is not None:
            line += " · " + _("until {time} UTC").format(
                time=moment(stored.deadline, stored.move_seconds)
            )
        if link is not None:
            line += " · " + html.link(_("board"), link)
        lines.append(line)
    return "\n".join(lines)
