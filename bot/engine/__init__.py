"""The pure rules engine of nardy: positions, dice, legal turns, step input, games, records.

Variants: long and short nardy, Abkhaz nardy, gul-bara and crazy gul-bara (see
:mod:`bot.engine.rules`); dice modes two, three and anti three for the short variants.

Positions have two text forms: the notation (:meth:`Position.to_text`, to read) and the
position ID (:meth:`Position.to_id`, 14 characters to share: the variant in 3 bits, the side to
move in 1, each side's checkers per point in unary as in GNU Backgammon's key, in base64url; the
exact format is in :mod:`bot.engine.position_id`). :meth:`Game.setup` starts a game at any
position. A whole game has one text form too, everything in it on one line
(:meth:`Game.to_text`, :meth:`Game.from_text`; the form is in :mod:`bot.engine.notation`), and
so has a turn being input, its steps with their dice (:func:`taps_text`, :func:`parse_taps`).

Standard library only, no I/O, no clock, no global randomness: dice come from an injected
source, a :class:`random.Random` or a game's provably fair :class:`~bot.engine.fair.FairDice`
(:mod:`.fair`; :mod:`.verify` checks them from a moves file). Everything here is an immutable
value, but for the dice sources.

The names are those of :mod:`.public`, loaded on first use (PEP 562's module ``__getattr__``):
``python -m bot.engine turns`` imports this package before its command, and needs only the
rules and :mod:`.cli`; importing the whole engine first (games, the fair dice and hashlib,
records, stakes and fractions, step input) made its start-up take 83 ms of CPU instead of 60
(where ``PYTHONDONTWRITEBYTECODE`` is set, as in the Dockerfile, every module imported is
compiled from source at every start). Add a public name to :mod:`.public`, not here.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .public import *  # noqa: F403  (the checkers see every name; run time loads them lazily)
else:

    def __getattr__(name: str) -> object:
        """Loads :mod:`.public` on the first use of one of its names and keeps them all here,
        where later reads find them without calling this."""
        public = import_module(".public", __name__)  # not ``from . import``: that asks here
        if name != "__all__" and name not in public.__all__:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        globals().update({key: getattr(public, key) for key in public.__all__})
        return public.__all__ if name == "__all__" else globals()[name]

    def __dir__() -> list[str]:
        public = import_module(".public", __name__)
        return sorted({*globals(), *public.__all__})
