"""A database outage answers 503 SERVICE_UNAVAILABLE with Retry-After, never a 500: from a
route (a withdrawal), from the termination check that runs before every /api route (a login),
and on PostgreSQL when the server drops the pool's connections; a retry with the same
Idempotency-Key then moves the money once."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession, create_async_engine

from pao.core.db import create_engine, create_read_sessionmaker, create_sessionmaker
from pao.core.errors import is_database_outage
from pao.core.settings import Settings
from pao.site import termination
from pao.site.termination import invalidate_termination_cache
from tests.api.test_withdraw import balance, funded_member
from tests.conftest import is_postgres
from tests.helpers import DEFAULT_PASSWORD, auth

# Also on SQLite (tests/databases.py): an unreachable database differs per driver.
pytestmark = pytest.mark.sqlite

UNAVAILABLE = {"message": "SERVICE_UNAVAILABLE"}


def unreachable_url(database_url: str, tmp_path: Path) -> str:
    """A database of the same kind that cannot be reached: a PostgreSQL port nobody listens
    on, or an SQLite file in a directory that does not exist."""
    if is_postgres(database_url):
        return "postgresql+asyncpg://postgres@127.0.0.1:1/pao"
    return f"sqlite+aiosqlite:///{tmp_path / 'missing-dir' / 'pao.db'}"


@asynccontextmanager
async def database_down(app: FastAPI, settings: Settings, url: str) -> AsyncIterator[None]:
    """The app's engine and session factories pointed at ``url`` for the block."""
    saved = (app.state.engine, app.state.sessionmaker, app.state.read_sessionmaker)
    # data_dir elsewhere: create_engine makes the data dir of an SQLite URL's settings.
    down = create_engine(settings.model_copy(update={"database_url": url}))
    app.state.engine = down
    app.state.sessionmaker = create_sessionmaker(down)
    app.state.read_sessionmaker = create_read_sessionmaker(down)
    try:
        yield
    finally:
        app.state.engine, app.state.sessionmaker, app.state.read_sessionmaker = saved
        await down.dispose()


def assert_unavailable(response: httpx.Response) -> None:
    assert response.status_code == 503, response.text
    assert response.json() == UNAVAILABLE
    assert response.headers["retry-after"] == "5"
    assert response.headers["cache-control"] == "no-store"


async def test_money_and_login_answer_503_while_the_database_is_down(
    app: FastAPI,
    client: httpx.AsyncClient,
    session: AsyncSession,
    settings: Settings,
    database_url: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    member_id, token = await funded_member(client, session, 1_000_00)
    # The termination flag read just now stays cached: the withdrawal's own queries fail.
    monkeypatch.setattr(termination, "CACHE_SECONDS", 3600.0)
    key = {"Idempotency-Key": str(uuid.uuid4())}

    async with database_down(app, settings, unreachable_url(database_url, tmp_path)):
        withdraw = await client.post(
            "/api/wallet/withdraw", json={"amount": 100}, headers={**auth(token), **key}
        )
        assert_unavailable(withdraw)
        # Now the termination check, a middleware before every route, meets the outage.
        invalidate_termination_cache()
        login = await client.post(
            "/api/login", json={"phone": "0812345678", "password": DEFAULT_PASSWORD}
        )
        assert_unavailable(login)

    # Back up: the same intent (same key) goes through, once.
    invalidate_termination_cache()
    again = await client.post(
        "/api/wallet/withdraw", json={"amount": 100}, headers={**auth(token), **key}
    )
    assert again.status_code == 200, again.text
    assert await balance(session, member_id) == 900_00


async def test_connections_dropped_by_postgresql_are_replaced_or_answer_503_then_recover(
    client: httpx.AsyncClient, session: AsyncSession, database_url: str
) -> None:
    if not is_postgres(database_url):
        pytest.skip("PostgreSQL drops connections; SQLite has none to drop")
    member_id, token = await funded_member(client, session, 1_000_00)
    await session.close()
    # Fill the app's pool with connections, then have the server end every one of them
    # (what a restart or a failover does); pre-ping is off, so the next request meets one.
    for _ in range(3):
        assert (await client.get("/api/wallet", headers=auth(token))).status_code == 200
    killer = create_async_engine(database_url)
    async with killer.connect() as connection:
        killed = await connection.scalar(
            text(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
        )
    await killer.dispose()
    assert killed
    invalidate_termination_cache()
    key = {"Idempotency-Key": str(uuid.uuid4())}
    first = await client.post(
        "/api/wallet/withdraw", json={"amount": 100}, headers={**auth(token), **key}
    )
    # A connection whose socket asyncpg has seen close is replaced when it is checked out
    # (pao.core.db), so the request is served; one whose drop only a statement finds answers
    # 503. Either way the client's retry (same key) is served, and moves money once.
    if first.status_code != 200:
        assert_unavailable(first)
    again = await client.post(
        "/api/wallet/withdraw", json={"amount": 100}, headers={**auth(token), **key}
    )
    assert again.status_code == 200, again.text
    assert again.json() == first.json() or first.status_code == 503
    assert await balance(session, member_id) == 900_00


def test_only_reachability_counts_as_an_outage() -> None:
    from sqlalchemy.exc import IntegrityError, OperationalError

    from pao.core.db import DatabaseUnreachable

    assert is_database_outage(DatabaseUnreachable("refused"))
    assert is_database_outage(OperationalError("SELECT 1", {}, Exception("database is locked")))
    # A constraint, a bug, a missing file: still a 500, not "try again later".
    assert not is_database_outage(IntegrityError("INSERT", {}, Exception("duplicate key")))
    assert not is_database_outage(ValueError("bad"))
    assert not is_database_outage(FileNotFoundError("uploads/x.png"))
