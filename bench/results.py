"""What ending a game costs in the game service, on a real SQLite file.

    python bench/results.py [--games N] [--repeat R] [--not-durable]

Each game is accepted, played for six turns, then resigned. "plain" is a single game with no
stake; "match+stake" is a game of a match to 9 with the cube and a 10-chip stake, whose result
also writes the ledger, the match score and both ratings in the same transaction. Prints the
median milliseconds of the resignation (the save of the result), of one confirmed turn (its
save: the cost of durability) and of one whole turn, over R runs. The bot commits turns,
results and new games at ``synchronous = FULL`` (they survive a power cut) and the rest at
NORMAL; ``--not-durable`` commits everything at NORMAL, to compare. No assertions: figures go
into the issue notes.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.services import Games, GameSnapshot, compose
from bot.storage import Store, open_database
from bot.storage.database import Params


async def _turn(service: Games, snapshot: GameSnapshot, confirms: list[float]) -> GameSnapshot:
    stored, game = snapshot.stored, snapshot.game
    mover = stored.player(game.turn)
    if game.dice is None:
        snapshot = await service.roll(stored.id, mover, stored.version)
        if snapshot.turn_input is None or snapshot.game.turn is not game.turn:
            return snapshot
    assert snapshot.turn_input is not None
    while not snapshot.turn_input.is_complete:
        snapshot = await service.choose(snapshot.stored.id, mover, snapshot.stored.version, 0)
    started = time.perf_counter()
    snapshot = await service.confirm(snapshot.stored.id, mover, snapshot.stored.version)
    confirms.append(time.perf_counter() - started)
    return snapshot


class NotDurable(Store):
    """A store whose durable commits are not: everything at ``synchronous = NORMAL``."""

    def transaction(self, *, durable: bool = False) -> AbstractAsyncContextManager[Any]:
        return super().transaction(durable=False)

    async def write(self, sql: str, params: Params = (), *, durable: bool = False) -> int:
        return await super().write(sql, params, durable=False)


async def run(
    games: int, options: dict[str, int | str], store_type: type[Store]
) -> tuple[list[float], list[float], list[float]]:
    """Returns the seconds of each resignation, each Confirm and each whole turn."""
    with tempfile.TemporaryDirectory() as folder:
        db = await open_database(Path(folder) / "bench.sqlite3")
        services = compose(store_type(db), random.Random(5), move_seconds=60)
        service = services.games
        alice = await services.users.see(1, username="a", first_name="A", language_code=None)
        bob = await services.users.see(2, username="b", first_name="B", language_code=None)
        ends: list[float] = []
        turns: list[float] = []
        confirms: list[float] = []
        for _ in range(games):
            challenge = await services.challenges.open(
                chat_id=-1, challenger=alice, target=bob, locale="en"
            )
            for option, value in options.items():
                while getattr(challenge, option) != value:
                    name = {"match_length": "match"}.get(option, option)
                    challenge = await services.challenges.change_option(
                        challenge.id, alice.id, challenge.version, name
                    )
            _, snapshot = await services.lobby.accept(challenge.id, bob)
            for _ in range(6):
                if snapshot.game.is_over:
                    break
                started = time.perf_counter()
                snapshot = await _turn(service, snapshot, confirms)
                turns.append(time.perf_counter() - started)
            if snapshot.game.is_over:
                continue
            started = time.perf_counter()
            await service.resign(snapshot.stored.id, bob.id)
            ends.append(time.perf_counter() - started)
        await db.close()
        return ends, confirms, turns


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=150)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--not-durable", action="store_true", help="every commit at NORMAL")
    args = parser.parse_args()
    kinds: dict[str, dict[str, int | str]] = {
        "plain": {},
        "match+stake": {"match_length": 9, "cube": True, "stake": 10},
    }
    for name, options in kinds.items():
        end_medians, confirm_medians, turn_medians = [], [], []
        for _ in range(args.repeat):
            store_type = NotDurable if args.not_durable else Store
            ends, confirms, turns = asyncio.run(run(args.games, options, store_type))
            end_medians.append(statistics.median(ends))
            confirm_medians.append(statistics.median(confirms))
            turn_medians.append(statistics.median(turns))
        end_ms = statistics.median(end_medians) * 1000
        confirm_ms = statistics.median(confirm_medians) * 1000
        turn_ms = statistics.median(turn_medians) * 1000
        kind = "not durable" if args.not_durable else "durable"
        print(
            f"{name:12} {kind}: result saved {end_ms:.2f} ms · Confirm"
            f" {confirm_ms:.2f} ms · a whole turn {turn_ms:.2f} ms (medians, {args.games} games"
            f" × {args.repeat} runs)"
        )


if __name__ == "__main__":
    main()
