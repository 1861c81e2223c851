"""What the operator does to a member's account: suspend, reactivate, end every session, set a
one-time password, correct the bank account. The back office and ``pao ops`` call these (one
implementation each); the caller writes its own audit row.

Every action first locks the member's row (``FOR UPDATE``; SQLite's ``BEGIN IMMEDIATE`` does
the same) and reads it again, so two staff acting at once are serialised: the second suspend
finds the member suspended (MEMBER_STATUS_UNCHANGED), the second password reset replaces the
first one's password whole.

A suspended member (``MemberStatus.INACTIVE``) cannot log in (INACTIVE_USER, in
:func:`pao.identity.service.login`) and every token they hold stops working at once: the
sessions are revoked here, and :func:`pao.identity.deps.require_active_member` refuses the
status on every call besides.

A bank correction is the member's own bank change made by staff: the same checks
(:func:`pao.identity.service.check_bank_account`, the account not another member's), the same
:class:`~pao.identity.models.MemberChange` rows, so the payouts job holds the member's
withdrawals for a cashier for ``withdrawBankChangeHoldHours`` exactly as after a change the
member makes (:func:`pao.payments.payouts.service.held_for_bank_change`).
"""

from __future__ import annotations

import asyncio
import secrets
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from pao.core.security import hash_password
from pao.identity import sessions
from pao.identity.changes import Origin, record_change
from pao.identity.exceptions import (
    ExistingBank,
    KeyMissing,
    MemberStatusUnchanged,
    UnknownMember,
)
from pao.identity.models import (
    MEMBER_TRANSITIONS,
    Member,
    MemberChange,
    MemberChangeKind,
    MemberStatus,
)
from pao.identity.service import (
    _changes_of,
    _snapshot,
    check_bank_account,
    ensure_bank_free,
)
from pao.kit.states import transition

REASON_MAX = 500
# No 0/O, 1/l/I: the member types it from a phone call or a chat message.
TEMPORARY_ALPHABET = "abcdefghjkmnpqrstuvwxyzACDEFGHJKLMNPQRTUVWXY346789"
TEMPORARY_LENGTH = 10


def required_reason(reason: str) -> str:
    """The reason of an operator action: not blank (KEY_MISSING reason), at most 500."""
    reason = reason.strip()
    if not reason:
        raise KeyMissing(field="reason")
    return reason[:REASON_MAX]


async def get_member(session: AsyncSession, member_id: int) -> Member:
    """The member, or 404 NO_USER."""
    member = await session.get(Member, member_id)
    if member is None:
        raise UnknownMember()
    return member


async def lock_member(session: AsyncSession, member_id: int) -> Member:
    """The member's row, locked for this transaction and read afresh (NO_USER if none)."""
    member = (
        await session.execute(
            select(Member)
            .where(Member.id == member_id)
            .with_for_update()
            .execution_options(populate_existing=True)
        )
    ).scalar_one_or_none()
    if member is None:
        raise UnknownMember()
    return member


async def _set_status(
    session: AsyncSession, *, member_id: int, status: MemberStatus, actor: str, reason: str
) -> Member:
    reason = required_reason(reason)
    member = await lock_member(session, member_id)
    if member.status == status:
        raise MemberStatusUnchanged()
    await transition(session, member, status, MEMBER_TRANSITIONS, actor=actor, reason=reason)
    await session.flush()
    return member


async def suspend(session: AsyncSession, *, member_id: int, actor: str, reason: str) -> Member:
    """ACTIVE → INACTIVE: login refused from now on, every session ended."""
    member = await _set_status(
        session, member_id=member_id, status=MemberStatus.INACTIVE, actor=actor, reason=reason
    )
    await sessions.revoke_all(session, member_id=member.id)
    return member


async def reactivate(session: AsyncSession, *, member_id: int, actor: str, reason: str) -> Member:
    """INACTIVE → ACTIVE: the member may log in again (old sessions stay ended)."""
    return await _set_status(
        session, member_id=member_id, status=MemberStatus.ACTIVE, actor=actor, reason=reason
    )


async def force_logout(session: AsyncSession, *, member_id: int) -> int:
    """End every live session of the member; answers how many there were."""
    member = await lock_member(session, member_id)
    return await sessions.revoke_all(session, member_id=member.id)


def temporary_password() -> str:
    return "".join(secrets.choice(TEMPORARY_ALPHABET) for _ in range(TEMPORARY_LENGTH))


@dataclass(frozen=True)
class PasswordReset:
    member: Member
    temporary_password: str
    sessions_ended: int


async def reset_password(session: AsyncSession, *, member_id: int, origin: Origin) -> PasswordReset:
    """Replace the member's password with a random one (argon2id-hashed; the plain text is
    answered once and kept nowhere), record the change like the member's own, and end every
    session, so whoever held one must log in with the new password."""
    member = await lock_member(session, member_id)
    password = temporary_password()
    member.password_hash = await asyncio.to_thread(hash_password, password)
    record_change(session, member_id=member.id, kind=MemberChangeKind.PASSWORD, origin=origin)
    ended = await sessions.revoke_all(session, member_id=member.id)
    await session.flush()
    return PasswordReset(member=member, temporary_password=password, sessions_ended=ended)


async def correct_bank_account(
    session: AsyncSession,
    *,
    member_id: int,
    origin: Origin,
    bank_code: str,
    account_name: str,
    account_no: str,
    reason: str,
) -> list[MemberChange]:
    """Set the member's bank account with the registration rules (INVALID_BANK,
    BANK_ACCOUNT_NAME_ENG, EXISTING_BANK), recording each change like the member's own (which
    starts the withdrawal hold); answers the changes (none if nothing differs)."""
    required_reason(reason)
    account = check_bank_account(
        bank_code=bank_code, account_name=account_name, account_no=account_no
    )
    member = await lock_member(session, member_id)
    await ensure_bank_free(
        session,
        bank_code=account.bank.code,
        account_no=account.account_no,
        except_member_id=member.id,
    )
    before = _snapshot(member)
    try:
        async with session.begin_nested():
            member.bank_code = account.bank.code
            member.bank_account_name = account.account_name
            member.bank_account_no = account.account_no
            await session.flush()
    except IntegrityError:  # taken by a concurrent transaction meanwhile
        raise ExistingBank() from None
    changes = _changes_of(session, member, origin, before)
    await session.flush()
    return changes
