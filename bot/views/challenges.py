"""What a challenge message shows: who challenges whom to which game on which terms, and the
buttons that accept, decline or change them (the challenger's options), in the reader's
locale."""

from __future__ import annotations

from typing import Final

from aiogram import html
from aiogram.types import InlineKeyboardMarkup
from aiogram.utils.keyboard import InlineKeyboardBuilder

from bot.ai import level as computer_level
from bot.callbacks import ChallengeAction, ChallengeOption
from bot.engine import DiceMode, Position
from bot.model import Challenge, ChallengeStatus, User
from bot.services.challenges import has_cube, has_dice_modes
from bot.views.common import (
    DICE_MODE_NAMES,
    RULE_SET_NAMES,
    SIDE_MARKS,
    STAKE_MODE_NAMES,
    VARIANT_NAMES,
    Translate,
    duration,
    player_name,
)
from bot.views.texts import echo

INVITE_PREFIX: Final = "c"
"""Deep-link payloads ``c<challenge id>`` open a challenge in a private chat."""


def challenge_text(
    challenge: Challenge, challenger: User, _: Translate, *, target: User | None = None
) -> str:
    """The challenge message: who, to whom (``target``, or an unseen @username, or "you" in
    an invitation sent to the challenged), which game, until when."""
    name = player_name(challenger, _)
    level = challenge.computer_level
    if level is not None:
        head = _(
            "{challenger} plays the computer 🤖 at level {level} of 5 (rating {rating})."
        ).format(challenger=name, level=level, rating=computer_level(level).rating)
    elif challenge.target_username or challenge.target_id:
        if target is not None:
            whom = player_name(target, _)
        elif challenge.target_username:
            whom = echo("@" + challenge.target_username)
        else:
            whom = _("you")
        head = _("{challenger} challenges {target} to a game!").format(challenger=name, target=whom)
    else:
        head = _("{challenger} is looking for an opponent! Anyone can accept.").format(
            challenger=name
        )
    offer = challenge.terms
    details = _("{variant} · rules: {rules} · {duration} per move").format(
        variant=_(VARIANT_NAMES[offer.variant]),
        rules=_(RULE_SET_NAMES[offer.rules.name]),
        duration=duration(challenge.move_seconds, _),
    )
    start = offer.start
    if start is not None:
        details += "\n▶ " + _(
            "From the position {id}, {mark} to move (the challenger's side): not rated, no chips."
        ).format(id=html.code(start.to_id()), mark=SIDE_MARKS[start.turn])
    terms = [_match_name(offer.match_length, _)]
    if offer.dice_mode is not DiceMode.TWO:
        terms.append(_(DICE_MODE_NAMES[offer.dice_mode]))
    if has_cube(offer.variant):
        terms.append(_("with the doubling cube") if offer.cube else _("no cube"))
    if offer.stake:
        terms.append(
            _("stake {stake} chips, {mode}").format(
                stake=offer.stake, mode=_(STAKE_MODE_NAMES[offer.stake_mode])
            )
        )
    if offer.hints or level is not None:
        terms.append(_("💡 hints"))
    if offer.training:
        terms.append(_("🎓 training game: each of your turns judged, take-backs"))
    if challenge.in_private_chat:
        terms.append(_("👁 open to watchers") if offer.watchable else _("🔒 private"))
    if level is not None:
        foot = _("Press ▶ Start when the terms suit you.")
    else:
        foot = _("The challenge expires in 15 minutes.")
    if challenge.dice_commitment is not None:
        foot += "\n" + commitment_line(challenge.dice_commitment, _)
    return f"⚔ {head}\n{details}\n{' · '.join(terms)}\n" + foot


def commitment_line(commitment: str, _: Translate) -> str:
    """The line that shows a challenge's dice commitment (its first 16 hex digits) before
    anyone can accept it: the seed is fixed from then on (see :mod:`bot.engine.fair`)."""
    return "🔒 " + _("Fair dice {commitment}…: the seed is fixed now, shown after the game").format(
        commitment=commitment[:16]
    )


def _match_name(length: int, _: Translate) -> str:
    return _("match to {length}").format(length=length) if length else _("single game")


def challenge_keyboard(challenge: Challenge, _: Translate) -> InlineKeyboardMarkup:
    """Accept and Decline for the challenged, the options for the challenger (Start and
    Cancel against the computer), every button drawn for the challenge's version."""
    builder = InlineKeyboardBuilder()

    def button(text: str, option: ChallengeOption) -> None:
        builder.button(
            text=text,
            callback_data=ChallengeAction(
                challenge=challenge.id, version=challenge.version, option=option
            ),
        )

    if challenge.computer_level is not None:
        button("▶ " + _("Start"), ChallengeOption.ACCEPT)
        button("✖ " + _("Cancel"), ChallengeOption.DECLINE)
    else:
        button("✅ " + _("Accept"), ChallengeOption.ACCEPT)
        button("✖ " + _("Decline"), ChallengeOption.DECLINE)
    for option, label in option_labels(challenge, _).items():
        button(label, option)
    builder.adjust(2, 3, 2, 2, 2)
    return builder.as_markup()


def option_labels(challenge: Challenge, _: Translate) -> dict[ChallengeOption, str]:
    """The challenger's option buttons, each labelled with its current choice, in the order
    shown: against the computer its level and no stake; from a position, neither the variant
    nor a match nor a stake."""
    level = challenge.computer_level
    offer = challenge.terms
    start = offer.start is not None  # the position decides the variant; a single game
    labels = {}
    if not start:
        labels[ChallengeOption.VARIANT] = "🎲 " + _(VARIANT_NAMES[offer.variant])
    labels[ChallengeOption.RULES] = "📜 " + _(RULE_SET_NAMES[offer.rules.name])
    labels[ChallengeOption.TIME] = "⏱ " + duration(challenge.move_seconds, _)
    training = offer.training
    if not start and not training:
        labels[ChallengeOption.MATCH] = "🏁 " + _match_name(offer.match_length, _)
    if has_dice_modes(offer.variant) and not training:
        labels[ChallengeOption.DICE] = "🎲 " + _(DICE_MODE_NAMES[offer.dice_mode])
    if has_cube(offer.variant) and not training:
        labels[ChallengeOption.CUBE] = "⏫ " + (_("cube on") if offer.cube else _("cube off"))
    if level is not None:
        labels[ChallengeOption.LEVEL] = "🤖 " + _("level {level}").format(level=level)
        labels[ChallengeOption.TRAINING] = "🎓 " + (
            _("training on") if training else _("training off")
        )
    else:
        labels[ChallengeOption.HINTS] = "💡 " + (_("hints on") if offer.hints else _("hints off"))
        if not start:
            labels[ChallengeOption.STAKE] = "💰 " + _("stake {stake}").format(stake=offer.stake)
        if offer.stake:
            labels[ChallengeOption.STAKE_MODE] = "⚖ " + _(STAKE_MODE_NAMES[offer.stake_mode])
    if challenge.in_private_chat:
        labels[ChallengeOption.WATCH] = (
            _("👁 open to watchers") if offer.watchable else _("🔒 private")
        )
    return labels


ALERT_LENGTH: Final = 200
"""The most characters Telegram shows in a button's alert."""


def terms_changed_text(drawn: Challenge, current: Challenge, _: Translate) -> str:
    """The alert for a button drawn for terms the challenger has changed since: each change,
    as the option buttons show it (``💰 stake 10 → 💰 stake 500``), as many as an alert holds."""
    before, now = option_labels(drawn, _), option_labels(current, _)
    changes = [
        f"{before[option]} → {label}" if option in before else label
        for option, label in now.items()
        if before.get(option) != label
    ]
    template = _(
        "The terms have changed since this button was drawn: {changes}. The challenge shows "
        "them now: accept if they suit you."
    )
    for kept in range(len(changes), -1, -1):  # as many changes as the alert has room for
        listed = "; ".join(changes[:kept]) + ("…" if kept < len(changes) else "")
        text = template.format(changes=listed)
        if len(text) <= ALERT_LENGTH:
            break
    return text[:ALERT_LENGTH]


def challenge_message(
    challenge: Challenge,
    challenger: User,
    target: User | None,
    chat_id: int,
    _: Translate,
) -> tuple[str, InlineKeyboardMarkup]:
    """The text and buttons of a message that shows ``challenge`` in ``chat_id``: in the
    private chat of the one it challenges, it speaks to them ("you")."""
    addressed = None if target is not None and chat_id == target.id else target
    return (
        challenge_text(challenge, challenger, _, target=addressed),
        challenge_keyboard(challenge, _),
    )


def closed_text(challenge: Challenge, names: tuple[str, str], _: Translate) -> str:
    """What a challenge message says once it is closed."""
    challenger, target = names
    if challenge.status is ChallengeStatus.ACCEPTED:
        text = _("⚔ {challenger} — {target}: the game has started.")
    elif challenge.status is ChallengeStatus.DECLINED:
        text = _("{target} declined the challenge of {challenger}.")
    elif challenge.status is ChallengeStatus.CANCELLED:
        text = _("{challenger} withdrew the challenge.")
    else:
        text = _("The challenge of {challenger} has expired.")
    return text.format(challenger=challenger, target=target)


def start_caption(start: Position, _: Translate) -> str:
    """The caption of the board a challenge starts from: its ID, to copy."""
    return "▶ " + _("The game starts here: position {id}, {mark} to move.").format(
        id=html.code(start.to_id()), mark=SIDE_MARKS[start.turn]
    )
