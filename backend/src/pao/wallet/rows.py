"""Loading a withdrawal under its row lock: every change to one starts here."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from pao.wallet.exceptions import WithdrawalNotFound
from pao.wallet.models import Withdrawal


async def lock_withdrawal(session: AsyncSession, withdrawal_id: int) -> Withdrawal:
    """Load a withdrawal under ``FOR UPDATE`` (fresh from the database)."""
    query = (
        select(Withdrawal)
        .where(Withdrawal.id == withdrawal_id)
        .with_for_update()
        .execution_options(populate_existing=True)
    )
    withdrawal = (await session.execute(query)).scalar_one_or_none()
    if withdrawal is None:
        raise WithdrawalNotFound(withdrawal_id=withdrawal_id)
    return withdrawal
