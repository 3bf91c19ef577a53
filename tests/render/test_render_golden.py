"""Golden images: the gallery samples compared with the pictures kept in tests/golden/render/.

A comparison allows the small differences of JPEG storage and of another FreeType build, and
catches anything a player would notice: a checker moved, a mark or a die missing, a colour
changed. After an intended change of the look, look at the new pictures and regenerate::

    NARDY_REGEN_GOLDEN=1 python -m pytest tests/render/test_render_golden.py

On a failure the new picture and a difference map are written to pytest's temporary folder,
named in the failure message.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from render import render_image
from render.gallery import samples
from tests.render.golden import assert_like_golden

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
    "long-worst-move-arrows",
    "short-arrows-bar-hit-off",
)


@pytest.mark.parametrize("name", NAMES)
def test_golden(name: str, tmp_path: Path) -> None:
    _, position, view = next(sample for sample in samples() if sample[0] == name)
    image = render_image(position, view=view)
    path = GOLDEN / f"{name}.jpg"
    assert_like_golden(
        image, path, tmp_path, save=lambda to: image.save(to, "JPEG", quality=90, subsampling=0)
    )
