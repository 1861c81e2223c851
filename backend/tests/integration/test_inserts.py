"""``insert_now``: one INSERT, defaults applied, the object persistent as after a flush."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from sqlalchemy import event, select
from sqlalchemy.ext.asyncio import AsyncSession

from pao.core.inserts import insert_now
from pao.kit.idempotency import IdempotencyRecord


async def test_insert_now_writes_once_and_attaches(app: FastAPI, session: AsyncSession) -> None:
    statements: list[str] = []

    def before(_c: Any, _cur: Any, statement: str, *_a: Any) -> None:
        if not statement.startswith("BEGIN"):  # SQLite's own, at the transaction's start
            statements.append(statement)

    event.listen(app.state.engine.sync_engine, "before_cursor_execute", before)
    try:
        record = await insert_now(
            session, IdempotencyRecord(owner="test", key="k", request_hash="h")
        )
    finally:
        event.remove(app.state.engine.sync_engine, "before_cursor_execute", before)
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
