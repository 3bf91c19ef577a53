"""Names and rooms: the figures the naming issue is judged by.

    python bench/names.py [--list]

Prints, for ``bot/`` and ``render/`` (``--list`` names every case):

- names with more than one meaning: a public class defined in two or more modules under one
  name (imports and re-exports are not definitions; a protocol of the model and the storage
  class implementing it are one meaning), and the public constants and functions defined in
  two or more modules, listed apart (mostly one word in several scopes: ``ATTEMPTS``; the
  conventions ``create_router`` and ``main`` and type variables are left out);
- module names that mean two things: a module beside a package of nearly the same name
  (``web.py`` beside ``webapp/``);
- inert suppressions: the ``noqa`` comments ruff's ``RUF100`` reports as suppressing nothing;
- ``type: ignore`` comments in ``tests/``;
- copies of the tests' clock: classes named ``*Clock`` defined in ``tests/`` outside
  ``tests/support``;
- long module docstrings: modules whose docstring runs over 20 lines;
- the largest module and its lines.

No assertions: ruff, mypy and the contracts hold the shape; this prints it for the notes.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("bot", "render")
LONG_DOCSTRING = 20


def sources() -> list[Path]:
    return sorted(p for package in PACKAGES for p in (ROOT / package).rglob("*.py"))


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


CONVENTIONS = frozenset({"create_router", "main"})
"""Names every module of a kind defines alike: a handler module's router, an entry point."""


def classes(tree: ast.Module) -> dict[str, bool]:
    """The public classes a module defines, each with whether it is a protocol."""
    return {
        node.name: any(
            (isinstance(base, ast.Name) and base.id == "Protocol")
            or (isinstance(base, ast.Subscript) and getattr(base.value, "id", "") == "Protocol")
            for base in node.bases
        )
        for node in tree.body
        if isinstance(node, ast.ClassDef) and not node.name.startswith("_")
    }


def definitions(tree: ast.Module) -> set[str]:
    """The public functions and constants a module defines at its top level."""
    found: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            found.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Name) and target.id.isupper():
                    found.add(target.id)
    return {
        name
        for name in found
        if not name.startswith("_") and name not in CONVENTIONS and len(name) > 1
    }


def shared_classes(paths: list[Path]) -> dict[str, list[str]]:
    """Classes of one name in several modules, but a protocol and its implementations."""
    defined: dict[str, list[tuple[str, bool]]] = defaultdict(list)
    for path in paths:
        for name, protocol in classes(ast.parse(path.read_text())).items():
            defined[name].append((module_name(path), protocol))
    return {
        name: [module for module, _ in where]
        for name, where in sorted(defined.items())
        if len(where) > 1 and not _implemented(where)
    }


def _implemented(where: list[tuple[str, bool]]) -> bool:
    """Whether the definitions are the model's protocol and the storage's implementations."""
    return all(
        module.startswith("bot.model") if protocol else module.startswith("bot.storage")
        for module, protocol in where
    ) and any(protocol for _, protocol in where)


def shared_names(paths: list[Path]) -> dict[str, list[str]]:
    defined: dict[str, list[str]] = defaultdict(list)
    for path in paths:
        for name in definitions(ast.parse(path.read_text())):
            defined[name].append(module_name(path))
    return {name: modules for name, modules in sorted(defined.items()) if len(modules) > 1}


def twin_modules() -> list[str]:
    """Modules beside a package whose name starts with theirs (``web.py`` and ``webapp/``)."""
    twins = []
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if path.stem == "__init__":
                continue
            for sibling in path.parent.iterdir():
                if (
                    sibling.is_dir()
                    and (sibling / "__init__.py").exists()
                    and sibling.name != path.stem
                    and sibling.name.startswith(path.stem)
                ):
                    twins.append(f"{path.relative_to(ROOT)} beside {sibling.relative_to(ROOT)}/")
    return sorted(twins)


def inert_suppressions() -> list[str]:
    result = subprocess.run(
        # --extend-select, not --select: with RUF100 alone every other code in a noqa reads as
        # not enabled, so each suppression looks inert
        [sys.executable, "-m", "ruff", "check", "--extend-select", "RUF100"]
        + ["--output-format", "json", "--no-cache", *PACKAGES, "tests", "bench"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    found = json.loads(result.stdout or "[]")
    return sorted(
        f"{Path(item['filename']).relative_to(ROOT)}:{item['location']['row']}"
        for item in found
        if item["code"] == "RUF100"
    )


def test_lines(marker: str) -> list[str]:
    return [
        f"{path.relative_to(ROOT)}:{number}"
        for path in sorted((ROOT / "tests").rglob("*.py"))
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if marker in line
    ]


def copied_clocks() -> list[str]:
    found = []
    for path in sorted((ROOT / "tests").rglob("*.py")):
        if "support" in path.relative_to(ROOT / "tests").parts:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ClassDef) and node.name.endswith("Clock"):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name}")
    return found


def long_docstrings(paths: list[Path]) -> list[tuple[int, str]]:
    found = []
    for path in paths:
        docstring = ast.get_docstring(ast.parse(path.read_text()), clean=False)
        if docstring is not None and docstring.count("\n") + 1 > LONG_DOCSTRING:
            found.append((docstring.count("\n") + 1, str(path.relative_to(ROOT))))
    return sorted(found, reverse=True)


def report(title: str, items: list[str], listed: bool) -> None:
    print(f"{title}: {len(items)}")
    if listed:
        for item in items:
            print(f"  {item}")


def main() -> None:
    listed = "--list" in sys.argv
    paths = sources()
    report(
        "classes with more than one meaning",
        [f"{name}: {', '.join(modules)}" for name, modules in shared_classes(paths).items()],
        listed,
    )
    report(
        "constants and functions defined in several modules",
        [f"{name}: {', '.join(modules)}" for name, modules in shared_names(paths).items()],
        listed,
    )
    report("modules beside a package of nearly their name", twin_modules(), listed)
    report("inert suppressions (RUF100)", inert_suppressions(), listed)
    report("type: ignore in tests", test_lines("type: ignore"), listed)
    report("copies of the tests' clock", copied_clocks(), listed)
    report(
        f"module docstrings over {LONG_DOCSTRING} lines",
        [f"{path} ({lines} lines)" for lines, path in long_docstrings(paths)],
        listed,
    )
    sizes = {path: len(path.read_text().splitlines()) for path in paths}
    largest = max(sizes, key=lambda path: sizes[path])
    print(f"largest module: {largest.relative_to(ROOT)} ({sizes[largest]} lines)")
    over = sorted((lines, str(p.relative_to(ROOT))) for p, lines in sizes.items() if lines >= 600)
    report("modules of 600 lines or more", [f"{p} ({n})" for n, p in reversed(over)], listed)


if __name__ == "__main__":
    main()
