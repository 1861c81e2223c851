"""A member's withdrawals, newest first, one page at a time (the operator's member page)."""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from pao.wallet.models import Withdrawal


async def member_withdrawals(
    session: AsyncSession, *, member_id: int, offset: int, limit: int
) -> tuple[int, list[Withdrawal]]:
    total = await session.scalar(
        select(func.count()).select_from(Withdrawal).where(Withdrawal.member_id == member_id)
    )
    rows = await session.execute(
        select(Withdrawal)
        .where(Withdrawal.member_id == member_id)
        .order_by(Withdrawal.created_at.desc(), Withdrawal.id.desc())
        .offset(offset)
        .limit(limit)
    )
    return int(total or 0), list(rows.scalars())
