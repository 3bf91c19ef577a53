"""Tournament pictures' inputs, as a tournament service would hand them to render: the golden
samples and fields of any size (for the properties and ``bench/tournament_image.py``)."""

from __future__ import annotations

import random
from typing import Literal

from render.tournament_inputs import (
    Bracket,
    BracketMatch,
    CrossResult,
    Entrant,
    Heading,
    RoundRobinRow,
    RoundRobinTable,
    SwissResult,
    SwissRow,
    SwissTable,
)
from render.tournament_layout import (
    bracket_size,
)

NAMES = (
    "Алексей",
    "Bob",
    "გიორგი",
    "Արամ",
    "Zəhra Əliyeva",
    "Ёжик в тумане",
    "שלמה",
    "Dilnoza",
    "Максимилиан Константинопольский",
    "Олжас",
    "Nino 🎲",
    "Тарас",
)


def seeding(size: int) -> list[int]:
    """Returns the seeds (1-based) in bracket order for ``size`` places: 1 meets ``size``,
    and the top seeds meet as late as possible (1 v 8, 4 v 5, 2 v 7, 3 v 6 ...)."""
    order = [1]
    while len(order) < size:
        n = 2 * len(order)
        order = [s for seed in order for s in (seed, n + 1 - seed)]
    return order


def knockout(players: int, played: int = 0, seed: int = 1, title: str = "Кубок весны") -> Bracket:
    """Returns a bracket of ``players`` seeded players (byes to the top seeds) with its first
    ``played`` rounds decided (random winners and scores) and the next one under way."""
    rng = random.Random(seed)
    size = bracket_size(players)
    entrants = [Entrant(NAMES[i % len(NAMES)], i + 1) for i in range(players)]
    slots: list[Entrant | None] = [entrants[s - 1] if s <= players else None for s in seeding(size)]
    rounds: list[tuple[BracketMatch, ...]] = []
    champion = None
    for r in range(size.bit_length() - 1):
        matches = []
        winners: list[Entrant | None] = []
        for k in range(len(slots) // 2):
            top, bottom = slots[2 * k], slots[2 * k + 1]
            if r == 0 and (top is None or bottom is None):
                through: Literal[0, 1] = 0 if bottom is None else 1
                matches.append(BracketMatch(top, bottom, through))
                winners.append(top or bottom)
            elif r < played and top and bottom:
                won: Literal[0, 1] = rng.choice((0, 1))
                late = rng.random() < 0.2  # the loser's clock ran out
                if late:
                    score = f"{rng.randrange(3)}–{rng.randrange(3)}"
                else:
                    score = f"3–{rng.randrange(3)}"
                note = "по времени" if late else ""
                matches.append(BracketMatch(top, bottom, won, score, note=note))
                winners.append((top, bottom)[won])
            else:
                live = r == played and top is not None and bottom is not None
                matches.append(BracketMatch(top, bottom, score="1–1" if live else "", playing=live))
                winners.append(None)
        rounds.append(tuple(matches))
        slots = winners
        if len(slots) == 1:
            champion = slots[0]
    natural = ("Финал", "Полуфинал", "Четвертьфинал", "1/8 финала", "1/16 финала", "1/32 финала")
    names = list(reversed(natural[: len(rounds)]))
    current = names[min(played, len(rounds) - 1)] if champion is None else "Завершён"
    return Bracket(
        Heading(title, "Олимпийская система", current),
        tuple(rounds),
        tuple(names),
        champion=champion,
        champion_label="Победитель",
        bye="свободен",
    )


def round_robin(players: int, seed: int = 4) -> RoundRobinTable:
    """Returns a cross table of ``players`` with about two thirds of the matches played and
    one under way."""
    rng = random.Random(seed)
    results: dict[tuple[int, int], tuple[str, str]] = {}
    for a in range(players):
        for b in range(a + 1, players):
            roll = rng.random()
            if roll < 0.6:
                results[a, b] = ("win", "loss") if rng.random() < 0.5 else ("loss", "win")
            elif roll < 0.7:
                results[a, b] = ("playing", "playing")
    rows = []
    for a in range(players):
        cells: list[CrossResult | None] = []
        points = 0
        for b in range(players):
            pair = results.get((min(a, b), max(a, b)))
            if a == b or pair is None:
                cells.append(None)
                continue
            outcome = pair[0] if a < b else pair[1]
            score = {"win": "3–1", "loss": "1–3"}.get(outcome, "")
            points += outcome == "win"
            cells.append(CrossResult(outcome, score))  # type: ignore[arg-type]
        rows.append(RoundRobinRow(a + 1, NAMES[a % len(NAMES)], str(points), tuple(cells)))
    return RoundRobinTable(
        Heading("Лига четверга", "Круговая система", "Тур 2"),
        tuple(rows),
        points_label="Очки",
        name_label="Игрок",
    )


def swiss(players: int, rounds: int, played: int, seed: int = 7) -> SwissTable:
    """Returns standings of a Swiss of ``players`` after ``played`` of ``rounds`` rounds
    (random pairings and results, the odd one out a bye), ranked by points."""
    rng = random.Random(seed)
    points = [0.0] * players
    history: list[list[SwissResult]] = [[] for _ in range(players)]
    opponents: list[list[int]] = [[] for _ in range(players)]
    for _ in range(played):
        order = sorted(range(players), key=lambda p: (-points[p], rng.random()))
        if players % 2:
            bye = order.pop()
            history[bye].append(SwissResult("bye"))
            points[bye] += 1
        for a, b in zip(order[::2], order[1::2], strict=True):
            roll = rng.random()
            wa, wb = (
                ("win", "loss")
                if roll < 0.45
                else ("loss", "win")
                if roll < 0.9
                else ("draw", "draw")
            )
            history[a].append(SwissResult(wa, b))  # type: ignore[arg-type]
            history[b].append(SwissResult(wb, a))  # type: ignore[arg-type]
            opponents[a].append(b)
            opponents[b].append(a)
            points[a] += {"win": 1.0, "draw": 0.5}.get(wa, 0.0)
            points[b] += {"win": 1.0, "draw": 0.5}.get(wb, 0.0)
    buchholz = [sum(points[o] for o in opponents[p]) for p in range(players)]
    ranking = sorted(range(players), key=lambda p: (-points[p], -buchholz[p], p))
    rank_of = {p: i + 1 for i, p in enumerate(ranking)}
    rows = []
    for p in ranking:
        shown = [
            SwissResult(r.outcome, None if r.opponent is None else rank_of[r.opponent])
            for r in history[p]
        ]
        shown += [SwissResult("pending")] * (rounds - played)
        rows.append(
            SwissRow(
                rank_of[p],
                NAMES[p % len(NAMES)] if p < len(NAMES) else f"Игрок {p + 1}",
                _points(points[p]),
                _points(buchholz[p]),
                tuple(shown),
            )
        )
    return SwissTable(
        Heading("Швейцарка клуба", "Швейцарская система", f"Тур {played} из {rounds}"),
        tuple(rows),
        round_labels=tuple(str(r + 1) for r in range(rounds)),
        points_label="Очки",
        buchholz_label="Бухгольц",
        name_label="Игрок",
        bye="своб.",
    )


def _points(value: float) -> str:
    whole = int(value)
    return f"{whole}½" if value - whole else str(whole)
