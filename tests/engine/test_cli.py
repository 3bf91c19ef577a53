"""The command-line contract (``shared/engine-cli.md``): golden files and bad input.

Golden files live in ``tests/golden/turns/``: ``NAME.requests.jsonl`` and the expected
``NAME.answers.jsonl``, exactly the CLI's request and answer lines. The same files drive the
Python API (``answer_line``) and a real ``python -m bot.engine turns`` process. To regenerate
after a deliberate rules change (each answer is first checked against ``reference.py``):

    NARDY_REGEN_GOLDEN=1 python -m pytest tests/engine/test_cli.py
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from bot.engine import Dice, Game, Position, Side, resolve_rules
from bot.engine.cli import answer_line, request

from .reference import reference_turns

GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "turns"
ROOT = Path(__file__).resolve().parents[2]
SETS = ("long", "short", "rulesets")


def _request(position: Position, dice: Dice, first: bool, rules: dict[str, bool]) -> str:
    return json.dumps(request(position, dice, first_turn=first, rules=rules))


HAND_MADE = [
    ("long w / 24:15 / 24:15", (6, 6), True),
    ("long w / 24:15 / 24:15", (4, 4), True),
    ("long w / 24:15 / 24:15", (3, 3), True),
    ("long b / 24:14 4:1 / 24:15", (2, 2), True),
    ("long w / 24:8 11:2 10:2 9:1 8:1 7:1 / 24:15", (5, 4), False),
    ("long w / 24:9 23:2 22:1 15:1 2:1 1:1 / 24:15", (3, 1), False),
    ("long w / 24:1 1:14 / 24:14 1:1", (6, 5), False),
    ("long w / 6:1 2:1 off:13 / 24:15", (5, 3), False),
    ("long w / 8:1 3:1 2:13 / 24:15", (5, 3), False),
    ("short w / bar:1 13:5 8:3 6:5 24:1 / 24:2 13:5 8:3 6:5", (6, 5), False),
    ("short w / bar:2 13:5 8:3 6:5 / 6:3 5:3 4:3 3:2 2:2 1:2", (6, 5), False),
]


def _cases(name: str) -> list[str]:
    lines: list[str] = []
    rng = random.Random(f"golden-{name}")
    if name == "rulesets":
        switches = [{"higher_die_first": True}, {"karzar_block": True}]
        lines += [
            _request(Position.from_text("long w / 8:1 5:1 off:13 / 24:15"), Dice(5, 2), False, s)
            for s in switches
        ]
        variants = ["long"] * 2
    else:
        lines += [
            _request(Position.from_text(text), Dice(*d), first, {})
            for text, d, first in HAND_MADE
            if text.startswith(name)
        ]
        variants = [name] * 4
    for index, variant in enumerate(variants):
        game = Game.start(variant, rng)
        switch = switches[index % 2] if name == "rulesets" else {}
        while not game.is_over:
            if game.dice is None:
                game = game.roll(rng)
            assert game.dice is not None
            if rng.random() < 0.25:
                lines.append(_request(game.position, game.dice, game.first_turn, switch))
            turns = game.legal_turns()
            game = game.play(rng.choice(turns)) if turns else game.pass_turn()
    return lines


def _checked_answer(request_line: str) -> str:
    """Answers a request and checks the answer against the reference before it is stored."""
    request = json.loads(request_line)
    answer, good = answer_line(request_line)
    assert good, answer
    turn = Side.WHITE if request["turn"] == "white" else Side.BLACK

    def slots(name: str) -> tuple[int, ...]:
        values = [0] * 26
        for point, count in request[name].items():
            values[int(point)] = count
        values[25], values[0] = request["bar"][name], request["off"][name]
        return tuple(values)

    position = Position(request["variant"], turn, slots("white"), slots("black"))
    rules = resolve_rules(request["variant"], request.get("rules"))
    expected = reference_turns(position, Dice(*request["dice"]), request["first_turn"], rules)
    got = set()
    for entry in json.loads(answer)["turns"]:
        sides = {"white": [0] * 26, "black": [0] * 26}
        for name, values in sides.items():
            for point, count in entry[name].items():
                values[int(point)] = count
            values[25], values[0] = entry["bar"][name], entry["off"][name]
        white, black = tuple(sides["white"]), tuple(sides["black"])
        got.add(Position(request["variant"], turn.other, white, black))
    assert got == expected
    return answer


@pytest.mark.parametrize("name", SETS)
def test_golden_through_the_python_api(name: str) -> None:
    requests_file = GOLDEN / f"{name}.requests.jsonl"
    answers_file = GOLDEN / f"{name}.answers.jsonl"
    if os.environ.get("NARDY_REGEN_GOLDEN"):
        GOLDEN.mkdir(parents=True, exist_ok=True)
        requests = _cases(name)
        requests_file.write_text("\n".join(requests) + "\n")
        answers_file.write_text("\n".join(_checked_answer(r) for r in requests) + "\n")
    requests = requests_file.read_text().splitlines()
    answers = answers_file.read_text().splitlines()
    assert len(requests) == len(answers) > 10
    for index, (line, expected) in enumerate(zip(requests, answers, strict=True)):
        got, good = answer_line(line)
        assert good and got == expected, f"line {index + 1}: {line}"


def _cli(stdin: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot.engine", "turns"],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )


def test_golden_through_the_cli() -> None:
    requests: list[str] = []
    answers: list[str] = []
    for name in SETS:
        requests += (GOLDEN / f"{name}.requests.jsonl").read_text().splitlines()
        answers += (GOLDEN / f"{name}.answers.jsonl").read_text().splitlines()
    done = _cli("\n".join(requests) + "\n")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == answers


GOOD = '{"variant":"long","turn":"white","white":{"24":15},"black":{"24":15},"dice":[6,5]}'


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{not json", "malformed JSON"),
        ("[1, 2]", "a request is a JSON object"),
        (GOOD.replace('"long"', '"chess"'), "unknown variant 'chess'"),
        (GOOD.replace('"24":15},"dice"', '"24":14},"dice"'), "black has 14 checkers"),
        (GOOD.replace('{"24":15},"black"', '{"24":14,"12":1},"black"'), "both colours"),
        (GOOD.replace('{"24":15},"black"', '{"24":14,"25":1},"black"'), "outside 1..24"),
        (GOOD.replace('{"24":15},"black"', '{"24":14,"0":1},"black"'), "outside 1..24"),
        (GOOD.replace("[6,5]", "[7,5]"), "dice are two values 1..6"),
        (GOOD.replace("[6,5]", "[6]"), "dice are two values 1..6"),
        (GOOD.replace('"white","white"', '"red","white"'), "turn is 'white' or 'black'"),
        (GOOD[:-1] + ',"rules":{"fast":true}}', "unknown rule switch 'fast'"),
        (GOOD[:-1] + ',"rules":{"karzar_block":1}}', "takes true or false"),
        (
            GOOD.replace('"long"', '"short"')[:-1] + ',"rules":{"karzar_block":true}}',
            "unknown rule switch 'karzar_block' (known: three_dice)",
        ),
        (GOOD[:-1] + ',"bar":{"white":1}}', "white has 16 checkers"),
        (GOOD[:-1] + ',"first_turn":"yes"}', "first_turn is true or false"),
    ],
)
def test_bad_input_gets_a_clear_error_line(line: str, message: str) -> None:
    answer, good = answer_line(line)
    assert not good
    assert message in json.loads(answer)["error"]


def test_bad_lines_do_not_stop_the_batch_and_exit_status_is_2() -> None:
    done = _cli(f"{GOOD}\n{{oops\n\n{GOOD}\n")
    lines = done.stdout.splitlines()
    assert done.returncode == 2
    assert len(lines) == 3
    assert "turns" in json.loads(lines[0]) and "error" in json.loads(lines[1])
    assert lines[0] == lines[2]
    assert json.loads(lines[0])["turns"][0]["moves"] == [[24, 18], [18, 13]]


def test_usage() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bot.engine"], capture_output=True, text=True, cwd=ROOT
    )
    assert done.returncode == 2 and "usage" in done.stderr
