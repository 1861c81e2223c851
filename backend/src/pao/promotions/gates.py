"""What an active bonus forbids. Wallet (withdrawals) and games (transfers) ask here before
moving money; the promotions domain owns the rules (docs/domain/promotions.md).

Until bonuses exist nothing is forbidden; the promotions issue fills these in and raises
``BONUS_REMAINING``.
"""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession


async def check_withdrawal_allowed(session: AsyncSession, *, member_id: int) -> None:
    """Raise ``BONUS_REMAINING`` while the member's active bonus condition is unmet."""


async def check_transfer_allowed(
    session: AsyncSession, *, member_id: int, source: str, destination: str, amount: int
) -> None:
    """Raise ``BONUS_REMAINING`` when the active bonus forbids this wallet/game transfer."""
