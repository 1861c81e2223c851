"""Background jobs: periodic work (payouts, reconcilers) run inside every app process.

Each job is a function that claims its own rows with ``SELECT … FOR UPDATE SKIP LOCKED`` and
handles a small batch per tick, so N processes can run the same jobs without coordination and
without doing any row twice. The runner only schedules; it holds no state worth losing.
Tests do not start the runner: they call a job's ``tick`` directly, deterministically.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import structlog

log = structlog.get_logger(__name__)

JobTick = Callable[[Any], Awaitable[int]]


@dataclass(frozen=True)
class PeriodicJob:
    name: str
    interval_seconds: float
    tick: JobTick  # called with the FastAPI app; returns how many items it handled


class JobRunner:
    def __init__(self, app: Any, jobs: list[PeriodicJob]) -> None:
        self._app = app
        self._jobs = jobs
        self._tasks: list[asyncio.Task[None]] = []

    def start(self) -> None:
        for job in self._jobs:
            self._tasks.append(asyncio.create_task(self._loop(job), name=f"job:{job.name}"))

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._tasks.clear()

    async def _loop(self, job: PeriodicJob) -> None:
        while True:
            try:
                handled = await job.tick(self._app)
                if handled:
                    log.info("job ran", job=job.name, handled=handled)
            except Exception:  # a failing tick must not kill the loop; it retries next time
                log.exception("job failed", job=job.name)
            await asyncio.sleep(job.interval_seconds)
