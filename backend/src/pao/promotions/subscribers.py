"""What promotions do when money arrives: remember the deposit (a bonus's qualifying
deposit), accrue the inviter's income and award wheel coins — all in the deposit's own
transaction, so they commit together or not at all (:mod:`pao.kit.events`).

Every deposit runs this, so its writes are single prebuilt statements on the session's
transaction (:mod:`pao.core.executor`, ADR 0014), not the ORM's unit of work."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from pao.core.inserts import insert_now
from pao.kit.events import DepositCredited, subscribe
from pao.promotions import invite, wheel
from pao.promotions.models import PromoDeposit


@subscribe(DepositCredited)
async def on_deposit_credited(session: AsyncSession, event: DepositCredited) -> None:
    await insert_now(
        session,
        PromoDeposit(
            member_id=event.member_id,
            amount=event.amount,
            currency=event.currency,
            channel=event.channel[:20],
            reference=event.reference[:120],
        ),
    )
    await invite.accrue(session, event)
    await wheel.award_coins(session, event)
