"""``python -m bot.engine best`` (``shared/engine-cli.md``, "The computer's choice") through
real processes: each answer is one of the entries ``turns`` gives for the same request, a pass
is ``{"turn": null}``, bad input is answered ``{"error": ...}`` with exit status 2 after the
last line; and ``turns`` never loads numpy."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from bot.ai import STRONGEST

ROOT = Path(__file__).resolve().parents[2]
TURNS = ROOT / "tests" / "golden" / "turns"
SETS = ("long", "rulesets", "short", "abkhaz", "three_dice", "gulbara", "crazy_gulbara")
EVERY = 9
"""One request in this many of each golden file of ``turns`` is asked of ``best``."""
SHORT = (
    '{"variant":"short","turn":"white","white":{"24":2,"13":5,"8":3,"6":5},'
    '"black":{"24":2,"13":5,"8":3,"6":5},"dice":[6,5]}'
)


def engine(command: str, lines: list[str], *options: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *options, "-m", "bot.engine", command],
        input="".join(line + "\n" for line in lines),
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )


def answers(command: str, lines: list[str]) -> list[dict[str, Any]]:
    done = engine(command, lines)
    assert done.returncode == 0, done.stderr
    found = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(found) == len(lines)
    return found


def requests() -> list[str]:
    """Requests of every variant, rule switch, three dice and remainders from the golden
    files of ``turns``: every ``EVERY``-th one, and every one answered by a pass or by a
    gul-bara roll with no move."""
    chosen = []
    for name in SETS:
        asked = (TURNS / f"{name}.requests.jsonl").read_text().splitlines()
        told = (TURNS / f"{name}.answers.jsonl").read_text().splitlines()
        for index, (line, answer) in enumerate(zip(asked, told, strict=True)):
            turns = json.loads(answer)["turns"]
            nothing = not turns or (len(turns) == 1 and not turns[0]["moves"])
            if index % EVERY == 0 or nothing:
                chosen.append(line)
    return chosen


def with_choice(line: str, level: int | None, seed: int | None) -> str:
    request = json.loads(line)
    if level is not None:
        request["level"] = level
    if seed is not None:
        request["seed"] = seed
    return json.dumps(request)


def test_best_is_one_of_the_turns() -> None:
    lines = requests()
    asked = [
        with_choice(line, 1 + index % STRONGEST, index) if index % 7 else line  # defaults
        for index, line in enumerate(lines)
    ]
    legal = answers("turns", lines)
    best = answers("best", asked)
    passes = moves = 0
    for request, turns, answer in zip(asked, legal, best, strict=True):
        assert set(answer) <= {"turn", "equity"}, answer
        if not turns["turns"]:
            assert answer == {"turn": None}, request
            passes += 1
            continue
        assert answer["turn"] in turns["turns"], request
        moves += 1
        if "equity" in answer:
            assert -3.0 <= answer["equity"] <= 3.0, answer
    assert passes >= 3 and moves >= 50


def test_an_unplayable_remainder_is_its_one_entry_not_a_pass() -> None:
    """``turns`` answers such a request with one entry (no moves, nothing left): so does
    ``best``, at every level."""
    lines = [
        line
        for line in (TURNS / "crazy_gulbara.requests.jsonl").read_text().splitlines()
        if '"remainder"' in line
    ]
    legal = answers("turns", lines)
    unplayable = [
        (line, turns["turns"][0])
        for line, turns in zip(lines, legal, strict=True)
        if turns["turns"][0]["moves"] == []
    ]
    assert len(unplayable) >= 3
    asked = [with_choice(line, level, 7) for line, _ in unplayable for level in (1, STRONGEST)]
    best = answers("best", asked)
    expected = [only for _, only in unplayable for _level in (1, STRONGEST)]
    assert [answer["turn"] for answer in best] == expected


def test_the_same_seed_gives_the_same_answer() -> None:
    """At level 1, which plays at random, in one process and in another."""
    lines = [with_choice(line, 1, 12345) for line in requests()[::4]]
    first = answers("best", lines + lines)
    assert first[: len(lines)] == first[len(lines) :]
    assert answers("best", lines) == first[: len(lines)]


BAD_LINES = [
    (with_choice(SHORT, 0, None), "level is an integer 1..5"),
    (with_choice(SHORT, STRONGEST + 1, None), "level is an integer 1..5"),
    (SHORT[:-1] + ',"level":"3"}', "level is an integer"),
    (SHORT[:-1] + ',"level":true}', "level is an integer"),
    (SHORT[:-1] + ',"level":2.0}', "level is an integer"),
    (SHORT[:-1] + ',"seed":"x"}', "seed is an integer"),
    (SHORT[:-1] + ',"seed":1.5}', "seed is an integer"),
    (SHORT[:-1] + ',"seed":null}', "seed is an integer"),
    ("{not json", "malformed JSON"),
    ("[1, 2]", "a request is a JSON object"),
    (SHORT.replace('"short"', '"chess"'), "unknown variant 'chess'"),
    (SHORT.replace("[6,5]", "[6,5,1]"), "three dice need the three_dice switch"),
]
"""Bad requests of ``best`` and what their error says."""


def test_bad_input_is_answered_with_an_error() -> None:
    """Each bad line gets an error line, the good ones between them their answers, and the
    command exits with status 2 after the last line (one process answers them all)."""
    lines = [SHORT]
    for line, _ in BAD_LINES:
        lines += [line, SHORT]
    done = engine("best", lines)
    assert done.returncode == 2, done.stderr
    answered = [json.loads(text) for text in done.stdout.splitlines()]
    assert len(answered) == len(lines)
    good, errors = answered[0::2], answered[1::2]
    assert good[0]["turn"]["moves"] and all(answer == good[0] for answer in good)
    for (line, message), error in zip(BAD_LINES, errors, strict=True):
        assert set(error) == {"error"} and message in error["error"], (line, error)


def test_turns_does_not_import_numpy() -> None:
    """``turns`` stays the standard-library engine; ``best`` does load numpy (which shows
    that the check sees it)."""
    turns = engine("turns", [SHORT], "-X", "importtime")
    assert turns.returncode == 0
    imported = {line.split("|")[-1].strip() for line in turns.stderr.splitlines() if "|" in line}
    assert "bot.engine" in imported
    assert not {name for name in imported if name.split(".")[0] == "numpy"}
    assert "bot.ai" not in imported
    best = engine("best", [SHORT], "-X", "importtime")
    assert best.returncode == 0
    assert "numpy" in {line.split("|")[-1].strip() for line in best.stderr.splitlines()}
