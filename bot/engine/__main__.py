"""``python -m bot.engine turns < requests.jsonl``: the legal turns of each request line.

See ``shared/engine-cli.md``. One answer line per request line, in order; bad input is answered
``{"error": ...}`` and makes the command exit with status 2 after the last line.
"""

from __future__ import annotations

import sys

from .cli import answer_line

USAGE = "usage: python -m bot.engine turns < requests.jsonl"


def main(argv: list[str]) -> int:
    """Runs the command; returns the exit status."""
    if argv != ["turns"]:
        sys.stderr.write(USAGE + "\n")
        return 2
    status = 0
    out = sys.stdout
    for line in sys.stdin:
        if not line.strip():
            continue
        text, good = answer_line(line)
        if not good:
            status = 2
        out.write(text + "\n")
        out.flush()
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
