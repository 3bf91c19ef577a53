"""Comparing a picture with its golden file, with a tolerance: the boards' and the tournament
pictures' golden tests share it. ``NARDY_REGEN_GOLDEN=1`` writes the golden file instead (and
skips the test)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

MEAN_LIMIT = 1.5
"""Largest mean brightness of the difference (0..255); JPEG storage alone gives about 1."""
LOUD = 48
LOUD_LIMIT = 100
"""At most this many pixels may differ by more than ``LOUD``: storage alone gives none, a die
showing another value about 170, a changed digit of a score some hundreds, a missing last-turn
mark, a moved checker or a moved name thousands."""


def assert_like_golden(
    image: Image.Image, path: Path, tmp_path: Path, *, save: Callable[[Path], object]
) -> None:
    """Fails unless ``image`` looks like the golden file ``path`` within the limits above (the
    new picture and a difference map are left in ``tmp_path``); ``save`` writes the golden file
    when ``NARDY_REGEN_GOLDEN=1``."""
    name = path.stem
    if os.environ.get("NARDY_REGEN_GOLDEN") == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        save(path)
        pytest.skip(f"regenerated {path}")
    assert path.exists(), f"no golden {path}: run with NARDY_REGEN_GOLDEN=1 to create it"
    with Image.open(path) as stored:
        golden = stored.convert("RGB")
    image = image.convert("RGB")
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
