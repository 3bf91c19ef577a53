"""The pure rules engine of nardy: positions, dice, legal turns, step input, games, records.

Variants: long and short nardy, Abkhaz nardy, gul-bara and crazy gul-bara (see
:mod:`bot.engine.rules`); dice modes two, three and anti three for the short variants.
Positions read and write as notation (:meth:`Position.to_text`) and as a 14-character position
ID (:meth:`Position.to_id`, :mod:`bot.engine.position_id`); a game as one line
(:meth:`Game.to_text`, :meth:`Game.from_text`, :mod:`bot.engine.notation`); a turn being input
as its steps with their dice (:func:`taps_text`, :func:`parse_taps`). :meth:`Game.setup` starts
a game at any position.

Standard library only, no I/O, no clock, no global randomness: dice come from an injected
source, a :class:`random.Random` or a game's provably fair :class:`~bot.engine.fair.FairDice`
(:mod:`.verify` checks them from a moves file). Everything here is an immutable value, but for
the dice sources. The names are those of :mod:`.public`, loaded on first use (PEP 562's module
``__getattr__``): add a public name to :mod:`.public`, not here.
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
