"""Staff review of failed slips: the queue, approve with an amount (credits once), reject.

A slip that FAILED for a reason of :data:`REVIEWABLE_REASONS` is OPEN for review. Approving
it credits the amount the reviewer read on the slip through the automatic path's own
:func:`credit_slip` (ledger entry, statement line, DepositCredited: it is a real deposit) and
moves the slip FAILED → SUCCESS. Exactly once, whoever clicks: the slip row is locked
``FOR UPDATE`` (SQLite: one writer at a time) and its review state checked under the lock;
the transfer's ``(sending_bank, reference)``, when the QR was readable, is claimed again, so a
transfer credited through another slip meanwhile is refused (DEPOSIT_TRANSFER_CREDITED).
Rejecting closes the review; the slip stays FAILED with its reason. The back office and any
operator tool call these functions; the caller writes its own audit row.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from sqlalchemy import ColumnElement, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from pao.core.errors import Unprocessable
from pao.identity.models import Member
from pao.kit.clock import utcnow
from pao.kit.money import Currency
from pao.kit.states import StatusChange, check_transition
from pao.payments.exceptions import (
    DepositAlreadySettled,
    DepositNotFound,
    DepositTransferCredited,
)
from pao.payments.slips.models import (
    SLIP_REVIEW_TRANSITIONS,
    Slip,
    SlipClaim,
    SlipReview,
    SlipStatus,
)
from pao.payments.slips.service import Payer, credit_slip

ReviewSort = Literal["createdAt", "-createdAt"]
MAX_NOTE = 500


@dataclass(frozen=True)
class ReviewPage:
    slips: list[Slip]
    total: int


def under_review(status: SlipReview | None = SlipReview.OPEN) -> ColumnElement[bool]:
    """The one definition of the queue: slips whose review is ``status`` (None: every slip
    that ever needed one). Which slips enter it is decided once, when the slip fails
    (:data:`~pao.payments.slips.models.REVIEWABLE_REASONS`); from then on the review state,
    not the reason, says whether a slip still waits for staff."""
    if status is None:
        return Slip.review_status.is_not(None)
    return Slip.review_status == status


async def count_under_review(session: AsyncSession, status: SlipReview = SlipReview.OPEN) -> int:
    """How many slips wait in the queue (the dashboard's "slips to review")."""
    total = await session.scalar(select(func.count()).select_from(Slip).where(under_review(status)))
    return int(total or 0)


async def review_queue(
    session: AsyncSession,
    *,
    status: SlipReview | None,
    offset: int,
    limit: int,
    sort: ReviewSort = "createdAt",
) -> ReviewPage:
    """Slips under review (``status`` None: every slip that ever needed one); oldest first by
    default, since the queue is worked from its head."""
    where = under_review(status)
    total = await session.scalar(select(func.count()).select_from(Slip).where(where))
    order = (
        (Slip.created_at.desc(), Slip.id.desc())
        if sort.startswith("-")
        else (Slip.created_at.asc(), Slip.id.asc())
    )
    rows = await session.execute(
        select(Slip).where(where).order_by(*order).offset(offset).limit(limit)
    )
    return ReviewPage(slips=list(rows.scalars()), total=int(total or 0))


async def reviewable_slip(session: AsyncSession, *, slip_id: int) -> Slip:
    """A slip that is or was under review (the others are not the back office's to open)."""
    slip = await session.get(Slip, slip_id)
    if slip is None or slip.review_status is None:
        raise DepositNotFound()
    return slip


async def _lock_open(session: AsyncSession, slip_id: int) -> Slip:
    slip = (
        await session.execute(
            select(Slip)
            .where(Slip.id == slip_id)
            .with_for_update()
            .execution_options(populate_existing=True)
        )
    ).scalar_one_or_none()
    if slip is None or slip.review_status is None:
        raise DepositNotFound()
    if slip.review_status != SlipReview.OPEN or slip.status != SlipStatus.FAILED:
        raise DepositAlreadySettled()
    return slip


def _note(text: str | None) -> str | None:
    cleaned = (text or "").strip()
    if len(cleaned) > MAX_NOTE:
        raise Unprocessable("KEY_INVALID", field="reason")
    return cleaned or None


async def _close(
    session: AsyncSession, slip: Slip, outcome: SlipReview, *, actor: str, note: str | None
) -> None:
    current = SlipReview(slip.review_status or SlipReview.OPEN)
    check_transition(SLIP_REVIEW_TRANSITIONS, current, outcome)
    slip.review_status = outcome
    slip.reviewed_by = actor[:80]
    slip.reviewed_at = utcnow()
    slip.review_note = note
    session.add(
        StatusChange(
            entity="slip_reviews",
            entity_id=slip.id,
            from_status=str(current),
            to_status=str(outcome),
            actor=actor[:80],
            reason=note,
        )
    )


async def approve_slip(
    session: AsyncSession, *, slip_id: int, amount: int, actor: str, note: str | None = None
) -> Slip:
    """Credit ``amount`` (minor units, the member's currency) for an OPEN slip, once."""
    if amount <= 0:
        raise Unprocessable("KEY_INVALID", field="amount")
    slip = await _lock_open(session, slip_id)
    if slip.sending_bank and slip.reference:
        try:
            async with session.begin_nested():
                session.add(
                    SlipClaim(
                        sending_bank=slip.sending_bank, reference=slip.reference, slip_id=slip.id
                    )
                )
                await session.flush()
        except IntegrityError:
            raise DepositTransferCredited() from None
    member = await session.get(Member, slip.member_id)
    assert member is not None
    payer = Payer(member.id, Currency(member.currency), member.bank_code, member.bank_account_no)
    await _close(session, slip, SlipReview.APPROVED, actor=actor, note=_note(note))
    await credit_slip(session, slip, payer, actor=actor, changes={"amount": amount})
    return slip


async def reject_slip(session: AsyncSession, *, slip_id: int, reason: str, actor: str) -> Slip:
    """Close an OPEN slip's review without crediting; the slip stays FAILED."""
    note = _note(reason)
    if note is None:
        raise Unprocessable("KEY_MISSING", field="reason")
    slip = await _lock_open(session, slip_id)
    await _close(session, slip, SlipReview.REJECTED, actor=actor, note=note)
    await session.flush()
    return slip
