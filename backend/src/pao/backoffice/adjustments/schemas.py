"""Wire shapes of the back office's manual adjustments (camelCase; amounts in major units)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StringConstraints
from pydantic.alias_generators import to_camel

from pao.backoffice.staff.names import shown
from pao.core.params import MAX_DB_INT, RequestModel
from pao.kit.money import AmountsOut, Currency, MajorAmount, WireAmount
from pao.wallet.adjustments import AdjustmentRow, AdjustmentSort
from pao.wallet.models import AdjustmentDirection, AdjustmentStatus, ApprovalReason

Reason = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=500)]


class _Wire(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True)


class _WireIn(RequestModel, _Wire):
    """A request body or query: a boolean is not a number (pao.core.params)."""


class AdjustmentIn(_WireIn):
    direction: AdjustmentDirection = Field(
        description="credit: into the member's wallet; debit: out of it."
    )
    amount: WireAmount = Field(description="More than 0, in the member's currency.")
    reason: Reason = Field(description="Why; kept on the ledger entry and in the audit log.")


class RejectIn(_WireIn):
    reason: Reason


class AdjustmentQuery(_WireIn):
    status: AdjustmentStatus | None = None
    member_id: int | None = Field(default=None, ge=1, le=MAX_DB_INT)
    page: int = Field(default=1, ge=1, le=100_000)
    limit: int = Field(default=50, ge=1, le=100)
    sort: AdjustmentSort = "-createdAt"


class AdjustmentOut(_Wire):
    id: int
    member_id: int
    member_phone: str
    direction: AdjustmentDirection
    amount: MajorAmount
    currency: Currency
    reason: str
    status: AdjustmentStatus
    requested_by: str = Field(description="The requester's login (or ops:<user>).")
    requested_by_staff_id: int | None = Field(
        description="The requester's staff id; null for an operator at the shell."
    )
    requested_by_name: str = Field(description="The requester's display name (else requestedBy).")
    decided_by: str | None
    decided_by_name: str | None = Field(description="The decider's display name (else decidedBy).")
    decision_reason: str | None = Field(description="Why it was rejected.")
    approval_reasons: list[ApprovalReason] = Field(
        description="Why it waits (or waited) for a second staff member: amount (above "
        "manualAdjustmentApprovalAbove), staff_day (the requester's total posted alone in 24 h "
        "would pass manualAdjustmentStaffDaily), member_day (the member's would pass "
        "manualAdjustmentMemberDaily). Empty when it posted at once."
    )
    created_at: datetime
    decided_at: datetime | None

    @classmethod
    def of(cls, row: AdjustmentRow, names: dict[str, str]) -> AdjustmentOut:
        a = row.adjustment
        return cls(
            id=a.id,
            member_id=a.member_id,
            member_phone=row.member_phone,
            direction=AdjustmentDirection(a.direction),
            amount=a.amount,
            currency=Currency(a.currency),
            reason=a.reason,
            status=AdjustmentStatus(a.status),
            requested_by=a.requested_by,
            requested_by_staff_id=a.requested_by_staff_id,
            requested_by_name=shown(a.requested_by, names) or a.requested_by,
            decided_by=a.decided_by,
            decided_by_name=shown(a.decided_by, names),
            decision_reason=a.decision_reason,
            approval_reasons=[
                ApprovalReason(r) for r in (a.approval_reasons or "").split(",") if r
            ],
            created_at=a.created_at,
            decided_at=a.decided_at,
        )


class AdjustmentPolicyOut(_Wire):
    approval_above: AmountsOut = Field(
        description="Per the member's wallet currency: adjustments above this amount wait for a "
        "second staff member's approval (site setting manualAdjustmentApprovalAbove; null: every "
        "adjustment in that currency waits)."
    )
    staff_daily: AmountsOut = Field(
        description="Per currency: what one staff member may post alone in 24 hours, each "
        "direction apart (manualAdjustmentStaffDaily)."
    )
    member_daily: AmountsOut = Field(
        description="Per currency: what one member may be given or debited by staff alone in 24 "
        "hours, each direction apart (manualAdjustmentMemberDaily)."
    )
