"""What promotions do when money arrives: remember the deposit (a bonus's qualifying
deposit), accrue the inviter's income and award wheel coins — all in the deposit's own
transaction, so they commit together or not at all (:mod:`pao.kit.events`)."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from pao.kit.events import DepositCredited, subscribe
from pao.promotions import invite, wheel
from pao.promotions.models import PromoDeposit


@subscribe(DepositCredited)
async def on_deposit_credited(session: AsyncSession, event: DepositCredited) -> None:
    session.add(
        PromoDeposit(
            member_id=event.member_id,
            amount=event.amount,
            currency=event.currency,
            channel=event.channel[:20],
            reference=event.reference[:120],
        )
    )
    await session.flush()
    await invite.accrue(session, event)
    await wheel.award_coins(session, event)
