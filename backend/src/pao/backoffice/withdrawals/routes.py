"""``/api/backoffice/withdrawals``: the cashiers' queue (its filters and flags:
:mod:`pao.backoffice.withdrawals.queue`; "claim next": the oldest unclaimed one, atomically).
Each route checks its permission, calls the domain (claims in :mod:`pao.wallet.claims`, decisions in
:mod:`pao.wallet.withdrawals` and :func:`pao.payments.payouts.service.queue_payout`, the
same functions ``pao ops withdrawals`` calls) and writes the audit row.

A decision is taken by the claimer only (the domain refuses anyone else); the staff member is
the claimant. Approving through the bank commits the approval first and calls the bank after
the request's transaction, as a background task (failures are left to the reconciler job).
Approve and reject take an ``Idempotency-Key``: a double click decides once.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import BackgroundTasks, Depends, Query, Request
from sqlalchemy.ext.asyncio import AsyncSession

from pao.backoffice.audit import service as audit
from pao.backoffice.deps import actor_of, require
from pao.backoffice.models import Staff
from pao.backoffice.routing import AUTHENTICATED, backoffice_router
from pao.backoffice.staff.roles import Permission, may
from pao.backoffice.withdrawals.cashier import withdrawal_context
from pao.backoffice.withdrawals.queue import list_queue, queue_row
from pao.backoffice.withdrawals.schemas import (
    ApproveIn,
    RejectIn,
    WithdrawalDetailOut,
    WithdrawalQuery,
    WithdrawalRowOut,
)
from pao.core.openapi import VALIDATION, errors
from pao.core.params import DbId
from pao.core.uow import SessionDep
from pao.kit.idempotency import IdempotencyKeyHeader, run_idempotent
from pao.kit.money import recorded
from pao.kit.pagination import Page
from pao.payments.payouts.jobs import payout_context
from pao.payments.payouts.service import queue_payout, send_payout_after_commit
from pao.wallet.claims import Claimant, claim_next, claim_withdrawal, release_withdrawal
from pao.wallet.models import Withdrawal
from pao.wallet.withdrawals import approve_withdrawal, reject_withdrawal

router = backoffice_router()

Reader = Annotated[Staff, Depends(require(Permission.WITHDRAWALS_READ))]
Decider = Annotated[Staff, Depends(require(Permission.WITHDRAWALS_DECIDE))]
OBJECT = "withdrawal"
NOT_FOUND = errors(_404="NO_DATA")
CLAIM_ERRORS = errors(_409="WITHDRAWAL_CLAIMED | WITHDRAWAL_ALREADY_DECIDED")
DECIDE_ERRORS = errors(
    _409="WITHDRAWAL_CLAIMED | WITHDRAWAL_NOT_CLAIMED | WITHDRAWAL_ALREADY_DECIDED"
    " | IDEMPOTENCY_KEY_REUSED",
    _422="KEY_MISSING | KEY_INVALID",
)


def claimant_of(staff: Staff) -> Claimant:
    return Claimant(staff_id=staff.id, label=staff.login)


def domain_actor(staff: Staff) -> str:
    """How a staff member signs journal entries and status changes (``pao ops``: ops:<user>)."""
    return f"staff:{staff.login}"


def _state(w: Withdrawal) -> dict[str, Any]:
    expires = w.claim_expires_at
    return {
        "status": str(w.status),
        "claimedBy": w.claimed_by,
        "claimExpiresAt": expires.isoformat() if expires is not None else None,
    }


async def _row(session: AsyncSession, w: Withdrawal) -> WithdrawalRowOut:
    return WithdrawalRowOut.of_row(await queue_row(session, withdrawal_id=w.id))


@router.get(
    "/withdrawals",
    operation_id="backofficeWithdrawals",
    response_model=Page[WithdrawalRowOut],
    responses={**AUTHENTICATED, **VALIDATION},
    summary="The withdrawal queue (a status, oldest first by default), one page; narrowed by "
    "amount, bank, member, age and flags",
)
async def list_withdrawals(
    query: Annotated[WithdrawalQuery, Query()], session: SessionDep, staff: Reader
) -> Page[WithdrawalRowOut]:
    rows, total = await list_queue(
        session,
        where=query.where(),
        offset=(query.page - 1) * query.limit,
        limit=query.limit,
        sort=query.sort,
    )
    return Page[WithdrawalRowOut].of(rows, WithdrawalRowOut.of_row, total=total, request=query)


@router.get(
    "/withdrawals/{withdrawal_id}",
    operation_id="backofficeWithdrawal",
    response_model=WithdrawalDetailOut,
    responses={**AUTHENTICATED, **NOT_FOUND, **VALIDATION},
    summary="One withdrawal with what a cashier decides on; the full account number is "
    "shown to roles that may see it, and each such read is audited",
)
async def get_withdrawal(
    withdrawal_id: DbId, request: Request, session: SessionDep, staff: Reader
) -> WithdrawalDetailOut:
    ctx = await withdrawal_context(request.app, session, withdrawal_id=withdrawal_id)
    full = may(staff.role, Permission.MEMBERS_SENSITIVE_READ)
    if full:
        await audit.record_sensitive_read(
            session,
            actor=actor_of(request),
            object_type=OBJECT,
            object_id=withdrawal_id,
            what="bank_account_no",
        )
    return WithdrawalDetailOut.of(ctx, full_account_no=full)


async def _claimed(
    session: AsyncSession, request: Request, w: Withdrawal, *, detail: str | None = None
) -> WithdrawalRowOut:
    """The audit row of a claim (by id or "claim next") and the row the queue shows."""
    await audit.record(
        session,
        actor=actor_of(request),
        action="withdrawal.claim",
        object_type=OBJECT,
        object_id=w.id,
        after=_state(w),
        detail=detail,
    )
    return await _row(session, w)


@router.post(
    "/withdrawals/claim-next",
    operation_id="backofficeWithdrawalClaimNext",
    response_model=WithdrawalRowOut,
    responses={**AUTHENTICATED, **errors(_404="WITHDRAWAL_QUEUE_EMPTY")},
    summary="Claim the oldest PENDING withdrawal nobody claims (two cashiers at once get two "
    "different ones)",
)
async def claim_next_withdrawal(
    request: Request, session: SessionDep, staff: Decider
) -> WithdrawalRowOut:
    w = await claim_next(session, claimant=claimant_of(staff))
    return await _claimed(session, request, w, detail="claim next")


@router.post(
    "/withdrawals/{withdrawal_id}/claim",
    operation_id="backofficeWithdrawalClaim",
    response_model=WithdrawalRowOut,
    responses={**AUTHENTICATED, **NOT_FOUND, **CLAIM_ERRORS, **VALIDATION},
    summary="Claim a PENDING withdrawal for 15 minutes (again: extend one's own claim)",
)
async def claim(
    withdrawal_id: DbId, request: Request, session: SessionDep, staff: Decider
) -> WithdrawalRowOut:
    w = await claim_withdrawal(session, withdrawal_id=withdrawal_id, claimant=claimant_of(staff))
    return await _claimed(session, request, w)


@router.post(
    "/withdrawals/{withdrawal_id}/release",
    operation_id="backofficeWithdrawalRelease",
    response_model=WithdrawalRowOut,
    responses={**AUTHENTICATED, **NOT_FOUND, **errors(_409="WITHDRAWAL_CLAIMED"), **VALIDATION},
    summary="Give up one's claim on a withdrawal",
)
async def release(
    withdrawal_id: DbId, request: Request, session: SessionDep, staff: Decider
) -> WithdrawalRowOut:
    w = await release_withdrawal(session, withdrawal_id=withdrawal_id, claimant=claimant_of(staff))
    await audit.record(
        session,
        actor=actor_of(request),
        action="withdrawal.release",
        object_type=OBJECT,
        object_id=w.id,
        after=_state(w),
    )
    return await _row(session, w)


@router.post(
    "/withdrawals/{withdrawal_id}/approve",
    operation_id="backofficeWithdrawalApprove",
    response_model=WithdrawalRowOut,
    responses={**AUTHENTICATED, **NOT_FOUND, **DECIDE_ERRORS},
    summary="Approve a claimed withdrawal: through the bank's payout API (APPROVED now, PAID "
    "when the bank confirms), or as paid by hand with its reference (PAID now)",
)
async def approve(
    withdrawal_id: DbId,
    body: ApproveIn,
    request: Request,
    background: BackgroundTasks,
    session: SessionDep,
    staff: Decider,
    idempotency_key: IdempotencyKeyHeader = None,
) -> Any:
    claimant = claimant_of(staff)

    async def action() -> WithdrawalRowOut:
        if body.mode == "manual":
            w = await approve_withdrawal(
                session,
                withdrawal_id=withdrawal_id,
                actor=domain_actor(staff),
                note=f"paid by hand, ref {body.reference}",
                claimant=claimant,
            )
        else:
            payout = await queue_payout(
                session, withdrawal_id=withdrawal_id, actor=domain_actor(staff), claimant=claimant
            )
            # After the commit: no transaction stays open while the bank is called.
            background.add_task(
                send_payout_after_commit, payout_context(request.app), payout_id=payout.id
            )
            w = await session.get_one(Withdrawal, withdrawal_id)
        await audit.record(
            session,
            actor=actor_of(request),
            action="withdrawal.approve",
            object_type=OBJECT,
            object_id=w.id,
            before={"status": "PENDING"},
            after={
                "status": str(w.status),
                "amount": recorded(w.amount, w.currency),
                "mode": body.mode,
                "reference": body.reference,
            },
        )
        return await _row(session, w)

    return await run_idempotent(
        session,
        owner=f"staff:{staff.id}",
        key=idempotency_key,
        operation="backoffice.withdrawal.approve",
        payload={"id": withdrawal_id, "mode": body.mode, "reference": body.reference},
        action=action,
    )


@router.post(
    "/withdrawals/{withdrawal_id}/reject",
    operation_id="backofficeWithdrawalReject",
    response_model=WithdrawalRowOut,
    responses={**AUTHENTICATED, **NOT_FOUND, **DECIDE_ERRORS},
    summary="Reject a claimed withdrawal with a reason: the hold is voided, the money is back",
)
async def reject(
    withdrawal_id: DbId,
    body: RejectIn,
    request: Request,
    session: SessionDep,
    staff: Decider,
    idempotency_key: IdempotencyKeyHeader = None,
) -> Any:
    async def action() -> WithdrawalRowOut:
        w = await reject_withdrawal(
            session,
            withdrawal_id=withdrawal_id,
            actor=domain_actor(staff),
            reason=body.reason,
            claimant=claimant_of(staff),
        )
        await audit.record(
            session,
            actor=actor_of(request),
            action="withdrawal.reject",
            object_type=OBJECT,
            object_id=w.id,
            before={"status": "PENDING"},
            after={
                "status": str(w.status),
                "amount": recorded(w.amount, w.currency),
                "reason": body.reason,
            },
        )
        return await _row(session, w)

    return await run_idempotent(
        session,
        owner=f"staff:{staff.id}",
        key=idempotency_key,
        operation="backoffice.withdrawal.reject",
        payload={"id": withdrawal_id, "reason": body.reason},
        action=action,
    )
