"""The operator's actions on a member's account (``members.manage``): suspend, reactivate, force
logout, one-time password reset, bank account correction. Each calls
:mod:`pao.identity.admin` (``pao ops member`` calls the same) and writes one audit row with
the values before and after; never a password."""

from __future__ import annotations

from typing import Annotated

from fastapi import BackgroundTasks, Depends, Request

from pao.backoffice.deps import actor_of, require
from pao.backoffice.members import service
from pao.backoffice.members.schemas import (
    MemberBankCorrectionIn,
    MemberBankOut,
    MemberLogoutOut,
    MemberPasswordResetOut,
    MemberReasonIn,
    MemberStatusOut,
)
from pao.backoffice.models import Staff
from pao.backoffice.routing import AUTHENTICATED, backoffice_router
from pao.backoffice.staff.roles import Permission
from pao.core.openapi import VALIDATION, errors
from pao.core.params import DbId
from pao.core.settings import Settings
from pao.core.uow import SessionDep
from pao.identity import changes
from pao.identity.models import MemberStatus
from pao.identity.sms import SmsSenderDep

router = backoffice_router()

Manager = Annotated[Staff, Depends(require(Permission.MEMBERS_MANAGE))]
BASE = {**AUTHENTICATED, **errors(_404="NO_USER"), **VALIDATION}
STATUS_ERRORS = {**BASE, **errors(_409="MEMBER_STATUS_UNCHANGED", _422="KEY_MISSING")}


async def _status_change(
    request: Request, session: SessionDep, member_id: int, reason: str, *, to: MemberStatus
) -> MemberStatusOut:
    member = await service.set_status(
        session, actor=actor_of(request), member_id=member_id, status=to, reason=reason
    )
    return MemberStatusOut(id=member.id, status=member.status)


@router.post(
    "/members/{member_id}/suspend",
    operation_id="backofficeMemberSuspend",
    response_model=MemberStatusOut,
    responses=STATUS_ERRORS,
    summary="Suspend the member: login refused (INACTIVE_USER) and every session ended",
)
async def suspend(
    member_id: DbId, body: MemberReasonIn, request: Request, session: SessionDep, staff: Manager
) -> MemberStatusOut:
    return await _status_change(request, session, member_id, body.reason, to=MemberStatus.INACTIVE)


@router.post(
    "/members/{member_id}/reactivate",
    operation_id="backofficeMemberReactivate",
    response_model=MemberStatusOut,
    responses=STATUS_ERRORS,
    summary="Reactivate a suspended member: they may log in again",
)
async def reactivate(
    member_id: DbId, body: MemberReasonIn, request: Request, session: SessionDep, staff: Manager
) -> MemberStatusOut:
    return await _status_change(request, session, member_id, body.reason, to=MemberStatus.ACTIVE)


@router.post(
    "/members/{member_id}/logout",
    operation_id="backofficeMemberLogout",
    response_model=MemberLogoutOut,
    responses={**BASE, **errors(_422="KEY_MISSING")},
    summary="End every session of the member (they log in again)",
)
async def logout(
    member_id: DbId, body: MemberReasonIn, request: Request, session: SessionDep, staff: Manager
) -> MemberLogoutOut:
    ended = await service.force_logout(
        session, actor=actor_of(request), member_id=member_id, reason=body.reason
    )
    return MemberLogoutOut(sessions_ended=ended)


@router.post(
    "/members/{member_id}/password-reset",
    operation_id="backofficeMemberPasswordReset",
    response_model=MemberPasswordResetOut,
    responses={**BASE, **errors(_422="KEY_MISSING")},
    summary="Give the member a one-time temporary password (answered once, argon2id-hashed) "
    "and end every session; the old password stops working",
)
async def password_reset(
    member_id: DbId, body: MemberReasonIn, request: Request, session: SessionDep, staff: Manager
) -> MemberPasswordResetOut:
    reset = await service.reset_password(
        session, actor=actor_of(request), member_id=member_id, reason=body.reason
    )
    return MemberPasswordResetOut(
        temporary_password=reset.temporary_password, sessions_ended=reset.sessions_ended
    )


@router.put(
    "/members/{member_id}/bank-account",
    operation_id="backofficeMemberBankCorrect",
    response_model=MemberBankOut,
    responses={
        **BASE,
        **errors(
            _400="INVALID_BANK | BANK_ACCOUNT_NAME_ENG", _409="EXISTING_BANK", _422="KEY_MISSING"
        ),
    },
    summary="Correct the member's bank account: the registration rules, recorded as a bank "
    "change like the member's own (withdrawals held for bankChangeHoldHours; SMS to the member)",
)
async def correct_bank(
    member_id: DbId,
    body: MemberBankCorrectionIn,
    request: Request,
    session: SessionDep,
    staff: Manager,
    sms: SmsSenderDep,
    background: BackgroundTasks,
) -> MemberBankOut:
    member, recorded = await service.correct_bank(
        session,
        actor=actor_of(request),
        member_id=member_id,
        bank_code=body.bank_code,
        account_name=body.account_name,
        account_no=body.account_no,
        reason=body.reason,
    )
    if changes.touches_bank(recorded):
        settings: Settings = request.app.state.settings
        text = changes.bank_change_text(
            sender=settings.sms_sender,
            bank_code=member.bank_code,
            account_no=member.bank_account_no,
        )
        background.add_task(changes.notify_bank_change, sms, phone=member.phone, text=text)
    return MemberBankOut.of(member)
