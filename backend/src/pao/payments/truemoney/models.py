"""One row per voucher we were asked to redeem; ``voucher_hash`` unique, so each voucher is
credited at most once."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from sqlalchemy import BigInteger, ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from pao.core.db import Base, BigId, UtcDateTime
from pao.kit.clock import utcnow
from pao.kit.money import Currency


class RedemptionStatus(StrEnum):
    """PENDING (claimed; redeeming) → CREDITED | FAILED (refused by TrueMoney)."""

    PENDING = "PENDING"
    CREDITED = "CREDITED"
    FAILED = "FAILED"


REDEMPTION_TRANSITIONS: dict[RedemptionStatus, frozenset[RedemptionStatus]] = {
    RedemptionStatus.PENDING: frozenset({RedemptionStatus.CREDITED, RedemptionStatus.FAILED}),
    RedemptionStatus.CREDITED: frozenset(),
    RedemptionStatus.FAILED: frozenset(),
}


class VoucherRedemption(Base):
    __tablename__ = "truemoney_redemptions"
    # The reports' range of vouchers sent (pao.reports.deposits).
    __table_args__ = (Index("ix_truemoney_redemptions_created_at", "created_at"),)

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    voucher_hash: Mapped[str] = mapped_column(String(64), unique=True)
    member_id: Mapped[int] = mapped_column(ForeignKey("members.id"), index=True)
    status: Mapped[RedemptionStatus] = mapped_column(String(10))
    amount: Mapped[int | None] = mapped_column(BigInteger)
    currency: Mapped[Currency] = mapped_column(String(3), default=Currency.THB)
    reason: Mapped[str | None] = mapped_column(String(60))
    entry_id: Mapped[int | None] = mapped_column(ForeignKey("journal_entries.id"))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
