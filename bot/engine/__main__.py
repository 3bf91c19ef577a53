"""``python -m bot.engine turns|best < requests.jsonl``: the legal turns of each request line,
or the computer's choice among them.

See ``shared/engine-cli.md``. ``best`` is answered by :mod:`bot.ai.cli`, imported only for it:
the engine itself stays standard library only, and ``turns`` starts as fast as ever. One answer
line per request line, in order; bad input is answered ``{"error": ...}`` and makes the command
exit with status 2 after the last line.
"""

from __future__ import annotations

import sys

from .cli import answer_line

USAGE = "usage: python -m bot.engine turns|best < requests.jsonl"


def main(argv: list[str]) -> int:
    """Runs the command; returns the exit status."""
    if argv == ["turns"]:
        answer = answer_line
    elif argv == ["best"]:
        from bot.ai.cli import best_line  # the computer player: numpy, loaded on demand

        answer = best_line
    else:
        sys.stderr.write(USAGE + "\n")
        return 2
    status = 0
    out = sys.stdout
    for line in sys.stdin:
        if not line.strip():
            continue
        text, good = answer(line)
        if not good:
            status = 2
        out.write(text + "\n")
        out.flush()
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
