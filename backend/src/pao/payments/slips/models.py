"""Slip tables: every uploaded slip, and the claim that makes a transfer count once.

A :class:`Slip` is one upload (statuses below). A :class:`SlipClaim` holds a transfer's
``(sending_bank, reference)`` *unique* while a slip for it is being checked or once it has
been credited, so the same transfer can never be credited twice, whoever uploads it, however
many times at once; a slip that fails releases its claim (the rightful owner may still upload).
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import JSON, BigInteger, ForeignKey, Index, String, UniqueConstraint
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
    # Only a staff approval on review (pao.payments.slips.review) credits a FAILED slip.
    SlipStatus.FAILED: frozenset({SlipStatus.SUCCESS}),
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


# A FAILED slip whose reason may still hide a real deposit enters the staff review queue
# (docs/domain/slips-and-payouts.md): the QR could not be read, the bank did not know the
# transfer or did not answer, the sender is not the member's account, the slip was late or
# small. The other reasons are final refusals: SLIP_REFNO_DUPLICATED (the transfer is being
# or was credited), DEST_ACC_INVALID (the money did not come to us), CURRENCY_MISMATCH,
# UPLOADED_FILE_NOT_EXIST and TRIPPLE_WRONG_CAPTCHA (nothing to look at).
REVIEWABLE_REASONS: frozenset[SlipReason] = frozenset(
    {
        SlipReason.IMG_SIZE_UNABLE_TO_PROCESS,
        SlipReason.CANNOT_READ_CROPPED_IMAGE,
        SlipReason.UNSTABLE_REFNO_ON_SLIP,
        SlipReason.INVALID_SLIP,
        SlipReason.NOT_MATCH,
        SlipReason.EXPIRED_SLIP,
        SlipReason.UNKNOW_ERROR,
        SlipReason.BELOW_MINIMUM_DEPOSIT,
    }
)


class SlipReview(StrEnum):
    """The staff review of a FAILED slip: OPEN → APPROVED (credited) | REJECTED."""

    OPEN = "OPEN"
    APPROVED = "APPROVED"
    REJECTED = "REJECTED"


SLIP_REVIEW_TRANSITIONS: dict[SlipReview, frozenset[SlipReview]] = {
    SlipReview.OPEN: frozenset({SlipReview.APPROVED, SlipReview.REJECTED}),
    SlipReview.APPROVED: frozenset(),
    SlipReview.REJECTED: frozenset(),
}


class LookupOutcome(StrEnum):
    """What the bank's slip lookup answered (kept on the slip for the reviewer)."""

    FOUND = "FOUND"
    NOT_FOUND = "NOT_FOUND"
    UNREACHABLE = "UNREACHABLE"


class Slip(Base):
    __tablename__ = "slips"
    __table_args__ = (
        Index("ix_slips_member_created", "member_id", "created_at"),
        Index("ix_slips_status_created", "status", "created_at"),
        Index("ix_slips_review_created", "review_status", "created_at"),
        # The reports' range of slips uploaded (pao.reports.deposits).
        Index("ix_slips_created_at", "created_at"),
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
    # The bank lookup's last answer: {"outcome": LookupOutcome, "checkedAt", and when FOUND
    # the transfer as the bank told it (amount in minor units)}.
    bank_lookup: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    # Staff review (SlipReview), None when the slip never needed one.
    review_status: Mapped[SlipReview | None] = mapped_column(String(10))
    reviewed_by: Mapped[str | None] = mapped_column(String(80))
    reviewed_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
    review_note: Mapped[str | None] = mapped_column(String(500))


class SlipClaim(Base):
    """``(sending_bank, reference)`` is being checked or has been credited, by ``slip_id``."""

    __tablename__ = "slip_claims"
    __table_args__ = (UniqueConstraint("sending_bank", "reference"),)

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    sending_bank: Mapped[str] = mapped_column(String(3))
    reference: Mapped[str] = mapped_column(String(40))
    slip_id: Mapped[int] = mapped_column(ForeignKey("slips.id"), unique=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
