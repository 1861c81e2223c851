"""Tables of QR deposits: the QR itself, the bank's transfer notifications, gateway payments.

A :class:`QrDeposit` is one single-use QR offered to a member (KBANK PromptPay / Lao QR, or a
gateway order). Money arrives as a :class:`BankNotification` (KBANK, deduplicated by the
bank's ``transferId``) or a :class:`GatewayPayment` (deduplicated by the gateway's own
transaction id); each of those credits the wallet at most once, whatever the QR's status.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    ForeignKey,
    Index,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from pao.core.db import Base, BigId, UtcDateTime
from pao.kit.clock import utcnow
from pao.kit.money import Currency


class QrStatus(StrEnum):
    """PENDING → PAID | EXPIRED | CANCELLED; EXPIRED | CANCELLED → PAID_LATE.

    PAID_LATE records that money arrived for a QR we no longer offered: it is credited all
    the same (money is never dropped)."""

    PENDING = "PENDING"
    PAID = "PAID"
    EXPIRED = "EXPIRED"
    CANCELLED = "CANCELLED"
    PAID_LATE = "PAID_LATE"


QR_TRANSITIONS: dict[QrStatus, frozenset[QrStatus]] = {
    QrStatus.PENDING: frozenset({QrStatus.PAID, QrStatus.EXPIRED, QrStatus.CANCELLED}),
    QrStatus.EXPIRED: frozenset({QrStatus.PAID_LATE}),
    QrStatus.CANCELLED: frozenset({QrStatus.PAID_LATE}),
    QrStatus.PAID: frozenset(),
    QrStatus.PAID_LATE: frozenset(),
}

UNPAID = (QrStatus.PENDING, QrStatus.EXPIRED, QrStatus.CANCELLED)


class QrDeposit(Base):
    __tablename__ = "qr_deposits"
    __table_args__ = (
        CheckConstraint("amount > 0", name="positive"),
        Index("ix_qr_deposits_member_channel", "member_id", "channel", "created_at"),
        Index("ix_qr_deposits_account_amount", "account_id", "amount", "status"),
        Index("ix_qr_deposits_status_expires", "status", "expires_at"),
        # The reports' range of QR codes offered (pao.reports.deposits).
        Index("ix_qr_deposits_created_at", "created_at"),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    member_id: Mapped[int] = mapped_column(ForeignKey("members.id"))
    # KBANK (or the AUTO bank of Lao mode) or a gateway code: the bankCode of the API path.
    channel: Mapped[str] = mapped_column(String(20))
    is_gateway: Mapped[bool] = mapped_column(Boolean, default=False)
    account_id: Mapped[int] = mapped_column(ForeignKey("receiving_accounts.id"))
    requested_amount: Mapped[int] = mapped_column(BigInteger)
    # What the member must pay (minor units): KBANK may add satang so that it is unique.
    amount: Mapped[int] = mapped_column(BigInteger)
    currency: Mapped[Currency] = mapped_column(String(3))
    status: Mapped[QrStatus] = mapped_column(String(12), default=QrStatus.PENDING)
    payload: Mapped[str] = mapped_column(Text)
    # Our reference of the order (sent to a gateway as its merchant reference).
    order_ref: Mapped[str] = mapped_column(String(40), unique=True)
    gateway_order_id: Mapped[str | None] = mapped_column(String(64))
    # Superseded by a newer QR of the same member (see service.py): no longer shown, still paid.
    stale: Mapped[bool] = mapped_column(Boolean, default=False)
    expires_at: Mapped[datetime] = mapped_column(UtcDateTime)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
    paid_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
    # The reconciler's last status query (gateways), so it backs off between queries.
    checked_at: Mapped[datetime | None] = mapped_column(UtcDateTime)


class PaymentOutcome(StrEnum):
    CREDITED = "CREDITED"  # matched a PENDING QR
    CREDITED_LATE = "CREDITED_LATE"  # matched an EXPIRED / CANCELLED QR: credited, recorded
    CREDITED_EXTRA = "CREDITED_EXTRA"  # a second distinct transfer to an already paid QR
    UNMATCHED = "UNMATCHED"  # no QR to match: kept for staff to match by hand
    MATCHED_BY_HAND = "MATCHED_BY_HAND"  # UNMATCHED, then credited to a member by staff
    IGNORED = "IGNORED"  # a gateway reported a second transaction for a paid order


class BankNotification(Base):
    """One incoming transfer the bank told us about (KBANK / Lao QR); ``transfer_id`` unique."""

    __tablename__ = "bank_notifications"

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    transfer_id: Mapped[str] = mapped_column(String(64), unique=True)
    amount: Mapped[int] = mapped_column(BigInteger)
    currency: Mapped[Currency] = mapped_column(String(3))
    receiver_proxy: Mapped[str] = mapped_column(String(40))
    qr_payload: Mapped[str | None] = mapped_column(Text)
    paid_at: Mapped[datetime] = mapped_column(UtcDateTime)
    # Who paid, as far as the bank says (any may be missing): the bank's code as sent (Pao's
    # code or a Thai clearing code), the account number (some banks mask it with x's), the
    # account holder's name. Staff match an UNMATCHED transfer with it (pao.payments.qr.payer).
    payer_bank: Mapped[str | None] = mapped_column(String(10))
    payer_account: Mapped[str | None] = mapped_column(String(34))
    payer_name: Mapped[str | None] = mapped_column(String(100))
    qr_deposit_id: Mapped[int | None] = mapped_column(ForeignKey("qr_deposits.id"), index=True)
    outcome: Mapped[PaymentOutcome] = mapped_column(String(16), index=True)
    entry_id: Mapped[int | None] = mapped_column(ForeignKey("journal_entries.id"))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
    # A payment matched by hand (MATCHED_BY_HAND): to whom, by whom, when.
    member_id: Mapped[int | None] = mapped_column(ForeignKey("members.id"))
    matched_by: Mapped[str | None] = mapped_column(String(80))
    matched_at: Mapped[datetime | None] = mapped_column(UtcDateTime)


class GatewayPayment(Base):
    """One payment a gateway reported (callback or status query); unique per gateway txn."""

    __tablename__ = "gateway_payments"
    __table_args__ = (UniqueConstraint("gateway", "txn_id"),)

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    gateway: Mapped[str] = mapped_column(String(20))
    txn_id: Mapped[str] = mapped_column(String(64))
    order_ref: Mapped[str] = mapped_column(String(40), index=True)
    amount: Mapped[int] = mapped_column(BigInteger)
    currency: Mapped[Currency] = mapped_column(String(3))
    source: Mapped[str] = mapped_column(String(12))  # "callback" | "reconciler"
    qr_deposit_id: Mapped[int | None] = mapped_column(ForeignKey("qr_deposits.id"), index=True)
    outcome: Mapped[PaymentOutcome] = mapped_column(String(16), index=True)
    entry_id: Mapped[int | None] = mapped_column(ForeignKey("journal_entries.id"))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
    # A payment matched by hand (MATCHED_BY_HAND): to whom, by whom, when.
    member_id: Mapped[int | None] = mapped_column(ForeignKey("members.id"))
    matched_by: Mapped[str | None] = mapped_column(String(80))
    matched_at: Mapped[datetime | None] = mapped_column(UtcDateTime)


class ScbCallbackState(StrEnum):
    """PENDING (a claim, not yet confirmed) → CONFIRMED (SCB's inquiry showed the payment:
    recorded as a bank notification, credited or left to staff) | UNCONFIRMED (never
    confirmed within the late window: left for staff, nothing credited; ADR 0029)."""

    PENDING = "PENDING"
    CONFIRMED = "CONFIRMED"
    UNCONFIRMED = "UNCONFIRMED"


SCB_CALLBACK_TRANSITIONS: dict[ScbCallbackState, frozenset[ScbCallbackState]] = {
    ScbCallbackState.PENDING: frozenset({ScbCallbackState.CONFIRMED, ScbCallbackState.UNCONFIRMED}),
    ScbCallbackState.CONFIRMED: frozenset(),
    ScbCallbackState.UNCONFIRMED: frozenset(),
}


class ScbCallback(Base):
    """One SCB payment confirmation as received (``PAO_BANK_API=scb``): unique by SCB's
    ``transactionId`` and kept for good (SCB resends for a minute; a replay months later is
    still recognised). It is a claim until SCB's inquiry confirms it."""

    __tablename__ = "scb_callbacks"
    __table_args__ = (Index("ix_scb_callbacks_status_next_check", "status", "next_check_at"),)

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    transaction_id: Mapped[str] = mapped_column(String(64), unique=True)
    ref1: Mapped[str] = mapped_column(String(20))
    amount: Mapped[int] = mapped_column(BigInteger)  # as claimed; credited: SCB's inquiry's
    paid_at: Mapped[datetime] = mapped_column(UtcDateTime)
    payer_bank: Mapped[str | None] = mapped_column(String(10))
    payer_account: Mapped[str | None] = mapped_column(String(34))
    payer_name: Mapped[str | None] = mapped_column(String(100))
    status: Mapped[ScbCallbackState] = mapped_column(String(12), default=ScbCallbackState.PENDING)
    # Inquiries made, when to ask again (backing off: a forged claim costs few calls), what the
    # last one found (for staff; no credential in it).
    attempts: Mapped[int] = mapped_column(BigInteger, default=0)
    next_check_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
    last_answer: Mapped[str | None] = mapped_column(String(200))
    notification_id: Mapped[int | None] = mapped_column(ForeignKey("bank_notifications.id"))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)


class ScbQrOrder(Base):
    """An SCB QR whose payment Pao asks SCB's inquiry about itself, in case SCB's payment
    confirmation never arrives (ADR 0029): from its expiry, a few times further apart, until
    it is paid or the schedule ends (``next_check_at`` None)."""

    __tablename__ = "scb_qr_orders"

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    qr_deposit_id: Mapped[int] = mapped_column(ForeignKey("qr_deposits.id"), unique=True)
    checks: Mapped[int] = mapped_column(BigInteger, default=0)
    next_check_at: Mapped[datetime | None] = mapped_column(UtcDateTime, index=True)
