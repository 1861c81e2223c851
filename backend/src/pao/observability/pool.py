"""Database pool use: connections checked out now, against what the pool may hand out.

Counted from the pool's own events (checkout, checkin), so a scrape costs no query and each
process reports its own pool; the gauges add up across live workers (``livesum``). A pool that
stays at its maximum means requests queue for a connection (``PAO_DB_POOL_SIZE``).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlalchemy.pool import QueuePool

from pao.core import metrics
from pao.core.settings import Settings


def watch_pool(engine: AsyncEngine, settings: Settings) -> None:
    pool = engine.sync_engine.pool
    if isinstance(pool, QueuePool):
        metrics.DB_POOL_CAPACITY.inc(settings.db_pool_size + settings.db_max_overflow)

    @event.listens_for(pool, "checkout")
    def _checkout(*_args: Any) -> None:
        metrics.DB_POOL_IN_USE.inc()

    @event.listens_for(pool, "checkin")
    def _checkin(*_args: Any) -> None:
        metrics.DB_POOL_IN_USE.dec()


def unwatch_pool(engine: AsyncEngine, settings: Settings) -> None:
    """The app stops (or a test's app is torn down): its capacity no longer counts."""
    if isinstance(engine.sync_engine.pool, QueuePool):
        metrics.DB_POOL_CAPACITY.dec(settings.db_pool_size + settings.db_max_overflow)
