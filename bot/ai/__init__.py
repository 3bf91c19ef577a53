"""The computer player: a self-taught evaluator, five levels, hints and game analysis.

Depends on :mod:`bot.engine` and numpy only; knows nothing of Telegram or storage. It holds the
nets and what they see (:mod:`.features`, :mod:`.counts`, :mod:`.network`, :mod:`.evaluator`,
:mod:`.bearoff`, :mod:`.sage`), the search (:mod:`.search`), the levels and the computer at a
level (:mod:`.levels`, :mod:`.computer`, :mod:`.cubeful`), what it answers (:mod:`.answers`),
a played game's review (:mod:`.analysis`, :mod:`.luck`), yardsticks (:mod:`.players`,
:mod:`.arena`) and the tools that made the nets (:mod:`.train`, :mod:`.distil`).

The calls a game needs, each deterministic for a given ``seed``: :func:`decide` (whatever the
computer must do next), or one by one :func:`choose_turn`, :func:`choose_strike`,
:func:`offers_double`, :func:`takes_double`; and :func:`hint` for a person's roll. Games and
answers are plain picklable values, so all of them can run in a process pool.
"""

from __future__ import annotations

import os

# The net's matrices are small (a few hundred rows): BLAS threads only add overhead, and
# several processes (training, a process pool) each spinning threads starve one another.
# This must happen before numpy is first imported.
for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

import random  # noqa: E402

from bot.engine import Game, Turn  # noqa: E402

from .answers import Action, Decision, Hint, Ranked  # noqa: E402
from .levels import LEVELS, STRONGEST, Level, level  # noqa: E402

__all__ = [
    "LEVELS",
    "STRONGEST",
    "Action",
    "Decision",
    "Hint",
    "Level",
    "Ranked",
    "choose_strike",
    "choose_turn",
    "decide",
    "hint",
    "level",
    "offers_double",
    "takes_double",
]

# The functions below load the net (numpy) on first use, from :mod:`.computer`: the bot's own
# process only names levels and reads answers, and thinks in its worker processes.


def decide(game: Game, number: int, seed: int) -> Decision:
    """What level ``number`` does in ``game``, where it is the side to act: take or drop an
    offered double, strike a die, double or roll before its roll, or play its roll.

    :raises: :exc:`ValueError` if the game is over.
    """
    if game.is_over:
        raise ValueError("the game is over")
    if game.cube is not None and game.cube.offered:
        return Decision(Action.TAKE if takes_double(game) else Action.DROP)
    if game.strike_pending:
        return Decision(Action.STRIKE, value=choose_strike(game, number, seed))
    if game.needs_roll:
        return Decision(Action.DOUBLE if offers_double(game) else Action.ROLL)
    return Decision(Action.PLAY, turn=choose_turn(game, number, seed))


def choose_turn(game: Game, number: int, seed: int) -> Turn | None:
    """Level ``number``'s turn for ``game``'s roll or remainder (None: a pass)."""
    from .computer import Computer

    return Computer(number).choose(game, random.Random(seed))


def choose_strike(game: Game, number: int, seed: int) -> int:
    """The die level ``number`` strikes from the three its opponent rolled (``anti_three``)."""
    from .computer import Computer

    return Computer(number).strike(game, random.Random(seed))


def offers_double(game: Game) -> bool:
    """Whether the computer, to move in ``game`` before its roll, doubles."""
    from .computer import Computer

    return Computer().wants_double(game)


def takes_double(game: Game) -> bool:
    """Whether the computer, offered a double in ``game``, takes it."""
    from .computer import Computer

    return Computer().takes(game)


def hint(game: Game) -> Hint:
    """The strongest level's view of ``game``'s roll (see :class:`Hint`)."""
    from .computer import Computer

    return Hint(Computer(STRONGEST).rank(game))
