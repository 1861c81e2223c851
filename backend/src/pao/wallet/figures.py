"""Read-only counts of the wallet's staff queues for the operator's figures (the dashboard):
withdrawals waiting for a cashier, manual adjustments waiting for a second staff member."""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from pao.wallet.models import (
    AdjustmentStatus,
    ManualAdjustment,
    Withdrawal,
    WithdrawalStatus,
)


async def count_pending_withdrawals(session: AsyncSession) -> int:
    """Withdrawals waiting for a cashier's decision (PENDING; APPROVED ones are being paid)."""
    query = (
        select(func.count())
        .select_from(Withdrawal)
        .where(Withdrawal.status == WithdrawalStatus.PENDING)
    )
    return int((await session.execute(query)).scalar_one())


async def count_adjustments_awaiting(session: AsyncSession) -> int:
    """Manual adjustments above the limit that wait for a second staff member's decision."""
    query = (
        select(func.count())
        .select_from(ManualAdjustment)
        .where(ManualAdjustment.status == AdjustmentStatus.AWAITING_APPROVAL)
    )
    return int((await session.execute(query)).scalar_one())
