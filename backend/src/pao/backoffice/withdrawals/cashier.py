"""What a cashier decides a withdrawal on: its context (the member, their recent deposits,
their bonus and its turnover, a recent bank account change, the members linked to them and
why (:mod:`pao.identity.links`), the payout). The queue's pages and flags are
:mod:`pao.backoffice.withdrawals.queue`.

Reads only; the decisions are :mod:`pao.wallet.withdrawals` (and
:func:`pao.payments.payouts.service.queue_payout`), the claims :mod:`pao.wallet.claims`. It
lives in the back office, whose queue is its only reader, because it composes the wallet,
the member's identity, promotions and the payout state, and only the back office sits above
all of them (payments may not import promotions); the member page
(:mod:`pao.backoffice.members.detail`) is composed the same way.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from pao.identity.links import AccountPaid, LinkedMember, linked_members
from pao.identity.models import Member
from pao.kit.clock import utcnow
from pao.kit.i18n import default_locale, pick_text
from pao.payments.payouts.models import Payout
from pao.payments.payouts.service import hold_signals, is_held_for_bank_change
from pao.promotions.bonuses import progress
from pao.promotions.common import active_bonus
from pao.promotions.models import Bonus
from pao.site.settings import load_site_settings
from pao.wallet.exceptions import WithdrawalNotFound
from pao.wallet.models import Statement, StatementStatus, StatementType, Withdrawal

RECENT_DEPOSIT_DAYS = 7
RECENT_DEPOSITS_SHOWN = 5
LINKED_SHOWN = 20
# A deposit statement line's ref_type → the channel the cashier reads.
CHANNELS = {
    "slip": "slip",
    "bank_transfer": "bank_transfer",
    "gateway_payment": "gateway",
    "truemoney_voucher": "truemoney",
    "manual_adjustment": "manual",
}


@dataclass(frozen=True)
class RecentDeposit:
    amount: int
    channel: str
    source: str
    at: Any


@dataclass(frozen=True)
class RecentDeposits:
    days: int
    count: int
    total: int
    last: list[RecentDeposit]


@dataclass(frozen=True)
class BonusState:
    name: str
    turnover_required: int
    turnover_done: int


@dataclass(frozen=True)
class WithdrawalContext:
    withdrawal: Withdrawal
    member: Member
    account_age_days: int
    deposits: RecentDeposits
    active_bonus: BonusState | None
    bank_changed_recently: bool
    linked: list[LinkedMember]
    # Whether a link holds it (a signal the operator holds withdrawals for): the queue's flag.
    linked_held: bool
    payout: Payout | None


async def _recent_deposits(session: AsyncSession, member_id: int) -> RecentDeposits:
    since = utcnow() - timedelta(days=RECENT_DEPOSIT_DAYS)
    where = (
        Statement.member_id == member_id,
        Statement.statement_type == StatementType.DEPOSIT,
        Statement.status == StatementStatus.SUCCESS,
        Statement.created_at >= since,
    )
    count, total = (
        await session.execute(
            select(func.count(), func.coalesce(func.sum(Statement.amount), 0)).where(*where)
        )
    ).one()
    last = (
        await session.execute(
            select(Statement)
            .where(*where)
            .order_by(Statement.created_at.desc(), Statement.id.desc())
            .limit(RECENT_DEPOSITS_SHOWN)
        )
    ).scalars()
    return RecentDeposits(
        days=RECENT_DEPOSIT_DAYS,
        count=int(count),
        total=int(total),
        last=[
            RecentDeposit(
                amount=s.amount,
                channel=CHANNELS.get(s.ref_type, s.ref_type),
                source=s.from_label,
                at=s.created_at,
            )
            for s in last
        ],
    )


async def _bonus_state(app: Any, session: AsyncSession, member: Member) -> BonusState | None:
    grant = await active_bonus(session, member_id=member.id)
    if grant is None:
        return None
    state = await progress(app, session, member=member, grant=grant)
    bonus = await session.get(Bonus, grant.bonus_id)
    default = default_locale(lao_mode=bool(app.state.settings.lao_mode))
    return BonusState(
        # Staff read the operator's own default language (th, or la in Lao mode).
        name=pick_text(bonus.name, default, fallback=default) if bonus is not None else "",
        turnover_required=grant.turnover_required,
        turnover_done=state.turnover,
    )


async def withdrawal_context(
    app: Any, session: AsyncSession, *, withdrawal_id: int
) -> WithdrawalContext:
    """Everything a cashier decides on (``app``: promotions asks the game providers for the
    turnover of an active bonus)."""
    withdrawal = await session.get(Withdrawal, withdrawal_id)
    if withdrawal is None:
        raise WithdrawalNotFound(withdrawal_id=withdrawal_id)
    member = await session.get(Member, withdrawal.member_id)
    assert member is not None  # a foreign key
    site = await load_site_settings(session)
    payout = (
        await session.execute(select(Payout).where(Payout.withdrawal_id == withdrawal.id))
    ).scalar_one_or_none()
    linked = await linked_members(
        session,
        member=member,
        window_hours=site.linked_address_window_hours,
        with_address=site.hold_linked_address,
        account=AccountPaid(withdrawal.bank_account_no, withdrawal.bank_account_name),
        limit=LINKED_SHOWN,
    )
    return WithdrawalContext(
        withdrawal=withdrawal,
        member=member,
        account_age_days=max((utcnow() - member.created_at).days, 0),
        deposits=await _recent_deposits(session, member.id),
        active_bonus=await _bonus_state(app, session, member),
        bank_changed_recently=await is_held_for_bank_change(
            session, withdrawal=withdrawal, hold_hours=site.bank_change_hold_hours
        ),
        linked=linked,
        linked_held=any(set(link.signals) & hold_signals(site) for link in linked),
        payout=payout,
    )
