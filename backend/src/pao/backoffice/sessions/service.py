"""Staff sessions: opened only after the second factor, ended by idle time, age, logout, the
staff member's own choice, a 2FA or password reset, or disabling the account.

A session is live while it is not revoked, younger than :data:`ABSOLUTE_LIFETIME`, used within
the idle timeout (``PAO_STAFF_IDLE_MINUTES``) and its staff member is not disabled. Using it
moves ``last_seen_at`` (at most every :data:`TOUCH_EVERY`, so a busy page does not write on
every call).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from pao.backoffice.exceptions import StaffSessionNotFound
from pao.backoffice.models import Staff, StaffSession
from pao.core.security import new_token, token_digest
from pao.kit.clock import utcnow

ABSOLUTE_LIFETIME = timedelta(hours=12)
TOUCH_EVERY = timedelta(seconds=30)


def is_live(row: StaffSession, *, idle: timedelta, now: datetime) -> bool:
    return row.revoked_at is None and row.expires_at > now and row.last_seen_at + idle > now


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


async def resolve(
    session: AsyncSession, token: str | None, *, idle: timedelta, touch: bool = True
) -> tuple[StaffSession, Staff] | None:
    """The live session of ``token`` and its (active) staff member, or ``None``."""
    if not token:
        return None
    found = (
        await session.execute(_BY_DIGEST.where(StaffSession.token_digest == token_digest(token)))
    ).first()
    if found is None:
        return None
    row, staff = found[0], found[1]
    now = utcnow()
    if not is_live(row, idle=idle, now=now) or not staff.active:
        return None
    if touch and now - row.last_seen_at >= TOUCH_EVERY:
        row.last_seen_at = now
    return row, staff


async def own_sessions(
    session: AsyncSession, *, staff: Staff, idle: timedelta
) -> list[StaffSession]:
    """The staff member's live sessions, newest first."""
    rows = await session.execute(
        select(StaffSession)
        .where(StaffSession.staff_id == staff.id, StaffSession.revoked_at.is_(None))
        .order_by(StaffSession.id.desc())
    )
    now = utcnow()
    return [row for row in rows.scalars() if is_live(row, idle=idle, now=now)]


async def end_own_session(
    session: AsyncSession, *, staff: Staff, session_id: int, idle: timedelta
) -> StaffSession:
    """End one of the staff member's own live sessions (404 for anyone else's)."""
    row = await session.get(StaffSession, session_id)
    if row is None or row.staff_id != staff.id or not is_live(row, idle=idle, now=utcnow()):
        raise StaffSessionNotFound()
    row.revoked_at = utcnow()
    await session.flush()
    return row


async def end_all(session: AsyncSession, *, staff_id: int) -> int:
    """Revoke every open session of a staff member; returns how many were open."""
    result = await session.execute(
        update(StaffSession)
        .where(StaffSession.staff_id == staff_id, StaffSession.revoked_at.is_(None))
        .values(revoked_at=utcnow())
        .execution_options(synchronize_session="fetch")
    )
    return int(getattr(result, "rowcount", 0) or 0)
