"""``python -m bot.engine best``: the computer's turn for each request (``shared/engine-cli.md``).

The engine's command line hands ``best`` here (lazily, so that ``turns`` never loads numpy).
A request is a ``turns`` request with two optional fields, ``level`` (1..5, the strongest by
default) and ``seed`` (an integer, 0 by default); the answer is ``{"turn": <entry>, "equity":
<the mover's expected points after it>}``, or ``{"turn": null}`` for a pass.
"""

from __future__ import annotations

import json
import random
from typing import Any

from bot.engine import NardyError
from bot.engine.cli import BadRequest, entry, situation

from .computer import Computer
from .levels import STRONGEST


def best_line(line: str) -> tuple[str, bool]:
    """Answers one request line; returns the answer line and whether the request was good."""
    try:
        request = json.loads(line)
    except ValueError as error:
        return _error(f"malformed JSON: {error}"), False
    try:
        return json.dumps(best(request), separators=(",", ":")), True
    except (BadRequest, NardyError) as error:
        return _error(str(error)), False


def best(request: Any) -> dict[str, Any]:
    """Answers one decoded request.

    :raises: :exc:`BadRequest` or an engine error for bad input.
    """
    game, turns, with_remainder = situation(request)
    number = request.get("level", STRONGEST)
    if type(number) is not int or not 1 <= number <= STRONGEST:
        raise BadRequest(f"level is an integer 1..{STRONGEST}, not {number!r}")
    seed = request.get("seed", 0)
    if type(seed) is not int:
        raise BadRequest(f"seed is an integer, not {seed!r}")
    if not turns:
        return {"turn": None}
    if len(turns) == 1 and not turns[0].played:  # gul-bara: nothing to play, the roll passes
        return {"turn": entry(turns[0], with_remainder)}
    picked = Computer(number).pick(game, random.Random(seed))
    assert picked is not None
    chosen, equity = picked
    # the entry ``turns`` gives for the same result (a cascade played step by step may reach
    # it by another order of steps)
    turn = next(
        t for t in turns if (t.position, t.remainder) == (chosen.position, chosen.remainder)
    )
    return {"turn": entry(turn, with_remainder), "equity": round(equity, 4)}


def _error(message: str) -> str:
    return json.dumps({"error": message}, ensure_ascii=False)
