"""Test fixtures: the real app on a real database, SQLite always and PostgreSQL when
``PAO_TEST_DATABASE_URL`` is set (every ``app``/``client`` test runs once per database).

The schema is built once per database per run; each test then starts from empty tables (a
fresh copy of the SQLite file, every table ``DELETE``d on PostgreSQL). Under pytest-xdist
(``make test`` runs ``-n 2``) each worker has its own PostgreSQL database, ``<name>_<worker>``,
created on first use, so that one worker never empties another's tables.
"""

from __future__ import annotations

import asyncio
import gc
import os
import shutil
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

# Cheap argon2id for tests (the hasher reads the process settings); set before pao is imported.
os.environ.setdefault("PAO_ARGON2_TIME_COST", "1")
os.environ.setdefault("PAO_ARGON2_MEMORY_KIB", "1024")

import httpx
import pytest
from asgi_lifespan import LifespanManager
from fastapi import FastAPI
from sqlalchemy import make_url, text
from sqlalchemy.ext.asyncio import (
    AsyncConnection,
    AsyncEngine,
    AsyncSession,
    create_async_engine,
)

import pao.models  # noqa: F401  (registers every table)
from pao.backoffice import ddl as backoffice_ddl
from pao.core.db import Base
from pao.core.settings import Settings
from pao.games import ddl as games_ddl
from pao.games.seamless import ddl as seamless_ddl
from pao.identity import ddl as identity_ddl
from pao.kit import idempotency_ddl
from pao.kit.clock import clock
from pao.ledger import credit_ddl
from pao.ledger.ddl import statements_for
from pao.main import create_app
from pao.promotions.wiring import install as install_promotions
from pao.wallet import ddl as wallet_ddl

from . import route_memo

# Which database each test runs on (its hooks, re-exported for pytest to find).
from .databases import (  # noqa: F401
    POSTGRES,
    pytest_addoption,
    pytest_collection_modifyitems,
    record_entry_kinds_of,
    record_entry_kinds_of_file,
)

# Each included route built once per process, not once per test's app (tests/route_memo.py).
route_memo.install()


def _per_worker(url: str | None) -> str | None:
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if url is None or worker is None:
        return url
    parsed = make_url(url)
    return parsed.set(database=f"{parsed.database}_{worker}").render_as_string(hide_password=False)


PG_URL = _per_worker(os.environ.get("PAO_TEST_DATABASE_URL"))
REDIS_URL = os.environ.get("PAO_TEST_REDIS_URL")
DATABASES = ["sqlite", *(["postgres"] if PG_URL else [])]


async def build_schema(engine: AsyncEngine) -> None:
    async with engine.begin() as conn:
        await conn.run_sync(Base.metadata.drop_all)
        await conn.run_sync(Base.metadata.create_all)
        for statement in (
            *statements_for(engine.dialect.name),
            *identity_ddl.statements_for(engine.dialect.name),
            *idempotency_ddl.statements_for(engine.dialect.name),
            *backoffice_ddl.statements_for(engine.dialect.name),
            *wallet_ddl.statements_for(engine.dialect.name),
            *games_ddl.statements_for(engine.dialect.name),
            *credit_ddl.statements_for(engine.dialect.name),
            *seamless_ddl.statements_for(engine.dialect.name),
        ):
            await conn.exec_driver_sql(statement)


def pytest_collection_finish(session: pytest.Session) -> None:
    """Move what every test shares (modules, routers, the models' metadata, the collected
    items) out of the garbage collector's sight, once the tests are collected: every test builds
    and drops an app, and each collection otherwise walks those half a million objects again
    (≈ 30 % of an app's build in a test; production freezes after start-up, pao.main)."""
    gc.collect()
    gc.freeze()


@pytest.fixture(scope="session", autouse=True)
def _plugged_ports() -> None:
    """Promotions plugged into the wallet's and the games' ports (pao.kit.ports), as
    create_app and the ``pao`` command do: some tests call a withdrawal or a transfer on a
    session of their own, before or without any app."""
    install_promotions()


@pytest.fixture(scope="session")
def sandbox_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sandbox's store, created and stamped once (pao.sandbox.store): each test's app starts
    on a copy and creates nothing, where creating its tables was ≈ 60 ms of every test."""
    import pao.sandbox.router  # noqa: F401  (registers the sandbox's tables)
    from pao.sandbox.store import create_sandbox_engine, init_sandbox_store

    data_dir = tmp_path_factory.mktemp("sandbox-template")

    async def make() -> None:
        engine = create_sandbox_engine(Settings(data_dir=data_dir))
        await init_sandbox_store(engine)
        await engine.dispose()

    asyncio.run(make())
    return data_dir / "sandbox.db"


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("template") / "pao.db"

    async def make() -> None:
        engine = create_async_engine(f"sqlite+aiosqlite:///{path}")
        await build_schema(engine)
        await engine.dispose()

    asyncio.run(make())
    return path


class _PostgresEmptier:
    """Empties the worker's PostgreSQL tables between tests over one connection kept for the
    whole run, on an event loop of its own (each test runs on a new loop, and an asyncpg
    connection belongs to the loop that opened it): a new engine and connection per test cost
    ≈ 40 ms of each of the suite's ≈ 3,000 PostgreSQL tests. ``pool_pre_ping`` replaces the
    connection if a test ended it (the database outage tests stop connections)."""

    def __init__(self, url: str) -> None:
        self.loop = asyncio.new_event_loop()
        self.engine = create_async_engine(url, pool_size=1, pool_pre_ping=True)

    def empty(self) -> None:
        self.loop.run_until_complete(self._empty())

    async def _empty(self) -> None:
        async with self.engine.begin() as conn:
            # The last test's rows, before they go (the worker's last test: close()).
            await record_entry_kinds_of(conn, POSTGRES)
            await empty_postgres(conn)

    def close(self) -> None:
        async def last_kinds() -> None:
            async with self.engine.connect() as conn:
                await record_entry_kinds_of(conn, POSTGRES)
            await self.engine.dispose()

        self.loop.run_until_complete(last_kinds())
        self.loop.close()


@pytest.fixture(scope="session")
def pg_url() -> str:
    assert PG_URL

    async def make() -> None:
        await _create_database(PG_URL)
        engine = create_async_engine(PG_URL)
        await build_schema(engine)
        await engine.dispose()

    asyncio.run(make())
    return PG_URL


@pytest.fixture(scope="session")
def pg_emptier(pg_url: str) -> Iterator[_PostgresEmptier]:
    emptier = _PostgresEmptier(pg_url)
    yield emptier
    emptier.close()


async def _create_database(url: str) -> None:
    """Create the database of ``url`` when it does not exist (a worker's own database)."""
    target = make_url(url)
    admin = create_async_engine(target.set(database="postgres"), isolation_level="AUTOCOMMIT")
    try:
        async with admin.connect() as conn:
            exists = await conn.scalar(
                text("SELECT 1 FROM pg_database WHERE datname = :name"),
                {"name": target.database},
            )
            if not exists:
                await conn.execute(text(f'CREATE DATABASE "{target.database}"'))
            # Commits need not wait for the WAL to reach the disk in a test database: a crash
            # loses nothing a test needs, and the suite's PostgreSQL tests run about twice as
            # fast (every request commits). Locks, isolation and constraints are unchanged.
            await conn.execute(
                text(f'ALTER DATABASE "{target.database}" SET synchronous_commit = off')
            )
    finally:
        await admin.dispose()


# Every table, children first; and the script that empties them between tests.
_EMPTY_TABLES_SQL = (
    "; ".join(f"DELETE FROM {t.name}" for t in reversed(Base.metadata.sorted_tables))
    + "; SELECT setval(c.oid, 1, false) FROM pg_class c"
    " WHERE c.relkind = 'S' AND c.relnamespace = 'public'::regnamespace"
)


async def empty_postgres(conn: AsyncConnection) -> None:
    """Empty every table and restart every sequence, as TRUNCATE … RESTART IDENTITY would.

    DELETE, not TRUNCATE: TRUNCATE gives each of the fifty-odd tables and their indexes new
    files, 0.6–1.8 s before every PostgreSQL test on the 2-core CI machine, while deleting a
    test's few rows takes milliseconds. ``session_replication_role = replica`` (this
    transaction only) skips the triggers, the ledger's and the audit log's append-only guards
    among them, and the foreign-key checks. One simple-protocol script: one round trip.
    """
    await conn.execute(text("SET LOCAL session_replication_role = replica"))
    driver = (await conn.get_raw_connection()).driver_connection
    assert driver is not None
    await driver.execute(_EMPTY_TABLES_SQL)


@pytest.fixture(params=DATABASES)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        db = tmp_path / "pao.db"
        shutil.copy(request.getfixturevalue("sqlite_template"), db)
        yield f"sqlite+aiosqlite:///{db}"
        record_entry_kinds_of_file(db)
        return
    request.getfixturevalue("pg_emptier").empty()
    yield request.getfixturevalue("pg_url")


@pytest.fixture
def settings(database_url: str, tmp_path: Path, sandbox_template: Path) -> Settings:
    (tmp_path / "data").mkdir()
    shutil.copy(sandbox_template, tmp_path / "data" / "sandbox.db")
    return Settings(
        env="test",
        database_url=database_url,
        data_dir=tmp_path / "data",
        sandbox=True,
        static_dir=tmp_path / "no-spa",
        # Cheap argon2id in tests; the production cost is measured by `make bench`.
        argon2_time_cost=1,
        argon2_memory_kib=1024,
        db_pool_size=20,
        run_jobs=False,
    )


@pytest.fixture
async def app(settings: Settings) -> AsyncIterator[FastAPI]:
    application = create_app(settings)
    # Adapters reach the in-process sandbox through the app itself, still over HTTP semantics.
    application.state.http_transport = httpx.ASGITransport(app=application)
    async with LifespanManager(application, startup_timeout=60, shutdown_timeout=60):
        yield application
    clock.reset()


@pytest.fixture
async def client(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as c:
        yield c


@pytest.fixture
async def session(app: FastAPI) -> AsyncIterator[AsyncSession]:
    """A session on the app's database, for arranging and asserting; commit explicitly."""
    async with app.state.sessionmaker() as s:
        yield s


def unique_phone() -> str:
    return "08" + str(uuid.uuid4().int)[:8]


def is_postgres(url: str) -> bool:
    return make_url(url).get_backend_name() == "postgresql"
