"""Staff sessions: opened only after the second factor, ended by age, logout, the staff
member's own choice, a 2FA or password reset, disabling the account, or too many wrong
passwords at its lock screen.

A session is live while it is not revoked, younger than :data:`ABSOLUTE_LIFETIME` and its staff
member is not disabled. A live session is *usable* while it is not locked: unused for the idle
timeout (``PAO_STAFF_IDLE_MINUTES``) it counts as locked at once, and the first call that finds
it so records the lock (:mod:`pao.backoffice.sessions.lock`); the password alone unlocks it,
while it lives. Using it moves ``last_seen_at`` (at most every :data:`TOUCH_EVERY`, so a busy
page does not write on every call).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from pao.backoffice.exceptions import StaffSessionNotFound
from pao.backoffice.models import Staff, StaffLoginChallenge, StaffSession
from pao.core.security import new_token, token_digest
from pao.kit.clock import utcnow

ABSOLUTE_LIFETIME = timedelta(hours=12)
TOUCH_EVERY = timedelta(seconds=30)


def is_live(row: StaffSession, *, now: datetime) -> bool:
    """Not revoked and not past its absolute end: usable, or locked and waiting for the
    password."""
    return row.revoked_at is None and row.expires_at > now


def is_locked(row: StaffSession, *, idle: timedelta, now: datetime) -> bool:
    """Locked, or unused for ``idle`` (locked from then on, recorded or not yet)."""
    return row.locked_at is not None or row.last_seen_at + idle <= now


async def open_session(
    session: AsyncSession, *, staff: Staff, ip: str | None, user_agent: str | None
) -> tuple[str, StaffSession]:
    """A new session for ``staff``; returns the bearer token (only its digest is stored)."""
    token = new_token()
    now = utcnow()
    row = StaffSession(
        staff_id=staff.id,
        token_digest=token_digest(token),
        created_at=now,
        last_seen_at=now,
        expires_at=now + ABSOLUTE_LIFETIME,
        ip=ip,
        user_agent=(user_agent or "")[:300] or None,
    )
    session.add(row)
    await session.flush()
    return token, row


_BY_DIGEST = select(StaffSession, Staff).join(Staff, Staff.id == StaffSession.staff_id)


async def find(session: AsyncSession, token: str | None) -> tuple[StaffSession, Staff] | None:
    """The live session of ``token`` and its (active) staff member, locked or not, or
    ``None``."""
    if not token:
        return None
    found = (
        await session.execute(_BY_DIGEST.where(StaffSession.token_digest == token_digest(token)))
    ).first()
    if found is None:
        return None
    row, staff = found[0], found[1]
    if not is_live(row, now=utcnow()) or not staff.active:
        return None
    return row, staff


def mark_used(row: StaffSession) -> None:
    """The session was used now (written at most every :data:`TOUCH_EVERY`)."""
    now = utcnow()
    if now - row.last_seen_at >= TOUCH_EVERY:
        row.last_seen_at = now


async def resolve(
    session: AsyncSession, token: str | None, *, idle: timedelta, touch: bool = True
) -> tuple[StaffSession, Staff] | None:
    """The usable (live, unlocked) session of ``token`` and its staff member, or ``None``: a
    locked session opens no socket and no chat, whatever the caller."""
    found = await find(session, token)
    if found is None:
        return None
    row, staff = found
    if is_locked(row, idle=idle, now=utcnow()):
        return None
    if touch:
        mark_used(row)
    return row, staff


async def own_sessions(session: AsyncSession, *, staff: Staff) -> list[StaffSession]:
    """The staff member's live sessions, newest first."""
    rows = await session.execute(
        select(StaffSession)
        .where(StaffSession.staff_id == staff.id, StaffSession.revoked_at.is_(None))
        .order_by(StaffSession.id.desc())
    )
    now = utcnow()
    return [row for row in rows.scalars() if is_live(row, now=now)]


async def end_own_session(session: AsyncSession, *, staff: Staff, session_id: int) -> StaffSession:
    """End one of the staff member's own live sessions (404 for anyone else's)."""
    row = await session.get(StaffSession, session_id)
    if row is None or row.staff_id != staff.id or not is_live(row, now=utcnow()):
        raise StaffSessionNotFound()
    row.revoked_at = utcnow()
    await session.flush()
    return row


async def end_all(session: AsyncSession, *, staff_id: int) -> int:
    """Revoke every open session of a staff member, and void every login ticket they hold
    (a password accepted, the code not yet given): a credential change (password reset, lost
    authenticator, disabled) must not let a login begun before it finish after it. Returns how
    many sessions were open."""
    now = utcnow()
    # Marked used: the code step's own conditional update (used_at IS NULL) then finds nothing,
    # also when it was already past its checks as this commits.
    await session.execute(
        update(StaffLoginChallenge)
        .where(StaffLoginChallenge.staff_id == staff_id, StaffLoginChallenge.used_at.is_(None))
        .values(used_at=now)
        .execution_options(synchronize_session=False)
    )
    result = await session.execute(
        update(StaffSession)
        .where(StaffSession.staff_id == staff_id, StaffSession.revoked_at.is_(None))
        .values(revoked_at=now)
        .execution_options(synchronize_session="fetch")
    )
    return int(getattr(result, "rowcount", 0) or 0)
