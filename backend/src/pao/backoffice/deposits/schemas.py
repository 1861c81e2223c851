"""Wire shapes of the back office's deposit review (camelCase)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from pao.backoffice.schemas import _Wire, _WireIn
from pao.core.params import MAX_BODY_ID
from pao.identity.changes import mask_account_no
from pao.identity.models import Member
from pao.kit.money import MajorAmount, WireAmount
from pao.payments.qr.matching import PaymentKind, UnmatchedPayment
from pao.payments.qr.models import PaymentOutcome
from pao.payments.qr.payer import PayerOwners, bank_code
from pao.payments.slips.models import LookupOutcome, Slip, SlipReview, SlipStatus
from pao.payments.slips.review import ReviewSort

MAX_PAGE = 100_000
Note = Annotated[str, StringConstraints(max_length=500)]


def mask(account_no: str | None) -> str | None:
    """A sender's account number as the lists show it: the last four digits, masked the way
    every back-office list masks an account (:func:`pao.identity.changes.mask_account_no`);
    a number the slip provider masked already (``xxx-x-x1234-x``) is shown as it showed it."""
    if not account_no or any(c in "xX*" for c in account_no):
        return account_no
    return mask_account_no(account_no)


def mask_payer(account: str | None) -> str | None:
    """A payer's account as the bank sent it, masked like :func:`mask` unless the bank masked
    it already (then it shows what the bank showed)."""
    if not account or not account.isdigit():
        return account
    return mask_account_no(account)


# ----- slips -------------------------------------------------------------------------------


class SlipReviewQuery(_WireIn):
    status: Literal["OPEN", "APPROVED", "REJECTED", "ALL"] = Field(
        default="OPEN", description="The review state; ALL: every slip that needed a review."
    )
    page: int = Field(default=1, ge=1, le=MAX_PAGE)
    limit: int = Field(default=50, ge=1, le=100)
    sort: ReviewSort = "createdAt"


class BankLookupOut(_Wire):
    """What the bank's slip lookup answered, as it answered it."""

    outcome: LookupOutcome
    checked_at: datetime | None = None
    reference: str | None = None
    sending_bank: str | None = None
    amount: MajorAmount | None = None
    currency: str | None = None
    transferred_at: datetime | None = None
    sender_bank: str | None = None
    sender_account: str | None = Field(default=None, description="Masked: the last 4 digits.")
    receiver_bank: str | None = None
    receiver_account: str | None = None

    @classmethod
    def of(cls, raw: dict[str, Any] | None) -> BankLookupOut | None:
        if not raw:
            return None
        return cls.model_validate({**raw, "senderAccount": mask(raw.get("senderAccount"))})


class SlipReviewOut(_Wire):
    id: int
    member_id: int
    member_phone: str | None
    member_name: str | None
    status: SlipStatus
    reason: str | None = Field(description="The slip's reason code (SlipReason).")
    review_status: SlipReview | None
    amount: MajorAmount = Field(description="What the bank said, or the approved amount.")
    currency: str
    sending_bank: str | None
    reference: str | None
    sender_bank: str | None
    sender_account: str | None = Field(description="Masked: the last 4 digits.")
    receiver_bank: str | None
    receiver_account: str | None
    transferred_at: datetime | None
    created_at: datetime
    settled_at: datetime | None
    bank_lookup: BankLookupOut | None
    reviewed_by: str | None
    reviewed_at: datetime | None
    review_note: str | None
    journal_entry_id: int | None

    @classmethod
    def of(cls, slip: Slip, member: Member | None) -> SlipReviewOut:
        return cls(
            id=slip.id,
            member_id=slip.member_id,
            member_phone=member.phone if member else None,
            member_name=member.name if member else None,
            status=slip.status,
            reason=slip.reason,
            review_status=slip.review_status,
            amount=slip.amount,
            currency=slip.currency,
            sending_bank=slip.sending_bank,
            reference=slip.reference,
            sender_bank=slip.sender_bank,
            sender_account=mask(slip.sender_account),
            receiver_bank=slip.receiver_bank,
            receiver_account=slip.receiver_account,
            transferred_at=slip.transferred_at,
            created_at=slip.created_at,
            settled_at=slip.settled_at,
            bank_lookup=BankLookupOut.of(slip.bank_lookup),
            reviewed_by=slip.reviewed_by,
            reviewed_at=slip.reviewed_at,
            review_note=slip.review_note,
            journal_entry_id=slip.journal_entry_id,
        )


class SlipApproveIn(_WireIn):
    amount: WireAmount = Field(description="The amount read on the slip (major units, > 0).")
    note: Note | None = None


class SlipRejectIn(_WireIn):
    reason: Annotated[str, StringConstraints(min_length=1, max_length=500)]


# ----- unmatched payments ------------------------------------------------------------------


class UnmatchedQuery(_WireIn):
    status: Literal["UNMATCHED", "MATCHED_BY_HAND"] = "UNMATCHED"
    page: int = Field(default=1, ge=1, le=MAX_PAGE)
    limit: int = Field(default=50, ge=1, le=100)


class UnmatchedOut(_Wire):
    kind: PaymentKind
    id: int
    amount: MajorAmount
    currency: str
    reference: str = Field(description="The bank's transfer id, or GATEWAY:transaction id.")
    detail: str = Field(description="The receiving PromptPay / Lao id, or the gateway order.")
    at: datetime
    outcome: PaymentOutcome
    member_id: int | None
    matched_by: str | None
    matched_at: datetime | None
    entry_id: int | None
    payer_bank: str | None = Field(
        description="The payer's bank: Pao's bank code (SCB, BCEL …) when the code the bank "
        "sent is known (a Thai clearing code such as 014 included), else as sent."
    )
    payer_account: str | None = Field(
        description="The payer's account: the last 4 digits, or as the bank masked it."
    )
    payer_name: str | None = Field(description="The payer's account name as the bank sent it.")

    @classmethod
    def of(cls, row: UnmatchedPayment) -> UnmatchedOut:
        return cls(
            kind=row.kind,
            id=row.id,
            amount=row.amount,
            currency=row.currency,
            reference=row.reference,
            detail=row.detail,
            at=row.at,
            outcome=row.outcome,
            member_id=row.member_id,
            matched_by=row.matched_by,
            matched_at=row.matched_at,
            entry_id=row.entry_id,
            payer_bank=bank_code(row.payer_bank) or row.payer_bank,
            payer_account=mask_payer(row.payer_account),
            payer_name=row.payer_name,
        )


class MatchMemberOut(_Wire):
    """A member as the match dialog shows them before the credit."""

    id: int
    name: str
    phone: str
    status: str
    currency: str
    bank_code: str
    account_no_masked: str

    @classmethod
    def of(cls, member: Member) -> MatchMemberOut:
        return cls(
            id=member.id,
            name=member.name,
            phone=member.phone,
            status=member.status,
            currency=member.currency,
            bank_code=member.bank_code,
            account_no_masked=mask_account_no(member.bank_account_no),
        )


PayerOwnerStatus = Literal["ONE", "AMBIGUOUS", "NONE", "UNKNOWN"]


class UnmatchedDetailOut(_Wire):
    """One payment with whose registered account paid it (pao.payments.qr.payer)."""

    payment: UnmatchedOut
    owner_status: PayerOwnerStatus = Field(
        description="ONE: one member's registered account paid (suggestion); AMBIGUOUS: the "
        "bank masked the account and several members' accounts fit (no suggestion); NONE: the "
        "payer's account is no member's; UNKNOWN: the payment names no usable payer account."
    )
    suggestion: MatchMemberOut | None = Field(description="The member whose account paid.")
    owner_ids: list[int] = Field(
        description="The members the payer account may belong to (matching another member "
        "needs confirmOtherOwner)."
    )

    @classmethod
    def of(cls, row: UnmatchedPayment, owners: PayerOwners, *, known: bool) -> UnmatchedDetailOut:
        status: PayerOwnerStatus
        if owners.ambiguous:
            status = "AMBIGUOUS"
        elif owners.suggestion is not None:
            status = "ONE"
        else:
            status = "NONE" if known else "UNKNOWN"
        return cls(
            payment=UnmatchedOut.of(row),
            owner_status=status,
            suggestion=MatchMemberOut.of(owners.suggestion) if owners.suggestion else None,
            owner_ids=sorted(owners.ids),
        )


class MatchIn(_WireIn):
    member_id: int = Field(ge=1, le=MAX_BODY_ID)
    note: Note | None = Field(
        default=None, description="Why this member (required; kept in the audit log)."
    )
    confirm_other_owner: bool = Field(
        default=False,
        description="Required when the payer's account is another member's registered account.",
    )
