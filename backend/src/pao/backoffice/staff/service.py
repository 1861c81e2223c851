"""Staff management: the one implementation behind both the owner's routes and ``pao ops
staff``. Each function takes the acting :class:`~pao.backoffice.audit.service.Actor`, applies the
rules, ends sessions where the change calls for it, and writes the audit row; none commits.

Rules: logins are unique; nobody changes their own role, disables or re-enables themselves or
resets their own second factor (a stolen session must not be able to take an account over);
the last active owner cannot be demoted or disabled. That last rule holds under concurrency:
a change that may remove an owner first locks every active owner's row (``FOR UPDATE``, in id
order; SQLite runs one writer at a time), then counts them.
"""

from __future__ import annotations

import asyncio
import re
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from pao.backoffice.audit import service as audit
from pao.backoffice.audit.service import Actor
from pao.backoffice.exceptions import (
    StaffLastOwner,
    StaffLoginTaken,
    StaffNotFound,
    StaffSelfChange,
)
from pao.backoffice.models import Staff
from pao.backoffice.sessions import service as sessions
from pao.backoffice.staff import totp
from pao.backoffice.staff.roles import Role
from pao.core.errors import BadRequest
from pao.core.security import hash_password
from pao.kit.clock import utcnow

MIN_PASSWORD = 10
MAX_PASSWORD = 128
LOGIN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._@+-]{0,39}")
OBJECT = "staff"


def snapshot(staff: Staff) -> dict[str, Any]:
    """The audited view of a staff member: never the password hash nor the TOTP secret."""
    return {
        "login": staff.login,
        "displayName": staff.display_name,
        "role": staff.role,
        "disabled": staff.disabled_at is not None,
        "totpEnrolled": staff.enrolled,
    }


def check_password_rules(password: str) -> None:
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise BadRequest("KEY_INVALID", field="password")


def _display_name(name: str | None, login: str) -> str:
    return ((name or "").strip() or login)[:80]


async def find_by_login(session: AsyncSession, login: str) -> Staff:
    staff = (
        await session.execute(select(Staff).where(Staff.login == login.strip()))
    ).scalar_one_or_none()
    if staff is None:
        raise StaffNotFound()
    return staff


async def get_staff(session: AsyncSession, staff_id: int) -> Staff:
    staff = await session.get(Staff, staff_id)
    if staff is None:
        raise StaffNotFound()
    return staff


async def list_staff(session: AsyncSession) -> list[Staff]:
    return list((await session.execute(select(Staff).order_by(Staff.id))).scalars().all())


async def create_staff(
    session: AsyncSession,
    *,
    actor: Actor,
    login: str,
    password: str,
    role: Role,
    display_name: str | None = None,
    totp_secret: str | None = None,
) -> tuple[Staff, totp.Enrolment]:
    """A new staff member with a pending TOTP secret (``totp_secret``, or a new one): the
    enrolment is shown once to whoever creates the account, and again after the password at
    the first login, which confirms it with a first code."""
    login = login.strip()
    if not LOGIN.fullmatch(login):
        raise BadRequest("KEY_INVALID", field="login")
    check_password_rules(password)
    secret = (totp_secret or "").strip().upper().replace(" ", "") or totp.new_secret()
    if not totp.is_valid_secret(secret):
        raise BadRequest("KEY_INVALID", field="totpSecret")
    if (await session.execute(select(Staff.id).where(Staff.login == login))).first():
        raise StaffLoginTaken()
    staff = Staff(
        login=login,
        display_name=_display_name(display_name, login),
        role=Role(role).value,
        password_hash=await asyncio.to_thread(hash_password, password),
        totp_secret=secret,
        created_at=utcnow(),
    )
    session.add(staff)
    await session.flush()
    await audit.record(
        session,
        actor=actor,
        action="staff.create",
        object_type=OBJECT,
        object_id=staff.id,
        after=snapshot(staff),
    )
    return staff, totp.enrolment(secret=secret, account=staff.login)


async def _lock_active_owners(session: AsyncSession) -> list[int]:
    rows = await session.execute(
        select(Staff.id)
        .where(Staff.role == Role.OWNER, Staff.disabled_at.is_(None))
        .order_by(Staff.id)
        .with_for_update()
    )
    return [int(row[0]) for row in rows]


async def update_staff(
    session: AsyncSession,
    *,
    actor: Actor,
    staff_id: int,
    role: Role | None = None,
    display_name: str | None = None,
    disabled: bool | None = None,
) -> Staff:
    """Change a staff member's role, name, or disabled state (disabling ends their sessions)."""
    target = await get_staff(session, staff_id)
    role_changes = role is not None and role != target.role
    state_changes = disabled is not None and disabled != (target.disabled_at is not None)
    if actor.staff_id == target.id and (role_changes or state_changes):
        raise StaffSelfChange()
    if target.role == Role.OWNER and target.active and (role_changes or disabled):
        owners = await _lock_active_owners(session)
        # Read the target again under the lock: a concurrent change may have committed.
        await session.refresh(target)
        if target.id in owners and len(owners) <= 1:
            raise StaffLastOwner()
    before = snapshot(target)
    if role is not None:
        target.role = Role(role).value
    if display_name is not None:
        target.display_name = _display_name(display_name, target.login)
    if disabled is not None:
        if disabled and target.disabled_at is None:
            target.disabled_at = utcnow()
            await sessions.end_all(session, staff_id=target.id)
        elif not disabled:
            target.disabled_at = None
    await session.flush()
    old, new = audit.changed(before, snapshot(target))
    await audit.record(
        session,
        actor=actor,
        action="staff.update",
        object_type=OBJECT,
        object_id=target.id,
        before=old,
        after=new,
    )
    return target


async def reset_two_factor(session: AsyncSession, *, actor: Actor, staff_id: int) -> Staff:
    """Forget the staff member's authenticator and end their sessions; the next login shows a
    new enrolment after the password (lost phone)."""
    target = await get_staff(session, staff_id)
    if actor.staff_id == target.id:
        raise StaffSelfChange()
    before = snapshot(target)
    target.totp_secret = None
    target.totp_enrolled_at = None
    target.totp_last_step = None
    ended = await sessions.end_all(session, staff_id=target.id)
    await session.flush()
    await audit.record(
        session,
        actor=actor,
        action="staff.reset_2fa",
        object_type=OBJECT,
        object_id=target.id,
        before={"totpEnrolled": before["totpEnrolled"]},
        after={"totpEnrolled": False},
        detail=f"{ended} sessions ended",
    )
    return target


async def reset_password(
    session: AsyncSession, *, actor: Actor, staff_id: int, password: str
) -> Staff:
    """Set a new password chosen by the owner and end the staff member's sessions."""
    target = await get_staff(session, staff_id)
    if actor.staff_id == target.id:
        raise StaffSelfChange()
    check_password_rules(password)
    target.password_hash = await asyncio.to_thread(hash_password, password)
    ended = await sessions.end_all(session, staff_id=target.id)
    await session.flush()
    await audit.record(
        session,
        actor=actor,
        action="staff.reset_password",
        object_type=OBJECT,
        object_id=target.id,
        detail=f"{ended} sessions ended",
    )
    return target
