"""The sandbox's own database (``{data_dir}/sandbox.db``), separate from Pao's.

Several ``pao serve`` processes (``--workers N``, or tests starting two servers) share the file:
it is set up like Pao's own SQLite database (:func:`pao.core.db.configure_sqlite`), so that
creating the tables at start-up runs under the write lock, one process after the other (two
processes checking "no table yet" at once used to collide on ``CREATE TABLE``).

The file is stamped with its schema's fingerprint (``PRAGMA user_version``), and a start-up that
finds its own stamp creates nothing: creating the thirty-odd tables was ≈ 60 ms of CPU at every
start, paid again by each of the backend suite's ≈ 2,800 apps (the tests copy a stamped file).
"""

from __future__ import annotations

import zlib
from collections.abc import AsyncIterator
from functools import cache
from typing import Annotated

from fastapi import Depends, Request
from sqlalchemy import MetaData, text
from sqlalchemy.dialects import sqlite
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)
from sqlalchemy.orm import DeclarativeBase
from sqlalchemy.schema import CreateIndex, CreateTable

from pao.core.db import configure_sqlite
from pao.core.settings import Settings


class SandboxBase(DeclarativeBase):
    metadata = MetaData()


def create_sandbox_engine(settings: Settings) -> AsyncEngine:
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    path = (settings.data_dir / "sandbox.db").resolve()
    engine = create_async_engine(f"sqlite+aiosqlite:///{path}", connect_args={"timeout": 30})
    configure_sqlite(engine)
    return engine


def schema_fingerprint() -> int:
    """The sandbox's schema as a stamp (:func:`fingerprint`), once per process and set of tables:
    one computed before a sandbox module was imported is never handed out for the whole schema."""
    return _fingerprint_of_tables(frozenset(SandboxBase.metadata.tables))


@cache
def _fingerprint_of_tables(_tables: frozenset[str]) -> int:
    return fingerprint(SandboxBase.metadata)


def fingerprint(metadata: MetaData) -> int:
    """A positive 31-bit checksum of ``metadata``'s DDL: any change to a table or an index
    changes it (``PRAGMA user_version`` holds a signed 32-bit integer; 0 is a new file's)."""
    dialect = sqlite.dialect()
    ddl: list[str] = []
    for table in metadata.sorted_tables:
        ddl.append(str(CreateTable(table).compile(dialect=dialect)))
        for index in sorted(table.indexes, key=lambda i: str(i.name)):
            ddl.append(str(CreateIndex(index).compile(dialect=dialect)))
    return zlib.crc32("\n".join(ddl).encode()) & 0x7FFFFFFF or 1


async def init_sandbox_store(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    """Create what is missing of the sandbox's tables, unless the file bears this schema's
    stamp. A file of an older schema is brought up to date as before: missing tables created
    (``create_all`` skips the ones there), then stamped."""
    stamp = schema_fingerprint()
    async with engine.begin() as conn:
        if await conn.scalar(text("PRAGMA user_version")) != stamp:
            await conn.run_sync(SandboxBase.metadata.create_all)
            await conn.exec_driver_sql(f"PRAGMA user_version = {stamp}")
    return async_sessionmaker(engine, expire_on_commit=False)


async def sandbox_session(request: Request) -> AsyncIterator[AsyncSession]:
    """A sandbox session; sandbox handlers commit their own writes."""
    factory: async_sessionmaker[AsyncSession] = request.app.state.sandbox_sessionmaker
    async with factory() as session:
        yield session


SandboxSessionDep = Annotated[AsyncSession, Depends(sandbox_session)]
