"""Read-only counts of the withdrawal queue for the operator's figures (the dashboard)."""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from pao.wallet.models import Withdrawal, WithdrawalStatus


async def count_pending_withdrawals(session: AsyncSession) -> int:
    """Withdrawals waiting for a cashier's decision (PENDING; APPROVED ones are being paid)."""
    query = (
        select(func.count())
        .select_from(Withdrawal)
        .where(Withdrawal.status == WithdrawalStatus.PENDING)
    )
    return int((await session.execute(query)).scalar_one())
