"""A member's player protection, as staff see it (``members.read``): the deposit and loss
limits in force and pending, every limit change (the history), every time-out or
self-exclusion with when it ends, and the latest refusals and payments credited over a limit
(flagged). Read only: staff have no route that changes them
(pao.protection.service)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends
from sqlalchemy import select

from pao.backoffice.deps import require
from pao.backoffice.members.schemas import (
    ExclusionRowOut,
    LimitChangeOut,
    MemberProtectionOut,
    ProtectionHitOut,
)
from pao.backoffice.models import Staff
from pao.backoffice.routing import AUTHENTICATED, backoffice_router
from pao.backoffice.staff.roles import Permission
from pao.core.openapi import VALIDATION, errors
from pao.core.params import DbId
from pao.core.uow import SessionDep
from pao.identity.admin import get_member
from pao.identity.models import DepositLimit, PlayExclusion
from pao.protection import hits
from pao.protection import service as protection
from pao.protection.schemas import LimitOut

router = backoffice_router()

Reader = Annotated[Staff, Depends(require(Permission.MEMBERS_READ))]


@router.get(
    "/members/{member_id}/protection",
    operation_id="backofficeMemberProtection",
    response_model=MemberProtectionOut,
    responses={**AUTHENTICATED, **errors(_404="NO_USER"), **VALIDATION},
    summary="The member's deposit limits (now and their history) and exclusions",
)
async def member_protection(
    member_id: DbId, session: SessionDep, staff: Reader
) -> MemberProtectionOut:
    member = await get_member(session, member_id)
    changes = await session.execute(
        select(DepositLimit)
        .where(DepositLimit.member_id == member_id)
        .order_by(DepositLimit.id.desc())
    )
    exclusions = await session.execute(
        select(PlayExclusion)
        .where(PlayExclusion.member_id == member_id)
        .order_by(PlayExclusion.id.desc())
    )
    excluded = protection.is_excluded(member)
    return MemberProtectionOut(
        excluded_until=member.excluded_until if excluded else None,
        limits=LimitOut.of_states(await protection.limits(session, member_id)),
        loss_limits=LimitOut.of_states(await protection.limits(session, member_id, "loss")),
        limit_changes=[
            LimitChangeOut(
                kind=row.kind,
                period=row.period,
                amount=row.amount,
                effective_from=row.effective_from,
                created_at=row.created_at,
            )
            for row in changes.scalars()
        ],
        exclusions=[
            ExclusionRowOut(
                kind=row.kind,
                starts_at=row.starts_at,
                ends_at=row.ends_at,
                end_requested_at=row.end_requested_at,
            )
            for row in exclusions.scalars()
        ],
        hits=[
            ProtectionHitOut(
                kind=hit.kind,
                outcome=hit.outcome,
                channel=hit.channel,
                amount=hit.amount,
                reference=hit.reference,
                at=hit.at,
            )
            for hit in await hits.of_member(session, member_id)
        ],
    )
