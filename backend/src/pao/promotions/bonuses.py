"""Bonuses and promotion codes: the list, activation, the wagering condition and clearing.

Activation (``GET /api/bonus/activate/{code}``, ``GET /api/promotion/activate/{code}``), in
this order, under the member lock (see :mod:`pao.promotions.common`):

1. the bonus exists, is active and within its validity window
   (promotion codes: upper-cased)                                   → NO_DATA / NO_PROMOTION
2. no bonus is active for the member                                → BONUS_ALREADY_ACTIVE
3. promotion code not received before by the member                 → PROMOTION_RECEIVED
4. receipts in the bonus's period < maxReceived                     → BONUS_MAX_CLAIMED
5. a qualifying deposit when min_deposit > 0: the newest deposit of
   the last ``bonusDepositWindowHours``, ≥ min_deposit, not used by
   another bonus, and still in the wallet                          → BONUS_CONDITION
6. promotion codes: the global limit not reached (atomic update)    → BONUS_FULL
7. pay (bonus_expense → wallet), record the grant (ACTIVE), mark the deposit used.

Receipts are never deleted and count whatever became of them, so ending a bonus and taking
it again is bounded by ``maxReceived`` like any other receipt. The partial unique index on
active grants and the unique ``once_key`` / ``used_by_id`` columns refuse a second copy even
if two requests got past the checks together.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import ColumnElement, and_, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from pao.core.errors import CurrencyNotOffered
from pao.identity.models import Member
from pao.kit.clock import utcnow
from pao.kit.events import BonusReceived, publish
from pao.kit.money import Currency
from pao.kit.states import transition
from pao.promotions import rules
from pao.promotions.common import (
    PROMOTION_LABEL,
    active_bonus,
    game_results,
    lock_member,
    pay_reward,
    total_balance,
)
from pao.promotions.device_claims import claim_device
from pao.promotions.exceptions import (
    BonusAlreadyActive,
    BonusCondition,
    BonusFull,
    BonusMaxClaimed,
    NoBonus,
    NoPromotion,
    PromotionReceived,
)
from pao.promotions.models import (
    MEMBER_BONUS_TRANSITIONS,
    Bonus,
    BonusKind,
    BonusType,
    MemberBonus,
    MemberBonusStatus,
    PromoDeposit,
)
from pao.site.settings import SiteSettings, load_site_settings
from pao.wallet.models import StatementStatus, StatementType
from pao.wallet.service import wallet_balance
from pao.wallet.statement_notes import NoteCode, note
from pao.wallet.statements import WALLET_LABEL, record_statement


def offered(now: datetime) -> ColumnElement[bool]:
    """Active and within its validity window at ``now`` (an open end when NULL). Outside it a
    bonus is as if it did not exist for players: not listed, and its code answers what an
    unknown code answers (NO_DATA / NO_PROMOTION: the catalogue has no code of its own)."""
    return and_(
        Bonus.is_active.is_(True),
        or_(Bonus.valid_from.is_(None), Bonus.valid_from <= now),
        or_(Bonus.valid_until.is_(None), Bonus.valid_until > now),
    )


async def list_bonuses(session: AsyncSession, *, currency: Currency | str) -> list[Bonus]:
    """The bonuses offered to a wallet in ``currency``: those defined in it (ADR 0020)."""
    query = (
        select(Bonus)
        .where(offered(utcnow()), Bonus.kind == BonusKind.BONUS, Bonus.currency == currency)
        .order_by(Bonus.sort_order, Bonus.id)
    )
    return list((await session.execute(query)).scalars())


async def receipts_of(session: AsyncSession, *, member_id: int) -> list[MemberBonus]:
    query = (
        select(MemberBonus)
        .where(MemberBonus.member_id == member_id)
        .order_by(MemberBonus.received_at.desc(), MemberBonus.id.desc())
    )
    return list((await session.execute(query)).scalars())


async def find_bonus(session: AsyncSession, *, code: str, kind: BonusKind) -> Bonus | None:
    query = select(Bonus).where(Bonus.code == code, Bonus.kind == kind, offered(utcnow()))
    return (await session.execute(query)).scalar_one_or_none()


async def find_promotion(session: AsyncSession, *, code: str) -> Bonus | None:
    return await find_bonus(session, code=code.strip().upper(), kind=BonusKind.PROMOTION)


async def qualifying_deposit(
    session: AsyncSession, *, member: Member, bonus: Bonus, settings: SiteSettings
) -> PromoDeposit | None:
    """The newest unused deposit of the window, if it is big enough (older deposits never
    qualify once a newer one arrived: a bonus is for the deposit just made)."""
    since = utcnow() - timedelta(hours=settings.bonus_deposit_window_hours)
    query = (
        select(PromoDeposit)
        .where(
            PromoDeposit.member_id == member.id,
            PromoDeposit.created_at >= since,
            PromoDeposit.used_by_id.is_(None),
            PromoDeposit.currency == member.currency,
        )
        .order_by(PromoDeposit.created_at.desc(), PromoDeposit.id.desc())
        .limit(1)
    )
    deposit = (await session.execute(query)).scalar_one_or_none()
    if deposit is None or deposit.amount < bonus.min_deposit:
        return None
    return deposit


@dataclass(frozen=True)
class Minimum:
    status: bool
    amount: int


async def check_minimum(session: AsyncSession, *, member: Member) -> Minimum:
    """Whether a qualifying deposit is waiting for a bonus, and its amount."""
    settings = await load_site_settings(session)
    since = utcnow() - timedelta(hours=settings.bonus_deposit_window_hours)
    query = (
        select(PromoDeposit.amount)
        .where(
            PromoDeposit.member_id == member.id,
            PromoDeposit.created_at >= since,
            PromoDeposit.used_by_id.is_(None),
        )
        .order_by(PromoDeposit.created_at.desc(), PromoDeposit.id.desc())
        .limit(1)
    )
    amount = (await session.execute(query)).scalar_one_or_none()
    return Minimum(status=amount is not None, amount=int(amount or 0))


async def activate(
    session: AsyncSession, *, member: Member, bonus: Bonus, device_id: str | None = None
) -> MemberBonus:
    """Grant ``bonus`` to ``member`` (rules in the module docstring) on ``device_id`` (the
    app's id of the device asking, :mod:`pao.promotions.device_claims`)."""
    if bonus.currency != member.currency:
        # Defined in another currency: its amounts mean nothing in this wallet (ADR 0020).
        raise CurrencyNotOffered()
    settings = await load_site_settings(session)
    member = await lock_member(session, member_id=member.id)
    if await active_bonus(session, member_id=member.id) is not None:
        raise BonusAlreadyActive()
    is_promotion = bonus.kind == BonusKind.PROMOTION
    once_key = f"{member.id}:{bonus.id}" if is_promotion else None
    history = (
        await session.execute(
            select(MemberBonus.received_at).where(
                MemberBonus.member_id == member.id, MemberBonus.bonus_id == bonus.id
            )
        )
    ).scalars()
    received = list(history)
    if is_promotion and received:
        raise PromotionReceived()
    count = rules.count_in_period(
        received, now=utcnow(), period=BonusType(bonus.type).value, timezone=settings.timezone
    )
    if count >= bonus.max_received:
        raise BonusMaxClaimed()
    deposit: PromoDeposit | None = None
    if bonus.min_deposit > 0:
        deposit = await qualifying_deposit(session, member=member, bonus=bonus, settings=settings)
        currency = Currency(member.currency)
        if deposit is None or (
            await wallet_balance(session, member_id=member.id, currency=currency) < deposit.amount
        ):
            raise BonusCondition()
    deposit_amount = deposit.amount if deposit else 0
    amount = rules.bonus_amount(
        deposit=deposit_amount,
        percent=bonus.percent,
        fixed_amount=bonus.fixed_amount,
        max_amount=bonus.max_amount,
    )
    if amount <= 0:
        raise BonusCondition()
    await claim_device(session, bonus=bonus, member_id=member.id, device_id=device_id)
    if is_promotion:
        # Atomic: concurrent redemptions of one code cannot exceed its global limit.
        taken = await session.execute(
            update(Bonus)
            .where(
                Bonus.id == bonus.id,
                (Bonus.total_limit.is_(None)) | (Bonus.claimed_count < Bonus.total_limit),
            )
            .values(claimed_count=Bonus.claimed_count + 1)
            .execution_options(synchronize_session=False)
        )
        if getattr(taken, "rowcount", 0) != 1:
            raise BonusFull()
    now = utcnow()
    grant = MemberBonus(
        member_id=member.id,
        bonus_id=bonus.id,
        once_key=once_key,
        status=MemberBonusStatus.ACTIVE,
        currency=member.currency,
        deposit_amount=deposit_amount,
        bonus_amount=amount,
        turnover_required=rules.turnover_required(
            deposit=deposit_amount, bonus=amount, multiplier=bonus.turnover_multiplier
        ),
        percent_fail=bonus.percent_fail,
        received_at=now,
    )
    try:
        async with session.begin_nested():
            session.add(grant)
            await session.flush()
    except IntegrityError:
        raise BonusAlreadyActive() from None
    payout = await pay_reward(
        session,
        member=member,
        amount=amount,
        kind="bonus",
        ref_type="bonus",
        ref_id=grant.id,
        extra={
            "promotion" if is_promotion else "bonus": note(
                NoteCode.PROMOTION_RECEIVED if is_promotion else NoteCode.BONUS_RECEIVED,
                name=bonus.name,
            )
        },
        memo=f"bonus {bonus.code}",
    )
    grant.entry_id = payout.entry.id
    if deposit is not None:
        deposit.used_by_id = grant.id
    await session.flush()
    await publish(
        session,
        BonusReceived(
            member_id=member.id,
            amount=amount,
            currency=Currency(member.currency),
            member_bonus_id=grant.id,
            name=bonus.name,
        ),
    )
    return grant


async def activate_bonus(
    session: AsyncSession, *, member: Member, code: str, device_id: str | None = None
) -> MemberBonus:
    bonus = await find_bonus(session, code=code, kind=BonusKind.BONUS)
    if bonus is None:
        raise NoBonus()
    return await activate(session, member=member, bonus=bonus, device_id=device_id)


async def activate_promotion(
    session: AsyncSession, *, member: Member, code: str, device_id: str | None = None
) -> MemberBonus:
    bonus = await find_promotion(session, code=code)
    if bonus is None:
        raise NoPromotion()
    return await activate(session, member=member, bonus=bonus, device_id=device_id)


@dataclass(frozen=True)
class Progress:
    """Where an active bonus stands."""

    grant: MemberBonus
    bonus: Bonus
    turnover: int
    balance: int

    @property
    def turnover_met(self) -> bool:
        return rules.turnover_met(turnover=self.turnover, required=self.grant.turnover_required)

    @property
    def percent_fail_reached(self) -> bool:
        return rules.percent_fail_reached(
            balance=self.balance,
            deposit=self.grant.deposit_amount,
            bonus=self.grant.bonus_amount,
            percent_fail=self.grant.percent_fail,
        )


async def progress(
    app: Any, session: AsyncSession, *, member: Member, grant: MemberBonus
) -> Progress:
    bonus = await session.get(Bonus, grant.bonus_id)
    assert bonus is not None
    results = await game_results(
        app, session, member_id=member.id, since=grant.received_at, until=utcnow()
    )
    balance = await total_balance(session, member=member)
    return Progress(grant=grant, bonus=bonus, turnover=results.turnover, balance=balance)


async def clear(app: Any, session: AsyncSession, *, member: Member) -> str:
    """End the active bonus if its condition allows: ``BONUS_CLEAR`` when the turnover is
    met, ``OK`` when the balance fell under percentFail, ``BONUS_CONDITION`` otherwise.
    Nothing active (already ended, e.g. by a concurrent click): ``OK``."""
    member = await lock_member(session, member_id=member.id)
    grant = await active_bonus(session, member_id=member.id, for_update=True)
    if grant is None:
        return "OK"
    state = await progress(app, session, member=member, grant=grant)
    if state.turnover_met:
        new, message = MemberBonusStatus.CLEARED, "BONUS_CLEAR"
    elif state.percent_fail_reached:
        new, message = MemberBonusStatus.ENDED, "OK"
    else:
        raise BonusCondition()
    await transition(
        session,
        grant,
        new,
        MEMBER_BONUS_TRANSITIONS,
        actor=f"member:{member.id}",
        reason=f"turnover {state.turnover} / {grant.turnover_required}, balance {state.balance}",
    )
    grant.ended_at = utcnow()
    await record_statement(
        session,
        member_id=member.id,
        statement_type=StatementType.FINISH_BONUS,
        status=StatementStatus.SUCCESS,
        amount=grant.bonus_amount,
        currency=Currency(grant.currency),
        from_label=PROMOTION_LABEL,
        to_label=WALLET_LABEL,
        ref_type="bonus_finish",
        ref_id=grant.id,
        extra={"bonus": note(NoteCode.BONUS_FINISHED, name=state.bonus.name)},
    )
    await session.flush()
    return message
