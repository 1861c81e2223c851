"""A few of an engine's pooled connections kept checked out for the statements that run alone.

A statement that is a whole transaction by itself (:mod:`pao.core.executor`'s
``fetch_alone``: a seamless callback's token read and its function, ADR 0033; ``execute_alone``:
the health probe; ``read``: ``GET /api/wallet``'s one statement) used to check a connection out
of SQLAlchemy's pool and back in around every run. That round through the pool (two greenlet
hand-offs, the fairy's set-up and finalisation, the reset on return, the events) was a quarter
of a callback's CPU in process, more than the statement's own driver call: 0.58 → 0.42 ms per
callback without it (ADR 0037; docs/benchmarks.md, "Connections kept out of the pool").

So up to half the pool's size of those connections stay checked out between such statements,
idle here, and the next one takes the one put back last (as the pool's LIFO would hand it).
The others go back to the pool, so the sessions always keep the other half and the overflow.
Nothing else ever runs on a kept connection, and what runs on it leaves no transaction open
(autocommit), so it needs no reset; one that failed a statement goes back to the pool, whose
next checkout replaces it if the server dropped it (``pao.core.db``). A kept connection the
server dropped while it was idle here is noticed without a round trip, as at the pool's
checkout, and replaced. :func:`release` hands them all back before the engine is disposed.
"""

from __future__ import annotations

import weakref
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from sqlalchemy.ext.asyncio import AsyncEngine
from sqlalchemy.pool import Pool, PoolProxiedConnection, QueuePool
from sqlalchemy.util import greenlet_spawn


class _Kept:
    def __init__(self, size: int) -> None:
        self.size = size
        self.idle: list[PoolProxiedConnection] = []


_kept: weakref.WeakKeyDictionary[Pool, _Kept] = weakref.WeakKeyDictionary()


def _of(engine: AsyncEngine) -> _Kept:
    pool = engine.sync_engine.pool
    kept = _kept.get(pool)
    if kept is None:
        size = pool.size() // 2 if isinstance(pool, QueuePool) else 0
        kept = _kept[pool] = _Kept(size)
    return kept


@asynccontextmanager
async def kept(engine: AsyncEngine) -> AsyncIterator[PoolProxiedConnection]:
    """A connection for one statement run alone: a kept one if any is idle, else the pool's.
    Afterwards kept if there is room, else back to the pool; back to the pool if the statement
    failed (its next checkout there replaces it if the server dropped it)."""
    connection = await _take(engine)
    try:
        yield connection
    except BaseException:
        await greenlet_spawn(connection.close)
        raise
    held = _of(engine)
    if len(held.idle) < held.size:
        held.idle.append(connection)
    else:
        await greenlet_spawn(connection.close)


async def _take(engine: AsyncEngine) -> PoolProxiedConnection:
    idle = _of(engine).idle
    while idle:
        connection = idle.pop()
        if not connection.driver_connection.is_closed():  # type: ignore[union-attr]
            return connection
        await greenlet_spawn(connection.invalidate)
        await greenlet_spawn(connection.close)
    return await engine.raw_connection()


async def release(engine: AsyncEngine) -> None:
    """Every kept connection back to the pool (before the engine is disposed)."""
    kept = _kept.pop(engine.sync_engine.pool, None)
    while kept is not None and kept.idle:
        await greenlet_spawn(kept.idle.pop().close)
