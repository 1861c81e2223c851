"""``pao.core.executor``: statements on the driver stay inside the session's transaction.

The pitfall it guards (ARCHITECTURE.md, "Where money statements execute"): SQLAlchemy's asyncpg
adapter opens the driver's transaction on its first statement, so a raw statement sent first
would be autocommitted and survive a rollback. The transaction tests send a raw write *first*.
The rows it reads are the rows SQLAlchemy reads: the same values, of the same types."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Any

import asyncpg  # type: ignore[import-untyped]
import pytest
from fastapi import FastAPI
from sqlalchemy import Float, Numeric, bindparam, cast, func, inspect, select, type_coerce
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, create_async_engine
from sqlalchemy.sql import Select

from pao.core import executor, reserve
from pao.core.errors import is_database_outage
from pao.core.inserts import insert_now
from pao.games.models import Game, GameCategory
from pao.kit.idempotency import IdempotencyRecord
from pao.kit.money import Currency
from pao.ledger.models import AccountKind, JournalEntry, LedgerAccount, Posting
from pao.ledger.service import Leg, check_books, credit_wallet, get_or_open_account, post_entry
from pao.reports.models import LedgerDay
from pao.site.models import SiteSetting

# Also on SQLite (tests/databases.py): the executor's two paths.
pytestmark = pytest.mark.sqlite


async def _count(app: FastAPI, model: type[object]) -> int:
    async with app.state.sessionmaker() as session:
        return int((await session.execute(select(func.count()).select_from(model))).scalar_one())


async def test_rollback_undoes_a_raw_write_sent_first(app: FastAPI) -> None:
    async with app.state.sessionmaker() as session:
        record = await insert_now(
            session, IdempotencyRecord(owner="rollback", key="k", request_hash="h")
        )
        assert record.id is not None
        await session.rollback()
    assert await _count(app, IdempotencyRecord) == 0


async def test_rollback_undoes_a_whole_ledger_entry(app: FastAPI) -> None:
    async with app.state.sessionmaker() as session:
        clearing = await get_or_open_account(
            session, kind=AccountKind.BANK_CLEARING, currency=Currency.THB, member_id=7
        )
        wallet = await get_or_open_account(
            session, kind=AccountKind.PLAYER_WALLET, currency=Currency.THB, owner="7"
        )
        await session.commit()
    async with app.state.sessionmaker() as session:
        # The first statement of this transaction is a raw one (the lock in post_entry).
        await post_entry(
            session,
            kind="deposit",
            actor="test",
            legs=[Leg(clearing, -500), Leg(wallet, 500)],
        )
        assert wallet.balance == 500
        await session.rollback()
    assert await _count(app, JournalEntry) == 0
    assert await _count(app, Posting) == 0
    async with app.state.sessionmaker() as session:
        balances = (await session.execute(select(LedgerAccount.balance))).scalars().all()
        assert set(balances) == {0}
        assert (await check_books(session)).balanced


async def test_rollback_undoes_a_wallet_credit(app: FastAPI) -> None:
    """ledger.credit_wallet's lock, entry, balances and postings, sent first in a transaction
    on the driver (PostgreSQL), all go with its rollback."""
    async with app.state.sessionmaker() as session:
        await get_or_open_account(
            session, kind=AccountKind.BANK_CLEARING, currency=Currency.THB, member_id=7
        )
        await get_or_open_account(
            session, kind=AccountKind.PLAYER_WALLET, currency=Currency.THB, owner="7"
        )
        await session.commit()
    async with app.state.sessionmaker() as session:
        # The first statement of this transaction is a raw one (credit_wallet's lock).
        entry = await credit_wallet(
            session,
            source_kind=AccountKind.BANK_CLEARING,
            member_id=7,
            currency=Currency.THB,
            amount=500,
            kind="deposit",
            actor="test",
        )
        assert entry.id is not None
        await session.rollback()
    assert await _count(app, JournalEntry) == 0
    assert await _count(app, Posting) == 0
    async with app.state.sessionmaker() as session:
        balances = (await session.execute(select(LedgerAccount.balance))).scalars().all()
        assert balances == [0, 0]
        assert (await check_books(session)).balanced


async def test_a_raw_statement_sees_pending_orm_changes(app: FastAPI) -> None:
    async with app.state.sessionmaker() as session:
        session.add(IdempotencyRecord(owner="flush", key="k", request_hash="h"))
        rows = await executor.fetch(
            session, select(IdempotencyRecord.owner).where(IdempotencyRecord.key == "k")
        )
        assert rows == [("flush",)]
        await session.rollback()


async def test_driver_errors_are_sqlalchemy_errors(app: FastAPI) -> None:
    async with app.state.sessionmaker() as session:
        await insert_now(session, IdempotencyRecord(owner="dup", key="k", request_hash="h"))
        with pytest.raises(IntegrityError):
            await insert_now(session, IdempotencyRecord(owner="dup", key="k", request_hash="h"))
        await session.rollback()
    assert await _count(app, IdempotencyRecord) == 0


async def test_expanding_lists_and_attached_objects(app: FastAPI) -> None:
    async with app.state.sessionmaker() as session:
        opened = [
            await get_or_open_account(
                session, kind=AccountKind.PLAYER_WALLET, currency=Currency.THB, owner=str(n)
            )
            for n in range(3)
        ]
        await session.commit()
    async with app.state.sessionmaker() as session:
        ids = [account.id for account in opened]
        for size in (1, 2, 3):
            query = select(LedgerAccount).where(LedgerAccount.id.in_(ids[:size]))
            rows = await executor.fetch(session, query)
            assert sorted(row[0] for row in rows) == ids[:size]
        loaded = [executor.attach(session, LedgerAccount, row) for row in rows]
        # The identity map holds one object per row: a second read refreshes it.
        again = executor.attach(session, LedgerAccount, rows[0])
        assert again is next(a for a in loaded if a.id == rows[0][0])
        assert await session.get(LedgerAccount, again.id) is again
        assert again.created_at.tzinfo is not None


async def test_attached_object_is_as_a_query_loads_it(app: FastAPI) -> None:
    """executor.persist builds the loaded state itself (not through Session.add): the object
    must be what a query would have given, and behave so when changed, refreshed or
    rolled back."""
    async with app.state.sessionmaker() as session:
        opened = await get_or_open_account(
            session, kind=AccountKind.PLAYER_WALLET, currency=Currency.THB, owner="9"
        )
        await session.commit()
    query = select(LedgerAccount).where(LedgerAccount.id == opened.id)
    async with app.state.sessionmaker() as session:
        loaded = (await session.execute(query)).scalar_one()
        expected = inspect(loaded)
        expected_values = dict(expected.dict)
    async with app.state.sessionmaker() as session:
        ours = executor.attach(session, LedgerAccount, (await executor.fetch(session, query))[0])
        state = inspect(ours)
        assert state.persistent
        assert (state.key, state.identity_token) == (expected.key, expected.identity_token)
        assert {k: v for k, v in state.dict.items() if not k.startswith("_")} == {
            k: v for k, v in expected_values.items() if not k.startswith("_")
        }
        assert not state.modified
        assert not state.committed_state
        assert not state.expired_attributes
        assert ours in session
        assert not session.new
        assert not session.dirty
        assert await session.get(LedgerAccount, ours.id) is ours
        # A change is tracked and flushed like any loaded object's, and rolled back.
        ours.may_go_negative = True
        assert ours in session.dirty
        await session.flush()
        await session.rollback()
        assert state.expired_attributes  # expired by the rollback, as a loaded object is
        await session.refresh(ours)
        assert ours.may_go_negative is False
        ours.may_go_negative = True
        await session.commit()
    async with app.state.sessionmaker() as session:
        assert (await session.execute(query)).scalar_one().may_go_negative is True


async def _both_ways(session: AsyncSession, statement: Select[Any]) -> list[tuple[Any, ...]]:
    """``statement``'s rows through the executor, after checking they are the rows SQLAlchemy
    gives for it (its own asyncpg dialect on PostgreSQL): equal values of the same types
    (``1.5 == Decimal("1.5")``, so equality alone would not tell)."""
    ours = await executor.fetch(session, statement)
    theirs = [tuple(row) for row in await (await session.connection()).execute(statement)]
    assert ours == theirs
    assert [[type(v) for v in row] for row in ours] == [[type(v) for v in r] for r in theirs]
    return ours


async def test_rows_read_as_sqlalchemy_reads_them(app: FastAPI) -> None:
    """Every column type the models use (Float, Boolean, JSON, dates and aware times, integers,
    strings, NULL), and numeric expressions whose database type is not their column type's."""
    at = datetime(2026, 11, 28, 12, 30, 15, 250_000, tzinfo=UTC)
    async with app.state.sessionmaker() as session:
        session.add_all(
            [
                Game(
                    code="FLOAT",
                    name="Float",
                    category=GameCategory.SLOT,
                    ft_wallet_slot=1.25,
                    logo="l",
                    background="b",
                    sort_order=3,
                    enabled=False,
                ),
                SiteSetting(key="k", value={"a": [1, 2.5, None], "b": "ไทย"}, updated_at=at),
                LedgerDay(
                    day=date(2026, 11, 28),
                    currency="THB",
                    account_kind="player_wallet",
                    owner="7",
                    entry_kind="deposit",
                    marked=True,
                    out_sum=-(2**40),
                ),
            ]
        )
        await session.commit()
    async with app.state.sessionmaker() as session:
        games = await _both_ways(session, select(Game).where(Game.code == "FLOAT"))
        game = executor.attach(session, Game, games[0])
        assert (game.ft_wallet_slot, game.enabled, game.web) == (1.25, False, None)
        (setting,) = await _both_ways(session, select(SiteSetting))
        assert setting[1:3] == ({"a": [1, 2.5, None], "b": "ไทย"}, at)
        (day,) = await _both_ways(session, select(LedgerDay))
        assert (day[0], day[5], day[7]) == (date(2026, 11, 28), True, -(2**40))
        # PostgreSQL answers avg() of an integer as numeric and a cast to Numeric as numeric:
        # a Float asks for a float of it, a Numeric for a Decimal.
        (figures,) = await _both_ways(
            session,
            select(
                type_coerce(func.avg(Game.sort_order), Float),
                cast(Game.ft_wallet_slot, Numeric(10, 2)),
                cast(Game.sort_order, Float),
            ).group_by(Game.code),
        )
        assert figures == (3.0, Decimal("1.25"), 3.0)
        assert [type(value) for value in figures] == [float, Decimal, float]


async def test_a_statement_alone_is_committed_and_a_failed_one_leaves_nothing(
    app: FastAPI,
) -> None:
    """``fetch_alone``: one statement, its own transaction (autocommit on PostgreSQL), on a
    pooled connection that goes back clean; a failing statement writes nothing and raises the
    SQLAlchemy error, as ``fetch`` does."""
    table: Any = IdempotencyRecord.__table__
    insert = (
        table.insert()
        .values(owner="alone", key=bindparam("key"), request_hash="h", created_at=func.now())
        .returning(table.c.id)
    )
    [(first,)] = await executor.fetch_alone(app.state.engine, insert, {"key": "k1"})
    assert first is not None
    with pytest.raises(IntegrityError):
        await executor.fetch_alone(app.state.engine, insert, {"key": "k1"})
    [(second,)] = await executor.fetch_alone(app.state.engine, insert, {"key": "k2"})
    assert second != first
    assert await _count(app, IdempotencyRecord) == 2


async def test_a_connection_dropped_under_a_statement_alone_leaves_the_pool(
    app: FastAPI, database_url: str
) -> None:
    """The server ends the backend of the pool's last-used connection: the next statement
    alone fails on it, and the one after runs on a new connection (pao.core.db: kept, a dead
    one failed every call it was handed to; the pool hands out the last-used first)."""
    if not database_url.startswith("postgresql"):
        pytest.skip("a PostgreSQL backend to end")
    engine = app.state.engine
    [(pid,)] = await executor.fetch_alone(engine, select(func.pg_backend_pid()))
    await _terminate(app, pid)

    async def call() -> int:
        [(found,)] = await executor.fetch_alone(engine, select(func.pg_backend_pid()))
        return int(found)

    assert await _after_the_drop(call, pid)


async def test_statements_alone_keep_a_few_connections_out_of_the_pool(
    app: FastAPI, database_url: str
) -> None:
    """pao.core.reserve: the connection of a statement alone stays checked out for the next
    one (the same backend serves them); at most half the pool's size stay so, the sessions
    keep the rest; one whose statement failed goes back to the pool; released, none stay."""
    if not database_url.startswith("postgresql"):
        pytest.skip("SQLite runs each statement alone in a transaction of its own")
    engine = app.state.engine
    pool = engine.sync_engine.pool
    backend_pid = select(func.pg_backend_pid())
    await reserve.release(engine)
    assert pool.checkedout() == 0
    pids = {(await executor.fetch_alone(engine, backend_pid))[0][0] for _ in range(5)}
    assert len(pids) == 1
    assert pool.checkedout() == 1

    with pytest.raises(DBAPIError):
        await executor.fetch_alone(engine, select(func.pg_sleep("not a number")))
    assert pool.checkedout() == 0

    async def slow() -> None:
        await executor.fetch_alone(engine, select(func.pg_sleep(0.05)))

    await asyncio.gather(*(slow() for _ in range(pool.size())))
    assert pool.checkedout() == pool.size() // 2
    async with app.state.sessionmaker() as session:  # the sessions still have theirs
        assert (await session.execute(backend_pid)).scalar_one() > 0
    await reserve.release(engine)
    assert pool.checkedout() == 0


async def test_a_dropped_connection_is_replaced_in_a_session_too(
    app: FastAPI, database_url: str
) -> None:
    """The same through a session's transaction (``fetch``): it failed every call before. The
    first call may fail at its BEGIN (the drop announced, not yet seen closed): as a SQLAlchemy
    error, the connection invalidated, never handed out again (it escaped unwrapped once)."""
    if not database_url.startswith("postgresql"):
        pytest.skip("a PostgreSQL backend to end")
    backend_pid = select(func.pg_backend_pid())
    async with app.state.sessionmaker() as session:
        [(pid,)] = await executor.fetch(session, backend_pid)
        await session.commit()
    await _terminate(app, pid)

    async def call() -> int:
        async with app.state.sessionmaker() as session:
            [(found,)] = await executor.fetch(session, backend_pid)
            return int(found)

    assert await _after_the_drop(call, pid)


async def test_an_announced_drop_fails_an_orm_statement_as_an_outage(
    app: FastAPI, database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The race the executor's BEGIN handles (the drop announced, not yet seen closed: asyncpg
    refuses with "another operation is in progress"), met by a statement of the ORM's own,
    which does not go through the executor: a SQLAlchemy error flagged as a disconnect (the
    outage answer, a 503, not a 500), the connection invalidated and the next session on
    another backend (pao.core.db)."""
    if not database_url.startswith("postgresql"):
        pytest.skip("asyncpg's connection")
    backend_pid = select(func.pg_backend_pid())
    async with app.state.sessionmaker() as session:
        pid = (await session.execute(backend_pid)).scalar_one()
        adapter = (await (await session.connection()).get_raw_connection()).dbapi_connection
        await session.commit()

    start = asyncpg.transaction.Transaction.start

    async def refused(self: Any) -> None:
        if self._connection is adapter._connection:
            raise asyncpg.exceptions.InterfaceError(
                "cannot perform operation: another operation is in progress"
            )
        await start(self)

    monkeypatch.setattr(asyncpg.transaction.Transaction, "start", refused)
    async with app.state.sessionmaker() as session:
        with pytest.raises(DBAPIError) as failed:
            await session.execute(backend_pid)
    assert failed.value.connection_invalidated
    assert is_database_outage(failed.value)
    async with app.state.sessionmaker() as session:
        assert (await session.execute(backend_pid)).scalar_one() != pid


async def _after_the_drop(call: Callable[[], Awaitable[int]], dropped: int) -> bool:
    """Three calls after the drop: the first may fail (when the statement, not the idle
    socket, found the drop), the others run, on another backend."""
    seen: list[int | str] = []
    for _ in range(3):
        try:
            seen.append(await call())
        except DBAPIError:
            seen.append("failed")
    assert seen[1:] == [seen[1], seen[1]], seen
    assert seen[1] != dropped, seen
    return seen[0] in ("failed", seen[1])


async def _terminate(app: FastAPI, pid: int) -> None:
    killer = create_async_engine(app.state.engine.url)  # not the pool's: LIFO would hand it out
    async with killer.connect() as other:
        await other.execute(select(func.pg_terminate_backend(pid)))
    await killer.dispose()
