"""Background jobs: periodic work (payouts, reconcilers) run inside every app process.

Each job is a function that claims its own rows with ``SELECT … FOR UPDATE SKIP LOCKED`` and
handles a small batch per tick, so N processes can run the same jobs without coordination and
without doing any row twice. The runner only schedules; it holds no state worth losing.
Tests do not start the runner: they call a job's ``tick`` directly, deterministically.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import structlog

from pao.core import metrics

log = structlog.get_logger(__name__)

JobTick = Callable[[Any], Awaitable[int]]


@dataclass(frozen=True)
class PeriodicJob:
    name: str
    interval_seconds: float
    tick: JobTick  # called with the FastAPI app; returns how many items it handled
    # Its work is the steady state (summaries refreshed every few seconds, presence renewed):
    # a tick that handled items is logged at debug, not info. A reconciler is not routine:
    # each item it handles was stuck, which an operator wants to read about.
    routine: bool = False


class JobRunner:
    """Runs each job's tick, then sleeps its interval, until :meth:`stop`.

    Stopping lets a tick in progress finish (it may be waiting for a bank's answer to a payout:
    cancelling it would leave an unknown outcome for the reconciler) within a grace period,
    and wakes the sleeping ones at once. Each tick is timed and counted
    (:data:`pao.core.metrics.JOB_RUNS`); the time of the last good one is what job-lag alerts
    read."""

    def __init__(self, app: Any, jobs: list[PeriodicJob]) -> None:
        self._app = app
        self._jobs = jobs
        self._tasks: list[asyncio.Task[None]] = []
        self._stopping = asyncio.Event()

    def start(self) -> None:
        self._stopping.clear()
        for job in self._jobs:
            metrics.JOB_INTERVAL.labels(job.name).set(job.interval_seconds)
            self._tasks.append(asyncio.create_task(self._loop(job), name=f"job:{job.name}"))

    async def stop(self, grace_seconds: float = 0.0) -> None:
        self._stopping.set()
        if self._tasks and grace_seconds > 0:
            await asyncio.wait(self._tasks, timeout=grace_seconds)
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._tasks.clear()

    async def _loop(self, job: PeriodicJob) -> None:
        while not self._stopping.is_set():
            await run_tick(self._app, job)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stopping.wait(), timeout=job.interval_seconds)


async def run_tick(app: Any, job: PeriodicJob) -> None:
    """One tick of ``job``, timed and counted; a failure is logged and retried next time.

    Logged: a failure (error, with its traceback); a tick that took longer than the job's
    interval (info: the job is falling behind); a tick that handled items (info, or debug for
    a :attr:`~PeriodicJob.routine` job). A tick with nothing to do is not logged."""
    started = time.perf_counter()
    try:
        handled = await job.tick(app)
    except Exception:  # a failing tick must not kill the loop; it retries next time
        log.exception("job failed", job=job.name)
        metrics.JOB_RUNS.labels(job.name, "error").inc()
        return
    finally:  # a cancelled tick (shutdown past the grace) is timed too
        seconds = time.perf_counter() - started
        metrics.JOB_SECONDS.labels(job.name).observe(seconds)
    metrics.JOB_RUNS.labels(job.name, "ok").inc()
    metrics.JOB_LAST_SUCCESS.labels(job.name).set_to_current_time()
    if seconds > job.interval_seconds:
        log.info("job ran long", job=job.name, handled=handled, seconds=round(seconds, 3))
    elif handled:
        (log.debug if job.routine else log.info)("job ran", job=job.name, handled=handled)
