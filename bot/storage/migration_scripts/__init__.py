"""The migrations' SQL scripts, in order (see :mod:`bot.storage.migrations`), in modules of a few
hundred lines: a new migration goes at the end of the last module, or begins the next one
(``from_<n>.py``, listed here) when that module would pass 600 lines. A released script is never
edited: databases keep its checksum."""

from __future__ import annotations

from typing import Final

from . import from_1, from_17

SCRIPTS: Final[tuple[str, ...]] = from_1.SCRIPTS + from_17.SCRIPTS
