"""What inline mode shows: the games offered for an inline query (each result's id is its
terms), the invitation they post, and the buttons and text of a board kept in an inline
message. Pure functions, like :mod:`bot.views.boards`, whose captions and game buttons inline boards
share.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.callbacks import Analyse, InlineInvite, InlineTop, InviteOption, NextGame
from bot.engine import DiceMode, Side, resolve_rules
from bot.i18n import N_
from bot.model import Standing, User
from bot.numbers import COUNT_DIGITS, parse_number
from bot.services import GameSnapshot, Terms
from bot.services.actions import GameAction, allowed
from bot.services.choices import MATCH_LENGTHS, MOVE_TIMES, VARIANTS, fitted
from bot.views.board_buttons import keyboard
from bot.views.boards import board_position, caption
from bot.views.challenges import commitment_line
from bot.views.common import (
    DICE_MODE_NAMES,
    RULE_SET_NAMES,
    SIDE_MARKS,
    VARIANT_NAMES,
    Translate,
    duration,
    mention,
    player_name,
)
from bot.views.numbers import count
from bot.views.scores import standing_line
from bot.views.texts import echo

Translate = Translate

RESULT_PREFIX: Final = "v1"
"""Result ids are ``v1:<variant>:<match>:<dice mode>:<cube 0|1>:<seconds, 0 = default>``: what
the chosen result reports back, so they say everything the invitation offers."""
MATCHES_OFFERED: Final = (0, 5, 7)
"""Besides every variant as a single game, the first variant offered as a match to 5 and 7."""
VARIANT_QUERY_WORDS: Final = {name: name for name in VARIANTS[1:]}
"""The word that asks an inline query for a variant: its registry name (long nardy, the first,
is what none asks for)."""
ALERT_LENGTH: Final = 200
"""Telegram's limit for the text of a callback query's answer."""
NO_STANDINGS: Final = N_("No finished games in this chat yet.")


def result_id(terms: Terms) -> str:
    """The id of the inline result that offers ``terms`` (at most 64 bytes, as Telegram wants).

    >>> result_id(Terms(variant="short", match_length=5))
    'v1:short:5:two:0:0'
    """
    fields = (terms.variant, terms.match_length, terms.dice_mode.value, int(terms.cube))
    return ":".join(map(str, (RESULT_PREFIX, *fields, terms.move_seconds or 0)))


def terms_of_result(text: str) -> Terms | None:
    """The terms a chosen result's id offered (see :func:`result_id`); None for any id the bot
    did not make.

    >>> terms_of_result("v1:short:5:two:0:0") == Terms(variant="short", match_length=5)
    True
    >>> terms_of_result("v1:chess:0:two:0:0") is None, terms_of_result("v1:long:²:two:0:0")
    (True, None)
    """
    parts = text.split(":")
    if len(parts) != 6 or parts[0] != RESULT_PREFIX:
        return None
    _prefix, variant, match, dice, cube, seconds = parts
    if variant not in VARIANTS or dice not in {mode.value for mode in DiceMode}:
        return None
    length, move_seconds = parse_number(match, COUNT_DIGITS), parse_number(seconds, COUNT_DIGITS)
    if length is None or move_seconds is None or cube not in ("0", "1"):
        return None
    if length not in MATCH_LENGTHS or (move_seconds and move_seconds not in MOVE_TIMES):
        return None
    return Terms(
        variant=variant,
        match_length=length,
        dice_mode=DiceMode(dice),
        cube=cube == "1",
        move_seconds=move_seconds or None,
    )


def offers(asked: Terms, variants: tuple[str, ...] = VARIANTS) -> list[Terms]:
    """The games an inline query offers, first what it asked for: ``asked`` in each of
    ``variants`` (every variant when the query named none), then the first of them as a single
    game and as a match to 5 and 7, each once."""
    found: dict[str, Terms] = {}

    def offer(terms: Terms) -> None:
        terms = fitted(replace(terms, stake=0))
        found.setdefault(result_id(terms), terms)

    for variant in variants:
        offer(replace(asked, variant=variant))
    for length in MATCHES_OFFERED:
        offer(replace(asked, variant=variants[0], match_length=length))
    return list(found.values())


def query_of(terms: Terms) -> str:
    """An inline query that offers ``terms`` first (for 🔁 Play again).

    >>> query_of(Terms(variant="short", match_length=5, cube=True))
    'short 5 cube'
    """
    words = [VARIANT_QUERY_WORDS[terms.variant]] if terms.variant in VARIANT_QUERY_WORDS else []
    if terms.match_length:
        words.append(str(terms.match_length))
    if terms.dice_mode is DiceMode.THREE:
        words.append("three_dice")
    elif terms.dice_mode is DiceMode.ANTI_THREE:
        words.append("anti_three")
    if terms.cube:
        words.append("cube")
    return " ".join(words)


def _terms_line(terms: Terms, move_seconds: int, _: Translate) -> str:
    parts = [
        _("match to {length}").format(length=terms.match_length)
        if terms.match_length
        else _("single game"),
        duration(move_seconds, _),
    ]
    if terms.dice_mode is not DiceMode.TWO:
        parts.append(_(DICE_MODE_NAMES[terms.dice_mode]))
    if terms.cube:
        parts.append(_("with the doubling cube"))
    return " · ".join(parts)


def offer_title(terms: Terms, _: Translate) -> str:
    """An inline result's title: the variant."""
    name = _(VARIANT_NAMES[terms.variant])
    return name[:1].upper() + name[1:]


def offer_description(terms: Terms, move_seconds: int, _: Translate) -> str:
    """An inline result's line under its title: a single game or a match, the move time."""
    return _terms_line(terms, move_seconds, _)


def invitation_text(
    challenger: User,
    target_username: str | None,
    terms: Terms,
    move_seconds: int,
    _: Translate,
    *,
    commitment: str | None = None,
) -> str:
    """The invitation an inline result posts: who invites (whom), to which game; only the
    friend named may join, or the first other person to tap; everyone else watches. Once its
    challenge is made, the same with the challenge's dice ``commitment``."""
    name = player_name(challenger, _)
    if target_username:
        friend = echo("@" + target_username)
        head = _("{challenger} invites {friend} to a game: only {friend} can join.").format(
            challenger=name, friend=friend
        )
    else:
        head = _("{challenger} invites you to a game: the first to tap ✅ Join plays.").format(
            challenger=name
        )
    rules = resolve_rules(terms.variant, None).name
    details = _("{variant} · rules: {rules} · {duration} per move").format(
        variant=_(VARIANT_NAMES[terms.variant]),
        rules=_(RULE_SET_NAMES[rules]),
        duration=duration(move_seconds, _),
    )
    foot = _("Everyone in the chat can watch. The invitation expires in 15 minutes.")
    if commitment is not None:
        foot += "\n" + commitment_line(commitment, _)
    return f"⚔ {head}\n{details}\n{_terms_line(terms, move_seconds, _)}\n{foot}"


def invitation_keyboard(challenger_id: int, _: Translate, seal: int = 0) -> InlineKeyboardMarkup:
    """✅ Join and ✖ Decline (the challenger withdraws, the friend named declines); ``seal``:
    the :func:`~bot.services.inline.seal` of the commitment the message shows, 0 before it
    shows one."""

    def button(text: str, option: InviteOption) -> InlineKeyboardButton:
        data = InlineInvite(challenger=challenger_id, option=option, seal=seal).pack()
        return InlineKeyboardButton(text=text, callback_data=data)

    return InlineKeyboardMarkup(
        inline_keyboard=[
            [
                button("✅ " + _("Join"), InviteOption.JOIN),
                button("✖ " + _("Decline"), InviteOption.DECLINE),
            ]
        ]
    )


def board_keyboard(snapshot: GameSnapshot, _: Translate) -> InlineKeyboardMarkup:
    """An inline board's buttons: a group board's while the game is on (everyone sees them,
    the service refuses onlookers); once it is over, Next game while the match goes on, else
    🔁 Play again (an inline query in this chat for the same terms), 🏆 this chat's leaderboard,
    and 📊 Analysis (sent privately: the bot cannot write here)."""
    stored, game = snapshot.stored, snapshot.game
    if not game.is_over:
        return keyboard(snapshot, None, _)
    analysis = InlineKeyboardButton(
        text="📊 " + _("Analysis"), callback_data=Analyse(game=stored.id).pack()
    )
    if GameAction.NEXT_GAME in allowed(snapshot, game.to_act):
        next_game = InlineKeyboardButton(
            text="▶ " + _("Next game"), callback_data=NextGame(game=stored.id).pack()
        )
        return InlineKeyboardMarkup(inline_keyboard=[[next_game, analysis]])
    terms = Terms(
        variant=game.variant,
        match_length=snapshot.match.match.length if snapshot.match is not None else 0,
        cube=game.cube is not None,
        dice_mode=game.dice_mode,
    )
    again = InlineKeyboardButton(
        text="🔁 " + _("Play again"), switch_inline_query_current_chat=query_of(terms)
    )
    top = InlineKeyboardButton(text="🏆 " + _("Leaderboard"), callback_data=InlineTop().pack())
    return InlineKeyboardMarkup(inline_keyboard=[[again, top], [analysis]])


def text_board(snapshot: GameSnapshot, _: Translate) -> str:
    """A board in words, for inline games when the bot has no chat to store pictures in: the
    caption, then each side's checkers by point in its own numbering (as the buttons name
    them), with the bar, the checkers borne off and the pips."""
    position = board_position(snapshot)
    lines = [caption(snapshot, _), ""]
    for side in (Side.WHITE, Side.BLACK):
        slots = position.checkers(side)
        points = [f"{point}:{slots[point]}" for point in range(24, 0, -1) if slots[point]]
        if slots[25]:
            points.insert(0, f"bar:{slots[25]}")
        if slots[0]:
            points.append(f"off:{slots[0]}")
        pip_count = position.pip_count(side)
        pips = _("{n} pip", "{n} pips", pip_count).format(n=count(pip_count, _))
        lines.append(f"{SIDE_MARKS[side]} <code>{' '.join(points)}</code> · {pips}")
    lines.append("<i>" + _("Points in each side's own numbering, as on the buttons.") + "</i>")
    return "\n".join(lines)


def leaderboard_text(standings: list[Standing], _: Translate) -> str:
    """🏆's answer: the chat's inline games' leaderboard, as many places as an alert holds."""
    if not standings:
        return _(NO_STANDINGS)
    text = "🏆 " + _("Leaderboard")
    for place, standing in enumerate(standings, start=1):
        line = standing_line(place, standing, mention(standing.user, _), _)
        if len(text) + 1 + len(line) > ALERT_LENGTH:
            break
        text += "\n" + line
    return text
