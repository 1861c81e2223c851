"""Promotions tables: bonus definitions and grants, the deposits and game transfers promotions
watch, invite income, refund receipts, the prize wheel and its coupons.

Every number of a rule lives in a row here or in :class:`pao.site.settings.SiteSettings`
(docs/domain/promotions.md). Grants, receipts and coupons are state machines; each is paid
exactly once because its state changes under a row lock and unique constraints refuse a
second copy (an active bonus per member, a promotion code per member, a coupon per spin).

States::

    MemberBonus   ACTIVE ──turnover met──► CLEARED
                     └──balance under percentFail──► ENDED
    RefundReceipt RECEIVED ──addWallet──► ADDED
    WheelCoupon   ISSUED ──claim──► CLAIMED
                     └──after expires_at──► EXPIRED
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    CheckConstraint,
    ForeignKey,
    Index,
    Integer,
    String,
    text,
)
from sqlalchemy.orm import Mapped, mapped_column

from pao.core.db import Base, BigId, UtcDateTime
from pao.kit.clock import utcnow
from pao.kit.money import Currency

# {"th": …, "la": …, "en": …}: an operator text per locale, read with pao.kit.i18n.pick_text.
LocalizedJson = dict[str, str]


class BonusType(StrEnum):
    """How ``max_received`` counts receipts (spec §4): all time, today, this week."""

    LIMIT = "limit"
    DAY = "day"
    WEEK = "week"


class BonusKind(StrEnum):
    BONUS = "bonus"  # listed by GET /api/bonus, activated by code from the card
    PROMOTION = "promotion"  # hidden; activated by typing its code (promotion code)


class MemberBonusStatus(StrEnum):
    ACTIVE = "ACTIVE"
    CLEARED = "CLEARED"  # the turnover condition was met
    ENDED = "ENDED"  # ended early: the balance fell under percentFail


MEMBER_BONUS_TRANSITIONS: dict[MemberBonusStatus, frozenset[MemberBonusStatus]] = {
    MemberBonusStatus.ACTIVE: frozenset({MemberBonusStatus.CLEARED, MemberBonusStatus.ENDED}),
    MemberBonusStatus.CLEARED: frozenset(),
    MemberBonusStatus.ENDED: frozenset(),
}


class Bonus(Base):
    """A bonus or promotion code as the operator configured it."""

    __tablename__ = "promo_bonuses"
    __table_args__ = (
        CheckConstraint("percent >= 0 AND percent <= 1000", name="percent_range"),
        CheckConstraint("percent_fail >= 0 AND percent_fail <= 100", name="percent_fail_range"),
        CheckConstraint("max_received >= 1", name="max_received_positive"),
        CheckConstraint("claimed_count >= 0", name="claimed_non_negative"),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    code: Mapped[str] = mapped_column(String(40), unique=True)
    kind: Mapped[BonusKind] = mapped_column(String(10), default=BonusKind.BONUS)
    type: Mapped[BonusType] = mapped_column(String(10), default=BonusType.LIMIT)
    # Operator texts, one per locale ({"th": …, "la": …, "en": …}; pao.kit.i18n, ADR 0011).
    name: Mapped[LocalizedJson] = mapped_column(JSON)
    description: Mapped[LocalizedJson] = mapped_column(JSON, default=dict)
    max_received: Mapped[int] = mapped_column(Integer, default=1)
    # The currency its amounts are in: offered to members whose wallet is in it, and only to
    # them (ADR 0020).
    currency: Mapped[Currency] = mapped_column(String(3), default=Currency.THB)
    # Amount: ``percent`` % of the qualifying deposit, or ``fixed_amount`` when percent is 0;
    # never more than ``max_amount`` (minor units of ``currency``).
    percent: Mapped[int] = mapped_column(Integer, default=0)
    fixed_amount: Mapped[int] = mapped_column(BigInteger, default=0)
    max_amount: Mapped[int] = mapped_column(BigInteger)
    # The qualifying deposit must be at least this much (0: no deposit needed).
    min_deposit: Mapped[int] = mapped_column(BigInteger, default=0)
    # Wagering: turnover ≥ multiplier × (deposit + bonus).
    turnover_multiplier: Mapped[int] = mapped_column(Integer, default=1)
    percent_fail: Mapped[int] = mapped_column(Integer, default=10)
    # Promotion codes: how many grants in total (None: unlimited); counted atomically.
    total_limit: Mapped[int | None] = mapped_column(Integer)
    claimed_count: Mapped[int] = mapped_column(Integer, default=0)
    # [{image, html: {locale: html}, title: {locale: text}}] (pao.promotions.content.Banner);
    # html sanitised when stored and when served.
    banners: Mapped[list[dict[str, Any]]] = mapped_column(JSON, default=list)
    is_active: Mapped[bool] = mapped_column(Boolean, default=True)
    sort_order: Mapped[int] = mapped_column(Integer, default=0)
    # When players may see and take it: [valid_from, valid_until), each end open when NULL.
    valid_from: Mapped[datetime | None] = mapped_column(UtcDateTime)
    valid_until: Mapped[datetime | None] = mapped_column(UtcDateTime)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)


class MemberBonus(Base):
    """A bonus granted to a member (``userBonus``). Rows are never deleted: every row is a
    receipt counted by ``max_received``, whatever became of it."""

    __tablename__ = "promo_member_bonuses"
    __table_args__ = (
        # At most one active bonus per member, even under racing activations.
        Index(
            "uq_promo_member_bonuses_active",
            "member_id",
            unique=True,
            sqlite_where=text("status = 'ACTIVE'"),
            postgresql_where=text("status = 'ACTIVE'"),
        ),
        Index("ix_promo_member_bonuses_member_bonus", "member_id", "bonus_id", "received_at"),
        # Bonuses granted over a range of days (the reports).
        Index("ix_promo_member_bonuses_received_at", "received_at"),
        CheckConstraint("bonus_amount > 0", name="positive"),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    member_id: Mapped[int] = mapped_column(ForeignKey("members.id"))
    bonus_id: Mapped[int] = mapped_column(ForeignKey("promo_bonuses.id"))
    # "<member>:<bonus>" for promotion codes (once per member), NULL for bonuses.
    once_key: Mapped[str | None] = mapped_column(String(60), unique=True)
    status: Mapped[MemberBonusStatus] = mapped_column(String(10), default=MemberBonusStatus.ACTIVE)
    currency: Mapped[Currency] = mapped_column(String(3))
    deposit_amount: Mapped[int] = mapped_column(BigInteger, default=0)
    bonus_amount: Mapped[int] = mapped_column(BigInteger)
    turnover_required: Mapped[int] = mapped_column(BigInteger)
    percent_fail: Mapped[int] = mapped_column(Integer)
    entry_id: Mapped[int | None] = mapped_column(ForeignKey("journal_entries.id"))
    received_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
    ended_at: Mapped[datetime | None] = mapped_column(UtcDateTime)


class PromoDeposit(Base):
    """A deposit credited to a member (from :class:`pao.kit.events.DepositCredited`), kept so
    bonuses can find their qualifying deposit and use it once."""

    __tablename__ = "promo_deposits"
    __table_args__ = (Index("ix_promo_deposits_member_created", "member_id", "created_at"),)

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    member_id: Mapped[int] = mapped_column(ForeignKey("members.id"))
    amount: Mapped[int] = mapped_column(BigInteger)
    currency: Mapped[Currency] = mapped_column(String(3))
    channel: Mapped[str] = mapped_column(String(20))
    reference: Mapped[str] = mapped_column(String(120), unique=True)
    used_by_id: Mapped[int | None] = mapped_column(
        ForeignKey("promo_member_bonuses.id"), unique=True
    )
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)


class InviteIncome(Base):
    """What an inviter earned from one deposit of one invitee."""

    __tablename__ = "promo_invite_incomes"
    __table_args__ = (
        CheckConstraint("amount > 0", name="positive"),
        Index("ix_promo_invite_incomes_inviter", "inviter_id", "created_at"),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    inviter_id: Mapped[int] = mapped_column(ForeignKey("members.id"))
    invitee_id: Mapped[int] = mapped_column(ForeignKey("members.id"), index=True)
    amount: Mapped[int] = mapped_column(BigInteger)
    currency: Mapped[Currency] = mapped_column(String(3))
    deposit_reference: Mapped[str] = mapped_column(String(120), unique=True)
    collection_id: Mapped[int | None] = mapped_column(
        ForeignKey("promo_invite_collections.id"), index=True
    )
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)


class InviteCollection(Base):
    """One payment of accrued invite income into the inviter's wallet."""

    __tablename__ = "promo_invite_collections"
    __table_args__ = (CheckConstraint("amount > 0", name="positive"),)

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    member_id: Mapped[int] = mapped_column(ForeignKey("members.id"), index=True)
    amount: Mapped[int] = mapped_column(BigInteger)
    currency: Mapped[Currency] = mapped_column(String(3))
    entry_id: Mapped[int | None] = mapped_column(ForeignKey("journal_entries.id"))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)


class RefundStatus(StrEnum):
    RECEIVED = "RECEIVED"  # the refund is granted, waiting for "add to wallet"
    ADDED = "ADDED"  # paid into the wallet


REFUND_TRANSITIONS: dict[RefundStatus, frozenset[RefundStatus]] = {
    RefundStatus.RECEIVED: frozenset({RefundStatus.ADDED}),
    RefundStatus.ADDED: frozenset(),
}


class RefundReceipt(Base):
    """A refund (cashback) granted for a period's net loss."""

    __tablename__ = "promo_refund_receipts"
    __table_args__ = (
        CheckConstraint("amount > 0", name="positive"),
        Index("ix_promo_refund_receipts_member_period", "member_id", "period_start"),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    member_id: Mapped[int] = mapped_column(ForeignKey("members.id"))
    period_start: Mapped[datetime] = mapped_column(UtcDateTime)
    net_loss: Mapped[int] = mapped_column(BigInteger)
    amount: Mapped[int] = mapped_column(BigInteger)
    currency: Mapped[Currency] = mapped_column(String(3))
    status: Mapped[RefundStatus] = mapped_column(String(10), default=RefundStatus.RECEIVED)
    entry_id: Mapped[int | None] = mapped_column(ForeignKey("journal_entries.id"))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
    added_at: Mapped[datetime | None] = mapped_column(UtcDateTime)


class PrizeType(StrEnum):
    NONE = "none"  # "try again": no coupon
    CREDIT = "credit"  # money into the wallet when the coupon is claimed
    ITEM = "item"  # a physical prize: the coupon is shown to an agent, not claimed online


class Wheel(Base):
    __tablename__ = "promo_wheels"

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    name: Mapped[LocalizedJson] = mapped_column(JSON)
    # The currency of its credit prizes: spun by members whose wallet is in it, and only by
    # them; each currency has its own wheel (ADR 0020).
    currency: Mapped[Currency] = mapped_column(String(3), default=Currency.THB)
    is_active: Mapped[bool] = mapped_column(Boolean, default=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)


class WheelSlice(Base):
    """A slice of a wheel. ``weight`` stays on the server; players see the derived odds.
    Live slices have no ``retired_at``."""

    __tablename__ = "promo_wheel_slices"
    __table_args__ = (
        CheckConstraint("weight >= 0", name="weight_non_negative"),
        CheckConstraint("prize_amount >= 0", name="prize_non_negative"),
        # A code names one live slice of a wheel; a retired slice keeps its code for the spins
        # and coupons that name it, and a new slice may take the code again.
        Index(
            "uq_promo_wheel_slices_wheel_code",
            "wheel_id",
            "code",
            unique=True,
            sqlite_where=text("retired_at IS NULL"),
            postgresql_where=text("retired_at IS NULL"),
        ),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    wheel_id: Mapped[int] = mapped_column(ForeignKey("promo_wheels.id"), index=True)
    position: Mapped[int] = mapped_column(Integer)
    code: Mapped[str] = mapped_column(String(40))
    # Texts per locale (pao.kit.i18n); the description is sanitised HTML.
    label: Mapped[LocalizedJson] = mapped_column(JSON)
    bg_color: Mapped[str] = mapped_column(String(20))
    text_color: Mapped[str] = mapped_column(String(20))
    html_description: Mapped[LocalizedJson] = mapped_column(JSON, default=dict)
    weight: Mapped[int] = mapped_column(Integer)
    prize_type: Mapped[PrizeType] = mapped_column(String(10), default=PrizeType.NONE)
    prize_name: Mapped[LocalizedJson] = mapped_column(JSON, default=dict)
    prize_amount: Mapped[int] = mapped_column(BigInteger, default=0)
    # Set when the editor removed a slice that spins or coupons refer to: it leaves the wheel
    # (players neither see nor draw it) but stays for the history (pao.promotions.wheel_editor).
    retired_at: Mapped[datetime | None] = mapped_column(UtcDateTime)


class WheelSpin(Base):
    __tablename__ = "promo_wheel_spins"

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    member_id: Mapped[int] = mapped_column(ForeignKey("members.id"), index=True)
    wheel_id: Mapped[int] = mapped_column(ForeignKey("promo_wheels.id"))
    slice_id: Mapped[int] = mapped_column(ForeignKey("promo_wheel_slices.id"))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)


class CouponStatus(StrEnum):
    ISSUED = "ISSUED"
    CLAIMED = "CLAIMED"
    EXPIRED = "EXPIRED"


COUPON_TRANSITIONS: dict[CouponStatus, frozenset[CouponStatus]] = {
    CouponStatus.ISSUED: frozenset({CouponStatus.CLAIMED, CouponStatus.EXPIRED}),
    CouponStatus.CLAIMED: frozenset(),
    CouponStatus.EXPIRED: frozenset(),
}


class WheelCoupon(Base):
    """The prize of one spin, claimed once."""

    __tablename__ = "promo_wheel_coupons"

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    code: Mapped[str] = mapped_column(String(40), unique=True)
    member_id: Mapped[int] = mapped_column(ForeignKey("members.id"), index=True)
    spin_id: Mapped[int] = mapped_column(ForeignKey("promo_wheel_spins.id"), unique=True)
    slice_id: Mapped[int] = mapped_column(ForeignKey("promo_wheel_slices.id"))
    prize_type: Mapped[PrizeType] = mapped_column(String(10))
    amount: Mapped[int] = mapped_column(BigInteger)
    currency: Mapped[Currency] = mapped_column(String(3))
    status: Mapped[CouponStatus] = mapped_column(String(10), default=CouponStatus.ISSUED)
    entry_id: Mapped[int | None] = mapped_column(ForeignKey("journal_entries.id"))
    expires_at: Mapped[datetime] = mapped_column(UtcDateTime)
    claimed_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)


class BonusDeviceClaim(Base):
    """The device a once-in-a-lifetime bonus was received on, and by whom
    (:mod:`pao.promotions.device_claims`): another member on that device is refused it."""

    __tablename__ = "promo_bonus_device_claims"

    bonus_id: Mapped[int] = mapped_column(ForeignKey("promo_bonuses.id"), primary_key=True)
    device_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    member_id: Mapped[int] = mapped_column(ForeignKey("members.id"), index=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
