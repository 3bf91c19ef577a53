"""What the bot counts for ``/metrics`` (Prometheus), and the few calls that count it.

One :class:`Metrics` per bot instance, each with its own :class:`CollectorRegistry` rather
than prometheus-client's global one: tests run several bots in one process, and a restarted bot
starts from zero as a restarted process would. Beside the bot's own (``nardy_``), the registry
has prometheus-client's process, platform and garbage-collector collectors (``process_`` memory,
CPU, open files; ``python_info``; ``python_gc_``), and ``nardy_build_info`` names the release.
``deploy/`` has a Grafana dashboard and Prometheus alert rules over them.

The parts that count are handed it (the update tracker and the tap middlewares read it from
the dispatcher's workflow data, the link to Telegram and the board publisher are given it) and
make one call each.

Latencies are measured with :func:`time.perf_counter`; the start of an update is kept in a
context variable, so the answer to a press (sent later in the same task) can be timed from the
moment its update entered the dispatcher.
"""

from __future__ import annotations

import contextvars
import time
from collections.abc import Iterable, Iterator, Sequence
from importlib import metadata
from typing import Final, Protocol

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    GCCollector,
    Histogram,
    Info,
    PlatformCollector,
    ProcessCollector,
    generate_latest,
)
from prometheus_client.metrics_core import CounterMetricFamily, Metric
from prometheus_client.registry import Collector

CONTENT_TYPE: Final = "text/plain; version=0.0.4; charset=utf-8"
"""What :meth:`Metrics.render` writes: Prometheus's classic text format, which every
Prometheus reads (prometheus-client's own ``CONTENT_TYPE_LATEST`` names another version in some
releases)."""

LATENCY_BUCKETS: Final = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
"""Seconds: a tap is answered in milliseconds; a board waits seconds for a group's pace."""

_update_started: contextvars.ContextVar[float | None] = contextvars.ContextVar(
    "update_started", default=None
)


def release() -> str:
    """This installation's version (its git tag's, see pyproject.toml), or ``unknown``."""
    try:
        return metadata.version("nardy-bot")
    except metadata.PackageNotFoundError:
        return "unknown"


class Restarting(Protocol):
    """Worker processes that are replaced when they die
    (:class:`~bot.services.processes.ProcessPool`)."""

    @property
    def name(self) -> str: ...

    @property
    def restarts(self) -> int: ...


class _WorkerRestarts(Collector):
    """``nardy_worker_restarts_total``: read from the pools at scrape time, so that the pools
    need not know the metrics."""

    def __init__(self) -> None:
        self.pools: Sequence[Restarting] = ()

    def collect(self) -> Iterator[Metric]:
        family = CounterMetricFamily(
            "nardy_worker_restarts",
            "Worker process pools replaced because a worker died (the call was tried again on "
            "the new one), by pool: computer (moves, hints, analyses) or planner (cascades).",
            labels=["pool"],
        )
        for pool in self.pools:
            family.add_metric([pool.name], pool.restarts)
        yield family

    def describe(self) -> Iterator[Metric]:
        return self.collect()


class Metrics:
    """The bot's metrics (names prefixed ``nardy_``) and the registry ``/metrics`` serves."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        registry = self.registry
        ProcessCollector(registry=registry)
        PlatformCollector(registry=registry)
        GCCollector(registry=registry)
        Info("nardy_build", "The release this process runs.", registry=registry).info(
            {"version": release()}
        )
        self.healthy = Gauge(
            "nardy_healthy",
            "1 while the database answers (/healthz 200), 0 when it does not (/healthz 503); "
            "read at scrape time.",
            registry=registry,
        )
        self.updates = Counter(
            "nardy_updates_handled",
            "Updates that went through the dispatcher, by kind (message, callback_query...).",
            ["kind"],
            registry=registry,
        )
        self.taps = Counter(
            "nardy_taps_handled",
            "Presses of inline buttons: played (done), refused (an alert: stale, not yours...) "
            "or throttled (a user flooding refused presses).",
            ["outcome"],
            registry=registry,
        )
        self.tap_latency = Histogram(
            "nardy_tap_answer_seconds",
            "From a press's update entering the dispatcher to Telegram's answer to "
            "answerCallbackQuery.",
            buckets=LATENCY_BUCKETS,
            registry=registry,
        )
        self.board_edits = Counter(
            "nardy_board_edits",
            "Board messages brought to a game's state (edited or sent), or not (failed).",
            ["result"],
            registry=registry,
        )
        self.board_latency = Histogram(
            "nardy_board_edit_seconds",
            "Drawing, pacing and sending one board message, retries included.",
            buckets=LATENCY_BUCKETS,
            registry=registry,
        )
        self.flood_waits = Counter(
            "nardy_telegram_flood_waits",
            "429 Too Many Requests answers from Telegram, by method.",
            ["method"],
            registry=registry,
        )
        self.flood_wait_seconds = Counter(
            "nardy_telegram_retry_after_seconds",
            "Seconds Telegram asked the bot to wait (retry_after of its 429 answers).",
            registry=registry,
        )
        self.games_in_progress = Gauge(
            "nardy_games_in_progress",
            "Unfinished games in the database (at scrape time; NaN when it cannot be read).",
            registry=registry,
        )
        self.timers_due = Gauge(
            "nardy_timers_due",
            "Deadlines passed and not yet acted on, by kind: move (a game's clock) or "
            "challenge (an open challenge's expiry). Staying above zero means the timers lag.",
            ["kind"],
            registry=registry,
        )
        self.analyses_done = Counter(
            "nardy_analyses_done",
            "Finished rated games analysed automatically (luck and PR) by this process.",
            registry=registry,
        )
        self.analyses_dropped = Counter(
            "nardy_analyses_dropped",
            "Games dropped unanalysed from the automatic analysis's full queue (the oldest).",
            registry=registry,
        )
        self.analysis_backlog = Gauge(
            "nardy_analysis_backlog",
            "Finished games waiting for their automatic analysis (as of the analyst's last look).",
            registry=registry,
        )
        self.update_errors = Counter(
            "nardy_update_errors",
            "Updates whose handling failed unexpectedly (each logged with its traceback).",
            registry=registry,
        )
        self.failed_updates = 0
        """The same count, for ``/ops``."""
        self._restarts = _WorkerRestarts()
        registry.register(self._restarts)

    def update_started(self) -> None:
        """Notes, for this task, when the update it handles entered the dispatcher."""
        _update_started.set(time.perf_counter())

    def update_handled(self, kind: str) -> None:
        """Counts an update of ``kind`` that the dispatcher is done with."""
        self.updates.labels(kind).inc()

    def update_failed(self) -> None:
        """Counts an update whose handling failed unexpectedly."""
        self.update_errors.inc()
        self.failed_updates += 1

    def tap(self, outcome: str) -> None:
        """Counts a press: ``played``, ``refused`` or ``throttled``."""
        self.taps.labels(outcome).inc()

    def tap_answered(self) -> None:
        """Times the answer to the press whose update this task handles (if it is one)."""
        started = _update_started.get()
        if started is not None:
            self.tap_latency.observe(time.perf_counter() - started)

    def board_shown(self, seconds: float, *, shown: bool) -> None:
        """Counts one board message brought up to date (or not), and how long it took."""
        self.board_edits.labels("shown" if shown else "failed").inc()
        self.board_latency.observe(seconds)

    def flood_wait(self, method: str, retry_after: float) -> None:
        """Counts a 429 answer to ``method`` and the wait Telegram asked for."""
        self.flood_waits.labels(method).inc()
        self.flood_wait_seconds.inc(retry_after)

    def set_gauges(self, *, games: float, moves_due: float, challenges_due: float) -> None:
        """Sets the gauges read from the database (NaN for unknown: then it is not healthy)."""
        self.healthy.set(0 if games != games else 1)
        self.games_in_progress.set(games)
        self.timers_due.labels("move").set(moves_due)
        self.timers_due.labels("challenge").set(challenges_due)

    def analysis(self, *, done: int, dropped: int, backlog: int) -> None:
        """Counts the automatic analysis's games ``done`` and ``dropped`` since the last call,
        and sets its ``backlog``."""
        self.analyses_done.inc(done)
        self.analyses_dropped.inc(dropped)
        self.analysis_backlog.set(backlog)

    def watch_workers(self, pools: Iterable[Restarting]) -> None:
        """Counts the restarts of these worker pools (read when scraped)."""
        self._restarts.pools = tuple(pools)

    def render(self) -> bytes:
        """Every metric in Prometheus's text format (serve it as :data:`CONTENT_TYPE`)."""
        return generate_latest(self.registry)
