"""Login sessions: random opaque bearer tokens, stored as their SHA-256, with expiry.

:mod:`pao.identity.deps` resolves a token back to its session; this module opens and revokes
them. A revoked or expired session answers 401 ``invalid-token``.
"""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import update
from sqlalchemy.ext.asyncio import AsyncSession

from pao.core.security import new_token, token_digest
from pao.identity.models import LoginSession
from pao.kit.clock import utcnow

IP_MAX = 64
USER_AGENT_MAX = 300


async def open_session(
    session: AsyncSession,
    *,
    member_id: int,
    ttl_hours: int,
    ip: str | None,
    user_agent: str | None,
    device_id: str | None = None,
) -> str:
    """Open a session for ``member_id``; returns the token (shown to the client once)."""
    token = new_token()
    now = utcnow()
    session.add(
        LoginSession(
            member_id=member_id,
            token_digest=token_digest(token),
            created_at=now,
            expires_at=now + timedelta(hours=ttl_hours),
            ip=ip[:IP_MAX] if ip else None,
            user_agent=user_agent[:USER_AGENT_MAX] if user_agent else None,
            device_id=device_id,
        )
    )
    await session.flush()
    return token


async def revoke(session: AsyncSession, *, login: LoginSession) -> None:
    if login.revoked_at is None:
        login.revoked_at = utcnow()
    await session.flush()


async def revoke_all(session: AsyncSession, *, member_id: int) -> int:
    """Revoke every live session of a member (password change); returns how many."""
    result = await session.execute(
        update(LoginSession)
        .where(LoginSession.member_id == member_id, LoginSession.revoked_at.is_(None))
        .values(revoked_at=utcnow())
        .execution_options(synchronize_session="fetch")
    )
    return int(getattr(result, "rowcount", 0) or 0)
