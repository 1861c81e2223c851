"""The operator's actions on a member's account (``members.manage``): suspend, reactivate, force
logout, one-time password reset, bank account correction. Each calls
:mod:`pao.identity.admin` (``pao ops member`` calls the same) and writes one audit row with
the values before and after; never a password."""

from __future__ import annotations

from typing import Annotated

from fastapi import BackgroundTasks, Depends, Request

from pao.backoffice import audit
from pao.backoffice.deps import actor_of, require
from pao.backoffice.members.schemas import (
    MemberBankCorrectionIn,
    MemberBankOut,
    MemberLogoutOut,
    MemberPasswordResetOut,
    MemberReasonIn,
    MemberStatusOut,
)
from pao.backoffice.models import Staff
from pao.backoffice.roles import Permission
from pao.backoffice.routing import AUTHENTICATED, backoffice_router
from pao.core.openapi import VALIDATION, errors
from pao.core.params import DbId
from pao.core.settings import Settings
from pao.core.uow import SessionDep
from pao.identity import admin, changes
from pao.identity.models import Member, MemberStatus
from pao.identity.sms import SmsSenderDep

router = backoffice_router()

Manager = Annotated[Staff, Depends(require(Permission.MEMBERS_MANAGE))]
BASE = {**AUTHENTICATED, **errors(_404="NO_USER"), **VALIDATION}
STATUS_ERRORS = {**BASE, **errors(_409="MEMBER_STATUS_UNCHANGED", _422="KEY_MISSING")}


def origin_of(request: Request, staff: Staff) -> changes.Origin:
    """The member-changes origin of a staff action: the staff member's IP, and who it was in
    place of the user agent (the member's changes tab shows it)."""
    return changes.Origin(ip=actor_of(request).ip, user_agent=f"back office: {staff.login}")


async def _status_change(
    request: Request, session: SessionDep, staff: Staff, member_id: int, reason: str, *, to: str
) -> MemberStatusOut:
    actor = actor_of(request)
    label = f"staff:{staff.login}"
    if to == MemberStatus.INACTIVE:
        member = await admin.suspend(session, member_id=member_id, actor=label, reason=reason)
        action = "member.suspend"
    else:
        member = await admin.reactivate(session, member_id=member_id, actor=label, reason=reason)
        action = "member.reactivate"
    before = MemberStatus.ACTIVE if to == MemberStatus.INACTIVE else MemberStatus.INACTIVE
    await audit.record(
        session,
        actor=actor,
        action=action,
        object_type="member",
        object_id=member.id,
        before={"status": str(before)},
        after={"status": str(member.status)},
        detail=admin.required_reason(reason),
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
    return await _status_change(
        request, session, staff, member_id, body.reason, to=MemberStatus.INACTIVE
    )


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
    return await _status_change(
        request, session, staff, member_id, body.reason, to=MemberStatus.ACTIVE
    )


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
    reason = admin.required_reason(body.reason)
    ended = await admin.force_logout(session, member_id=member_id)
    await audit.record(
        session,
        actor=actor_of(request),
        action="member.logout",
        object_type="member",
        object_id=member_id,
        after={"sessionsEnded": ended},
        detail=reason,
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
    reason = admin.required_reason(body.reason)
    reset = await admin.reset_password(
        session, member_id=member_id, origin=origin_of(request, staff)
    )
    await audit.record(
        session,
        actor=actor_of(request),
        action="member.password_reset",
        object_type="member",
        object_id=member_id,
        # The event only: the password is never written anywhere but as its hash.
        after={"passwordReset": True, "sessionsEnded": reset.sessions_ended},
        detail=reason,
    )
    return MemberPasswordResetOut(
        temporary_password=reset.temporary_password, sessions_ended=reset.sessions_ended
    )


def _bank_view(member: Member) -> dict[str, str]:
    bank = MemberBankOut.of(member)
    return {
        "bankCode": bank.bank_code,
        "accountName": bank.account_name,
        "accountNo": bank.account_no_masked,
    }


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
    member = await admin.get_member(session, member_id)
    before = _bank_view(member)
    recorded = await admin.correct_bank_account(
        session,
        member_id=member_id,
        origin=origin_of(request, staff),
        bank_code=body.bank_code,
        account_name=body.account_name,
        account_no=body.account_no,
        reason=body.reason,
    )
    old, new = audit.changed(before, _bank_view(member))
    await audit.record(
        session,
        actor=actor_of(request),
        action="member.bank_correct",
        object_type="member",
        object_id=member_id,
        before=old,
        after=new,
        detail=admin.required_reason(body.reason),
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
