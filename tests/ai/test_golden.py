"""The shipped weights load and reproduce the evaluations recorded in
``tests/golden/ai/evaluations.json``: about ten fixed positions per family (openings, races,
self-play positions, gul-bara remainders), each with the net's five probabilities and the
equity by the default rule set.

After shipping new weights (a deliberate change), regenerate the file with::

    NARDY_REGEN_GOLDEN=1 python -m pytest tests/ai/test_golden.py
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import pytest

from bot.ai.evaluator import WEIGHTS, evaluator
from bot.ai.network import Network
from bot.engine import Position, resolve_rules

from .games import played

GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "ai" / "evaluations.json"
TOLERANCE = 1e-5
"""float32 arithmetic may differ in the last bits between numpy builds and machines."""

FIXED: dict[str, list[tuple[str, tuple[int, ...]]]] = {
    "long": [
        ("long w / 24:15 / 24:15", ()),
        ("long b / 24:14 13:1 / 24:15", ()),
        ("long w / 6:3 5:3 4:3 3:2 2:2 1:2 / 6:5 5:5 4:3 3:2", ()),
        ("long w / 6:1 2:1 off:13 / 24:15", ()),
        ("gulbara w / 24:15 / 24:15", (6, 6)),
        ("crazy_gulbara w / 2:1 off:14 / 24:15", (3, 4, 4, 5, 5, 6, 6)),
    ],
    "short": [
        ("short w / 24:2 13:5 8:3 6:5 / 24:2 13:5 8:3 6:5", ()),
        ("short w / bar:1 13:5 8:3 6:5 24:1 / 24:2 13:5 8:3 6:5", ()),
        ("short w / 6:3 5:3 4:3 3:2 2:2 1:2 / 6:5 5:5 4:3 3:2", ()),
        ("abkhaz w / 24:2 13:5 8:3 6:5 / 24:2 21:1 13:5 8:3 6:4", ()),
    ],
}
"""Hand-made positions per family, with the remainder the side to move must play first."""
SELF_PLAY: dict[str, tuple[tuple[str, str], ...]] = {
    "long": (("long", "classic"), ("gulbara", "classic"), ("crazy_gulbara", "classic")),
    "short": (("short", "standard"), ("abkhaz", "standard")),
}


def cases() -> dict[str, list[tuple[str, tuple[int, ...]]]]:
    """The positions of each family: the hand-made ones, then seeded self-play ones (random
    legal turns) until there are ten."""
    found = {family: list(fixed) for family, fixed in FIXED.items()}
    for family, plays in SELF_PLAY.items():
        rng = random.Random(f"golden-ai-{family}")
        index = 0
        while len(found[family]) < 10:
            variant, rules = plays[index % len(plays)]
            game, _ = played(variant, "two", rules, rng.randrange(2**32), rng.randrange(10, 60))
            found[family].append((game.position.to_text(), game.remainder))
            index += 1
    return found


def evaluations(family: str, texts: list[tuple[str, tuple[int, ...]]]) -> list[dict[str, Any]]:
    """The shipped net's probabilities and equity (by each variant's default rules, for the
    side to move) of each position."""
    rows = []
    for text, remainder in texts:
        position = Position.from_text(text)
        net = evaluator(position.variant)
        assert net.family == family
        pending = [remainder] if remainder else None
        probabilities = net.probabilities([position], pending)[0]
        rules = resolve_rules(position.variant, None)
        equity = net.equities_for(position.turn, [position], rules, pending)[0]
        rows.append(
            {
                "position": text,
                "remainder": list(remainder),
                "probabilities": [round(float(p), 7) for p in probabilities],
                "equity": round(float(equity), 7),
            }
        )
    return rows


def weights_info(family: str) -> dict[str, str]:
    return Network.load(WEIGHTS / f"{family}.npz").info


def generate() -> dict[str, Any]:
    return {
        family: {"weights": weights_info(family), "evaluations": evaluations(family, texts)}
        for family, texts in cases().items()
    }


def golden_text(golden: dict[str, Any]) -> str:
    """The golden file's text: one line per evaluation, for readable diffs."""
    parts = []
    for family, found in golden.items():
        rows = ",\n".join(f"   {json.dumps(row)}" for row in found["evaluations"])
        parts.append(
            f' "{family}": {{\n  "weights": {json.dumps(found["weights"])},\n'
            f'  "evaluations": [\n{rows}\n  ]\n }}'
        )
    return "{\n" + ",\n".join(parts) + "\n}\n"


@pytest.mark.parametrize("family", ["long", "short"])
def test_shipped_weights_reproduce_the_golden_evaluations(family: str) -> None:
    if os.environ.get("NARDY_REGEN_GOLDEN") == "1":
        GOLDEN.parent.mkdir(parents=True, exist_ok=True)
        GOLDEN.write_text(golden_text(generate()))
        pytest.skip(f"regenerated {GOLDEN}")
    assert GOLDEN.exists(), f"no golden {GOLDEN}: run with NARDY_REGEN_GOLDEN=1 to create it"
    golden = json.loads(GOLDEN.read_text())[family]
    info = weights_info(family)
    assert info == golden["weights"], (
        f"{family}.npz is not the net the golden file was made with (now {info}, recorded "
        f"{golden['weights']}): after shipping new weights, regenerate with NARDY_REGEN_GOLDEN=1"
    )
    recorded = golden["evaluations"]
    texts = [(row["position"], tuple(row["remainder"])) for row in recorded]
    for row, now in zip(recorded, evaluations(family, texts), strict=True):
        assert now["probabilities"] == pytest.approx(row["probabilities"], abs=TOLERANCE), row
        assert now["equity"] == pytest.approx(row["equity"], abs=TOLERANCE), row
        probabilities = now["probabilities"]
        assert all(0.0 <= p <= 1.0 for p in probabilities)
        assert -3.0 <= now["equity"] <= 3.0


def test_the_shipped_nets_are_the_families() -> None:
    for variant, family in (("long", "long"), ("gulbara", "long"), ("abkhaz", "short")):
        net = evaluator(variant)
        assert net.family == family
        assert net.network.info.get("family") == family
