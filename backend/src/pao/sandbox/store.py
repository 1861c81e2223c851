"""The sandbox's own database (``{data_dir}/sandbox.db``), separate from Pao's.

Several ``pao serve`` processes (``--workers N``, or tests starting two servers) share the file:
it is set up like Pao's own SQLite database (:func:`pao.core.db.configure_sqlite`), so that
creating the tables at start-up runs under the write lock, one process after the other (two
processes checking "no table yet" at once used to collide on ``CREATE TABLE``).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import Depends, Request
from sqlalchemy import MetaData
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)
from sqlalchemy.orm import DeclarativeBase

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


async def init_sandbox_store(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    async with engine.begin() as conn:
        await conn.run_sync(SandboxBase.metadata.create_all)
    return async_sessionmaker(engine, expire_on_commit=False)


async def sandbox_session(request: Request) -> AsyncIterator[AsyncSession]:
    """A sandbox session; sandbox handlers commit their own writes."""
    factory: async_sessionmaker[AsyncSession] = request.app.state.sandbox_sessionmaker
    async with factory() as session:
        yield session


SandboxSessionDep = Annotated[AsyncSession, Depends(sandbox_session)]
