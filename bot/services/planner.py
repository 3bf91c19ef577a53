"""Heavy turns searched in a process of their own, so that they share no interpreter with the
event loop.

A :class:`Planner` searches the turns of move lists longer than :data:`HEAVY_MOVES` (crazy
gul-bara's cascades) in one worker process, which keeps their plans until their turns end, at
most 16 at once (:func:`bot.engine.stepwise.answer`, :func:`~bot.engine.stepwise.forget`): each
question about such a turn goes there, and its small answer comes back and is kept here too.
The engine asks a planner first when one is set (:func:`bot.engine.stepwise.set_planner`); the
bot's composition root sets it. Only a thread may ask (a tap's engine work, or a snapshot's
:meth:`~.games.GameSnapshot.prepare`): the event loop reads the answers kept, never waits for
the process. A worker that dies takes its plans with it; a new one searches them anew
(:class:`~.processes.ProcessPool`).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any, Final, cast

from bot.engine import Played, Position, TurnPlan
from bot.engine.stepwise import PlanKey, answer, forget

from .processes import ProcessPool

Path = tuple[Played, ...]

HEAVY_MOVES: Final = 8
"""Move lists longer than this are searched in the planner's process: crazy gul-bara's
cascades (12 or 24 moves); a double's four moves and three dice's six are searched in the bot's
own process, in microseconds."""
PLANS_KEPT_HERE: Final = 64
"""How many heavy turns' answers this process keeps (the latest asked)."""


class RemotePlan(TurnPlan):
    """A heavy turn's plan as seen from the bot's process: each question goes to the
    :class:`Planner`'s process once, its answer is kept here."""

    def __init__(self, key: PlanKey, planner: Planner) -> None:
        # no search here: TurnPlan's state lives in the worker process
        self.moves = key[1]
        self._key = key
        self._planner = planner
        self._known: dict[tuple[str, tuple[Any, ...]], Any] = {}

    def _ask(self, question: str, *args: Any) -> Any:
        asked = (question, args)
        if asked not in self._known:
            self._known[asked] = self._planner.ask(self._key, question, args)
        return self._known[asked]

    @property
    def nodes(self) -> int:
        return 0  # this process keeps answers only

    @property
    def best(self) -> int:
        return cast(int, self._ask("best"))

    def is_complete(self, path: Path) -> bool:
        return cast(bool, self._ask("is_complete", path))

    def options(self, path: Path) -> tuple[Played, ...]:
        return cast(tuple[Played, ...], self._ask("options", path))

    def current(self, path: Path) -> Position:
        return cast(Position, self._ask("current", path))

    def finishes(self, path: Path, limit: int) -> Mapping[Position, Path] | None:
        return cast("Mapping[Position, Path] | None", self._ask("finishes", path, limit))

    def check(self, path: Path) -> Position | None:
        return cast("Position | None", self._ask("check", path))

    def forget(self) -> None:
        """Its turn has ended: the worker drops the plan, and the planner these answers."""
        self._planner.forget(self._key)


class Planner:
    """Searches heavy turns in a worker process (spawned on first use, so that it shares
    nothing with the bot's threads); :meth:`plan` is what :func:`~bot.engine.stepwise.plan_for`
    asks first."""

    def __init__(self) -> None:
        # the worker imports only the engine (bot.engine.stepwise.answer): it starts fast
        self.pool = ProcessPool("planner")
        self._lock = threading.Lock()
        self._plans: OrderedDict[PlanKey, RemotePlan] = OrderedDict()

    def plan(self, key: PlanKey) -> TurnPlan | None:
        """The plan of a heavy turn (see :data:`HEAVY_MOVES`), None for any other."""
        if len(key[1].values) <= HEAVY_MOVES:
            return None
        with self._lock:
            plan = self._plans.get(key)
            if plan is None:
                plan = self._plans[key] = RemotePlan(key, self)
                while len(self._plans) > PLANS_KEPT_HERE:
                    self._plans.popitem(last=False)
            self._plans.move_to_end(key)
            return plan

    def ask(self, key: PlanKey, question: str, args: tuple[Any, ...]) -> Any:
        """The worker's answer (the calling thread waits for it; never the event loop's)."""
        return self.pool.run(answer, key, question, args)

    def forget(self, key: PlanKey) -> None:
        """Drops the turn ``key``: here at once, in the worker when it comes to it (nobody
        waits for that)."""
        with self._lock:
            self._plans.pop(key, None)
        self.pool.send(forget, key)

    def close(self) -> None:
        """Stops the worker (waiting for a question in progress)."""
        self.pool.close()
