"""Slip tables: every uploaded slip, and the claim that makes a transfer count once.

A :class:`Slip` is one upload (statuses below). A :class:`SlipClaim` holds a transfer's
``(sending_bank, reference)`` *unique* while a slip for it is being checked or once it has
been credited, so the same transfer can never be credited twice, whoever uploads it, however
many times at once; a slip that fails releases its claim (the rightful owner may still upload).
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from sqlalchemy import BigInteger, ForeignKey, Index, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from pao.core.db import Base, BigId, UtcDateTime
from pao.kit.clock import utcnow
from pao.kit.money import Currency


class SlipStatus(StrEnum):
    """PENDING is shown as "in progress" (spec §4)."""

    PENDING = "PENDING"
    SUCCESS = "SUCCESS"
    FAILED = "FAILED"


SLIP_TRANSITIONS: dict[SlipStatus, frozenset[SlipStatus]] = {
    SlipStatus.PENDING: frozenset({SlipStatus.SUCCESS, SlipStatus.FAILED}),
    SlipStatus.SUCCESS: frozenset(),
    SlipStatus.FAILED: frozenset(),
}


class SlipReason(StrEnum):
    """Why a slip FAILED: the spec's §8 reason codes, plus two of Pao's (documented in
    docs/domain/slips-and-payouts.md): BELOW_MINIMUM_DEPOSIT and CURRENCY_MISMATCH."""

    UPLOADED_FILE_NOT_EXIST = "UPLOADED_FILE_NOT_EXIST"
    IMG_SIZE_UNABLE_TO_PROCESS = "IMG_SIZE_UNABLE_TO_PROCESS"
    CANNOT_READ_CROPPED_IMAGE = "CANNOT_READ_CROPPED_IMAGE"
    DEST_ACC_INVALID = "DEST_ACC_INVALID"
    SLIP_REFNO_DUPLICATED = "SLIP_REFNO_DUPLICATED"
    UNSTABLE_REFNO_ON_SLIP = "UNSTABLE_REFNO_ON_SLIP"
    TRIPPLE_WRONG_CAPTCHA = "TRIPPLE_WRONG_CAPTCHA"
    INVALID_SLIP = "INVALID_SLIP"
    NOT_MATCH = "NOT_MATCH"
    EXPIRED_SLIP = "EXPIRED_SLIP"
    UNKNOW_ERROR = "UNKNOW_ERROR"
    BELOW_MINIMUM_DEPOSIT = "BELOW_MINIMUM_DEPOSIT"
    CURRENCY_MISMATCH = "CURRENCY_MISMATCH"


class Slip(Base):
    __tablename__ = "slips"
    __table_args__ = (
        Index("ix_slips_member_created", "member_id", "created_at"),
        Index("ix_slips_status_created", "status", "created_at"),
        # One slip per (member, Idempotency-Key): a retried upload finds its first answer.
        UniqueConstraint("member_id", "idempotency_key"),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    member_id: Mapped[int] = mapped_column(ForeignKey("members.id"))
    status: Mapped[SlipStatus] = mapped_column(String(10), default=SlipStatus.PENDING)
    reason: Mapped[str | None] = mapped_column(String(40))
    file_key: Mapped[str] = mapped_column(String(200))
    image_sha256: Mapped[str] = mapped_column(String(64))
    idempotency_key: Mapped[str | None] = mapped_column(String(200))
    sending_bank: Mapped[str | None] = mapped_column(String(3))
    reference: Mapped[str | None] = mapped_column(String(40), index=True)
    # What the bank says about the transfer (once verified), minor units.
    amount: Mapped[int] = mapped_column(BigInteger, default=0)
    currency: Mapped[Currency] = mapped_column(String(3))
    sender_bank: Mapped[str | None] = mapped_column(String(10))
    sender_account: Mapped[str | None] = mapped_column(String(30))
    receiver_bank: Mapped[str | None] = mapped_column(String(10))
    receiver_account: Mapped[str | None] = mapped_column(String(40))
    transferred_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
    journal_entry_id: Mapped[int | None] = mapped_column(ForeignKey("journal_entries.id"))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
    settled_at: Mapped[datetime | None] = mapped_column(UtcDateTime)


class SlipClaim(Base):
    """``(sending_bank, reference)`` is being checked or has been credited, by ``slip_id``."""

    __tablename__ = "slip_claims"
    __table_args__ = (UniqueConstraint("sending_bank", "reference"),)

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    sending_bank: Mapped[str] = mapped_column(String(3))
    reference: Mapped[str] = mapped_column(String(40))
    slip_id: Mapped[int] = mapped_column(ForeignKey("slips.id"), unique=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
