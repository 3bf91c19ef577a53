"""The automatic analysis's queue under a burst of finished games: queueing, the cap, draining.

    python bench/analysis_queue.py [--burst 500] [--cap 2000] [--workers 1] [--sample 20]
                                   [--turns 60] [--runs 3] [--full]

On an SQLite file: a few rated games of short nardy are played through the services (the
first step offered each turn, ``--turns`` turns, then resigned) and copied into ``--burst``
finished games, which are queued at once, as if they had all ended together. Printed:

- the time to queue them (the queue's ``INSERT`` and count, in each result's transaction);
- the backlog after the burst with ``--cap`` (and how many were dropped), then again with a
  cap of a fifth of the burst, to show that it stays bounded and the oldest go;
- draining: ``--workers`` analysts (one each per process of a :class:`Brain` of that many
  workers) work ``--sample`` games, timed; the median over ``--runs`` of games a minute per
  worker, and the time the whole burst would take to drain at that rate (``--full`` drains
  it all instead, and prints the time it took).

No assertions: the figures go into docs/computer.md and the issue notes.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import bot.ai  # noqa: F401  (before numpy: it limits numpy's BLAS threads)
from bot.model import StoredGame, User
from bot.services import Services, compose
from bot.services.computer import Brain
from bot.storage import Store, open_database


async def _played(services: Services, users: list[User], turns: int) -> StoredGame:
    """A rated short game of the two, ``turns`` turns of the first step offered, resigned."""
    service = services.games
    challenge = await services.challenges.open(
        chat_id=-5, challenger=users[0], target=users[1], locale="en"
    )
    while challenge.terms.variant != "short":
        challenge = await services.challenges.change_option(
            challenge.id, users[0].id, challenge.version, "variant"
        )
    _, snapshot = await services.lobby.accept(challenge.id, users[1])
    for _ in range(turns):
        if snapshot.game.is_over:
            break
        mover = snapshot.stored.player(snapshot.game.turn)
        while snapshot.turn_input is not None and not snapshot.turn_input.is_complete:
            snapshot = await service.choose(snapshot.stored.id, mover, snapshot.stored.version, 0)
        snapshot = await service.confirm(snapshot.stored.id, mover, snapshot.stored.version)
    if not snapshot.game.is_over:
        loser = snapshot.stored.player(snapshot.game.turn)
        snapshot = await service.resign(snapshot.stored.id, loser)
    return snapshot.stored


async def _copies(store: Store, originals: list[int], count: int) -> list[int]:
    """``count`` copies of the finished games ``originals`` (round robin), as new games."""
    columns = [
        row[1]
        for row in await store.database.fetch_all("PRAGMA table_info(games)")
        if row[1] != "id"
    ]
    names = ", ".join(columns)
    ids = []
    for n in range(count):
        ids.append(
            await store.database.insert(
                f"INSERT INTO games ({names}) SELECT {names} FROM games WHERE id = ? RETURNING id",
                (originals[n % len(originals)],),
            )
        )
    return ids


async def _drain(services: Services, workers: int, games: int | None) -> tuple[int, float]:
    """``workers`` loops of :meth:`work_one` until ``games`` are done (None: the queue is
    empty); returns the games done and the seconds taken."""
    auto = services.auto_analyses
    done = 0
    began = time.perf_counter()

    async def loop() -> None:
        nonlocal done
        while games is None or done < games:
            analysed = await auto.work_one()
            if analysed is None:
                return
            if analysed.stored is not None:
                done += 1

    await asyncio.gather(*(loop() for _ in range(workers)))
    return done, time.perf_counter() - began


async def main(args: argparse.Namespace) -> None:
    folder = Path(tempfile.mkdtemp(prefix="nardy-queue-"))
    db = await open_database(folder / "bench.sqlite3")
    store = Store(db)
    brain = Brain(args.workers)
    services = compose(store, random.Random(1), brain)
    users = [
        await services.users.see(i, username=n, first_name=n, language_code="en")
        for i, n in ((1, "anna"), (2, "boris"))
    ]
    auto = services.auto_analyses
    try:
        originals = [(await _played(services, users, args.turns)).id for _ in range(5)]
        await store.database.write("DELETE FROM analysis_queue")
        turns = statistics.mean(
            len(g.history) for g in [await store.games.get(i) for i in originals] if g
        )
        ids = await _copies(store, originals, args.burst)
        auto.backlog = args.cap
        began = time.perf_counter()
        for game_id in ids:
            stored = await store.games.get(game_id)
            assert stored is not None
            async with store.transaction():
                await auto.queue(stored, time.time())
        queued = time.perf_counter() - began
        print(
            f"burst of {args.burst} games (~{turns:.0f} history lines each) queued in "
            f"{queued:.2f} s ({1000 * queued / args.burst:.2f} ms a game); backlog "
            f"{await auto.pending()} with cap {args.cap}, {auto.dropped} dropped"
        )
        small = max(1, args.burst // 5)
        auto.backlog, dropped_before = small, auto.dropped
        for game_id in ids[-10:]:  # ten more results with a cap of a fifth of the burst
            await store.database.write("DELETE FROM analysis_queue WHERE game_id = ?", (game_id,))
            stored = await store.games.get(game_id)
            assert stored is not None
            await auto.queue(stored, time.time())
        print(
            f"with a cap of {small}: backlog {await auto.pending()}, "
            f"{auto.dropped - dropped_before} of the oldest dropped"
        )
        await _drain(services, args.workers, args.workers)  # the workers start, nets load
        if args.full:
            done, seconds = await _drain(services, args.workers, None)
            print(
                f"drained {done} games in {seconds:.0f} s with {args.workers} worker(s): "
                f"{60 * done / seconds / args.workers:.1f} games a minute a worker"
            )
            return
        rates = []
        for _ in range(args.runs):
            done, seconds = await _drain(services, args.workers, args.sample)
            rates.append(60 * done / seconds / args.workers)
        rate = statistics.median(rates)
        left = await auto.pending()
        print(
            f"draining with {args.workers} worker(s): {rate:.1f} games a minute a worker "
            f"(median of {args.runs} runs of {args.sample} games; runs "
            f"{', '.join(f'{r:.1f}' for r in rates)}); the {small}-game backlog drains in "
            f"~{small / rate / args.workers:.1f} min, a burst of {args.burst} in "
            f"~{args.burst / rate / args.workers:.1f} min ({left} left now)"
        )
    finally:
        await asyncio.to_thread(brain.close)
        await db.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--burst", type=int, default=500)
    parser.add_argument("--cap", type=int, default=2000)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--sample", type=int, default=20)
    parser.add_argument("--turns", type=int, default=60)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--full", action="store_true")
    asyncio.run(main(parser.parse_args()))
