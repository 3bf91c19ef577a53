"""Golden images: the gallery samples compared with the pictures kept in tests/golden/render/.

A comparison allows the small differences of JPEG storage and of another FreeType build, and
catches anything a player would notice: a checker moved, a mark or a die missing, a colour
changed. After an intended change of the look, look at the new pictures and regenerate::

    NARDY_REGEN_GOLDEN=1 python -m pytest tests/render/test_render_golden.py

On a failure the new picture and a difference map are written to pytest's temporary folder,
named in the failure message.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

from render import render_image
from render.gallery import samples

GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "render"
NAMES = (
    "long-opening",
    "long-selected",
    "long-black-view",
    "long-finished",
    "short-bar",
    "long-names",
    "long-cube-owned",
    "short-cube-offered",
    "long-cube-centred",
    "short-cube-crowded-bar",
    "short-three-dice",
    "abkhaz-triple",
    "short-anti-three-pending",
    "abkhaz-anti-three-struck",
    "crazy-cascade",
    "crazy-four-per-value",
    "gulbara-remainder",
    "gulbara-chain",
)
MEAN_LIMIT = 1.5
"""Largest mean brightness of the difference (0..255); JPEG storage alone gives about 1."""
LOUD = 48
LOUD_LIMIT = 100
"""At most this many pixels may differ by more than ``LOUD``: storage alone gives none, a die
showing another value about 170, a missing last-turn mark or a moved checker thousands."""


@pytest.mark.parametrize("name", NAMES)
def test_golden(name: str, tmp_path: Path) -> None:
    _, position, view = next(sample for sample in samples() if sample[0] == name)
    image = render_image(position, view=view)
    path = GOLDEN / f"{name}.jpg"
    if os.environ.get("NARDY_REGEN_GOLDEN") == "1":
        GOLDEN.mkdir(parents=True, exist_ok=True)
        image.save(path, "JPEG", quality=90, subsampling=0)
        pytest.skip(f"regenerated {path}")
    assert path.exists(), f"no golden {path}: run with NARDY_REGEN_GOLDEN=1 to create it"
    with Image.open(path) as stored:
        golden = stored.convert("RGB")
    assert golden.size == image.size
    difference = ImageChops.difference(image, golden).convert("L")
    mean = ImageStat.Stat(difference).mean[0]
    loud = sum(difference.histogram()[LOUD + 1 :])
    if mean > MEAN_LIMIT or loud > LOUD_LIMIT:
        image.save(tmp_path / f"{name}.png")
        difference.point(lambda v: min(255, v * 4)).save(tmp_path / f"{name}-difference.png")
        pytest.fail(
            f"{name} differs from {path}: mean {mean:.2f} (limit {MEAN_LIMIT}), "
            f"{loud} pixels off by more than {LOUD} (limit {LOUD_LIMIT}); "
            f"new picture and difference map in {tmp_path}. If the change is intended, "
            "regenerate with NARDY_REGEN_GOLDEN=1."
        )
