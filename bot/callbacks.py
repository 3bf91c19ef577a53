"""Every inline button's data, in one place. Short prefixes, integers only.

Telegram allows 64 bytes of callback data, and a client can send any bytes it likes: each
factory is parsed by aiogram (a malformed payload matches no handler) and every value is checked
again by the service. A number is read by :func:`bot.numbers.parse_number` (ASCII digits, not
too many: :data:`Id`, :data:`Count`), not by pydantic, which takes ``-5``, ``1_000``, `` 7 ``
and ``7.0`` for numbers and ``yes`` for true; a flag is ``0`` or ``1``. Each game button
carries the game and the ``version`` it was drawn for, so a press on a board that has changed
since is refused.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import Annotated, Final, TypeAlias

from aiogram.filters.callback_data import CallbackData
from pydantic import AfterValidator, BeforeValidator

from bot.numbers import COUNT_DIGITS, ID_DIGITS, parse_number
from bot.services.actions import GameAction


def _digits(digits: int) -> Callable[[object], object]:
    """A validator that reads a packed value (text) as :func:`parse_number` does, refusing
    anything else; a value given in code (a number) is left to pydantic."""

    def read(value: object) -> object:
        if not isinstance(value, str):
            return value
        number = parse_number(value, digits)
        if number is None:
            raise ValueError(f"not a number of 1 to {digits} ASCII digits")
        return number

    return read


def _flag(value: object) -> object:
    """A packed flag is ``1`` or ``0`` (what aiogram writes for True and False)."""
    if not isinstance(value, str):
        return value
    if value not in ("0", "1"):
        raise ValueError("a flag is 0 or 1")
    return value == "1"


Id: TypeAlias = Annotated[int, BeforeValidator(_digits(ID_DIGITS))]
"""A game's, a challenge's or a user's id."""
Count: TypeAlias = Annotated[int, BeforeValidator(_digits(COUNT_DIGITS))]
"""A version, a number of moves, a button's argument: a small number."""
Flag: TypeAlias = Annotated[bool, BeforeValidator(_flag)]
_CHOICE = BeforeValidator(_digits(2))
"""An enum's value, read as a number of one or two digits."""


BUTTON_ACTIONS: Final = frozenset(
    {
        GameAction.STEP,
        GameAction.FINISH,
        GameAction.UNDO,
        GameAction.CONFIRM,
        GameAction.ROLL,
        GameAction.DOUBLE,
        GameAction.TAKE,
        GameAction.DROP,
        GameAction.STRIKE,
        GameAction.HINT,
    }
)
"""The game actions a board's buttons carry; the others have buttons of their own (▶ Next game,
🔁 Rematch) or a question first (``/resign``), and are refused in a :class:`GameButton`."""


def _button_action(value: GameAction) -> GameAction:
    if value not in BUTTON_ACTIONS:
        raise ValueError(f"{value.name} is not a board button's action")
    return value


class GameButton(CallbackData, prefix="g"):
    """A tap on a board during a turn: ``action`` (:class:`~bot.services.actions.GameAction`,
    one of :data:`BUTTON_ACTIONS`) with its ``arg`` (the step, the way to finish, the die to
    strike)."""

    game: Id
    version: Count
    action: Annotated[GameAction, _CHOICE, AfterValidator(_button_action)]
    arg: Count = 0

    @classmethod
    def data(cls, game: int, version: int, action: GameAction, arg: int = 0) -> str:
        """What ``GameButton(game=…, version=…, action=…, arg=…).pack()`` gives, without
        building and dumping the model: a board has up to a couple of dozen buttons, and each
        model cost 14 µs (the values are the service's own, so there is nothing to validate)."""
        return cls.__separator__.join(map(str, (cls.__prefix__, game, version, action.value, arg)))


class ChallengeOption(enum.IntEnum):
    """What a challenge button does."""

    ACCEPT = 1
    DECLINE = 2  # the challenged user declines, or the challenger withdraws
    VARIANT = 3
    RULES = 4
    TIME = 5
    MATCH = 6  # a single game or a match to 3, 5, 7, 9
    CUBE = 7
    STAKE = 8
    STAKE_MODE = 9
    DICE = 10  # two dice, three, or anti three (short variants)
    LEVEL = 11  # the computer's level (a challenge to the computer)
    HINTS = 12  # hints for both players (between people)
    WATCH = 13  # open to watchers or private (a game between private chats)
    TRAINING = 14  # a training game: each turn judged, taken back on request (the computer)


class ChallengeAction(CallbackData, prefix="c"):
    """A tap on a challenge message."""

    challenge: Id
    version: Count
    option: Annotated[ChallengeOption, _CHOICE]


class PlayComputer(CallbackData, prefix="b"):
    """ "🤖 Play the computer" under /start and /help: a challenge to the computer here."""


class Analyse(CallbackData, prefix="a"):
    """📊 Analysis of a finished game, for each player."""

    game: Id


class ResignAction(CallbackData, prefix="r"):
    """The answer to "Resign this game?", which only the player who asked may give, on the
    question itself: it replies to the player's ``/resign``, message ``asked``."""

    game: Id
    user: Id
    asked: Id
    sure: Flag


class Rematch(CallbackData, prefix="m"):
    """Challenge the same opponent again with the same options."""

    game: Id


class NextGame(CallbackData, prefix="n"):
    """Start the next game of a match after its finished game ``game``."""

    game: Id


class MovesFile(CallbackData, prefix="f"):
    """Send a finished game's moves as a text file."""

    game: Id


class Language(enum.IntEnum):
    """A catalog offered by ``/language`` (``bot.i18n.LOCALES``, in that order)."""

    EN = 1
    RU = 2
    UK = 3
    AZ = 4
    HY = 5
    KA = 6
    KK = 7

    @property
    def locale(self) -> str:
        """The catalog's name: ``"en"``, ``"ru"``…"""
        return self.name.lower()


class PickLanguage(CallbackData, prefix="l"):
    """A ``/language`` button: the user's own language in a private chat, the group's (for
    its admins) in a group."""

    language: Annotated[Language, _CHOICE]


class InviteOption(enum.IntEnum):
    """What a button on an inline invitation does."""

    JOIN = 1
    DECLINE = 2  # the friend it is reserved for declines, or the challenger withdraws


class InlineInvite(CallbackData, prefix="i"):
    """A tap on an invitation posted in inline mode. Its first buttons are drawn before the
    challenge exists, so they name only the challenger; the challenge is the one of the tapped
    inline message, and the service checks that it is this challenger's. Once the challenge is
    made the bot edits the invitation to show its dice commitment, with buttons whose ``seal``
    is the start of that commitment (see :func:`bot.services.inline.seal`): a Join is taken
    only from a message that showed it (0: drawn before there was one)."""

    challenger: Id
    option: Annotated[InviteOption, _CHOICE]
    seal: Id = 0


class InlineTop(CallbackData, prefix="k"):
    """🏆 under a finished inline game: the leaderboard of the chat it was played in."""


class Replay(CallbackData, prefix="v"):
    """🎞 Replay: a finished game as an animation, in the chat where it was tapped."""

    game: Id


class PlayFrom(CallbackData, prefix="s"):
    """Play on from the board after ``moves`` moves of finished game ``game`` (a worst move of
    its analysis): against the computer, or as a challenge anyone here may accept."""

    game: Id
    moves: Count
    computer: Flag


class FindOption(enum.IntEnum):
    """What a button of ``/find`` (the terms picker, the wait) does."""

    VARIANT = 1
    DICE = 2  # two dice, three, or anti three (short variants)
    MATCH = 3  # a single game or a match to 3, 5, 7, 9
    TIME = 4  # the time for a move
    OFFER = 5  # how long to wait before the computer is offered
    FIND = 6  # 🔎 look for an opponent on the terms shown
    CANCEL = 7  # stop looking (on the wait)
    COMPUTER = 8  # take the computer's offer (on the wait)
    AGAIN = 9  # 🔎 look again, on a wait that ended with nobody found
    PLAY_COMPUTER = 10  # 🤖 play the computer instead, on a wait that ended with nobody found
    STAKE = 11  # no stake, or the chips each game is played for


class FindAction(CallbackData, prefix="p"):
    """A tap on a ``/find`` message, the picker or the wait of ``user``, the only one whose
    taps count there. The picker keeps no state: each button carries the terms shown, as
    positions in the choices (``bot.views.pool``), and the one it changes."""

    option: Annotated[FindOption, _CHOICE]
    user: Id
    variant: Count = 0
    dice: Count = 0
    match: Count = 0
    time: Count = 0
    offer: Count = 0
    stake: Count = 0


class PlayAnyone(CallbackData, prefix="o"):
    """ "🔎 Play anyone" under /start and a finished game: the ``/find`` picker, there."""


class TournamentOption(enum.IntEnum):
    """What a button of the tournament creation picker does: a choice moved to its next
    value, or the tournament made."""

    FORMAT = 1
    VARIANT = 2
    DICE = 3
    MATCH = 4
    TIME = 5
    ENTRY = 6
    START = 7
    CREATE = 8


class TournamentPick(CallbackData, prefix="u"):
    """A tap on the creation picker, carrying every choice after it (indices into the
    picker's choices, checked again when read): the picker keeps no state of its own."""

    option: Annotated[TournamentOption, _CHOICE]
    format: Count
    variant: Count
    dice: Count
    match: Count
    time: Count
    entry: Count
    start: Count


class TournamentStep(enum.IntEnum):
    """What a button of a tournament's sign-up message does."""

    JOIN = 1
    LEAVE = 2
    START = 3  # the creator only
    CANCEL = 4  # the creator only, during sign-up


class TournamentAction(CallbackData, prefix="t"):
    """A tap on a tournament's sign-up message."""

    tournament: Id
    action: Annotated[TournamentStep, _CHOICE]


class TournamentPage(CallbackData, prefix="q"):
    """📋 under a tournament's pinned table: page ``page`` (0-based) of the table, sent to the
    presser in private (the pinned picture shows the first, the leaders')."""

    tournament: Id
    page: Count


TAPS = 8
"""The most taps a daily position's answer takes (four steps of a double, with room)."""


def _taps(value: object) -> object:
    """A daily position's taps so far: up to :data:`TAPS` letters (see :class:`DailyAction`)."""
    if (
        isinstance(value, str)
        and value
        and not (len(value) <= TAPS and value.isascii() and value.isalpha())
    ):
        raise ValueError(f"taps are up to {TAPS} ASCII letters")
    return value


class DailyAction(CallbackData, prefix="z"):
    """A tap on a daily position's board: the answer is built in the buttons themselves, so
    nothing is stored before it is confirmed. ``taps`` are the taps so far, one letter each:
    ``a``, ``b``… the first, second… step offered then, ``A``, ``B``… the first, second…
    way to finish the turn (a whole-turn button). Undo drops the last letter; ``confirm``
    answers with the turn the taps make."""

    position: Id
    taps: Annotated[str, BeforeValidator(_taps)] = ""
    confirm: Flag = False


class DailyOpen(CallbackData, prefix="y"):
    """ "🧩 Daily position" under /start (and after an answer, the other variant's): today's
    position of variant number ``variant`` (``bot.services.daily.VARIANTS``)."""

    variant: Count = 0


class Forget(CallbackData, prefix="x"):
    """The answer to ``/forget``'s question: delete everything (``confirm``), or keep it."""

    confirm: Flag = False


class BroadcastStep(CallbackData, prefix="w"):
    """An operator's tap on a broadcast's message: ``send`` confirms the draft, else it is
    stopped (a draft, or while being sent)."""

    broadcast: Id
    send: Flag


class FlagDecision(CallbackData, prefix="h"):
    """An operator's decision on a held chip transfer (the game's flag), under ``/flags`` in
    private: ``release`` pays the winner, else the transfer is refunded (the chips stay)."""

    game: Id
    release: Flag


class LessonMove(enum.IntEnum):
    """What a button of ``/learn`` does (the course's message, a lesson's step, the offer)."""

    OPEN = 1  # open lesson ``lesson`` where the player left it
    TAP = 2  # the step's turn tapped so far: ``taps`` (judged once complete)
    ANSWER = 3  # answer option ``arg`` of an ask step
    NEXT = 4  # go on to the step after ``step``
    RETRY = 5  # show step ``step`` afresh, to try again
    COURSE = 6  # the course's message, with every lesson
    TRAIN = 7  # a training game against the computer, variant ``arg`` (0 long, 1 short)
    PRACTICE = 8  # the next practice position, variant ``arg`` (0 long, 1 short)
    DECLINE = 9  # "no, thanks" to the offer of /learn: never offered again


class LessonAction(CallbackData, prefix="e"):
    """A tap on a message of ``/learn``. A step's turn is built in the buttons themselves, as a
    daily position's is (:class:`DailyAction`): ``taps`` are the taps so far, one letter each,
    and nothing is stored before the turn is complete and judged."""

    move: Annotated[LessonMove, _CHOICE]
    lesson: Count = 0
    step: Count = 0
    arg: Count = 0
    taps: Annotated[str, BeforeValidator(_taps)] = ""


class PracticeAction(CallbackData, prefix="d"):
    """A tap on a practice position's board, its answer built in the buttons as a daily
    position's is (:class:`DailyAction`); ``confirm`` answers with the turn the taps make."""

    position: Id
    taps: Annotated[str, BeforeValidator(_taps)] = ""
    confirm: Flag = False


class TakeBack(CallbackData, prefix="j"):
    """↩ Take back, on a training game's coach message: the player's turn of history line
    ``line`` of game ``game`` (their latest) is taken back, to be played again."""

    game: Id
    line: Count
