"""The idle lock of a staff session: idle (or on the staff member's own "lock"), a session locks
instead of ending; its password alone unlocks it while the session lives (12 hours from the
login); only a new login asks for the TOTP code again.

* :func:`lock` records the lock once (``locked_at``, an audit row ``session.lock`` saying why).
  A session unused for the idle timeout is locked already (``sessions.is_locked``); the first
  call that finds it so records it.
* :func:`unlock` checks the password. Each try is *reserved* first, by one conditional UPDATE
  of the session's counter (``unlock_attempts < UNLOCK_ATTEMPTS``), before the password is
  verified: concurrent guesses cannot get more than :data:`UNLOCK_ATTEMPTS` tries between
  them, on any number of processes. The last wrong try ends the session (revoked, audited):
  what remains is a full login, TOTP included. A right password unlocks and clears the count.

Every lock, unlock, wrong password and end is in the audit log (``session.lock``,
``session.unlock``, ``session.unlock_failed``, ``session.end``).
"""

from __future__ import annotations

import asyncio
from datetime import timedelta

from sqlalchemy import update
from sqlalchemy.ext.asyncio import AsyncSession

from pao.backoffice.audit import service as audit
from pao.backoffice.audit.service import Actor
from pao.backoffice.exceptions import StaffSessionEnded, StaffUnlockRefused
from pao.backoffice.models import Staff, StaffSession
from pao.backoffice.sessions.service import is_locked
from pao.core.security import verify_password
from pao.kit.clock import utcnow

# Wrong passwords a locked session takes; the last one ends it.
UNLOCK_ATTEMPTS = 5
OBJECT = "staff_session"


async def lock(session: AsyncSession, *, row: StaffSession, actor: Actor, reason: str) -> None:
    """Lock ``row`` (``reason``: "idle" or "by hand"); a locked session stays as it is."""
    if row.locked_at is not None:
        return
    row.locked_at = utcnow()
    row.unlock_attempts = 0
    await session.flush()
    await audit.record(
        session,
        actor=actor,
        action="session.lock",
        object_type=OBJECT,
        object_id=row.id,
        detail=reason,
    )


async def settle(
    session: AsyncSession, *, row: StaffSession, actor: Actor, idle: timedelta
) -> bool:
    """Record the lock of an idle session not recorded yet; whether ``row`` is locked."""
    if not is_locked(row, idle=idle, now=utcnow()):
        return False
    await lock(session, row=row, actor=actor, reason="idle")
    return True


async def _reserve(session: AsyncSession, row: StaffSession) -> int | None:
    """Take one try (atomically); its number, or ``None`` when none is left."""
    taken = await session.execute(
        update(StaffSession)
        .where(
            StaffSession.id == row.id,
            StaffSession.revoked_at.is_(None),
            StaffSession.unlock_attempts < UNLOCK_ATTEMPTS,
        )
        .values(unlock_attempts=StaffSession.unlock_attempts + 1)
        .returning(StaffSession.unlock_attempts)
        .execution_options(synchronize_session=False)
    )
    number = taken.scalar_one_or_none()
    return int(number) if number is not None else None


async def _end(session: AsyncSession, *, row: StaffSession, actor: Actor) -> None:
    row.revoked_at = utcnow()
    await session.flush()
    await audit.record(
        session,
        actor=actor,
        action="session.end",
        object_type=OBJECT,
        object_id=row.id,
        detail="too many wrong passwords at the lock screen",
    )


async def unlock(
    session: AsyncSession,
    *,
    row: StaffSession,
    staff: Staff,
    password: str,
    actor: Actor,
    idle: timedelta,
) -> None:
    """Unlock ``row`` with its staff member's password (an unlocked session: nothing to do)."""
    if not await settle(session, row=row, actor=actor, idle=idle):
        return
    number = await _reserve(session, row)
    if number is None:
        # No try left: ended by the last one (a concurrent guess), or ended now.
        await session.refresh(row)
        if row.revoked_at is None:
            await _end(session, row=row, actor=actor)
        raise StaffSessionEnded()
    ok = await asyncio.to_thread(verify_password, staff.password_hash, password)
    if not ok:
        await audit.record(
            session,
            actor=actor,
            action="session.unlock_failed",
            object_type=OBJECT,
            object_id=row.id,
            detail=f"try {number} of {UNLOCK_ATTEMPTS}",
        )
        if number >= UNLOCK_ATTEMPTS:
            await _end(session, row=row, actor=actor)
            raise StaffSessionEnded()
        raise StaffUnlockRefused(attemptsLeft=UNLOCK_ATTEMPTS - number)
    await session.refresh(row)
    row.locked_at = None
    row.unlock_attempts = 0
    row.last_seen_at = utcnow()
    await session.flush()
    await audit.record(
        session, actor=actor, action="session.unlock", object_type=OBJECT, object_id=row.id
    )
