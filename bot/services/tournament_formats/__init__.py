"""Tournament formats, each in a module of its own (a :class:`~.rules.FormatRules`: how
its rounds are paired, how many, who wins, bracket or table), and :data:`FORMATS`, the
table the service and the views read them from. A new format: a member of
:class:`~bot.model.TournamentFormat`, its module here and its row below (and its name and
picture in :mod:`bot.views.tournament_formats`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from bot.model import TournamentFormat

from .knockout import KNOCKOUT
from .round_robin import ROUND_ROBIN
from .rules import FormatRules, results, seeds, withdrawn
from .swiss import SWISS

FORMATS: Final[Mapping[TournamentFormat, FormatRules]] = {
    TournamentFormat.KNOCKOUT: KNOCKOUT,
    TournamentFormat.ROUND_ROBIN: ROUND_ROBIN,
    TournamentFormat.SWISS: SWISS,
}
if set(FORMATS) != set(TournamentFormat):  # pragma: no cover - a format without its rules
    raise RuntimeError(f"formats without rules: {set(TournamentFormat) - set(FORMATS)}")

__all__ = ["FORMATS", "FormatRules", "results", "seeds", "withdrawn"]
