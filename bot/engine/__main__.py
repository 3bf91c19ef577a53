"""``python -m bot.engine turns|best < requests.jsonl``: the legal turns of each request line,
or the computer's choice among them; ``python -m bot.engine verify FILE``: the dice of a
finished game's moves file checked against its revealed seed (:mod:`.verify`).

See ``shared/engine-cli.md`` for ``turns`` and ``best``, docs/engine.md for ``verify``. ``best`` is
answered by :mod:`bot.ai.cli`, imported only for it: the engine itself stays standard library
only, and ``turns`` starts as fast as ever. One answer line per request line, in order; bad
input is answered ``{"error": ...}`` and makes the command exit with status 2 after the last
line. ``verify`` exits with 0 (OK), 1 (a check failed) or 2 (not a moves file it can check).
"""

from __future__ import annotations

import sys

from .cli import answer_line

USAGE = (
    "usage: python -m bot.engine turns|best < requests.jsonl\n"
    "       python -m bot.engine verify FILE"
)


def verify_file(path: str) -> int:
    """``verify FILE``: prints ``OK: ...`` (exit status 0) or ``FAIL: `` and the first thing
    that does not hold (1); a file that cannot be read or is not a moves file with a revealed
    seed is 2, with the reason on stderr."""
    from .verify import MovesFileError, verify  # loaded on demand, as best's computer player

    try:
        with open(path, encoding="utf-8") as source:
            text = source.read()
        verdict = verify(text)
    except (OSError, UnicodeDecodeError, MovesFileError) as error:
        sys.stderr.write(f"{path}: not a moves file that can be verified: {error}\n")
        return 2
    sys.stdout.write(verdict.text + "\n")
    return 0 if verdict.ok else 1


def main(argv: list[str]) -> int:
    """Runs the command; returns the exit status."""
    if len(argv) == 2 and argv[0] == "verify":
        return verify_file(argv[1])
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
