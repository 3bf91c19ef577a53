"""One lock per id, kept only while in use (:class:`bot.services.locks.KeyedLocks`)."""

from __future__ import annotations

import asyncio

from bot.services.locks import KeyedLocks


async def test_one_task_at_a_time_per_key_in_the_order_they_asked() -> None:
    locks: KeyedLocks[int] = KeyedLocks()
    order: list[str] = []

    async def work(key: int, name: str) -> None:
        async with locks.hold(key):
            order.append(f"{name} in")
            await asyncio.sleep(0.01)
            order.append(f"{name} out")

    await asyncio.gather(work(1, "a"), work(1, "b"), work(2, "c"))
    assert order.index("a out") < order.index("b in")  # the same key waits its turn
    assert order.index("c in") < order.index("a out")  # another key does not
    assert len(locks) == 0


async def test_the_table_keeps_only_the_keys_in_use_whatever_was_asked() -> None:
    locks: KeyedLocks[int] = KeyedLocks()
    for key in range(10_000):  # forged ids, each asked for once
        async with locks.hold(key):
            assert len(locks) == 1
    assert len(locks) == 0
    entered = asyncio.Event()
    release = asyncio.Event()

    async def holder() -> None:
        async with locks.hold(7):
            entered.set()
            await release.wait()

    async def waiter() -> None:
        async with locks.hold(7):
            raise AssertionError("a cancelled waiter never gets the lock")

    held = asyncio.create_task(holder())
    await entered.wait()
    waiting = asyncio.create_task(waiter())
    await asyncio.sleep(0)
    assert len(locks) == 1  # one key, held and waited for
    waiting.cancel()
    await asyncio.gather(waiting, return_exceptions=True)
    release.set()
    await held
    assert len(locks) == 0  # the cancelled wait did not leave its key behind
