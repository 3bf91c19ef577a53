"""The words of ``/play`` (and of the inline mode's queries, which take the same): which terms,
which start, whether the computer is asked for, read from the text alone."""

from __future__ import annotations

from typing import Final

from aiogram.filters import CommandObject

from bot.engine import DiceMode, StakeMode
from bot.numbers import COUNT_DIGITS, parse_number
from bot.services import Terms
from bot.services.chips import STAKE_CHOICES
from bot.services.choices import DEFAULT_LEVEL, LEVELS, MATCH_LENGTHS, VARIANTS
from bot.views.texts import DICE_WORDS, VARIANT_WORDS

CUBE_WORDS: Final = frozenset({"cube", "куб", "кубом"})
TIME_WORDS: Final = {
    **dict.fromkeys(("1h", "1ч"), 3600),
    **dict.fromkeys(("12h", "12ч"), 43_200),
    **dict.fromkeys(("1d", "1д", "day", "день"), 86_400),
    **dict.fromkeys(("3d", "3д"), 259_200),
}
"""Correspondence move times: an hour, 12 hours, a day, three days."""
MODE_WORDS: Final = {
    "pro": StakeMode.PRO,
    "про": StakeMode.PRO,
    "amateur": StakeMode.AMATEUR,
    "любительский": StakeMode.AMATEUR,
    "любительская": StakeMode.AMATEUR,
}


COMPUTER_WORDS: Final = frozenset({"bot", "computer", "ai", "бот", "компьютер", "комп"})
LEVEL_WORDS: Final = frozenset({"level", "lvl", "уровень", "ур"})
PRIVATE_WORDS: Final = frozenset({"private", "приватная", "приватно", "закрытая"})
TRAINING_WORDS: Final = frozenset({"training", "train", "тренировка", "учебная", "обучение"})
"""A training game with the computer: each turn judged, taken back on request."""
"""A game between private chats that its players keep to themselves: no Watch link."""


def play_words(args: str) -> list[str]:
    """The words of ``/play``'s arguments, lowered, without the @usernames it names."""
    return [word.lower() for word in args.split() if not word.startswith("@")]


FROM_WORD: Final = "from"


def play_args(command: CommandObject) -> str:
    """The command's words, ``/from X …`` read as ``/play from X …``."""
    args = command.args or ""
    return f"{FROM_WORD} {args}" if command.command.lower() == FROM_WORD else args


def computer_asked(words: list[str]) -> tuple[int | None, list[str]]:
    """``/play bot`` (or ``computer``, ``бот``, ``компьютер``): the computer's level, written
    ``level 4`` or ``уровень 4`` (:data:`DEFAULT_LEVEL` without one), and the other words;
    None when the computer is not asked for."""
    if not COMPUTER_WORDS.intersection(words):
        return None, words
    rest = [w for w in words if w not in COMPUTER_WORDS]
    level = DEFAULT_LEVEL
    for index, word in enumerate(rest[:-1]):
        following = rest[index + 1]
        chosen = parse_number(following, COUNT_DIGITS)
        if word in LEVEL_WORDS and chosen in LEVELS:
            level = chosen
            rest = rest[:index] + rest[index + 2 :]
            break
    return level, rest


def terms_of(words: list[str]) -> Terms:
    """The terms written after ``/play``, in any order: a variant (``short``, ``abkhaz``,
    ``gulbara``, ``crazy_gulbara``, or in Russian); a dice mode of the short variants
    (``three_dice``, ``anti_three``); 3, 5, 7 or 9 for a match; ``cube``; 10, 50, 100 or 500
    for a stake, with ``pro`` or ``amateur``; ``1h``, ``12h``, ``1d`` or ``3d`` a move for a
    correspondence game; ``private`` (``приватная``, ``закрытая``) for a game between private
    chats that nobody may watch; ``training`` (``тренировка``) for a training game with the
    computer. Anything else is left to the challenge's buttons."""
    numbers = [n for word in words if (n := parse_number(word, COUNT_DIGITS)) is not None]
    return Terms(
        variant=next((VARIANT_WORDS[w] for w in words if w in VARIANT_WORDS), VARIANTS[0]),
        dice_mode=next((DICE_WORDS[w] for w in words if w in DICE_WORDS), DiceMode.TWO),
        match_length=next((n for n in numbers if n in MATCH_LENGTHS), 0),
        cube=bool(CUBE_WORDS.intersection(words)),
        stake=next((n for n in numbers if n in STAKE_CHOICES), 0),
        stake_mode=next((MODE_WORDS[w] for w in words if w in MODE_WORDS), StakeMode.RULES),
        move_seconds=next((TIME_WORDS[w] for w in words if w in TIME_WORDS), None),
        watchable=not PRIVATE_WORDS.intersection(words),
        training=bool(TRAINING_WORDS.intersection(words)),
    )
