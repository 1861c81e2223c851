"""The sandbox's own database (``{data_dir}/sandbox.db``), separate from Pao's."""

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

from pao.core.settings import Settings


class SandboxBase(DeclarativeBase):
    metadata = MetaData()


def create_sandbox_engine(settings: Settings) -> AsyncEngine:
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    path = (settings.data_dir / "sandbox.db").resolve()
    return create_async_engine(f"sqlite+aiosqlite:///{path}", connect_args={"timeout": 30})


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
