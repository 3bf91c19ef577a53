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
from typing import Any

import pytest

from bot.engine import Dice, Game, Position, Side, resolve_rules
from bot.engine.cli import answer_line, request

from .reference import TooBig, reference_remainder_turns, reference_remainders
from .strategies import advance, ready

GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "turns"
ROOT = Path(__file__).resolve().parents[2]
SETS = ("long", "short", "rulesets", "abkhaz", "three_dice", "gulbara", "crazy_gulbara")
LARGEST = 300
"""Answers with more turns than this are left out of the golden files (a cascade can have
thousands: a line of megabytes), as are requests too long for the reference to check."""


def _request(
    position: Position,
    dice: Dice | None,
    first: bool,
    rules: dict[str, bool],
    remainder: tuple[int, ...] | None = None,
) -> str:
    return json.dumps(request(position, dice, first_turn=first, rules=rules, remainder=remainder))


HAND_MADE: list[tuple[str, tuple[int, ...] | None, bool, dict[str, bool], tuple[int, ...] | None]]
HAND_MADE = [
    ("long w / 24:15 / 24:15", (6, 6), True, {}, None),
    ("long w / 24:15 / 24:15", (4, 4), True, {}, None),
    ("long w / 24:15 / 24:15", (3, 3), True, {}, None),
    ("long b / 24:14 4:1 / 24:15", (2, 2), True, {}, None),
    ("long w / 24:8 11:2 10:2 9:1 8:1 7:1 / 24:15", (5, 4), False, {}, None),
    ("long w / 24:9 23:2 22:1 15:1 2:1 1:1 / 24:15", (3, 1), False, {}, None),
    ("long w / 24:1 1:14 / 24:14 1:1", (6, 5), False, {}, None),
    ("long w / 6:1 2:1 off:13 / 24:15", (5, 3), False, {}, None),
    ("long w / 8:1 3:1 2:13 / 24:15", (5, 3), False, {}, None),
    # bearing off the last checker does not excuse the full-use rule: 2/off with the 3 alone
    # would end the game, but 2/1 1/off plays both dice (the same position: other moves)
    ("long w / 2:1 off:14 / 24:15", (3, 1), False, {}, None),
    ("short w / bar:1 13:5 8:3 6:5 24:1 / 24:2 13:5 8:3 6:5", (6, 5), False, {}, None),
    ("short w / bar:2 13:5 8:3 6:5 / 6:3 5:3 4:3 3:2 2:2 1:2", (6, 5), False, {}, None),
    # rules.md: last checker on 2, 3-1, a blot on 1: 2/1* 1/off, not 2/off
    ("short w / 2:1 off:14 / 24:1 13:5 8:3 6:6", (3, 1), False, {}, None),
    ("abkhaz w / 2:1 off:14 / 24:1 13:5 8:3 6:6", (3, 1), False, {}, None),
    ("abkhaz w / 24:2 13:5 8:3 6:5 / 24:2 21:1 13:5 8:3 6:4", (4, 2), False, {}, None),
    ("abkhaz w / 24:2 13:5 8:3 6:5 / 24:2 22:1 21:1 13:5 8:3 6:3", (4, 3), False, {}, None),
    ("abkhaz w / 6:1 3:2 2:2 off:10 / 20:1 13:14", (1, 3), False, {}, None),
    ("abkhaz w / 5:1 off:14 / 24:2 21:1 13:12", (1, 4), False, {}, None),
    ("three_dice short w / 12:1 off:14 / 24:2 6:13", (2, 2, 2), False, {}, None),
    ("three_dice short w / 12:1 off:14 / 24:2 23:2 6:11", (2, 2, 2), False, {}, None),
    ("three_dice short w / 13:1 off:14 / 24:2 23:2 6:11", (6, 5, 1), False, {}, None),
    ("three_dice abkhaz w / 13:1 off:14 / 24:2 23:2 6:11", (3, 3, 1), False, {}, None),
    (
        "three_dice abkhaz w / 24:2 13:5 8:3 6:5 / 24:2 21:1 13:5 8:3 6:4",
        (4, 2, 1),
        False,
        {},
        None,
    ),
    ("gulbara w / 24:1 1:14 / 24:14 1:1", (6, 5), False, {}, None),
    ("gulbara w / 24:15 / 24:15", (6, 6), False, {}, None),
    ("gulbara w / 24:15 / 24:15", (6, 6), True, {}, None),
    ("gulbara w / 24:1 1:14 / 24:13 7:1 6:1", (6, 5), False, {}, None),
    ("gulbara w / 24:15 / 24:15", None, True, {}, (6, 6)),
    ("gulbara w / 24:15 / 24:15", None, False, {}, (6, 5)),
    ("gulbara w / 24:1 5:14 / 24:13 6:2", None, False, {}, (6, 1)),
    ("gulbara w / 24:1 5:14 / 24:13 6:2", None, False, {}, (1, 6)),
    ("crazy_gulbara w / 24:15 / 24:15", (6, 6), True, {}, None),
    ("crazy_gulbara w / 24:15 / 24:15", (6, 6), False, {}, None),
    ("crazy_gulbara w / 24:15 / 24:15", (5, 5), True, {}, None),
    ("crazy_gulbara w / 24:15 / 24:15", (6, 6), True, {"four_per_value": True}, None),
    ("crazy_gulbara w / 20:1 1:14 / 24:13 3:2", (4, 4), False, {}, None),
    ("crazy_gulbara w / 21:1 2:14 / 24:13 3:2", (3, 3), False, {}, None),
    ("crazy_gulbara w / 2:1 off:14 / 24:15", None, False, {}, (3, 4, 4, 5, 5, 6, 6)),
    # remainders of which nothing can be played: one entry, no moves, nothing left (issue 27)
    (
        "crazy_gulbara b / 19:1 18:3 4:1 3:1 2:4 1:5 / 18:2 4:2 3:1 2:2 1:8",
        None,
        False,
        {},
        (4, 5, 5, 6, 6),
    ),
    ("crazy_gulbara w / 18:1 5:1 4:4 3:3 2:2 1:4 / 19:3 18:7 2:1 1:4", None, False, {}, (5, 2)),
    ("crazy_gulbara b / 24:11 20:1 8:1 1:2 / 24:11 16:1 4:2 1:1", None, False, {}, (4, 5, 5, 6, 6)),
]
"""Hand-made requests: ``(position, dice, first_turn, rules, remainder)``; a position text
prefixed ``three_dice`` goes to that set, with the switch on."""

_SELF_PLAY: dict[str, tuple[str, str, list[dict[str, bool]]]] = {
    "long": ("long", "two", [{}]),
    "short": ("short", "two", [{}]),
    "rulesets": ("long", "two", [{"higher_die_first": True}, {"karzar_block": True}]),
    "abkhaz": ("abkhaz", "two", [{}]),
    "three_dice": ("abkhaz", "three", [{"three_dice": True}]),
    "gulbara": ("gulbara", "two", [{}]),
    "crazy_gulbara": ("crazy_gulbara", "two", [{}, {"four_per_value": True}]),
}


def _cases(name: str) -> list[str]:
    lines: list[str] = []
    rng = random.Random(f"golden-{name}")
    if name == "rulesets":
        switches = [{"higher_die_first": True}, {"karzar_block": True}]
        lines += [
            _request(Position.from_text("long w / 8:1 5:1 off:13 / 24:15"), Dice(5, 2), False, s)
            for s in switches
        ]
    for text, dice, first, rules, remainder in HAND_MADE:
        three = text.startswith("three_dice ")
        text = text.removeprefix("three_dice ")
        if (name == "three_dice") != three or (not three and text.split()[0] != name):
            continue
        if three:
            rules = {**rules, "three_dice": True}
        position = Position.from_text(text)
        lines.append(_request(position, Dice(*dice) if dice else None, first, rules, remainder))
    variant, mode, switch_list = _SELF_PLAY[name]
    for index in range({"rulesets": 2, "three_dice": 6}.get(name, 4)):
        if name == "three_dice":
            variant = ("short", "abkhaz")[index % 2]
        switch = switch_list[index % len(switch_list)]
        rules_name = "international" if switch.get("four_per_value") else None
        game = Game.start(variant, rng, rules=rules_name, dice_mode=mode)
        while not game.is_over:
            game = ready(game, rng)
            if rng.random() < 0.25:
                if game.remainder:
                    line = _request(game.position, None, False, switch, game.remainder)
                else:
                    line = _request(game.position, game.dice, game.first_turn, switch)
                if _checkable(line):
                    lines.append(line)
            game = advance(game, rng)
    return lines


def _checkable(line: str) -> bool:
    """Whether the reference can check the request's answer and the answer is short enough."""
    try:
        _expected(json.loads(line))
    except TooBig:
        return False
    answer, _ = answer_line(line)
    return len(json.loads(answer)["turns"]) <= LARGEST


def _position(variant: str, turn: Side, entry: dict[str, Any]) -> Position:
    sides = {"white": [0] * 26, "black": [0] * 26}
    for name, values in sides.items():
        for point, count in entry[name].items():
            values[int(point)] = count
        values[25], values[0] = entry["bar"][name], entry["off"][name]
    return Position(variant, turn, tuple(sides["white"]), tuple(sides["black"]))


def _expected(request: dict[str, Any]) -> dict[Position, set[tuple[int, ...]]]:
    """The reference's answer: each position with the remainders that reach it."""
    turn = Side.WHITE if request["turn"] == "white" else Side.BLACK
    position = _position(request["variant"], turn, request)
    rules = resolve_rules(request["variant"], request.get("rules"))
    if "remainder" in request:
        found = reference_remainder_turns(position, tuple(request["remainder"]), rules, 200_000)
        return {p: {()} for p in found}
    dice = Dice(*request["dice"])
    return reference_remainders(position, dice, request["first_turn"], rules, budget=200_000)


def _checked_answer(request_line: str) -> str:
    """Answers a request and checks the answer against the reference before it is stored."""
    request = json.loads(request_line)
    answer, good = answer_line(request_line)
    assert good, answer
    turn = Side.WHITE if request["turn"] == "white" else Side.BLACK
    expected = _expected(request)
    entries = json.loads(answer)["turns"]
    hands_on = request["variant"] in ("gulbara", "crazy_gulbara")
    if hands_on and not expected:
        # nothing can be played: one entry, no moves, the position unchanged; a roll is handed
        # over whole, a remainder is lost
        (entry,) = entries
        assert entry["moves"] == []
        assert entry["remainder"] if "dice" in request else entry["remainder"] == []
        assert _position(request["variant"], turn, entry) == _position(
            request["variant"], turn, request
        )
        return answer
    got: dict[Position, set[tuple[int, ...]]] = {}
    for entry in entries:
        after = _position(request["variant"], turn.other, entry)
        assert after not in got, f"one position twice: {after}"
        assert ("remainder" in entry) == hands_on
        got[after] = {tuple(entry["remainder"])} if hands_on else set()
    assert set(got) == set(expected)
    if hands_on:
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
    assert len(requests) == len(answers) > 5
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
GUL = GOOD.replace('"long"', '"gulbara"')
CRAZY = GOOD.replace('"long"', '"crazy_gulbara"')
SHORT = (
    '{"variant":"short","turn":"white","white":{"24":2,"13":5,"8":3,"6":5},'
    '"black":{"24":2,"13":5,"8":3,"6":5},"dice":[6,5]}'
)


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
        # only the contract's own keys: no other digits, no leading zero, no spaces
        (GOOD.replace('{"24":15},"black"', '{"²":15},"black"'), "point '²' is outside 1..24"),
        (GOOD.replace('{"24":15},"black"', '{"24":14,"01":1},"black"'), "point '01' is outside"),
        (GOOD.replace('{"24":15},"black"', '{"24":14," 1":1},"black"'), "point ' 1' is outside"),
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
        # the new variants' fields and switches
        (SHORT.replace("[6,5]", "[6,5,1]"), "three dice need the three_dice switch"),
        (SHORT[:-1] + ',"rules":{"three_dice":true}}', "dice are three values 1..6 (three_dice)"),
        (
            SHORT.replace("[6,5]", "[6,5,7]")[:-1] + ',"rules":{"three_dice":true}}',
            "dice are three values 1..6",
        ),
        (SHORT[:-1] + ',"rules":{"three_dice":"yes"}}', "takes true or false"),
        (GOOD.replace("[6,5]", "[6,5,1]"), "dice are two values 1..6, not"),
        (GOOD[:-1] + ',"rules":{"three_dice":true}}', "unknown rule switch 'three_dice'"),
        (GUL[:-1] + ',"rules":{"three_dice":true}}', "unknown rule switch 'three_dice'"),
        (GUL[:-1] + ',"rules":{"four_per_value":true}}', "unknown rule switch 'four_per_value'"),
        (
            SHORT.replace('"short"', '"abkhaz"')[:-1] + ',"rules":{"four_per_value":true}}',
            "unknown rule switch 'four_per_value' (known: three_dice)",
        ),
        (
            CRAZY[:-1] + ',"rules":{"higher_die_first":true}}',
            "unknown rule switch 'higher_die_first' (known: four_per_value)",
        ),
        (GOOD.replace('"dice":[6,5]', '"remainder":[6,5]'), "remainder is for gulbara"),
        (SHORT.replace('"dice":[6,5]', '"remainder":[6]'), "remainder is for gulbara"),
        (GUL[:-1] + ',"remainder":[6,5]}', "dice or a remainder, not both"),
        (GUL.replace('"dice":[6,5]', '"remainder":[]'), "remainder is a list of 1..24 moves"),
        (GUL.replace('"dice":[6,5]', '"remainder":[7]'), "remainder is a list of 1..24 moves"),
        (GUL.replace('"dice":[6,5]', '"remainder":[0,5]'), "remainder is a list"),
        (GUL.replace('"dice":[6,5]', '"remainder":[1.5]'), "remainder is a list"),
        (GUL.replace('"dice":[6,5]', '"remainder":"6,5"'), "remainder is a list"),
        (GUL.replace('"dice":[6,5]', '"remainder":[1' + ",1" * 24 + "]"), "remainder is a list"),
        (CRAZY.replace('"dice":[6,5]', '"remainder":[true]'), "remainder is a list"),
        (GUL.replace("[6,5]", "[6,5,4]"), "dice are two values 1..6, not"),
        (GUL.replace('"dice":[6,5]', '"dice":null'), "dice are two values"),
        (GUL.replace('"24":15},"dice"', '"24":14},"bar":{"black":1},"dice"'), "has no bar"),
        (
            GUL.replace('"gulbara"', '"gul_bara"'),
            "unknown variant 'gul_bara' (known: long, short, ",
        ),
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


def test_gulbara_answers_carry_the_remainder() -> None:
    start = json.loads(answer_line(GUL.replace("[6,5]", "[6,6]"))[0])
    assert start == {
        "turns": [
            {
                "moves": [[24, 18]],
                "white": {"18": 1, "24": 14},
                "black": {"24": 15},
                "bar": {"white": 0, "black": 0},
                "off": {"white": 0, "black": 0},
                "remainder": [6, 6, 6],
            }
        ]
    }
    # a remainder request: what is left is lost, so every entry leaves nothing
    played = json.loads(answer_line(GUL.replace('"dice":[6,5]', '"remainder":[6,6]'))[0])
    assert [t["remainder"] for t in played["turns"]] == [[]]
    # no legal move: one entry without moves, the position as it was, the whole roll over
    blocked = (
        '{"variant":"crazy_gulbara","turn":"white","white":{"24":1,"1":14},'
        '"black":{"24":13,"7":1,"6":1},"dice":[6,5]}'
    )
    (entry,) = json.loads(answer_line(blocked)[0])["turns"]
    assert entry["moves"] == [] and entry["remainder"] == [6, 5]
    assert entry["white"] == {"1": 14, "24": 1}
    # ... and a remainder that cannot be played is one entry too, with nothing left: it is lost
    lost = blocked.replace('"dice":[6,5]', '"remainder":[6,5]')
    (entry,) = json.loads(answer_line(lost)[0])["turns"]
    assert entry["moves"] == [] and entry["remainder"] == []
    assert entry["white"] == {"1": 14, "24": 1}
    # and other variants have no remainder field at all
    assert "remainder" not in json.loads(answer_line(GOOD)[0])["turns"][0]


def test_first_turn_does_not_apply_to_a_remainder() -> None:
    line = GUL.replace('"dice":[6,5]', '"remainder":[6,6]')
    with_first = line[:-1] + ',"first_turn":true}'
    assert answer_line(line) == answer_line(with_first)


def test_usage() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bot.engine"], capture_output=True, text=True, cwd=ROOT
    )
    assert done.returncode == 2 and "usage" in done.stderr
