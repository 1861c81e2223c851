"""The unit of work: one database transaction per HTTP request.

Services never commit. :class:`UnitOfWorkRoute` opens a session before the endpoint runs and
commits after the response body has been built but *before* it is sent, so a client never sees
a success whose transaction did not commit. Any exception rolls back, except an
:class:`~pao.core.errors.AppError` with ``keeps_changes`` (a counted failed attempt).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import asynccontextmanager
from typing import Annotated, Any

from fastapi import Depends, Request, Response
from fastapi.routing import APIRoute
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from pao.core.errors import AppError


@asynccontextmanager
async def unit_of_work(
    request: Request, sessionmaker_name: str = "sessionmaker"
) -> AsyncIterator[AsyncSession]:
    """The request's session, committed when the block ends (unless it was never used),
    rolled back when it raises; an :class:`AppError` that ``keeps_changes`` commits."""
    factory: async_sessionmaker[AsyncSession] = getattr(request.app.state, sessionmaker_name)
    async with factory() as session:
        request.state.session = session
        try:
            yield session
        except AppError as exc:
            if exc.keeps_changes:
                await session.commit()
            else:
                await session.rollback()
            raise
        except BaseException:
            await session.rollback()
            raise
        # A session the endpoint never used (every read answered from a cache, or on a
        # connection of its own: pao.core.executor.read) has nothing to commit; adding an
        # object or running a statement begins its transaction.
        if session.in_transaction():
            await session.commit()


class UnitOfWorkRoute(APIRoute):
    # The app.state attribute holding the session factory of this kind of route.
    sessionmaker_name = "sessionmaker"

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()
        sessionmaker_name = self.sessionmaker_name

        async def with_transaction(request: Request) -> Response:
            async with unit_of_work(request, sessionmaker_name):
                return await handler(request)

        return with_transaction


class ReadRoute(UnitOfWorkRoute):
    """A route that only reads: its session needs no transaction (see
    :func:`pao.core.db.create_read_sessionmaker`). A write there would commit statement by
    statement, so money never goes through one."""

    sessionmaker_name = "read_sessionmaker"


async def get_session(request: Request) -> AsyncSession:
    # async on purpose: FastAPI runs a plain ``def`` dependency in its thread pool, and that
    # hop on every request cost GIL hand-offs under load (docs/benchmarks.md).
    session: AsyncSession = request.state.session
    return session


SessionDep = Annotated[AsyncSession, Depends(get_session)]
