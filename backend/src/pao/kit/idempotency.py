"""Idempotent money requests (money rule 5).

The client sends one ``Idempotency-Key`` per user intent and reuses it on retry. The key is
stored unique per owner with a hash of the request, *in the same transaction* as the money
movement, so the answer is recorded if and only if the movement happened:

* same key, same request  → the first answer again (nothing moves twice);
* same key, other request → 409 ``IDEMPOTENCY_KEY_REUSED``;
* a refused request stores nothing (it rolled back), so a retry is evaluated afresh.

The row is inserted *first*, with ``INSERT … ON CONFLICT DO NOTHING RETURNING id`` (one round
trip, no savepoint): on PostgreSQL a concurrent duplicate then waits on the unique index until
the first transaction ends and, if that committed, finds its row; on SQLite writers are
serialised anyway. The statements run through :mod:`pao.core.executor` (on PostgreSQL on the
driver, in the request's transaction). Every money request runs these statements, so they are
built once, with bind parameters (building one per call cost a tenth of a withdrawal's CPU:
docs/benchmarks.md).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Annotated, Any, cast

from fastapi import Header
from pydantic import BaseModel
from sqlalchemy import (
    JSON,
    Integer,
    String,
    Table,
    UniqueConstraint,
    bindparam,
    select,
    update,
)
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Mapped, mapped_column

from pao.core import executor
from pao.core.db import Base, BigId, UtcDateTime
from pao.core.errors import Conflict, Unprocessable
from pao.core.inserts import insert_unless_present
from pao.kit.clock import utcnow

IdempotencyKeyHeader = Annotated[
    str | None,
    Header(alias="Idempotency-Key", description="One per user intent; reuse it on retry."),
]


class IdempotencyRecord(Base):
    __tablename__ = "idempotency_keys"
    __table_args__ = (UniqueConstraint("owner", "key"),)

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    owner: Mapped[str] = mapped_column(String(64))
    key: Mapped[str] = mapped_column(String(200))
    request_hash: Mapped[str] = mapped_column(String(64))
    status_code: Mapped[int | None] = mapped_column(Integer)
    response: Mapped[Any] = mapped_column(JSON, nullable=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)


class IdempotencyKeyReused(Conflict):
    code = "IDEMPOTENCY_KEY_REUSED"


def key_is_well_formed(key: str) -> bool:
    """Whether ``key`` may be stored (else 422 ``KEY_INVALID``)."""
    return 1 <= len(key) <= 200


def request_hash(operation: str, payload: Any) -> str:
    body = json.dumps({"op": operation, "payload": payload}, sort_keys=True, default=str)
    return hashlib.sha256(body.encode()).hexdigest()


_keys = cast(Table, IdempotencyRecord.__table__)
_RECORDED = select(_keys.c.request_hash, _keys.c.response).where(
    _keys.c.owner == bindparam("owner"), _keys.c.key == bindparam("key")
)
_ANSWER = (
    update(_keys)
    .where(_keys.c.id == bindparam("record_id"))
    .values(status_code=200, response=bindparam("answer", type_=_keys.c.response.type))
)
_CLAIMS = insert_unless_present(_keys, unique=["owner", "key"], returning=[_keys.c.id])


async def run_idempotent(
    session: AsyncSession,
    *,
    owner: str,
    key: str | None,
    operation: str,
    payload: Any,
    action: Callable[[], Awaitable[BaseModel]],
) -> Any:
    """Run ``action`` once per (owner, key); return its JSON-ready answer."""
    if key is None:
        return (await action()).model_dump(mode="json", by_alias=True)
    if not key_is_well_formed(key):
        raise Unprocessable("KEY_INVALID", field="Idempotency-Key")
    digest = request_hash(operation, payload)
    record_id = await _claim(session, owner=owner, key=key, digest=digest)
    if record_id is None:
        rows = await executor.fetch(session, _RECORDED, {"owner": owner, "key": key})
        recorded_hash, response = rows[0]
        if recorded_hash != digest:
            raise IdempotencyKeyReused() from None
        return response
    answer = (await action()).model_dump(mode="json", by_alias=True)
    await executor.execute_many(session, _ANSWER, [{"record_id": record_id, "answer": answer}])
    return answer


async def replayed_answer(
    session: AsyncSession, *, owner: str, key: str | None, operation: str, payload: Any
) -> Any | None:
    """The recorded answer of an already completed request with this key, if any.

    For routes that must call a third party *before* the transaction that moves the money (and
    records the key through :func:`run_idempotent`): a retry is answered here without calling
    the party again."""
    if key is None:
        return None
    if not key_is_well_formed(key):
        raise Unprocessable("KEY_INVALID", field="Idempotency-Key")
    existing = await executor.fetch_one_or_none(session, _RECORDED, {"owner": owner, "key": key})
    if existing is None or existing[1] is None:
        return None
    if existing[0] != request_hash(operation, payload):
        raise IdempotencyKeyReused()
    return existing[1]


async def _claim(session: AsyncSession, *, owner: str, key: str, digest: str) -> int | None:
    """Insert the key; its id, or None when the (owner, key) row exists already."""
    statement = _CLAIMS[session.get_bind().dialect.name]
    params = {"owner": owner, "key": key, "request_hash": digest, "created_at": utcnow()}
    row = await executor.fetch_one_or_none(session, statement, params)
    return None if row is None else int(row[0])
