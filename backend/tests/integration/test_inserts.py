"""``insert_now``: one INSERT, defaults applied, the object persistent as after a flush."""

from __future__ import annotations

import pytest
from fastapi import FastAPI
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from pao.core.executor import recorded
from pao.core.inserts import insert_now, update_now
from pao.kit.idempotency import IdempotencyRecord

# Also on SQLite (tests/databases.py): inserts and their ids differ per driver.
pytestmark = pytest.mark.sqlite


async def test_insert_now_writes_once_and_attaches(app: FastAPI, session: AsyncSession) -> None:
    with recorded(app.state.engine) as sent:
        record = await insert_now(
            session, IdempotencyRecord(owner="test", key="k", request_hash="h")
        )
    # SQLite's own BEGIN IMMEDIATE starts the transaction.
    statements = [s for s in sent if not s.startswith("BEGIN")]
    assert len(statements) == 1
    assert statements[0].startswith("INSERT INTO idempotency_keys")
    assert record.id is not None
    assert record.created_at is not None
    assert record in session
    assert not session.new
    assert not session.dirty
    # The identity map hands back the same object, without a query.
    assert await session.get(IdempotencyRecord, record.id) is record
    record.status_code = 200  # tracked like any loaded object
    await session.commit()
    stored = (
        await session.execute(
            select(IdempotencyRecord.status_code).where(IdempotencyRecord.id == record.id)
        )
    ).scalar_one()
    assert stored == 200


async def test_update_now_writes_once_leaves_nothing_to_flush_and_rolls_back(
    app: FastAPI, session: AsyncSession
) -> None:
    record = await insert_now(session, IdempotencyRecord(owner="test", key="u", request_hash="h"))
    await session.commit()
    pk = record.id
    with recorded(app.state.engine) as sent:
        await update_now(session, record, {"status_code": 201, "response": {"ok": True}})
    statements = [s for s in sent if not s.startswith("BEGIN")]
    assert len(statements) == 1
    assert statements[0].startswith("UPDATE idempotency_keys SET")
    assert (record.status_code, record.response) == (201, {"ok": True})
    assert not session.dirty  # set as committed: a flush has nothing to send
    stored = (
        await session.execute(
            select(IdempotencyRecord.status_code).where(IdempotencyRecord.id == pk)
        )
    ).scalar_one()
    assert stored == 201
    await session.rollback()  # the driver's write is in the session's transaction
    stored = (
        await session.execute(
            select(IdempotencyRecord.status_code).where(IdempotencyRecord.id == pk)
        )
    ).scalar_one()
    assert stored is None
