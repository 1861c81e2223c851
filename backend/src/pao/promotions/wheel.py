"""The prize wheel: coins, spins and coupons.

* **Coins**: one coin for each full ``spinDepositPerCoin`` of a single deposit, added in the
  deposit's transaction (:func:`award_coins`, on DepositCredited).
* **Spin**: takes one coin with a conditional update (``coin = coin - 1 WHERE coin >= 1``),
  so concurrent spins never take the balance below zero, then picks a slice with the
  operating system's cryptographic generator, weighted by the slices' server-side weights
  (:func:`pao.promotions.rules.choose`). A slice with a prize issues a coupon valid for
  ``couponValidDays``. The odds shown to players are exactly weight / total weight, over the
  live slices (the editor, :mod:`pao.promotions.wheel_editor`, retires used slices).
* **Claim**: the coupon row is locked and moves ISSUED → CLAIMED once; a credit prize is paid
  (bonus_expense → wallet) in the same transaction. Refused while a bonus is active.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from fractions import Fraction
from typing import cast

from sqlalchemy import Table, bindparam, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from pao.core import executor
from pao.core.errors import CurrencyNotOffered
from pao.identity.models import Member
from pao.kit.clock import utcnow
from pao.kit.events import DepositCredited
from pao.kit.money import Currency
from pao.kit.states import transition
from pao.promotions import rules
from pao.promotions.common import active_bonus, lock_member, pay_reward
from pao.promotions.exceptions import (
    BonusRemaining,
    CouponExpired,
    InvalidCode,
    InvalidCouponType,
    InvalidPrizeCode,
    NoClaimableCoupon,
    NoCoin,
    SpinInactive,
)
from pao.promotions.models import (
    COUPON_TRANSITIONS,
    CouponStatus,
    PrizeType,
    Wheel,
    WheelCoupon,
    WheelSlice,
    WheelSpin,
)
from pao.site.settings import load_site_settings
from pao.wallet.statement_notes import NoteCode, note

COUPON_CODE = re.compile(r"[A-Z0-9]{12}")

# Prebuilt: every deposit may send it (on the driver, in the deposit's transaction).
_members = cast(Table, Member.__table__)
_ADD_COINS = (
    update(_members)
    .where(_members.c.id == bindparam("member_id"))
    .values(coin=_members.c.coin + bindparam("coins"))
)


async def award_coins(session: AsyncSession, event: DepositCredited) -> int:
    settings = await load_site_settings(session)
    if not settings.spin_enabled:
        return 0
    # One coin per this much of the deposit's own currency (kip per coin for a kip deposit);
    # unset for that currency: its deposits earn no coins.
    per_coin = settings.spin_deposit_per_coin.for_currency(event.currency)
    if per_coin is None:
        return 0
    coins = rules.coins_for_deposit(amount=event.amount, per_coin=per_coin)
    if coins > 0:
        # The Member object a session may hold is not refreshed, as before
        # (synchronize_session=False): coins are read with coins_of.
        await executor.execute_many(
            session, _ADD_COINS, [{"member_id": event.member_id, "coins": coins}]
        )
    return coins


async def active_wheel(session: AsyncSession, *, currency: Currency | str) -> Wheel | None:
    """The wheel a wallet in ``currency`` spins: the newest active wheel of that currency (its
    credit prizes are in it; ADR 0020), or ``None``."""
    settings = await load_site_settings(session)
    if not settings.spin_enabled:
        return None
    query = (
        select(Wheel)
        .where(Wheel.is_active.is_(True), Wheel.currency == currency)
        .order_by(Wheel.id.desc())
        .limit(1)
    )
    return (await session.execute(query)).scalar_one_or_none()


async def other_currency_wheel(session: AsyncSession, *, currency: Currency | str) -> bool:
    """Whether an active wheel exists, but in another currency than ``currency``."""
    query = select(Wheel.id).where(Wheel.is_active.is_(True), Wheel.currency != currency).limit(1)
    return (await session.execute(query)).first() is not None


async def slices_of(session: AsyncSession, *, wheel_id: int) -> list[WheelSlice]:
    """The wheel's live slices in their order (retired ones stay only for the history)."""
    query = (
        select(WheelSlice)
        .where(WheelSlice.wheel_id == wheel_id, WheelSlice.retired_at.is_(None))
        .order_by(WheelSlice.position, WheelSlice.id)
    )
    return list((await session.execute(query)).scalars())


async def hold_for_spin(session: AsyncSession, *, wheel_id: int) -> None:
    """Keep the wheel's slices as they are until this transaction ends.

    A shared row lock on the wheel (``FOR SHARE`` on PostgreSQL): spins do not wait for each
    other, but the editor's exclusive lock (:func:`pao.promotions.wheel_editor.save_wheel`)
    waits for running spins and a spin waits for a running edit, so a spin draws from one
    committed set of slices and its answer's ``index`` is counted in that same set. SQLite has
    one writer at a time (``BEGIN IMMEDIATE``), which gives the same."""
    await session.execute(select(Wheel.id).where(Wheel.id == wheel_id).with_for_update(read=True))


def slice_odds(slices: list[WheelSlice]) -> dict[int, Fraction]:
    return rules.odds([rules.Weighted(s.id, s.weight) for s in slices])


async def coins_of(session: AsyncSession, *, member_id: int) -> int:
    coins = (await session.execute(select(Member.coin).where(Member.id == member_id))).scalar_one()
    return int(coins)


@dataclass(frozen=True)
class SpinOutcome:
    slice: WheelSlice
    remaining_coin: int
    coupon: WheelCoupon | None


async def spin(
    session: AsyncSession,
    *,
    member: Member,
    randbelow: Callable[[int], int] = secrets.randbelow,
) -> SpinOutcome:
    wheel = await active_wheel(session, currency=member.currency)
    if wheel is None:
        if await other_currency_wheel(session, currency=member.currency):
            raise CurrencyNotOffered()
        raise SpinInactive()
    await hold_for_spin(session, wheel_id=wheel.id)
    slices = await slices_of(session, wheel_id=wheel.id)
    if not any(s.weight > 0 for s in slices):
        raise SpinInactive()
    taken = await session.execute(
        update(Member)
        .where(Member.id == member.id, Member.coin >= 1)
        .values(coin=Member.coin - 1)
        .returning(Member.coin)
        .execution_options(synchronize_session=False)
    )
    remaining = taken.scalar_one_or_none()
    if remaining is None:
        raise NoCoin()
    chosen_id = rules.choose([rules.Weighted(s.id, s.weight) for s in slices], randbelow=randbelow)
    chosen = next(s for s in slices if s.id == chosen_id)
    record = WheelSpin(member_id=member.id, wheel_id=wheel.id, slice_id=chosen.id)
    session.add(record)
    await session.flush()
    coupon = None
    if chosen.prize_type != PrizeType.NONE:
        settings = await load_site_settings(session)
        coupon = WheelCoupon(
            code=new_coupon_code(),
            member_id=member.id,
            spin_id=record.id,
            slice_id=chosen.id,
            prize_type=chosen.prize_type,
            amount=chosen.prize_amount,
            # The wheel's currency: the prize is worth what it says in it, and only in it.
            currency=wheel.currency,
            status=CouponStatus.ISSUED,
            expires_at=utcnow() + timedelta(days=settings.coupon_valid_days),
        )
        session.add(coupon)
        await session.flush()
    return SpinOutcome(slice=chosen, remaining_coin=int(remaining), coupon=coupon)


def new_coupon_code() -> str:
    alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
    return "".join(secrets.choice(alphabet) for _ in range(12))


async def list_coupons(
    session: AsyncSession, *, member_id: int
) -> list[tuple[WheelCoupon, WheelSlice]]:
    rows = await session.execute(
        select(WheelCoupon, WheelSlice)
        .join(WheelSlice, WheelSlice.id == WheelCoupon.slice_id)
        .where(WheelCoupon.member_id == member_id)
        .order_by(WheelCoupon.created_at.desc(), WheelCoupon.id.desc())
        .limit(100)
    )
    return [(coupon, slice_) for coupon, slice_ in rows]


async def claim(
    session: AsyncSession, *, member: Member, code: str
) -> tuple[WheelCoupon, WheelSlice]:
    """Pay a coupon's prize once (codes in :mod:`pao.promotions.exceptions`)."""
    code = code.strip().upper()
    if not COUPON_CODE.fullmatch(code):
        raise InvalidCode()
    member = await lock_member(session, member_id=member.id)
    coupon = (
        await session.execute(
            select(WheelCoupon)
            .where(WheelCoupon.code == code, WheelCoupon.member_id == member.id)
            .with_for_update()
            .execution_options(populate_existing=True)
        )
    ).scalar_one_or_none()
    if coupon is None or coupon.status == CouponStatus.CLAIMED:
        raise NoClaimableCoupon()
    if coupon.status == CouponStatus.EXPIRED:
        raise CouponExpired()
    slice_ = await session.get(WheelSlice, coupon.slice_id)
    if slice_ is None:
        raise InvalidPrizeCode()
    if coupon.expires_at <= utcnow():
        await transition(session, coupon, CouponStatus.EXPIRED, COUPON_TRANSITIONS, actor="system")
        raise CouponExpired(keeps_changes=True)
    if coupon.prize_type == PrizeType.ITEM:
        raise InvalidCouponType()
    if coupon.prize_type != PrizeType.CREDIT or coupon.amount <= 0:
        raise InvalidPrizeCode()
    if coupon.currency != member.currency:
        # A credit prize is paid in its own currency only, never as the wallet's (ADR 0020).
        raise CurrencyNotOffered()
    if await active_bonus(session, member_id=member.id) is not None:
        raise BonusRemaining()
    await transition(
        session, coupon, CouponStatus.CLAIMED, COUPON_TRANSITIONS, actor=f"member:{member.id}"
    )
    payout = await pay_reward(
        session,
        member=member,
        amount=coupon.amount,
        kind="luckydraw",
        ref_type="wheel_coupon",
        ref_id=coupon.id,
        extra={
            "luckydraw": note(NoteCode.LUCKYDRAW_PRIZE, prize=slice_.prize_name or slice_.label)
        },
        memo=f"wheel coupon {coupon.code}",
    )
    coupon.entry_id = payout.entry.id
    coupon.claimed_at = utcnow()
    await session.flush()
    return coupon, slice_
