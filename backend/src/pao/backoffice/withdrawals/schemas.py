"""Wire shapes of ``/api/backoffice/withdrawals`` (camelCase, amounts in major units)."""

from __future__ import annotations

import re
from datetime import datetime
from decimal import Decimal
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field, StringConstraints, WithJsonSchema, model_validator
from pydantic_core import PydanticCustomError

from pao.backoffice.members.links import LinkedMemberOut, MemberBriefOut
from pao.backoffice.schemas import _Wire, _WireIn
from pao.backoffice.withdrawals.cashier import WithdrawalContext
from pao.backoffice.withdrawals.queue import QueueFilter, QueueFlags, QueueRow, QueueSort
from pao.identity.changes import mask_account_no
from pao.kit.money import MajorAmount, to_minor
from pao.payments.payouts.models import Payout
from pao.wallet.claims import claim_active
from pao.wallet.models import Withdrawal, WithdrawalStatus

# "Older than": at most 90 days, in minutes.
MAX_AGE_MINUTES = 90 * 24 * 60
_AMOUNT_TEXT = re.compile(r"\d{1,13}(\.\d{1,2})?")


def _query_amount(value: Any) -> int:
    """A query's amount (text, major units, at most two decimals) → minor units."""
    text = str(value).strip()
    if isinstance(value, bool) or not _AMOUNT_TEXT.fullmatch(text):
        raise PydanticCustomError("KEY_INVALID", "an amount: digits, at most 2 decimals")
    return to_minor(Decimal(text))


# A query parameter in major units (baht or kip), held as minor units.
QueryAmount = Annotated[
    int,
    BeforeValidator(_query_amount),
    WithJsonSchema(
        {
            "type": "number",
            "minimum": 0,
            "maximum": 9_999_999_999_999.99,
            "multipleOf": 0.01,
            "description": "Major units (baht or kip), at most 2 decimals.",
        },
        mode="validation",
    ),
]
BankCode = Annotated[
    str, StringConstraints(strip_whitespace=True, to_upper=True, pattern=r"^[A-Za-z0-9_]{1,10}$")
]
MemberKey = Annotated[str, StringConstraints(strip_whitespace=True, pattern=r"^[0-9]{1,20}$")]


class WithdrawalQuery(_WireIn):
    status: WithdrawalStatus | None = Field(default=None, description="Only this status.")
    page: int = Field(default=1, ge=1, le=100_000)
    limit: int = Field(default=20, ge=1, le=100)
    sort: QueueSort = Field(default="createdAt", description="Oldest first by default.")
    amount_min: QueryAmount | None = Field(default=None, description="At least this amount.")
    amount_max: QueryAmount | None = Field(default=None, description="At most this amount.")
    bank: BankCode | None = Field(default=None, description="Paid to this bank (its code).")
    member: MemberKey | None = Field(
        default=None, description="The member: their id or their phone number (digits, exact)."
    )
    older_than: int | None = Field(
        default=None,
        ge=1,
        le=MAX_AGE_MINUTES,
        description="Requested at least this many minutes ago.",
    )
    flags: QueueFlags | None = Field(
        default=None,
        description="clean: no recent bank change, no linked accounts, no open bonus; "
        "flagged: at least one of them.",
    )

    @model_validator(mode="after")
    def _ordered_range(self) -> WithdrawalQuery:
        if (
            self.amount_min is not None
            and self.amount_max is not None
            and self.amount_min > self.amount_max
        ):
            raise PydanticCustomError("AMOUNT_RANGE", "amountMin is above amountMax")
        return self

    def where(self) -> QueueFilter:
        return QueueFilter(
            status=self.status,
            amount_min=self.amount_min,
            amount_max=self.amount_max,
            bank_code=self.bank,
            member=self.member,
            older_than_minutes=self.older_than,
            flags=self.flags,
        )


class WithdrawalRowOut(_Wire):
    id: int
    member_id: int
    member_phone: str
    member_name: str
    amount: MajorAmount
    currency: str
    status: WithdrawalStatus
    bank_code: str
    bank_account_name: str
    account_no_masked: str
    created_at: datetime
    decided_at: datetime | None
    decided_by: str | None
    reason: str | None
    claimed_by: str | None = Field(description="The cashier working it while the claim runs.")
    claimed_by_staff_id: int | None
    claim_expires_at: datetime | None
    bank_changed_recently: bool = Field(
        description="The member's bank account changed within the hold window of the request."
    )
    linked_accounts: bool = Field(
        description="Other members have the account number or the holder name it pays to."
    )
    open_bonus: bool = Field(description="The member holds an active bonus.")
    clean: bool = Field(
        description="None of the three flags: a cashier may approve it from the queue's row "
        "(the approval's own rules still apply)."
    )

    @classmethod
    def of(
        cls,
        w: Withdrawal,
        *,
        phone: str,
        name: str,
        bank_changed: bool,
        linked: bool,
        bonus: bool,
    ) -> WithdrawalRowOut:
        # A claim matters only while the withdrawal waits for a decision.
        claimed = claim_active(w) and w.status == WithdrawalStatus.PENDING
        return cls(
            id=w.id,
            member_id=w.member_id,
            member_phone=phone,
            member_name=name,
            amount=w.amount,
            currency=w.currency,
            status=w.status,
            bank_code=w.bank_code,
            bank_account_name=w.bank_account_name,
            account_no_masked=mask_account_no(w.bank_account_no),
            created_at=w.created_at,
            decided_at=w.decided_at,
            decided_by=w.decided_by,
            reason=w.reason,
            claimed_by=w.claimed_by if claimed else None,
            claimed_by_staff_id=w.claimed_by_staff_id if claimed else None,
            claim_expires_at=w.claim_expires_at if claimed else None,
            bank_changed_recently=bank_changed,
            linked_accounts=linked,
            open_bonus=bonus,
            clean=not (bank_changed or linked or bonus),
        )

    @classmethod
    def of_row(cls, row: QueueRow) -> WithdrawalRowOut:
        return cls.of(
            row.withdrawal,
            phone=row.member_phone,
            name=row.member_name,
            bank_changed=row.bank_changed_recently,
            linked=row.linked_accounts,
            bonus=row.open_bonus,
        )


class WithdrawalMemberOut(MemberBriefOut):
    account_age_days: int


class RecentDepositOut(_Wire):
    amount: MajorAmount
    channel: str = Field(description="slip | bank_transfer | gateway | truemoney | manual | …")
    source: str = Field(description="Where it came from, as the member's statement says.")
    at: datetime


class RecentDepositsOut(_Wire):
    days: int
    count: int
    total: MajorAmount
    last: list[RecentDepositOut]


class ActiveBonusOut(_Wire):
    name: str
    turnover_required: MajorAmount
    turnover_done: MajorAmount


class PayoutOut(_Wire):
    id: int
    status: str
    attempts: int
    last_error: str | None
    bank_reference: str | None
    created_at: datetime
    settled_at: datetime | None

    @classmethod
    def of(cls, payout: Payout) -> PayoutOut:
        return cls(
            id=payout.id,
            status=payout.status,
            attempts=payout.attempts,
            last_error=payout.last_error,
            bank_reference=payout.bank_reference,
            created_at=payout.created_at,
            settled_at=payout.settled_at,
        )


class WithdrawalDetailOut(_Wire):
    withdrawal: WithdrawalRowOut
    account_no: str | None = Field(
        description="The full account number (the cashier pays by hand with it), for roles "
        "holding members.sensitive.read (null otherwise); every read is in the audit log."
    )
    member: WithdrawalMemberOut
    deposits: RecentDepositsOut
    active_bonus: ActiveBonusOut | None
    bank_changed_recently: bool
    linked_members: list[LinkedMemberOut] = Field(
        description="Other members linked to this one, each with its reasons (at most 20)."
    )
    payout: PayoutOut | None

    @classmethod
    def of(cls, ctx: WithdrawalContext, *, full_account_no: bool) -> WithdrawalDetailOut:
        w, m = ctx.withdrawal, ctx.member
        bonus = ctx.active_bonus
        return cls(
            withdrawal=WithdrawalRowOut.of(
                w,
                phone=m.phone,
                name=m.name,
                bank_changed=ctx.bank_changed_recently,
                linked=ctx.linked_held,
                bonus=ctx.active_bonus is not None,
            ),
            account_no=w.bank_account_no if full_account_no else None,
            member=WithdrawalMemberOut(
                **MemberBriefOut.of(m).model_dump(), account_age_days=ctx.account_age_days
            ),
            deposits=RecentDepositsOut(
                days=ctx.deposits.days,
                count=ctx.deposits.count,
                total=ctx.deposits.total,
                last=[
                    RecentDepositOut(amount=d.amount, channel=d.channel, source=d.source, at=d.at)
                    for d in ctx.deposits.last
                ],
            ),
            active_bonus=ActiveBonusOut(
                name=bonus.name,
                turnover_required=bonus.turnover_required,
                turnover_done=bonus.turnover_done,
            )
            if bonus is not None
            else None,
            bank_changed_recently=ctx.bank_changed_recently,
            linked_members=[LinkedMemberOut.of_link(link) for link in ctx.linked],
            payout=PayoutOut.of(ctx.payout) if ctx.payout is not None else None,
        )


Text = Annotated[str, StringConstraints(strip_whitespace=True, max_length=200)]


class ApproveIn(_WireIn):
    mode: Literal["payout", "manual"] = Field(
        description="payout: send it through the bank's payout API; manual: it was paid by "
        "hand (reference required)."
    )
    reference: Text | None = Field(
        default=None, description="The bank reference of a payment by hand."
    )

    @model_validator(mode="after")
    def _reference_for_manual(self) -> ApproveIn:
        if self.mode == "manual" and not self.reference:
            raise PydanticCustomError("KEY_MISSING", "a reference is required when paid by hand")
        return self


class RejectIn(_WireIn):
    reason: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=500)]
