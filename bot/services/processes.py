"""Worker processes that heal: a process pool that is replaced when one of its workers dies.

A :class:`~concurrent.futures.ProcessPoolExecutor` whose worker dies (killed by the kernel for
memory, by an operator, by a crash in native code) is broken for good: every later call raises
:exc:`~concurrent.futures.process.BrokenProcessPool`. A :class:`ProcessPool` notices that,
starts a new pool and tries the call once more there; the failure is logged once, with what
the workers' exit codes say, and counted (:attr:`ProcessPool.restarts`, which ``/metrics``
reads). A call that breaks the new pool too raises: that is the call's own fault, not the
pool's.

The workers are spawned (they share nothing with the event loop's threads) and start on the
first call. Calls come from the event loop (:meth:`ProcessPool.call`) or from threads
(:meth:`ProcessPool.run`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import signal
import threading
from collections.abc import Callable, Mapping
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.process import BaseProcess
from typing import Any, TypeVar

logger = logging.getLogger(__name__)

T = TypeVar("T")


class ProcessPool:
    """``workers`` spawned worker processes, replaced when they break; ``name`` says whose
    they are in the logs and the metrics (``computer``, ``planner``)."""

    def __init__(self, name: str, workers: int = 1) -> None:
        self.name = name
        self.restarts = 0
        """How many times a broken pool was replaced."""
        self._workers = workers
        self._lock = threading.Lock()
        self._pool: ProcessPoolExecutor | None = None

    def _executor(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._pool is None:
                self._pool = ProcessPoolExecutor(
                    self._workers, mp_context=multiprocessing.get_context("spawn")
                )
            return self._pool

    def _replace(self, broken: ProcessPoolExecutor, error: BrokenProcessPool) -> None:
        """Drops ``broken`` (once, whoever notices first) so that the next call starts anew.
        Blocks while the broken pool's own thread finishes (it has found the dead worker, so
        that is soon): call it on a thread."""
        with self._lock:
            if self._pool is not broken:
                return  # replaced already by a call that failed with it
            self._pool = None
            self.restarts += 1
        workers = dict(getattr(broken, "_processes", None) or {})
        # once its thread is done, every worker is reaped and has its exit code
        broken.shutdown(wait=True, cancel_futures=True)
        logger.warning(
            "the %s worker process died (%s; %s); starting a new one",
            self.name,
            error,
            _exit_codes(workers),
        )

    async def call(self, function: Callable[..., T], *args: Any) -> T:
        """``function(*args)`` in a worker, awaited (for the event loop)."""
        loop = asyncio.get_running_loop()
        for attempt in (1, 2):
            pool = self._executor()
            try:
                return await loop.run_in_executor(pool, function, *args)
            except BrokenProcessPool as error:
                await asyncio.to_thread(self._replace, pool, error)
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def run(self, function: Callable[..., T], *args: Any) -> T:
        """``function(*args)`` in a worker; the calling thread waits (never the event loop's)."""
        for attempt in (1, 2):
            pool = self._executor()
            try:
                return pool.submit(function, *args).result()
            except BrokenProcessPool as error:
                self._replace(pool, error)
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def send(self, function: Callable[..., Any], *args: Any) -> Future[Any] | None:
        """``function(*args)`` in a worker, nobody waiting for it; None when there is no pool
        (none started, or shut down): a worker that never started has nothing to be told."""
        with self._lock:
            pool = self._pool
        if pool is None:
            return None
        with contextlib.suppress(RuntimeError):  # broken or shut down meanwhile
            return pool.submit(function, *args)
        return None

    @property
    def pids(self) -> list[int]:
        """The worker processes' ids (none before the first call)."""
        with self._lock:
            pool = self._pool
        processes = getattr(pool, "_processes", None) or {}
        return sorted(processes)

    def close(self) -> None:
        """Stops the workers (waiting for calls in progress)."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)


def _exit_codes(workers: Mapping[int, BaseProcess]) -> str:
    """What a broken pool's workers' exit codes say, e.g. ``worker 812 killed by SIGKILL``."""
    said = []
    for pid, process in sorted(workers.items()):
        code = process.exitcode
        if code is None:
            continue
        if code < 0:
            with contextlib.suppress(ValueError):
                said.append(f"worker {pid} killed by {signal.Signals(-code).name}")
                continue
        said.append(f"worker {pid} exited with {code}")
    return ", ".join(said) or "no exit code known"
