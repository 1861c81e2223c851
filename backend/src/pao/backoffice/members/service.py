"""The operator's member actions with their audit rows: what the back-office routes and
``pao ops member`` both call (one implementation each). The rules are the identity domain's
(:mod:`pao.identity.admin`); this adds who did it, before and after, and the reason. No
password is ever written to the audit log."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from pao.backoffice.audit import service as audit
from pao.backoffice.audit.service import Actor
from pao.identity import admin, changes
from pao.identity.models import Member, MemberChange, MemberStatus


def origin_of(actor: Actor) -> changes.Origin:
    """The member-changes origin of a staff action: the staff member's IP, and who it was in
    place of the user agent (the member's changes tab shows it)."""
    return changes.Origin(ip=actor.ip, user_agent=f"back office: {actor.label}")


async def set_status(
    session: AsyncSession, *, actor: Actor, member_id: int, status: MemberStatus, reason: str
) -> Member:
    """Suspend (INACTIVE) or reactivate (ACTIVE) the member, audited."""
    reason = admin.required_reason(reason)
    if status == MemberStatus.INACTIVE:
        member = await admin.suspend(session, member_id=member_id, actor=actor.label, reason=reason)
        action, before = "member.suspend", MemberStatus.ACTIVE
    else:
        member = await admin.reactivate(
            session, member_id=member_id, actor=actor.label, reason=reason
        )
        action, before = "member.reactivate", MemberStatus.INACTIVE
    await audit.record(
        session,
        actor=actor,
        action=action,
        object_type="member",
        object_id=member.id,
        before={"status": str(before)},
        after={"status": str(member.status)},
        detail=reason,
    )
    return member


async def force_logout(session: AsyncSession, *, actor: Actor, member_id: int, reason: str) -> int:
    reason = admin.required_reason(reason)
    ended = await admin.force_logout(session, member_id=member_id)
    await audit.record(
        session,
        actor=actor,
        action="member.logout",
        object_type="member",
        object_id=member_id,
        after={"sessionsEnded": ended},
        detail=reason,
    )
    return ended


async def reset_password(
    session: AsyncSession, *, actor: Actor, member_id: int, reason: str
) -> admin.PasswordReset:
    reason = admin.required_reason(reason)
    reset = await admin.reset_password(session, member_id=member_id, origin=origin_of(actor))
    await audit.record(
        session,
        actor=actor,
        action="member.password_reset",
        object_type="member",
        object_id=member_id,
        # The event only: the password is never written anywhere but as its hash.
        after={"passwordReset": True, "sessionsEnded": reset.sessions_ended},
        detail=reason,
    )
    return reset


def bank_view(member: Member) -> dict[str, str]:
    """The bank account as the audit log keeps it: the number masked."""
    return {
        "bankCode": member.bank_code,
        "accountName": member.bank_account_name,
        "accountNo": changes.mask_account_no(member.bank_account_no),
    }


async def correct_bank(
    session: AsyncSession,
    *,
    actor: Actor,
    member_id: int,
    bank_code: str,
    account_name: str,
    account_no: str,
    reason: str,
) -> tuple[Member, list[MemberChange]]:
    reason = admin.required_reason(reason)
    member = await admin.get_member(session, member_id)
    before = bank_view(member)
    recorded = await admin.correct_bank_account(
        session,
        member_id=member_id,
        origin=origin_of(actor),
        bank_code=bank_code,
        account_name=account_name,
        account_no=account_no,
        reason=reason,
    )
    old, new = audit.changed(before, bank_view(member))
    await audit.record(
        session,
        actor=actor,
        action="member.bank_correct",
        object_type="member",
        object_id=member_id,
        before=old,
        after=new,
        detail=reason,
    )
    return member, recorded
