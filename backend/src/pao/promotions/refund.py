"""Refund (cashback on net losses).

* **Period**: ``refundPeriod`` (``day`` or ``week``) in the operator's time zone; the
  current period runs from its start until now.
* **Net loss** of the period = stakes − winnings of the member's settled bets in the period
  (turnover − payout, from the games domain). Deposits and withdrawals alone are not a loss:
  money moved around but not lost earns nothing, and losses cannot be manufactured by moving
  money between the wallet and games.
* **Receivable** = min(``refundRateBp`` × net loss, ``refundMaxPerPeriod``) − what was already
  received for the period. As losses grow during the period, more can be received.
* **Receive** (``/api/refund/receive``) grants the receivable as a RECEIVED receipt; **add to
  wallet** (``/api/refund/addWallet``) pays every RECEIVED receipt into the wallet
  (bonus_expense → wallet) and marks it ADDED. Both run under the member lock, so racing
  clicks receive and pay once.
* Refused while a bonus is active (``hasBonus``: REFUND_CONDITION), when disabled
  (REFUND_INACTIVE), without a net loss (NO_REFUND), or when the receivable is below
  ``refundMinimum`` (REFUND_MINIMUM).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from pao.identity.models import Member
from pao.kit.clock import utcnow
from pao.kit.pagination import PageRequest
from pao.kit.states import transition
from pao.promotions import rules
from pao.promotions.common import active_bonus, game_results, lock_member, pay_reward
from pao.promotions.exceptions import NoRefund, RefundCondition, RefundInactive, RefundMinimum
from pao.promotions.models import REFUND_TRANSITIONS, RefundReceipt, RefundStatus
from pao.site.settings import SiteSettings, load_site_settings
from pao.wallet.statement_notes import NoteCode, note


@dataclass(frozen=True)
class RefundState:
    enabled: bool
    has_bonus: bool
    period: str
    period_start: datetime
    net_loss: int
    rate_bp: int
    minimum: int
    receivable: int  # refundAmount
    waiting: int  # refundSuccess: received, not yet added to the wallet
    over_cap: int  # refundFail: cut off by the period cap

    @property
    def can_receive(self) -> bool:
        return (
            self.enabled
            and not self.has_bonus
            and self.receivable > 0
            and self.receivable >= self.minimum
        )


async def _sum(session: AsyncSession, *conditions: Any) -> int:
    total = (
        await session.execute(
            select(func.coalesce(func.sum(RefundReceipt.amount), 0)).where(*conditions)
        )
    ).scalar_one()
    return int(total)


async def state(
    app: Any, session: AsyncSession, *, member: Member, settings: SiteSettings | None = None
) -> RefundState:
    settings = settings or await load_site_settings(session)
    now = utcnow()
    start = rules.period_start(now, period=settings.refund_period, timezone=settings.timezone)
    assert start is not None
    # The rules of the member's own currency; a currency without them is not offered refunds.
    minimum = settings.refund_minimum.for_currency(member.currency)
    max_per_period = settings.refund_max_per_period.for_currency(member.currency)
    offered = minimum is not None and max_per_period is not None
    minimum = minimum or 0
    max_per_period = max_per_period or 0
    results = await game_results(app, session, member_id=member.id, since=start, until=now)
    net_loss = max(0, results.turnover - results.payout)
    received = await _sum(
        session, RefundReceipt.member_id == member.id, RefundReceipt.period_start == start
    )
    waiting = await _sum(
        session,
        RefundReceipt.member_id == member.id,
        RefundReceipt.status == RefundStatus.RECEIVED,
    )
    return RefundState(
        enabled=settings.refund_enabled and offered,
        has_bonus=await active_bonus(session, member_id=member.id) is not None,
        period=settings.refund_period,
        period_start=start,
        net_loss=net_loss,
        rate_bp=settings.refund_rate_bp,
        minimum=minimum,
        receivable=rules.refund_receivable(
            net_loss=net_loss,
            rate_bp=settings.refund_rate_bp,
            max_per_period=max_per_period,
            received_in_period=received,
        ),
        waiting=waiting,
        over_cap=rules.refund_over_cap(
            net_loss=net_loss,
            rate_bp=settings.refund_rate_bp,
            max_per_period=max_per_period,
        ),
    )


async def receive(app: Any, session: AsyncSession, *, member: Member) -> RefundReceipt:
    settings = await load_site_settings(session)
    if not settings.refund_enabled:
        raise RefundInactive()
    member = await lock_member(session, member_id=member.id)
    current = await state(app, session, member=member, settings=settings)
    if not current.enabled:
        raise RefundInactive()
    if current.has_bonus:
        raise RefundCondition()
    if current.net_loss <= 0:
        raise NoRefund()
    if current.receivable <= 0 or current.receivable < current.minimum:
        raise RefundMinimum()
    receipt = RefundReceipt(
        member_id=member.id,
        period_start=current.period_start,
        net_loss=current.net_loss,
        amount=current.receivable,
        currency=member.currency,
        status=RefundStatus.RECEIVED,
    )
    session.add(receipt)
    await session.flush()
    return receipt


async def add_to_wallet(session: AsyncSession, *, member: Member) -> int:
    """Pay every received refund into the wallet; returns the amount paid."""
    settings = await load_site_settings(session)
    if not settings.refund_enabled:
        raise RefundInactive()
    member = await lock_member(session, member_id=member.id)
    if await active_bonus(session, member_id=member.id) is not None:
        raise RefundCondition()
    receipts = list(
        (
            await session.execute(
                select(RefundReceipt)
                .where(
                    RefundReceipt.member_id == member.id,
                    RefundReceipt.status == RefundStatus.RECEIVED,
                )
                .order_by(RefundReceipt.id)
                .with_for_update()
                .execution_options(populate_existing=True)
            )
        ).scalars()
    )
    if not receipts:
        raise NoRefund()
    amount = sum(r.amount for r in receipts)
    payout = await pay_reward(
        session,
        member=member,
        amount=amount,
        kind="refund",
        ref_type="refund",
        ref_id=receipts[0].id,
        extra={"refund": note(NoteCode.REFUND_RECEIVED)},
        memo="refund " + ",".join(str(r.id) for r in receipts),
    )
    now = utcnow()
    for receipt in receipts:
        await transition(
            session, receipt, RefundStatus.ADDED, REFUND_TRANSITIONS, actor=f"member:{member.id}"
        )
        receipt.entry_id = payout.entry.id
        receipt.added_at = now
    await session.flush()
    return amount


async def list_receipts(
    session: AsyncSession, *, member_id: int, page: PageRequest
) -> tuple[int, list[RefundReceipt]]:
    total = (
        await session.execute(
            select(func.count())
            .select_from(RefundReceipt)
            .where(RefundReceipt.member_id == member_id)
        )
    ).scalar_one()
    rows = await session.execute(
        select(RefundReceipt)
        .where(RefundReceipt.member_id == member_id)
        .order_by(RefundReceipt.created_at.desc(), RefundReceipt.id.desc())
        .limit(page.limit)
        .offset(page.offset)
    )
    return int(total), list(rows.scalars())
