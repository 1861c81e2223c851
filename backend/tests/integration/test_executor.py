"""``pao.core.executor``: statements on the driver stay inside the session's transaction.

The pitfall it guards (ARCHITECTURE.md, "Where money statements execute"): SQLAlchemy's asyncpg
adapter opens the driver's transaction on its first statement, so a raw statement sent first
would be autocommitted and survive a rollback. Each test here sends a raw write *first*."""

from __future__ import annotations

import pytest
from fastapi import FastAPI
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError

from pao.core import executor
from pao.core.inserts import insert_now
from pao.kit.idempotency import IdempotencyRecord
from pao.kit.money import Currency
from pao.ledger.models import AccountKind, JournalEntry, LedgerAccount, Posting
from pao.ledger.service import Leg, check_books, get_or_open_account, post_entry


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
