"""The sandbox bank's tables (in the sandbox's own database, :class:`SandboxBase`)."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from sqlalchemy import BigInteger, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from pao.core.db import UtcDateTime
from pao.kit.clock import utcnow
from pao.sandbox.store import SandboxBase


class BankAccount(SandboxBase):
    """A customer account, opened on first use (any bank code and number) with test money."""

    __tablename__ = "sandbox_bank_accounts"
    __table_args__ = (UniqueConstraint("bank_code", "account_no"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    bank_code: Mapped[str] = mapped_column(String(10))
    account_no: Mapped[str] = mapped_column(String(30))
    name: Mapped[str] = mapped_column(String(100), default="")
    currency: Mapped[str] = mapped_column(String(3), default="THB")
    balance: Mapped[int] = mapped_column(BigInteger, default=0)  # minor units
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)


class TransferKind(StrEnum):
    TRANSFER = "TRANSFER"  # account to account (a slip can be printed)
    QR = "QR"  # a PromptPay / Lao QR paid by pasting its payload
    PAYOUT = "PAYOUT"  # money paid out by the operator to a customer


class BankTransfer(SandboxBase):
    __tablename__ = "sandbox_bank_transfers"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    reference: Mapped[str] = mapped_column(String(30), unique=True)
    kind: Mapped[TransferKind] = mapped_column(String(10))
    # The 3-digit clearing code of the sending bank, printed in the slip's mini QR.
    sending_bank: Mapped[str] = mapped_column(String(3))
    from_bank: Mapped[str] = mapped_column(String(10))
    from_account: Mapped[str] = mapped_column(String(30))
    from_name: Mapped[str] = mapped_column(String(100), default="")
    to_bank: Mapped[str] = mapped_column(String(10), default="")
    to_account: Mapped[str] = mapped_column(String(40), default="")
    to_name: Mapped[str] = mapped_column(String(100), default="")
    amount: Mapped[int] = mapped_column(BigInteger)
    currency: Mapped[str] = mapped_column(String(3))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)


class PayoutState(StrEnum):
    PENDING = "PENDING"
    SUCCESS = "SUCCESS"
    FAILED = "FAILED"


class BankPayout(SandboxBase):
    """A payout the operator asked for; ``payout_id`` is the operator's idempotency key."""

    __tablename__ = "sandbox_bank_payouts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    payout_id: Mapped[str] = mapped_column(String(64), unique=True)
    bank_code: Mapped[str] = mapped_column(String(10))
    account_no: Mapped[str] = mapped_column(String(30))
    account_name: Mapped[str] = mapped_column(String(100))
    amount: Mapped[int] = mapped_column(BigInteger)
    currency: Mapped[str] = mapped_column(String(3))
    status: Mapped[PayoutState] = mapped_column(String(10))
    reason: Mapped[str | None] = mapped_column(String(100))
    reference: Mapped[str | None] = mapped_column(String(30))
    # A "late" payout settles (SUCCESS) when asked about after this moment.
    settles_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)


class PayoutMode(StrEnum):
    """What the next payout request does (a test control)."""

    SUCCEED = "succeed"  # paid at once
    FAIL = "fail"  # refused: the account cannot receive
    TIMEOUT = "timeout"  # paid, but the answer is lost (504)
    LATE = "late"  # accepted as PENDING, paid a little later
    ERROR = "error"  # nothing done, 500


class PayoutControl(SandboxBase):
    """A queue of modes for the next payout requests (oldest first); empty → succeed."""

    __tablename__ = "sandbox_bank_payout_controls"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    mode: Mapped[PayoutMode] = mapped_column(String(10))


class ScbQr(SandboxBase):
    """A bill payment QR the sandbox SCB made (QR create v2): what it was asked for."""

    __tablename__ = "sandbox_scb_qrs"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    biller_id: Mapped[str] = mapped_column(String(20))
    ref1: Mapped[str] = mapped_column(String(20), index=True)
    ref2: Mapped[str] = mapped_column(String(20), default="")
    ref3: Mapped[str] = mapped_column(String(20), default="")
    amount: Mapped[int] = mapped_column(BigInteger)
    expires_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)


class ScbBillPayment(SandboxBase):
    """A payment of a bill payment QR (biller id + references), as SCB's inquiry reports it
    and its payment confirmation tells the biller."""

    __tablename__ = "sandbox_scb_bill_payments"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    transaction_id: Mapped[str] = mapped_column(String(64), unique=True)
    reference: Mapped[str] = mapped_column(String(30))  # the bank transfer's
    biller_id: Mapped[str] = mapped_column(String(20))
    ref1: Mapped[str] = mapped_column(String(20), index=True)
    ref2: Mapped[str] = mapped_column(String(20), default="")
    ref3: Mapped[str] = mapped_column(String(20), default="")
    amount: Mapped[int] = mapped_column(BigInteger)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
