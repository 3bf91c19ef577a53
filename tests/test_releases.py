"""The image is built from what the lock pins: every dependency of pyproject.toml (and the
build backend) pinned in requirements.lock, within pyproject's range, with hashes, and the
Dockerfile installing it with --require-hashes on a pinned base."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]
ENVIRONMENT = {"python_full_version": "3.11.14", "python_version": "3.11", "sys_platform": "linux"}
"""The image's Python, for the lock's markers."""


def _locked() -> dict[str, Version]:
    """Each package the lock pins for the image's Python, by its normalised name."""
    text = (ROOT / "requirements.lock").read_text()
    pins: dict[str, Version] = {}
    for entry in re.split(r"\n(?=[a-z0-9])", text):
        head = entry.split("\\", 1)[0].strip()
        if not head or head.startswith("#"):
            continue
        assert "--hash=sha256:" in entry, f"{head}: no hash"
        requirement, _, marker = head.partition(";")
        if marker and not Marker(marker).evaluate(ENVIRONMENT):
            continue
        name, version = requirement.strip().split("==")
        pins[re.sub(r"[-_.]+", "-", name).lower()] = Version(version)
    return pins


def test_the_lock_pins_every_dependency_within_pyproject_s_range() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    wanted = [Requirement(text) for text in project["project"]["dependencies"]]
    wanted += [Requirement(text) for text in project["build-system"]["requires"]]
    pins = _locked()
    for requirement in wanted:
        if requirement.marker and not requirement.marker.evaluate(ENVIRONMENT):
            continue
        name = re.sub(r"[-_.]+", "-", requirement.name).lower()
        assert name in pins, f"{name} is not in requirements.lock: renew it (CHANGELOG.md)"
        assert requirement.specifier.contains(pins[name]), f"{name} {pins[name]} {requirement}"


def test_the_image_installs_the_lock_with_its_hashes_on_a_pinned_base() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert re.search(r"^FROM python:3\.11\.\d+-slim-\w+(@sha256:[0-9a-f]{64})?$", dockerfile, re.M)
    assert "pip install --require-hashes --no-deps -r requirements.lock" in dockerfile
    assert "--no-deps --no-build-isolation ." in dockerfile  # nothing fetched unpinned
    ignored = (ROOT / ".dockerignore").read_text()
    assert "!requirements.lock" in ignored and "!LICENSE" in ignored
