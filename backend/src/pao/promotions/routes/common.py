"""What the promotions routers share (:mod:`pao.promotions.routes`): the error docs, the
Idempotency-Key runner and the grant's answer.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from fastapi.responses import JSONResponse
from pydantic import BaseModel

from pao.core.openapi import AUTH_ERRORS, errors
from pao.core.uow import SessionDep
from pao.identity.deps import CurrentMember
from pao.kit.idempotency import run_idempotent
from pao.promotions import bonuses
from pao.promotions.models import Bonus, MemberBonus
from pao.promotions.schemas import (
    GrantOut,
    ReceivedOut,
)

PAGE_ERRORS = {**AUTH_ERRORS, **errors(_422="KEY_MISSING | KEY_INVALID")}
# What an Idempotency-Key adds to a route's answers: reused for another request, or malformed.
KEY_ERRORS = {"_409": "IDEMPOTENCY_KEY_REUSED", "_422": "KEY_INVALID"}


async def once(
    session: SessionDep,
    member: CurrentMember,
    key: str | None,
    operation: str,
    payload: dict[str, Any],
    action: Callable[[], Awaitable[BaseModel]],
) -> JSONResponse:
    """Run a money call once per Idempotency-Key; the answer is already JSON (major units),
    so it is returned as is, not re-validated."""
    answer = await run_idempotent(
        session,
        owner=f"member:{member.id}",
        key=key,
        operation=operation,
        payload=payload,
        action=action,
    )
    return JSONResponse(answer)


def received(rows: list[MemberBonus]) -> list[ReceivedOut]:
    return [ReceivedOut(updated_at=row.received_at) for row in rows]


async def grant_out(session: SessionDep, grant: MemberBonus) -> GrantOut:
    bonus = await session.get(Bonus, grant.bonus_id)
    assert bonus is not None
    receipts = [
        r
        for r in await bonuses.receipts_of(session, member_id=grant.member_id)
        if r.bonus_id == bonus.id
    ]
    return GrantOut(
        id=str(grant.id),
        code=bonus.code,
        type=bonus.type,
        is_active=grant.status == "ACTIVE",
        amount=grant.bonus_amount,
        deposit=grant.deposit_amount,
        turnover_required=grant.turnover_required,
        percent_fail=grant.percent_fail,
        received=received(receipts),
    )
