"""``/api/backoffice/…/adjustments``: manual credits and debits of a member's wallet.

Staff holding ``members.credit`` ask; past a limit (``manualAdjustmentApprovalAbove``, or the
24-hour totals posted alone per staff member and per member) a second staff member holding
``members.credit.approve`` approves or rejects (never the requester). The rules
live in :mod:`pao.wallet.adjustments` (which ``pao ops deposit`` calls too); a route here checks
the permission, calls it and writes the audit row, with the adjustment before and after.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Query, Request, status
from fastapi.responses import JSONResponse

from pao.backoffice.adjustments.schemas import (
    AdjustmentIn,
    AdjustmentOut,
    AdjustmentPolicyOut,
    AdjustmentQuery,
    RejectIn,
)
from pao.backoffice.audit.service import record
from pao.backoffice.deps import actor_of, require
from pao.backoffice.models import Staff
from pao.backoffice.routing import AUTHENTICATED, backoffice_router
from pao.backoffice.staff.names import names_of
from pao.backoffice.staff.roles import Permission
from pao.core.openapi import VALIDATION, errors
from pao.core.params import DbId
from pao.core.uow import SessionDep
from pao.kit.idempotency import IdempotencyKeyHeader, run_idempotent
from pao.kit.money import AmountsOut
from pao.kit.pagination import Page
from pao.site.settings import load_site_settings
from pao.wallet import adjustments
from pao.wallet.adjustments import AdjustmentActor, AdjustmentRow, snapshot

router = backoffice_router()

Requester = Annotated[Staff, Depends(require(Permission.MEMBERS_CREDIT))]
Approver = Annotated[Staff, Depends(require(Permission.MEMBERS_CREDIT_APPROVE))]
NOT_FOUND = errors(_404="ADJUSTMENT_NOT_FOUND")
OBJECT = "adjustment"


def _by(staff: Staff) -> AdjustmentActor:
    return AdjustmentActor(label=staff.login, staff_id=staff.id)


async def _names(session: SessionDep, rows: list[AdjustmentRow]) -> dict[str, str]:
    """The display names of who asked for and who decided these adjustments."""
    labels = [a.adjustment.requested_by for a in rows] + [a.adjustment.decided_by for a in rows]
    return await names_of(session, labels)


async def _out(session: SessionDep, row: AdjustmentRow) -> AdjustmentOut:
    return AdjustmentOut.of(row, await _names(session, [row]))


@router.post(
    "/members/{member_id}/adjustments",
    operation_id="backofficeAdjustmentCreate",
    status_code=status.HTTP_201_CREATED,
    response_model=AdjustmentOut,
    responses={
        **AUTHENTICATED,
        **errors(
            _400="TRANSFER_MINIMUM | MONEY_NOT_ENOUGH",
            _404="NO_USER",
            _409="IDEMPOTENCY_KEY_REUSED",
        ),
        **VALIDATION,
    },
    summary="Credit or debit a member's wallet by hand, with a reason: posted at once within "
    "the limits (manualAdjustmentApprovalAbove, manualAdjustmentStaffDaily, "
    "manualAdjustmentMemberDaily), past one AWAITING_APPROVAL by another staff member",
)
async def create_adjustment(
    member_id: DbId,
    body: AdjustmentIn,
    request: Request,
    session: SessionDep,
    staff: Requester,
    idempotency_key: IdempotencyKeyHeader = None,
) -> JSONResponse:
    actor = actor_of(request)

    async def action() -> AdjustmentOut:
        member = await adjustments.member_of(session, member_id)
        adjustment = await adjustments.request_adjustment(
            session,
            member=member,
            direction=body.direction,
            amount=body.amount,
            reason=body.reason,
            by=_by(staff),
        )
        await record(
            session,
            actor=actor,
            action="adjustment.request",
            object_type=OBJECT,
            object_id=adjustment.id,
            before=None,
            after=snapshot(adjustment),
        )
        return await _out(session, await adjustments.row_of(session, adjustment))

    # The staff member's intent: a double click or a retry with the same key creates one.
    answer = await run_idempotent(
        session,
        owner=f"staff:{staff.id}",
        key=idempotency_key,
        operation="backoffice.adjustment.create",
        payload={
            "memberId": member_id,
            "direction": str(body.direction),
            "amount": body.amount,
            "reason": body.reason,
        },
        action=action,
    )
    # Already JSON (major units): returned as is, not re-validated.
    return JSONResponse(answer, status_code=status.HTTP_201_CREATED)


@router.get(
    "/adjustments",
    operation_id="backofficeAdjustmentList",
    response_model=Page[AdjustmentOut],
    responses={**AUTHENTICATED, **VALIDATION},
    summary="Manual adjustments, filtered by status or member, sorted and paged",
)
async def list_adjustments(
    query: Annotated[AdjustmentQuery, Query()], session: SessionDep, staff: Requester
) -> Page[AdjustmentOut]:
    rows, total = await adjustments.search_adjustments(
        session,
        status=query.status,
        member_id=query.member_id,
        offset=(query.page - 1) * query.limit,
        limit=query.limit,
        sort=query.sort,
    )
    names = await _names(session, rows)
    return Page[AdjustmentOut].of(
        rows, lambda row: AdjustmentOut.of(row, names), total=total, request=query
    )


@router.get(
    "/adjustments/policy",
    operation_id="backofficeAdjustmentPolicy",
    response_model=AdjustmentPolicyOut,
    responses=AUTHENTICATED,
    summary="The limits past which an adjustment waits for approval: its amount, and the "
    "totals posted alone in 24 hours by one staff member and for one member",
)
async def adjustment_policy(session: SessionDep, staff: Requester) -> AdjustmentPolicyOut:
    settings = await load_site_settings(session)
    return AdjustmentPolicyOut(
        approval_above=AmountsOut.of(settings.manual_adjustment_approval_above),
        staff_daily=AmountsOut.of(settings.manual_adjustment_staff_daily),
        member_daily=AmountsOut.of(settings.manual_adjustment_member_daily),
    )


@router.get(
    "/adjustments/{adjustment_id}",
    operation_id="backofficeAdjustmentGet",
    response_model=AdjustmentOut,
    responses={**AUTHENTICATED, **NOT_FOUND, **VALIDATION},
    summary="One manual adjustment",
)
async def get_adjustment(
    adjustment_id: DbId, session: SessionDep, staff: Requester
) -> AdjustmentOut:
    return await _out(session, await adjustments.get_adjustment(session, adjustment_id))


@router.post(
    "/adjustments/{adjustment_id}/approve",
    operation_id="backofficeAdjustmentApprove",
    response_model=AdjustmentOut,
    responses={
        **AUTHENTICATED,
        **NOT_FOUND,
        **errors(
            _400="MONEY_NOT_ENOUGH",
            _403="STAFF_FORBIDDEN | ADJUSTMENT_OWN_APPROVAL",
            _409="ADJUSTMENT_ALREADY_DECIDED",
        ),
        **VALIDATION,
    },
    summary="Approve another staff member's adjustment: the money moves now",
)
async def approve_adjustment(
    adjustment_id: DbId, request: Request, session: SessionDep, staff: Approver
) -> AdjustmentOut:
    before = snapshot((await adjustments.get_adjustment(session, adjustment_id)).adjustment)
    adjustment = await adjustments.approve_adjustment(
        session, adjustment_id=adjustment_id, by=_by(staff)
    )
    await record(
        session,
        actor=actor_of(request),
        action="adjustment.approve",
        object_type=OBJECT,
        object_id=adjustment.id,
        before=before,
        after=snapshot(adjustment),
    )
    return await _out(session, await adjustments.row_of(session, adjustment))


@router.post(
    "/adjustments/{adjustment_id}/reject",
    operation_id="backofficeAdjustmentReject",
    response_model=AdjustmentOut,
    responses={
        **AUTHENTICATED,
        **NOT_FOUND,
        **errors(
            _403="STAFF_FORBIDDEN | ADJUSTMENT_OWN_APPROVAL",
            _409="ADJUSTMENT_ALREADY_DECIDED",
        ),
        **VALIDATION,
    },
    summary="Reject another staff member's adjustment, with a reason: no money moves",
)
async def reject_adjustment(
    adjustment_id: DbId, body: RejectIn, request: Request, session: SessionDep, staff: Approver
) -> AdjustmentOut:
    before = snapshot((await adjustments.get_adjustment(session, adjustment_id)).adjustment)
    adjustment = await adjustments.reject_adjustment(
        session, adjustment_id=adjustment_id, by=_by(staff), reason=body.reason
    )
    await record(
        session,
        actor=actor_of(request),
        action="adjustment.reject",
        object_type=OBJECT,
        object_id=adjustment.id,
        before=before,
        after=snapshot(adjustment),
    )
    return await _out(session, await adjustments.row_of(session, adjustment))
