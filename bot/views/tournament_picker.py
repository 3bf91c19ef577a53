"""The creation picker of ``/tournament``: a button per choice (format, variant, dice, match,
move time, entry, start), each showing its list, and ✅ Create. Pure: texts and keyboards, every
word through ``_``."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Final

from aiogram import html
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.callbacks import TournamentOption, TournamentPick
from bot.model import Terms, TournamentFormat
from bot.services.chips import STAKE_CHOICES
from bot.services.choices import DICE_MODES, MATCH_LENGTHS, MOVE_TIMES, VARIANTS, has_dice_modes
from bot.views.common import DICE_MODE_NAMES, VARIANT_NAMES, Translate, duration
from bot.views.picker import choice_rows
from bot.views.tournament_formats import format_name
from bot.views.tournaments import terms_text

FORMAT_CHOICES: Final = tuple(TournamentFormat)
START_CHOICES: Final = (0, 600, 1800, 3600, 86_400)
"""When a tournament starts, in seconds from its creation; 0: when its creator starts it."""
DICE_CHOICES: Final = DICE_MODES
DEFAULT_TIME: Final = MOVE_TIMES.index(90)


@dataclass(frozen=True, slots=True)
class Pick:
    """The creation picker's choices, each an index into its choices."""

    format: int = 0
    variant: int = 0
    dice: int = 0
    match: int = 0
    time: int = DEFAULT_TIME
    entry: int = 0
    start: int = 0
    user: int = 0
    """Whose picker it is (who sent ``/tournament``): their taps alone count on it."""

    @classmethod
    def of(cls, data: TournamentPick) -> Pick | None:
        """The picker's choices a button carries; None for indices out of range (forged)."""
        pick = cls(
            data.format,
            data.variant,
            data.dice,
            data.match,
            data.time,
            data.entry,
            data.start,
            data.user,
        )
        limits = (
            len(FORMAT_CHOICES),
            len(VARIANTS),
            len(DICE_CHOICES),
            len(MATCH_LENGTHS),
            len(MOVE_TIMES),
            len(STAKE_CHOICES),
            len(START_CHOICES),
        )
        values = (pick.format, pick.variant, pick.dice, pick.match, pick.time, pick.entry)
        if any(not 0 <= v < n for v, n in zip((*values, pick.start), limits, strict=True)):
            return None
        return pick

    @property
    def tournament_format(self) -> TournamentFormat:
        return FORMAT_CHOICES[self.format]

    @property
    def terms(self) -> Terms:
        variant = VARIANTS[self.variant]
        return Terms(
            variant=variant,
            dice_mode=DICE_CHOICES[self.dice] if has_dice_modes(variant) else DICE_CHOICES[0],
            match_length=MATCH_LENGTHS[self.match],
            move_seconds=MOVE_TIMES[self.time],
        )

    @property
    def chips(self) -> int:
        """The entry in chips."""
        return STAKE_CHOICES[self.entry]

    @property
    def starts_in(self) -> int:
        return START_CHOICES[self.start]

    def data(self, option: TournamentOption) -> str:
        """The callback data of a button for ``option`` on this picker: an option's shows its
        list, ✅ Create makes the tournament, ``PICK`` shows the picker on these choices."""
        return TournamentPick(
            option=option,
            format=self.format,
            variant=self.variant,
            dice=self.dice,
            match=self.match,
            time=self.time,
            entry=self.entry,
            start=self.start,
            user=self.user,
        ).pack()

    def picking(self, option: TournamentOption, index: int) -> Pick:
        """These choices with ``option``'s set to its ``index``-th (a variant without dice
        modes plays two dice)."""
        picked = replace(self, **{_FIELDS[option]: index})
        if option is TournamentOption.VARIANT and not has_dice_modes(VARIANTS[index]):
            picked = replace(picked, dice=0)
        return picked


_FIELDS: Final = {
    TournamentOption.FORMAT: "format",
    TournamentOption.VARIANT: "variant",
    TournamentOption.DICE: "dice",
    TournamentOption.MATCH: "match",
    TournamentOption.TIME: "time",
    TournamentOption.ENTRY: "entry",
    TournamentOption.START: "start",
}
"""The picker's options, each picked from a list, by the :class:`Pick` field it sets."""


def picker_text(pick: Pick, _: Translate) -> str:
    """The creation picker: what the buttons chose so far."""
    start = (
        _("starts {minutes} min after it is made").format(minutes=pick.starts_in // 60)
        if pick.starts_in
        else _("its creator starts it")
    )
    return "\n".join(
        [
            "🏆 " + html.bold(_("New tournament")),
            format_name(pick.tournament_format, _) + " · " + terms_text(pick.terms, pick.chips, _),
            start,
            _("Tap a choice to change it, then ✅ Create."),
        ]
    )


def _match_text(length: int, _: Translate) -> str:
    return _("match to {n}").format(n=length) if length else _("single games")


def _entry_text(chips: int, _: Translate) -> str:
    return str(chips) if chips else _("free")


def _start_text(seconds: int, _: Translate) -> str:
    return _("in {minutes} min").format(minutes=seconds // 60) if seconds else _("by the creator")


def _names(option: TournamentOption, _: Translate) -> tuple[str, tuple[str, ...]]:
    """``option``'s mark and the names of its choices, in the order its list shows them."""
    if option is TournamentOption.FORMAT:
        return "🏆", tuple(format_name(f, _) for f in FORMAT_CHOICES)
    if option is TournamentOption.VARIANT:
        return "🎲", tuple(_(VARIANT_NAMES[v]) for v in VARIANTS)
    if option is TournamentOption.DICE:
        return "🎲", tuple(_(DICE_MODE_NAMES[d]) for d in DICE_CHOICES)
    if option is TournamentOption.MATCH:
        return "🏁", tuple(_match_text(n, _) for n in MATCH_LENGTHS)
    if option is TournamentOption.TIME:
        return "⏱", tuple(duration(t, _) for t in MOVE_TIMES)
    if option is TournamentOption.ENTRY:
        return "💰", tuple(_entry_text(c, _) for c in STAKE_CHOICES)
    return "🕒", tuple(_start_text(s, _) for s in START_CHOICES)


def picker_keyboard(pick: Pick, _: Translate) -> InlineKeyboardMarkup:
    """One button per option, naming its choice (a tap shows its list), and ✅ Create."""
    o = TournamentOption

    def button(option: TournamentOption) -> InlineKeyboardButton:
        mark, names = _names(option, _)
        text = f"{mark} {names[getattr(pick, _FIELDS[option])]}"
        return InlineKeyboardButton(text=text, callback_data=pick.data(option))

    rows = [
        [button(o.FORMAT), button(o.VARIANT)],
        [button(o.MATCH), button(o.TIME)],
        [button(o.ENTRY), button(o.START)],
    ]
    if has_dice_modes(pick.terms.variant):
        rows.insert(1, [button(o.DICE)])
    create = InlineKeyboardButton(text="✅ " + _("Create"), callback_data=pick.data(o.CREATE))
    rows.append([create])
    return InlineKeyboardMarkup(inline_keyboard=rows)


def choices_keyboard(pick: Pick, option: TournamentOption, _: Translate) -> InlineKeyboardMarkup:
    """``option``'s list of choices: each picks one and shows the picker again, as does
    ↩ Back."""
    _mark, names = _names(option, _)
    rows = choice_rows(
        range(len(names)),
        getattr(pick, _FIELDS[option]),
        lambda index: names[index],
        lambda index: pick.picking(option, index).data(TournamentOption.PICK),
        pick.data(TournamentOption.PICK),
        _,
    )
    return InlineKeyboardMarkup(inline_keyboard=rows)


LISTS: Final = frozenset(_FIELDS)
"""The picker's options that show a list of choices."""
