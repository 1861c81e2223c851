"""The payout of one approved withdrawal, as sent to the bank.

``id`` (as ``pao-payout-<id>``) is the idempotency key the bank sees: asking again, after a
timeout or a crash, can never pay twice. PENDING means "sent or about to be sent, outcome not
known yet"; ``next_attempt_at`` is both the retry time and a lease against two processes
sending at once.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from sqlalchemy import BigInteger, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from pao.core.db import Base, BigId, UtcDateTime
from pao.kit.clock import utcnow
from pao.kit.money import Currency


class PayoutStatus(StrEnum):
    PENDING = "PENDING"
    SUCCEEDED = "SUCCEEDED"
    FAILED = "FAILED"


PAYOUT_TRANSITIONS: dict[PayoutStatus, frozenset[PayoutStatus]] = {
    PayoutStatus.PENDING: frozenset({PayoutStatus.SUCCEEDED, PayoutStatus.FAILED}),
    PayoutStatus.SUCCEEDED: frozenset(),
    PayoutStatus.FAILED: frozenset(),
}


class Payout(Base):
    __tablename__ = "payouts"
    __table_args__ = (Index("ix_payouts_status_next", "status", "next_attempt_at"),)

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    withdrawal_id: Mapped[int] = mapped_column(ForeignKey("withdrawals.id"), unique=True)
    amount: Mapped[int] = mapped_column(BigInteger)
    currency: Mapped[Currency] = mapped_column(String(3))
    bank_code: Mapped[str] = mapped_column(String(10))
    account_no: Mapped[str] = mapped_column(String(20))
    account_name: Mapped[str] = mapped_column(String(100))
    status: Mapped[PayoutStatus] = mapped_column(String(10), default=PayoutStatus.PENDING)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    last_error: Mapped[str | None] = mapped_column(String(200))
    bank_reference: Mapped[str | None] = mapped_column(String(40))
    next_attempt_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
    settled_at: Mapped[datetime | None] = mapped_column(UtcDateTime)

    @property
    def bank_payout_id(self) -> str:
        return f"pao-payout-{self.id}"
