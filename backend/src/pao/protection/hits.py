"""Recording and reading protection hits (:class:`~pao.protection.models.ProtectionHit`).

A refusal is recorded by the code that refuses, just before it raises; the refusal keeps the
request's changes (``keeps_changes``) so the row outlives the rolled-back request. Only members
who set a limit or are excluded are ever refused, so members without either pay nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import case, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from pao.core.inserts import insert_now
from pao.identity.models import Member
from pao.protection.models import HitKind, HitOutcome, ProtectionHit


async def record(
    session: AsyncSession,
    member: Member,
    kind: HitKind,
    *,
    channel: str,
    amount: int | None,
    outcome: HitOutcome = HitOutcome.REFUSED,
    reference: str | None = None,
) -> ProtectionHit:
    return await insert_now(
        session,
        ProtectionHit(
            member_id=member.id,
            kind=kind,
            outcome=outcome,
            channel=channel[:20],
            amount=amount,
            currency=member.currency,
            reference=None if reference is None else reference[:120],
        ),
    )


@dataclass(frozen=True)
class HitSummary:
    """One member and one rule over a range: how often refused, how many payments credited
    over it (flagged), and when first and last."""

    member_id: int
    member_name: str
    kind: str
    refusals: int
    credited: int
    credited_amount: int
    first: datetime
    last: datetime


async def summary(
    session: AsyncSession, *, start: datetime, end: datetime, currency: str
) -> list[HitSummary]:
    """Members who hit a limit or an exclusion in [start, end), latest first."""
    refused = func.sum(case((ProtectionHit.outcome == HitOutcome.REFUSED, 1), else_=0))
    credited = ProtectionHit.outcome == HitOutcome.CREDITED
    query = (
        select(
            ProtectionHit.member_id,
            Member.name,
            ProtectionHit.kind,
            refused,
            func.sum(case((credited, 1), else_=0)),
            func.sum(case((credited, func.coalesce(ProtectionHit.amount, 0)), else_=0)),
            func.min(ProtectionHit.at),
            func.max(ProtectionHit.at),
        )
        .join(Member, Member.id == ProtectionHit.member_id)
        .where(
            ProtectionHit.at >= start,
            ProtectionHit.at < end,
            ProtectionHit.currency == currency,
        )
        .group_by(ProtectionHit.member_id, Member.name, ProtectionHit.kind)
        .order_by(func.max(ProtectionHit.at).desc(), ProtectionHit.member_id, ProtectionHit.kind)
    )
    return [
        HitSummary(
            member_id=int(member_id),
            member_name=name,
            kind=kind,
            refusals=int(n_refused or 0),
            credited=int(n_credited or 0),
            credited_amount=int(credited_sum or 0),
            first=first,
            last=last,
        )
        for member_id, name, kind, n_refused, n_credited, credited_sum, first, last in (
            await session.execute(query)
        )
    ]


async def of_member(
    session: AsyncSession, member_id: int, *, limit: int = 50
) -> list[ProtectionHit]:
    """The member's latest hits (the member page's Protection tab)."""
    rows = await session.scalars(
        select(ProtectionHit)
        .where(ProtectionHit.member_id == member_id)
        .order_by(ProtectionHit.id.desc())
        .limit(limit)
    )
    return list(rows)
