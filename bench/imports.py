"""The shape of ``bot/`` by its own imports: the figures the house issue is judged by.

    python bench/imports.py

Prints, for the package ``bot`` (imports inside functions included, as grimp reads them):

- the modules left flat at the top of ``bot/`` and the packages beside them;
- the import circles between modules (``if TYPE_CHECKING`` imports counted too): strongly
  connected groups of more than one module, with their sizes;
- the arrows pointing back: how many imports would have to go for the module graph to have no
  circle (grimp's nominated cycle breakers, per package, as import-linter's ``acyclic_siblings``
  counts them);
- handler modules importing storage or other handler modules;
- the calls a client must remember after a service call so that boards show a change (the
  board publisher's ``publish``, ``moved_on``, ``show_watchers`` called outside the
  publisher): the change feed makes them the services' job;
- the largest module and its lines.

No assertions: the contracts in pyproject.toml hold the shape; this prints it for the notes.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parent.parent


def strongly_connected(edges: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components of a directed graph, each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []
    sys.setrecursionlimit(10_000)

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in edges.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                group.append(top)
                if top == node:
                    break
            groups.append(sorted(group))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return groups


def main() -> None:
    sys.path.insert(0, str(ROOT))
    graph = grimp.build_graph("bot")
    modules = sorted(graph.modules)
    edges = {m: graph.find_modules_directly_imported_by(m) for m in modules}

    top = sorted(p.stem for p in (ROOT / "bot").glob("*.py") if p.stem != "__init__")
    packages = sorted(p.name for p in (ROOT / "bot").iterdir() if (p / "__init__.py").exists())
    print(f"flat modules at the top of bot/: {len(top)} ({', '.join(top)})")
    print(f"packages in bot/: {len(packages)} ({', '.join(packages)})")

    circles = [g for g in strongly_connected(edges) if len(g) > 1]
    in_circles = sum(len(g) for g in circles)
    print(f"import circles between modules: {len(circles)}, {in_circles} modules in them")
    for group in sorted(circles, key=len, reverse=True):
        print(f"  {len(group)}: {', '.join(group)}")

    back = 0
    for package in sorted(m for m in modules if graph.find_children(m)):
        back += len(graph.nominate_cycle_breakers(package))
    print(f"arrows pointing back (imports to drop for no circle, per package): {back}")

    handlers = [m for m in modules if m.startswith("bot.handlers.")]
    bad = sorted(
        (m, n)
        for m in handlers
        for n in edges[m]
        if n.startswith("bot.storage") or (n.startswith("bot.handlers.") and n != m)
    )
    print(f"handler imports of storage or of other handlers: {len(bad)}")
    for m, n in bad:
        print(f"  {m} -> {n}")

    remembered = re.compile(r"publisher\.(publish|moved_on|show_watchers)\(")
    calls = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in sorted((ROOT / "bot").rglob("*.py"))
        if path.name != "boards.py" or path.parent.name != "messages"
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if remembered.search(line)
    ]
    print(f"board calls a client must remember after a change: {len(calls)}")
    for call in calls:
        print(f"  {call}")

    sizes = {p: len(p.read_text().splitlines()) for p in (ROOT / "bot").rglob("*.py")}
    largest = max(sizes, key=lambda p: sizes[p])
    print(f"largest module: {largest.relative_to(ROOT)} ({sizes[largest]} lines)")


if __name__ == "__main__":
    main()
