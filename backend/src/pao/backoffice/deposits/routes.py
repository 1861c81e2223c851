"""``/api/backoffice/deposits``: the review of failed slips and the payments that matched no
member. Each route checks its permission, calls the payments domain
(:mod:`pao.payments.slips.review`, :mod:`pao.payments.qr.matching`) and writes its audit row;
money-moving calls take an Idempotency-Key (a double click replays the first answer)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Depends, Query, Request, Response
from fastapi.responses import JSONResponse
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from pao.backoffice.audit import service as audit
from pao.backoffice.audit.service import Actor
from pao.backoffice.deposits.schemas import (
    MatchIn,
    SlipApproveIn,
    SlipRejectIn,
    SlipReviewOut,
    SlipReviewQuery,
    UnmatchedDetailOut,
    UnmatchedOut,
    UnmatchedQuery,
    mask_payer,
)
from pao.backoffice.deps import actor_of, require
from pao.backoffice.models import Staff
from pao.backoffice.routing import AUTHENTICATED, backoffice_router
from pao.backoffice.staff.roles import Permission
from pao.core.openapi import VALIDATION, errors
from pao.core.params import DbId
from pao.core.uow import SessionDep
from pao.identity.models import Member
from pao.kit.idempotency import IdempotencyKeyHeader, run_idempotent
from pao.kit.money import recorded
from pao.kit.pagination import Page
from pao.payments.exceptions import DepositNotFound
from pao.payments.qr import matching, payer
from pao.payments.qr.models import PaymentOutcome
from pao.payments.slips import review
from pao.payments.slips.models import Slip, SlipReview

router = backoffice_router()

Reader = Annotated[Staff, Depends(require(Permission.DEPOSITS_READ))]
Decider = Annotated[Staff, Depends(require(Permission.DEPOSITS_DECIDE))]
SensitiveReader = Annotated[Staff, Depends(require(Permission.MEMBERS_SENSITIVE_READ))]
NOT_FOUND = errors(_404="DEPOSIT_NOT_FOUND")
_MEDIA_TYPES = {"png": "image/png", "jpg": "image/jpeg"}


def actor_name(actor: Actor) -> str:
    """How a staff action is named in the ledger and status history: ``staff:<login>``."""
    return f"staff:{actor.label}" if actor.staff is not None else actor.label


async def _members(session: AsyncSession, ids: set[int]) -> dict[int, Member]:
    if not ids:
        return {}
    rows = await session.execute(select(Member).where(Member.id.in_(ids)))
    return {m.id: m for m in rows.scalars()}


async def _slip_out(session: AsyncSession, slip: Slip) -> SlipReviewOut:
    return SlipReviewOut.of(slip, await session.get(Member, slip.member_id))


@router.get(
    "/deposits/slips",
    operation_id="backofficeDepositSlips",
    response_model=Page[SlipReviewOut],
    responses={**AUTHENTICATED, **VALIDATION},
    summary="Slips that failed in a way that needs a look (review status OPEN by default)",
)
async def list_slips(
    query: Annotated[SlipReviewQuery, Query()], session: SessionDep, staff: Reader
) -> Page[SlipReviewOut]:
    status = None if query.status == "ALL" else SlipReview(query.status)
    page = await review.review_queue(
        session,
        status=status,
        offset=(query.page - 1) * query.limit,
        limit=query.limit,
        sort=query.sort,
    )
    members = await _members(session, {s.member_id for s in page.slips})
    return Page[SlipReviewOut].of(
        page.slips,
        lambda s: SlipReviewOut.of(s, members.get(s.member_id)),
        total=page.total,
        request=query,
    )


@router.get(
    "/deposits/slips/{slip_id}",
    operation_id="backofficeDepositSlip",
    response_model=SlipReviewOut,
    responses={**AUTHENTICATED, **NOT_FOUND, **VALIDATION},
    summary="One slip under review: the reason code and what the bank lookup said",
)
async def get_slip(slip_id: DbId, session: SessionDep, staff: Reader) -> SlipReviewOut:
    return await _slip_out(session, await review.reviewable_slip(session, slip_id=slip_id))


@router.get(
    "/deposits/slips/{slip_id}/image",
    operation_id="backofficeDepositSlipImage",
    response_class=Response,
    responses={
        200: {"content": {"image/png": {}, "image/jpeg": {}}, "description": "The image."},
        **AUTHENTICATED,
        **NOT_FOUND,
        **VALIDATION,
    },
    summary="The slip's image (it shows the member's bank account: the read is audited)",
)
async def slip_image(
    slip_id: DbId, request: Request, session: SessionDep, staff: SensitiveReader
) -> Response:
    slip = await review.reviewable_slip(session, slip_id=slip_id)
    store = request.app.state.file_store
    if not await store.exists(slip.file_key):
        raise DepositNotFound()
    await audit.record_sensitive_read(
        session, actor=actor_of(request), object_type="slip", object_id=slip.id, what="slip_image"
    )
    extension = slip.file_key.rsplit(".", 1)[-1]
    return Response(
        await store.get(slip.file_key),
        media_type=_MEDIA_TYPES.get(extension, "application/octet-stream"),
        headers={"X-Content-Type-Options": "nosniff", "Cache-Control": "no-store"},
    )


@router.post(
    "/deposits/slips/{slip_id}/approve",
    operation_id="backofficeDepositSlipApprove",
    response_model=SlipReviewOut,
    responses={
        **AUTHENTICATED,
        **NOT_FOUND,
        **errors(
            _409="DEPOSIT_ALREADY_SETTLED | DEPOSIT_TRANSFER_CREDITED | IDEMPOTENCY_KEY_REUSED"
        ),
        **VALIDATION,
    },
    summary="Credit the member the amount read on the slip, once (send an Idempotency-Key)",
)
async def approve_slip(
    slip_id: DbId,
    body: SlipApproveIn,
    request: Request,
    session: SessionDep,
    staff: Decider,
    idempotency_key: IdempotencyKeyHeader = None,
) -> Any:
    actor = actor_of(request)

    async def action() -> SlipReviewOut:
        slip = await review.approve_slip(
            session, slip_id=slip_id, amount=body.amount, actor=actor_name(actor), note=body.note
        )
        await audit.record(
            session,
            actor=actor,
            action="deposit.slip.approve",
            object_type="slip",
            object_id=slip.id,
            before={"reviewStatus": SlipReview.OPEN},
            after={
                "reviewStatus": slip.review_status,
                "amount": recorded(body.amount, slip.currency),
                "journalEntryId": slip.journal_entry_id,
            },
            detail=body.note,
        )
        return await _slip_out(session, slip)

    return JSONResponse(
        await run_idempotent(
            session,
            owner=f"staff:{staff.id}",
            key=idempotency_key,
            operation="backoffice.deposit.slip.approve",
            payload={"slipId": slip_id, "amount": body.amount, "note": body.note},
            action=action,
        )
    )


@router.post(
    "/deposits/slips/{slip_id}/reject",
    operation_id="backofficeDepositSlipReject",
    response_model=SlipReviewOut,
    responses={
        **AUTHENTICATED,
        **NOT_FOUND,
        **errors(_409="DEPOSIT_ALREADY_SETTLED"),
        **VALIDATION,
    },
    summary="Close the slip's review without crediting, with the reason",
)
async def reject_slip(
    slip_id: DbId, body: SlipRejectIn, request: Request, session: SessionDep, staff: Decider
) -> SlipReviewOut:
    actor = actor_of(request)
    slip = await review.reject_slip(
        session, slip_id=slip_id, reason=body.reason, actor=actor_name(actor)
    )
    await audit.record(
        session,
        actor=actor,
        action="deposit.slip.reject",
        object_type="slip",
        object_id=slip.id,
        before={"reviewStatus": SlipReview.OPEN},
        after={"reviewStatus": slip.review_status},
        detail=body.reason,
    )
    return await _slip_out(session, slip)


@router.get(
    "/deposits/unmatched",
    operation_id="backofficeDepositUnmatched",
    response_model=Page[UnmatchedOut],
    responses={**AUTHENTICATED, **VALIDATION},
    summary="Bank transfers and gateway payments that matched no member, newest first",
)
async def list_unmatched(
    query: Annotated[UnmatchedQuery, Query()], session: SessionDep, staff: Reader
) -> Page[UnmatchedOut]:
    items, total = await matching.list_payments(
        session,
        outcome=PaymentOutcome(query.status),
        offset=(query.page - 1) * query.limit,
        limit=query.limit,
    )
    return Page[UnmatchedOut].of(items, UnmatchedOut.of, total=total, request=query)


@router.get(
    "/deposits/unmatched/{kind}/{payment_id}",
    operation_id="backofficeDepositUnmatchedOne",
    response_model=UnmatchedDetailOut,
    responses={**AUTHENTICATED, **NOT_FOUND, **VALIDATION},
    summary="One payment, its payer and the member whose registered account paid it",
)
async def get_unmatched(
    kind: matching.PaymentKind, payment_id: DbId, session: SessionDep, staff: Reader
) -> UnmatchedDetailOut:
    row = await matching.get_payment(session, kind=kind, payment_id=payment_id)
    owners = await matching.owners_of(session, row)
    described = matching.describe(row)
    known = payer.account_pattern(described.payer_account) is not None
    return UnmatchedDetailOut.of(described, owners, known=known)


@router.post(
    "/deposits/unmatched/{kind}/{payment_id}/match",
    operation_id="backofficeDepositMatch",
    response_model=UnmatchedOut,
    responses={
        **AUTHENTICATED,
        **NOT_FOUND,
        **errors(
            _400="DEPOSIT_CURRENCY_MISMATCH",
            _404="DEPOSIT_NOT_FOUND | NO_USER",
            _409="DEPOSIT_ALREADY_SETTLED | PAYER_IS_ANOTHER_MEMBER | IDEMPOTENCY_KEY_REUSED",
            _422="DEPOSIT_NOTE_REQUIRED",
        ),
        **VALIDATION,
    },
    summary="Credit an unmatched payment to a member, once (send an Idempotency-Key)",
    description="A note is required. When the payer's account is another member's registered "
    "account, matching someone else takes confirmOtherOwner: true (else "
    "PAYER_IS_ANOTHER_MEMBER, with ownerIds).",
)
async def match_payment(
    kind: matching.PaymentKind,
    payment_id: DbId,
    body: MatchIn,
    request: Request,
    session: SessionDep,
    staff: Decider,
    idempotency_key: IdempotencyKeyHeader = None,
) -> Any:
    actor = actor_of(request)

    async def action() -> UnmatchedOut:
        row = await matching.match_payment(
            session,
            kind=kind,
            payment_id=payment_id,
            member_id=body.member_id,
            actor=actor_name(actor),
            note=body.note,
            confirm_other_owner=body.confirm_other_owner,
        )
        described = matching.describe(row)
        owners = await matching.owners_of(session, row)
        await audit.record(
            session,
            actor=actor,
            action="deposit.payment.match",
            object_type=f"{kind.value}_payment",
            object_id=row.id,
            before={"outcome": PaymentOutcome.UNMATCHED},
            after={
                "outcome": row.outcome,
                "memberId": row.member_id,
                "entryId": row.entry_id,
                "amount": recorded(row.amount, row.currency),
                "payerBank": described.payer_bank,
                "payerAccount": mask_payer(described.payer_account),
                "payerName": described.payer_name,
                "payerOwnerIds": sorted(owners.ids),
                "confirmOtherOwner": body.confirm_other_owner,
            },
            detail=body.note,
        )
        return UnmatchedOut.of(described)

    return JSONResponse(
        await run_idempotent(
            session,
            owner=f"staff:{staff.id}",
            key=idempotency_key,
            operation="backoffice.deposit.match",
            payload={
                "kind": kind.value,
                "paymentId": payment_id,
                "memberId": body.member_id,
                "note": body.note,
                "confirmOtherOwner": body.confirm_other_owner,
            },
            action=action,
        )
    )
