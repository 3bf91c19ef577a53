"""What ``/find`` shows ("play anyone now"): the terms picker, the wait with its Cancel and, in
time, the computer's offer (labelled as the computer, never as a person), and the pairing.

The picker keeps no state of its own: every button carries the terms shown, as positions in
the choices below (:class:`~bot.callbacks.FindAction`), so a tap is read back into terms by
:func:`picked` alone, whichever worker takes it.
"""

from __future__ import annotations

from typing import Final

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.callbacks import FindAction, FindOption
from bot.engine import DiceMode
from bot.model import Terms
from bot.services.choices import (
    DICE_MODES,
    MATCH_LENGTHS,
    MOVE_TIMES,
    STAKES,
    VARIANTS,
    has_dice_modes,
    offered,
)
from bot.services.pool import MAX_WAIT
from bot.views.common import (
    DICE_MODE_NAMES,
    STAKE_MODE_NAMES,
    VARIANT_NAMES,
    Translate,
    duration,
)
from bot.views.numbers import chips_text
from bot.views.picker import choice_name, choice_rows

OFFER_CHOICES: Final = (30, 60, 120, 300)
"""Seconds of waiting before the computer is offered, to choose from (60 the default)."""
DEFAULT_TIME: Final = 90
"""The move time the picker starts at when the player never chose one."""


def _index(choices: tuple[object, ...], value: object, default: int = 0) -> int:
    return choices.index(value) if value in choices else default


def _at(choices: tuple[int, ...], index: int, default: int) -> int:
    return choices[index] if 0 <= index < len(choices) else default


def picked(data: FindAction) -> tuple[Terms, int]:
    """The terms and the computer's offer time a picker button carries; positions out of range
    (a forged button) read as the first choice, and a dice mode the variant lacks as two dice:
    what is shown next is always a real choice."""
    variant = VARIANTS[data.variant] if data.variant < len(VARIANTS) else VARIANTS[0]
    dice = DICE_MODES[data.dice] if data.dice < len(DICE_MODES) else DiceMode.TWO
    if not has_dice_modes(variant):
        dice = DiceMode.TWO
    terms = Terms(
        variant=variant,
        dice_mode=dice,
        match_length=_at(MATCH_LENGTHS, data.match, 0),
        move_seconds=_at(MOVE_TIMES, data.time, DEFAULT_TIME),
        stake=_at(STAKES, data.stake, 0),
    )
    return terms, _at(OFFER_CHOICES, data.offer, 60)


def settled(terms: Terms, offer_after: int) -> tuple[Terms, int]:
    """``terms`` (a last choice, words of ``/find``) made one of the picker's: a move time
    and an offer time from its choices, the rest as :func:`picked` reads them."""
    return picked(_data(FindOption.FIND, terms, offer_after, 0))


def _data(option: FindOption, terms: Terms, offer_after: int, user_id: int) -> FindAction:
    return FindAction(
        option=option,
        user=user_id,
        variant=_index(VARIANTS, terms.variant),
        dice=_index(DICE_MODES, terms.dice_mode),
        match=_index(MATCH_LENGTHS, terms.match_length),
        time=_index(MOVE_TIMES, terms.move_seconds, _index(MOVE_TIMES, DEFAULT_TIME)),
        offer=_index(OFFER_CHOICES, offer_after, 1),
        stake=_index(STAKES, terms.stake),
    )


LISTS: Final = {
    FindOption.VARIANT: ("variant", "variant"),
    FindOption.DICE: ("dice", "dice"),
    FindOption.MATCH: ("match", "match"),
    FindOption.TIME: ("time", "time"),
    FindOption.STAKE: ("stake", "stake"),
    FindOption.OFFER: ("offer", ""),
}
"""The picker's options picked from a list: the field of :class:`FindAction` each sets, and
its name in :data:`bot.services.choices.OPTIONS` (the computer's offer is /find's own)."""


def choices_keyboard(data: FindAction, _: Translate) -> InlineKeyboardMarkup:
    """The list of the tapped option's choices (:data:`LISTS`) on the terms ``data`` carries:
    each picks one and shows the picker again, as does ↩ Back."""
    field, name = LISTS[data.option]
    terms, offer_after = picked(data)
    values: tuple[object, ...]
    if name:
        values = offered(name, terms, terms.move_seconds or DEFAULT_TIME)
        if name == "time":
            values = MOVE_TIMES  # the picker's own: the positions its buttons carry

        def label(value: object) -> str:
            return choice_name(name, value, _)

    else:
        values = OFFER_CHOICES

        def label(value: object) -> str:
            return "🤖 " + _("after {seconds} s").format(seconds=value)

    current = getattr(data, field)

    def pick(index: int) -> str:
        update: dict[str, object] = {"option": FindOption.PICK, field: index}
        if field == "variant" and not has_dice_modes(VARIANTS[index]):
            update["dice"] = 0
        return data.model_copy(update=update).pack()

    back = data.model_copy(update={"option": FindOption.PICK}).pack()
    rows = choice_rows(range(len(values)), current, lambda i: label(values[i]), pick, back, _)
    return InlineKeyboardMarkup(inline_keyboard=rows)


def terms_line(terms: Terms, _: Translate) -> str:
    """The terms in one line: variant, dice mode (when not two dice), match, move time, and
    the stake when there is one."""
    parts = [_(VARIANT_NAMES[terms.variant])]
    if terms.dice_mode is not DiceMode.TWO:
        parts.append(_(DICE_MODE_NAMES[terms.dice_mode]))
    parts.append(_match(terms.match_length, _))
    parts.append(
        _("{duration} per move").format(duration=duration(terms.move_seconds or DEFAULT_TIME, _))
    )
    if terms.stake:
        parts.append(
            _("stake {stake}, {mode}").format(
                stake=chips_text(terms.stake, _), mode=_(STAKE_MODE_NAMES[terms.stake_mode])
            )
        )
    return " · ".join(parts)


def _stake(stake: int, _: Translate) -> str:
    return _("stake {stake}").format(stake=stake) if stake else _("no stake")


def _match(length: int, _: Translate) -> str:
    return _("match to {length}").format(length=length) if length else _("single game")


def _button(text: str, data: FindAction) -> InlineKeyboardButton:
    return InlineKeyboardButton(text=text, callback_data=data.pack())


def picker_text(terms: Terms, offer_after: int, _: Translate) -> str:
    """The picker: what the player will look for, and when the computer is offered."""
    return (
        "🔎 "
        + _("Play anyone now: the bot pairs you with the first player looking for the same game.")
        + "\n"
        + terms_line(terms, _)
        + "\n"
        + _("If nobody comes within {seconds} s, the bot offers you the computer.").format(
            seconds=offer_after
        )
    )


def picker_keyboard(
    terms: Terms, offer_after: int, user_id: int, _: Translate
) -> InlineKeyboardMarkup:
    """🔎 Find on the terms shown (one tap), then a button for each option, each labelled with
    its current choice; for ``user_id`` alone (the first button says whose it is)."""

    def data(option: FindOption) -> FindAction:
        return _data(option, terms, offer_after, user_id)

    options = [
        _button("🎲 " + _(VARIANT_NAMES[terms.variant]), data(FindOption.VARIANT)),
        _button("🏁 " + _match(terms.match_length, _), data(FindOption.MATCH)),
        _button("⏱ " + duration(terms.move_seconds or DEFAULT_TIME, _), data(FindOption.TIME)),
        _button("🤖 " + _("after {seconds} s").format(seconds=offer_after), data(FindOption.OFFER)),
        _button("💰 " + _stake(terms.stake, _), data(FindOption.STAKE)),
    ]
    if has_dice_modes(terms.variant):
        dice = _button("🎲 " + _(DICE_MODE_NAMES[terms.dice_mode]), data(FindOption.DICE))
        options.insert(1, dice)
    rows = [[_button("🔎 " + _("Find"), data(FindOption.FIND))]]
    rows += [options[i : i + 2] for i in range(0, len(options), 2)]
    return InlineKeyboardMarkup(inline_keyboard=rows)


def waiting_text(
    terms: Terms,
    offer_after: int,
    _: Translate,
    *,
    name: str | None = None,
    level: int | None = None,
) -> str:
    """The wait: "Looking for an opponent… ⏳" (in a group, who is looking), the terms, and
    when the computer is offered; once it is (``level``), the offer, naming it the computer."""
    head = (
        _("{name} is looking for an opponent… ⏳").format(name=name)
        if name is not None
        else _("Looking for an opponent… ⏳")
    )
    lines = ["🔎 " + head, terms_line(terms, _)]
    if name is not None:
        lines.append(_("Anyone here: /find with the same terms to play."))
    if level is None:
        lines.append(
            _("If nobody comes within {seconds} s, the bot offers you the computer.").format(
                seconds=offer_after
            )
        )
    else:
        lines.append(
            _(
                "Nobody yet. You can play the computer 🤖 at level {level} instead: it is the "
                "bot, not a person. You keep waiting for a person until you choose."
            ).format(level=level)
        )
    return "\n".join(lines)


def waiting_keyboard(
    terms: Terms, offer_after: int, user_id: int, _: Translate, *, level: int | None = None
) -> InlineKeyboardMarkup:
    """✖ Cancel, and the computer's offer once it is made: "🤖 Computer, level N"; for the
    seeker ``user_id`` alone."""
    rows = []
    if level is not None:
        rows.append(
            [
                _button(
                    "🤖 " + _("Computer, level {level}").format(level=level),
                    _data(FindOption.COMPUTER, terms, offer_after, user_id),
                )
            ]
        )
    rows.append(
        [_button("✖ " + _("Cancel"), _data(FindOption.CANCEL, terms, offer_after, user_id))]
    )
    return InlineKeyboardMarkup(inline_keyboard=rows)


def paired_text(opponent: str, rating: float, terms: Terms, _: Translate) -> str:
    """The wait, ended by a pairing: who the opponent is (a person), and that the game starts."""
    return (
        "🤝 "
        + _("Opponent found: {name} (rating {rating}). The game starts!").format(
            name=opponent, rating=round(rating)
        )
        + "\n"
        + terms_line(terms, _)
    )


def paired_in_group_text(white: str, black: str, terms: Terms, _: Translate) -> str:
    """A group's wait, ended by a pairing: who plays whom, here."""
    return (
        "🤝 "
        + _("{white} plays {black}: the game starts here!").format(white=white, black=black)
        + "\n"
        + terms_line(terms, _)
    )


def computer_chosen_text(level: int, terms: Terms, _: Translate) -> str:
    """The wait, ended by taking the computer's offer."""
    return (
        "🤖 "
        + _("You play the computer at level {level}. The game starts!").format(level=level)
        + "\n"
        + terms_line(terms, _)
    )


def expired_text(terms: Terms, _: Translate, *, name: str | None = None) -> str:
    """A wait ended by itself after :data:`~bot.services.pool.MAX_WAIT` (in a group, whose):
    nobody came, and what can be done now."""
    minutes = MAX_WAIT // 60
    head = (
        _("{name}: nobody looked for the same game within {minutes} min.").format(
            name=name, minutes=minutes
        )
        if name is not None
        else _("Nobody looked for the same game within {minutes} min.").format(minutes=minutes)
    )
    return (
        "⌛ "
        + head
        + "\n"
        + terms_line(terms, _)
        + "\n"
        + _("You are no longer waiting. Look again, or play the computer (the bot, not a person).")
    )


def expired_keyboard(
    terms: Terms, offer_after: int, user_id: int, level: int, _: Translate
) -> InlineKeyboardMarkup:
    """🔎 Look again (on the same terms, one tap) and 🤖 the computer at ``level``, named as
    the computer; for ``user_id`` alone. The first button tells this message's kind."""
    return InlineKeyboardMarkup(
        inline_keyboard=[
            [
                _button(
                    "🔎 " + _("Look again"),
                    _data(FindOption.AGAIN, terms, offer_after, user_id),
                )
            ],
            [
                _button(
                    "🤖 " + _("Computer, level {level}").format(level=level),
                    _data(FindOption.PLAY_COMPUTER, terms, offer_after, user_id),
                )
            ],
        ]
    )


def cancelled_text(_: Translate) -> str:
    """The wait, cancelled (the picker follows, to look again)."""
    return "✖ " + _("You stopped looking for an opponent.")
