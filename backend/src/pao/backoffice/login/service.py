"""Staff login in two steps: the password, then a TOTP code; no session exists before both.

1. :func:`check_password` — a right password for an active staff member opens a single-use
   login ticket (five minutes). A staff member without a confirmed authenticator gets the
   enrolment with it (the pending secret, its URI and QR; a new secret after a 2FA reset).
2. :func:`confirm_code` — the ticket and a code of the current step (±1). The code's step
   must be later than the last step accepted for this staff member (one atomic UPDATE), so a
   code logs in once. The first code confirms the enrolment.

Both steps go through the staff :class:`~pao.core.login_throttle.LoginThrottle` (account =
login): a guesser is stopped per address and per account without locking the staff member out
of their own known addresses. Only a complete login clears the address's failures, so a
known password does not buy unlimited code guesses. Every attempt is audited.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from pao.backoffice.audit import service as audit
from pao.backoffice.audit.service import Actor
from pao.backoffice.exceptions import (
    StaffCodeInvalid,
    StaffCodeUsed,
    StaffDisabled,
    StaffLoginExpired,
    StaffWrongCredential,
)
from pao.backoffice.models import Staff, StaffLoginChallenge, StaffSession
from pao.backoffice.sessions import service as sessions
from pao.backoffice.staff import totp
from pao.core.login_throttle import LoginLimits, LoginThrottle
from pao.core.ratelimit import RateLimiter
from pao.core.security import hash_password, needs_rehash, new_token, token_digest, verify_password
from pao.kit.clock import utcnow

CHALLENGE_LIFETIME = timedelta(minutes=5)
STAFF_LIMITS = LoginLimits()
OBJECT = "staff"


def staff_throttle(limiter: RateLimiter) -> LoginThrottle:
    return LoginThrottle(limiter, scope="staff", limits=STAFF_LIMITS)


@dataclass(frozen=True)
class PasswordAccepted:
    ticket: str
    expires_at: datetime
    staff: Staff
    # Present when the staff member must enrol an authenticator before the code step.
    enrolment: totp.Enrolment | None


async def _failed(
    session: AsyncSession,
    throttle: LoginThrottle,
    *,
    login: str,
    ip: str,
    staff: Staff | None,
    why: str,
) -> None:
    await throttle.failed(account=login, ip=ip)
    await audit.record(
        session,
        actor=Actor.anonymous(f"login:{login}", ip),
        action="auth.login_failed",
        object_type=OBJECT,
        object_id=staff.id if staff is not None else None,
        detail=why,
    )


async def check_password(
    session: AsyncSession, *, throttle: LoginThrottle, login: str, password: str, ip: str
) -> PasswordAccepted:
    login = login.strip()
    await throttle.check(account=login, ip=ip)
    staff = (await session.execute(select(Staff).where(Staff.login == login))).scalar_one_or_none()
    # An unknown login still costs one argon2 verification (same timing).
    ok = await asyncio.to_thread(
        verify_password, staff.password_hash if staff is not None else None, password
    )
    if staff is None or not ok:
        await _failed(session, throttle, login=login, ip=ip, staff=staff, why="password")
        raise StaffWrongCredential()
    if not staff.active:
        raise StaffDisabled()
    await throttle.passed(account=login, ip=ip)
    if needs_rehash(staff.password_hash):
        staff.password_hash = await asyncio.to_thread(hash_password, password)
    enrolment = None
    if not staff.enrolled:
        if staff.totp_secret is None:
            staff.totp_secret = totp.new_secret()
        enrolment = totp.enrolment(secret=staff.totp_secret, account=staff.login)
    ticket = new_token()
    now = utcnow()
    challenge = StaffLoginChallenge(
        staff_id=staff.id,
        token_digest=token_digest(ticket),
        created_at=now,
        expires_at=now + CHALLENGE_LIFETIME,
    )
    session.add(challenge)
    await session.flush()
    await audit.record(
        session,
        actor=Actor.anonymous(f"login:{login}", ip),
        action="auth.password_accepted",
        object_type=OBJECT,
        object_id=staff.id,
        detail="enrolment" if enrolment is not None else "code",
    )
    return PasswordAccepted(
        ticket=ticket, expires_at=challenge.expires_at, staff=staff, enrolment=enrolment
    )


async def confirm_code(
    session: AsyncSession,
    *,
    throttle: LoginThrottle,
    ticket: str,
    code: str,
    ip: str,
    user_agent: str | None,
) -> tuple[str, StaffSession, Staff]:
    """Check the code of a login ticket and open the session; returns its bearer token."""
    now = utcnow()
    challenge = (
        await session.execute(
            select(StaffLoginChallenge).where(
                StaffLoginChallenge.token_digest == token_digest(ticket)
            )
        )
    ).scalar_one_or_none()
    if challenge is None or challenge.used_at is not None or challenge.expires_at <= now:
        raise StaffLoginExpired()
    staff = await session.get(Staff, challenge.staff_id)
    if staff is None or staff.totp_secret is None:
        raise StaffLoginExpired()
    if not staff.active:
        raise StaffDisabled()
    await throttle.check(account=staff.login, ip=ip)
    step = totp.matching_step(staff.totp_secret, code, at=now)
    if step is None:
        await _failed(session, throttle, login=staff.login, ip=ip, staff=staff, why="code")
        raise StaffCodeInvalid()
    # One statement decides, so two requests with the same code cannot both pass.
    accepted = await session.execute(
        update(Staff)
        .where(
            Staff.id == staff.id,
            or_(Staff.totp_last_step.is_(None), Staff.totp_last_step < step),
        )
        .values(totp_last_step=step)
        .execution_options(synchronize_session=False)
    )
    if not getattr(accepted, "rowcount", 0):
        await _failed(session, throttle, login=staff.login, ip=ip, staff=staff, why="code reused")
        raise StaffCodeUsed()
    used = await session.execute(
        update(StaffLoginChallenge)
        .where(StaffLoginChallenge.id == challenge.id, StaffLoginChallenge.used_at.is_(None))
        .values(used_at=now)
        .execution_options(synchronize_session=False)
    )
    if not getattr(used, "rowcount", 0):
        raise StaffLoginExpired()
    await session.refresh(staff)
    actor = Actor.of_staff(staff, ip)
    if staff.totp_enrolled_at is None:
        staff.totp_enrolled_at = now
        await audit.record(
            session,
            actor=actor,
            action="staff.totp_enrolled",
            object_type=OBJECT,
            object_id=staff.id,
        )
    staff.last_login_at = now
    token, row = await sessions.open_session(session, staff=staff, ip=ip, user_agent=user_agent)
    await throttle.succeeded(account=staff.login, ip=ip)
    await audit.record(
        session,
        actor=actor,
        action="auth.login",
        object_type="staff_session",
        object_id=row.id,
    )
    return token, row, staff


async def log_out(session: AsyncSession, *, actor: Actor, row: StaffSession) -> None:
    row.revoked_at = utcnow()
    await session.flush()
    await audit.record(
        session, actor=actor, action="auth.logout", object_type="staff_session", object_id=row.id
    )
