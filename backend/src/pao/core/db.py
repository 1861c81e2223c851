"""Database engine, declarative base and session factory.

SQLite (the embedded default) gets WAL, a busy timeout and ``BEGIN IMMEDIATE`` for every
transaction: one writer at a time, which is how the money rules' "row lock" is honoured there
(see docs/adr/0002-sqlite-write-serialisation.md). PostgreSQL uses ``SELECT … FOR UPDATE``.
"""

from __future__ import annotations

from datetime import UTC
from typing import Any

from sqlalchemy import BigInteger, DateTime, Integer, MetaData, event
from sqlalchemy.engine import ExceptionContext
from sqlalchemy.exc import DisconnectionError
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)
from sqlalchemy.orm import DeclarativeBase
from sqlalchemy.types import TypeDecorator

from pao.core.settings import Settings

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

# SQLite only auto-increments INTEGER PRIMARY KEY; BigInteger elsewhere.
BigId = BigInteger().with_variant(Integer(), "sqlite")


class UtcDateTime(TypeDecorator[Any]):
    """Timezone-aware UTC datetimes on every backend (SQLite stores them naive)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: Any, dialect: Any) -> Any:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to a UTC column")
        # In UTC before SQLite drops the offset: SCB's "17:19+07:00" was kept as 17:19 UTC,
        # seven hours late, and its inquiry then asked SCB for the next day's payments.
        return value.astimezone(UTC)

    def process_result_value(self, value: Any, dialect: Any) -> Any:
        if value is not None and value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


class DatabaseUnreachable(ConnectionError):
    """Opening a database connection failed at the network level (refused, no route, DNS,
    timeout). The driver raises a bare ``OSError`` there, which could not be told apart from a
    file error; :func:`pao.core.errors.is_database_outage` recognises this one."""


def create_engine(settings: Settings) -> AsyncEngine:
    url = settings.resolved_database_url
    # hide_parameters: an error's text (and so a log line) shows the SQL, never the values
    # bound to it (phone numbers, token digests, password hashes).
    if settings.is_sqlite:
        settings.data_dir.mkdir(parents=True, exist_ok=True)
        engine = create_async_engine(url, connect_args={"timeout": 30}, hide_parameters=True)
        configure_sqlite(engine)
    else:
        engine = create_async_engine(
            url,
            pool_size=settings.db_pool_size,
            max_overflow=settings.db_max_overflow,
            pool_pre_ping=settings.db_pool_pre_ping,
            # The connection used last goes out first: at low concurrency the same few warm
            # backends serve every request (ADR 0033), instead of each request waking the one
            # idle longest, whose caches have gone cold.
            pool_use_lifo=True,
            hide_parameters=True,
        )
        _replace_dropped_connections(engine)
    _name_connect_failures(engine)
    return engine


def _replace_dropped_connections(engine: AsyncEngine) -> None:
    """A pooled connection the server dropped (a restart, a failover, an administrator's
    ``pg_terminate_backend``) is replaced when it is next checked out, by a new one.

    The hot paths' statements run on the driver (pao.core.executor), past SQLAlchemy's own
    disconnect handling, and returning a dead connection to the pool sends nothing that would
    fail: kept, it failed every request it was handed to, for the life of the process. The pool
    does not ping (three round trips a checkout on asyncpg); asyncpg knows, without a round
    trip, a connection whose socket has closed, which covers a drop seen by a failed statement
    and one noticed while idle. Raising ``DisconnectionError`` here makes the pool invalidate
    the connection and check out another."""

    @event.listens_for(engine.sync_engine, "checkout")
    def _checkout(dbapi_connection: Any, _record: Any, _proxy: Any) -> None:
        if dbapi_connection.driver_connection.is_closed():
            raise DisconnectionError("the server closed this pooled connection")

    @event.listens_for(engine.sync_engine, "handle_error")
    def _announced_drop(context: ExceptionContext) -> None:
        # A drop the server announced while the connection sat in the pool, not yet seen
        # closed by asyncpg, refuses the next statement with "another operation is in
        # progress" (SQLAlchemy's dialect counts only a closed socket as a disconnect). The
        # connection will never serve again: flagged, the pool drops it and the request gets
        # the outage answer, as the executor does with its own statements (ADR 0036). Two
        # statements at once on one connection, a defect, would be answered so too.
        if _ANOTHER_OPERATION in str(context.original_exception):
            context.is_disconnect = True


# asyncpg's refusal of a statement while its protocol is not idle.
_ANOTHER_OPERATION = "another operation is in progress"


def _name_connect_failures(engine: AsyncEngine) -> None:
    @event.listens_for(engine.sync_engine, "do_connect")
    def _connect(dialect: Any, _record: Any, cargs: Any, cparams: Any) -> Any:
        try:
            return dialect.connect(*cargs, **cparams)
        except OSError as exc:
            raise DatabaseUnreachable(f"cannot connect to the database: {exc}") from exc


def configure_sqlite(engine: AsyncEngine) -> None:
    """WAL, a 30 s busy timeout, foreign keys, and ``BEGIN IMMEDIATE`` for every transaction:
    a transaction takes the write lock when it begins, so that writers (even in different
    processes) run one after the other instead of failing half-way (ADR 0002)."""

    @event.listens_for(engine.sync_engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Let SQLAlchemy, not pysqlite, emit BEGIN, so that it can be BEGIN IMMEDIATE.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA busy_timeout=30000")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()

    @event.listens_for(engine.sync_engine, "begin")
    def _on_begin(conn: Any) -> None:
        conn.exec_driver_sql("BEGIN IMMEDIATE")


def create_sessionmaker(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    return async_sessionmaker(engine, expire_on_commit=False, autoflush=True)


def create_read_sessionmaker(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    """Sessions for requests that only read (:class:`~pao.core.uow.ReadRoute`).

    On PostgreSQL they run in autocommit: no BEGIN and COMMIT round trips around a page's few
    SELECTs, which made up a third of a wallet read (docs/benchmarks.md). On SQLite, where a
    round trip costs nothing, they are ordinary sessions."""
    if engine.dialect.name != "postgresql":
        return create_sessionmaker(engine)
    return async_sessionmaker(
        engine.execution_options(isolation_level="AUTOCOMMIT"),
        expire_on_commit=False,
        autoflush=False,
    )
