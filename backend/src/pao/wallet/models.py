"""Wallet tables: withdrawals, staff manual adjustments and the member-facing statement lines.

A :class:`Withdrawal` is the member's request to be paid out; its money sits in a ledger hold
(``hold_id``) from the request until the decision. A :class:`Statement` is one line of the
member's history (spec §3), written by whichever domain moved the money; it is a *view* for
the member, the ledger stays the source of truth. A :class:`ManualAdjustment` is a staff
member's (or an operator's) credit or debit of a member's wallet with a reason; its money is a
ledger entry against the manual-adjustments account once it is POSTED (pao.wallet.adjustments).
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import JSON, BigInteger, CheckConstraint, ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from pao.core.db import Base, BigId, UtcDateTime
from pao.kit.clock import utcnow
from pao.kit.money import Currency


class WithdrawalStatus(StrEnum):
    """PENDING → APPROVED → PAID | FAILED, or PENDING → REJECTED (table in withdrawals.py)."""

    PENDING = "PENDING"
    APPROVED = "APPROVED"  # the operator said yes; the payout is under way
    PAID = "PAID"  # the money left: the hold is posted to payout clearing
    REJECTED = "REJECTED"  # the operator said no: the hold is voided, money back
    FAILED = "FAILED"  # the payout failed after approval: the hold is voided, money back


class AdjustmentStatus(StrEnum):
    """AWAITING_APPROVAL → POSTED | REJECTED, or created POSTED (table in adjustments.py)."""

    AWAITING_APPROVAL = "AWAITING_APPROVAL"  # above the limit: waits for a second staff member
    POSTED = "POSTED"  # the ledger entry is written: the money moved
    REJECTED = "REJECTED"  # the approver said no: no money ever moved


class ApprovalReason(StrEnum):
    """Why an adjustment waits for a second staff member (pao.wallet.adjustments)."""

    AMOUNT = "amount"  # above manualAdjustmentApprovalAbove
    STAFF_DAY = "staff_day"  # the requester's total posted alone in 24 h would pass its limit
    MEMBER_DAY = "member_day"  # the member's total posted alone in 24 h would pass its limit


class AdjustmentDirection(StrEnum):
    CREDIT = "credit"  # manual adjustments → the member's wallet
    DEBIT = "debit"  # the member's wallet → manual adjustments


class StatementType(StrEnum):
    DEPOSIT = "deposit"
    BONUS = "bonus"
    FINISH_BONUS = "finish_bonus"
    WITHDRAW = "withdraw"
    TRANSFER = "transfer"


class StatementStatus(StrEnum):
    """The client shows PENDING as "in progress" (spec §4)."""

    PENDING = "PENDING"
    SUCCESS = "SUCCESS"
    FAILED = "FAILED"


class Withdrawal(Base):
    __tablename__ = "withdrawals"
    __table_args__ = (
        CheckConstraint("amount > 0", name="positive"),
        Index("ix_withdrawals_status_created", "status", "created_at"),
        # Withdrawals requested over a range of days (the reports).
        Index("ix_withdrawals_created_at", "created_at"),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    member_id: Mapped[int] = mapped_column(ForeignKey("members.id"), index=True)
    amount: Mapped[int] = mapped_column(BigInteger)
    currency: Mapped[Currency] = mapped_column(String(3))
    status: Mapped[WithdrawalStatus] = mapped_column(String(10), default=WithdrawalStatus.PENDING)
    hold_id: Mapped[int] = mapped_column(ForeignKey("ledger_holds.id"), unique=True)
    # The bank account at request time: a later profile change must not redirect a payout.
    bank_code: Mapped[str] = mapped_column(String(10))
    bank_account_name: Mapped[str] = mapped_column(String(100))
    bank_account_no: Mapped[str] = mapped_column(String(20))
    reason: Mapped[str | None] = mapped_column(String(500))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
    decided_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
    decided_by: Mapped[str | None] = mapped_column(String(80))
    # The cashier working it (pao.wallet.claims): a staff id without a foreign key (the back
    # office sits above this domain), their label for listings, and when the claim lapses.
    claimed_by_staff_id: Mapped[int | None] = mapped_column(BigInteger)
    claimed_by: Mapped[str | None] = mapped_column(String(80))
    claim_expires_at: Mapped[datetime | None] = mapped_column(UtcDateTime)


class Statement(Base):
    """One line of a member's history. ``(ref_type, ref_id)`` names the thing it reports on
    (e.g. ``("withdrawal", "12")``) and is unique: one line per thing, found again by
    :func:`pao.wallet.statements.set_statement_status` when its outcome is known."""

    __tablename__ = "statements"
    __table_args__ = (
        CheckConstraint("amount >= 0", name="non_negative"),
        Index("ix_statements_member_created", "member_id", "created_at"),
        Index("uq_statements_ref", "ref_type", "ref_id", unique=True),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    member_id: Mapped[int] = mapped_column(ForeignKey("members.id"))
    statement_type: Mapped[StatementType] = mapped_column(String(20))
    status: Mapped[StatementStatus] = mapped_column(String(10))
    from_label: Mapped[str] = mapped_column(String(100))
    to_label: Mapped[str] = mapped_column(String(100))
    amount: Mapped[int] = mapped_column(BigInteger)
    currency: Mapped[Currency] = mapped_column(String(3))
    ref_type: Mapped[str] = mapped_column(String(40))
    ref_id: Mapped[str] = mapped_column(String(64))
    # {"bonus"|"promotion"|"invite"|"refund"|"luckydraw": {"description": …}}, at most one key.
    extra: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)


class ManualAdjustment(Base):
    """A manual credit or debit of a member's wallet. ``requested_by`` / ``decided_by`` are
    actor labels (a staff login, ``ops:<user>``); the ``*_staff_id`` columns hold the staff
    member's id when a staff member acted (no foreign key: the wallet does not depend on the
    back office), which is what the four-eyes rule compares. ``entry_id`` is the journal entry
    once POSTED."""

    __tablename__ = "manual_adjustments"
    __table_args__ = (
        CheckConstraint("amount > 0", name="positive"),
        CheckConstraint("direction IN ('credit', 'debit')", name="direction"),
        Index("ix_manual_adjustments_status_created", "status", "created_at"),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    member_id: Mapped[int] = mapped_column(ForeignKey("members.id"), index=True)
    direction: Mapped[AdjustmentDirection] = mapped_column(String(6))
    amount: Mapped[int] = mapped_column(BigInteger)
    currency: Mapped[Currency] = mapped_column(String(3))
    reason: Mapped[str] = mapped_column(String(500))
    status: Mapped[AdjustmentStatus] = mapped_column(String(20))
    requested_by: Mapped[str] = mapped_column(String(80))
    requested_by_staff_id: Mapped[int | None] = mapped_column(BigInteger)
    decided_by: Mapped[str | None] = mapped_column(String(80))
    decided_by_staff_id: Mapped[int | None] = mapped_column(BigInteger)
    decision_reason: Mapped[str | None] = mapped_column(String(500))
    # Why it waits for a second staff member: ApprovalReason values, comma-separated (None when
    # it posted at once). Kept, so the approver sees the reasons of the moment it was asked.
    approval_reasons: Mapped[str | None] = mapped_column(String(60))
    entry_id: Mapped[int | None] = mapped_column(ForeignKey("journal_entries.id"), unique=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
    decided_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
