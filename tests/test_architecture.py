"""The architecture and lint rules hold: checked by the real tools, not by hope."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=120)


def test_import_contracts_hold() -> None:
    """The engine imports no project or third-party code; render/storage/services no aiogram."""
    done = _run(str(Path(sys.executable).with_name("lint-imports")))
    assert done.returncode == 0, done.stdout + done.stderr


def test_ruff_is_clean() -> None:
    done = _run(sys.executable, "-m", "ruff", "check", ".")
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_strict_is_clean() -> None:
    """``mypy --strict`` on the packages (``[tool.mypy]`` in pyproject.toml)."""
    done = _run(sys.executable, "-m", "mypy")
    assert done.returncode == 0, done.stdout + done.stderr


def test_engine_cli_starts_without_bot_dependencies() -> None:
    """``python -m bot.engine`` imports neither aiogram nor Pillow (bot/__init__.py is empty)."""
    code = (
        "import sys, runpy; sys.argv=['x']; "
        "import bot.engine.__main__; "
        "bad = [m for m in ('aiogram', 'PIL', 'aiosqlite', 'asyncio') if m in sys.modules]; "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    done = _run(sys.executable, "-c", code)
    assert done.returncode == 0, done.stdout + done.stderr
    assert (ROOT / "bot" / "__init__.py").read_text().strip() == ""
