"""Wire shapes of slip deposits (spec §3 Slip: createdAt, amount, status, note, link,
reference)."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from pao.kit.money import MajorAmount
from pao.payments.slips.models import Slip, SlipReview, SlipStatus


class _Out(BaseModel):
    model_config = ConfigDict(populate_by_name=True)


class SlipOut(_Out):
    id: str = Field(alias="_id")
    created_at: datetime = Field(alias="createdAt")
    amount: MajorAmount = Field(description="What the bank says was transferred; 0 if unknown.")
    status: SlipStatus = Field(description="PENDING is shown as 'in progress'.")
    note: str | None = Field(description="The reason code of a FAILED slip (spec §8).")
    link: str = Field(description="The slip image (needs the bearer token).")
    reference: str | None = Field(description="The transfer reference read from the QR.")
    review: SlipReview | None = Field(
        default=None,
        description="Staff review of a FAILED slip whose money may still have arrived: OPEN "
        "(staff are checking it; it may yet be credited), APPROVED (credited after review: "
        "status SUCCESS), REJECTED (refused after review). Absent when no review applies.",
    )


class SlipUploadResponse(_Out):
    code: Literal["SUCCESS", "SLIP_UPLOAD_FAIL", "OK"] = Field(
        description="SUCCESS: credited. SLIP_UPLOAD_FAIL: refused, see reason. OK: accepted, "
        "still being checked (the bank did not answer yet)."
    )
    status: SlipStatus
    reason: str | None = None
    slip: SlipOut


class SlipsResponse(_Out):
    slips: list[SlipOut]
    total: int


class SlipUrlOut(_Out):
    url: str


def image_link(slip_id: int) -> str:
    return f"/api/statement/slip/image/{slip_id}"


def slip_out(slip: Slip) -> SlipOut:
    return SlipOut(
        id=str(slip.id),
        created_at=slip.created_at,
        amount=slip.amount,
        status=SlipStatus(slip.status),
        note=slip.reason,
        link=image_link(slip.id),
        reference=slip.reference,
        review=slip.review_status,
    )


def upload_response(slip: Slip) -> SlipUploadResponse:
    status = SlipStatus(slip.status)
    code: Literal["SUCCESS", "SLIP_UPLOAD_FAIL", "OK"] = (
        "SUCCESS"
        if status is SlipStatus.SUCCESS
        else "SLIP_UPLOAD_FAIL"
        if status is SlipStatus.FAILED
        else "OK"
    )
    return SlipUploadResponse(code=code, status=status, reason=slip.reason, slip=slip_out(slip))
