"""A member's login history: their login sessions, newest first (when, from where, with what)."""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from pao.identity.models import LoginSession, MemberChange


async def list_logins(
    session: AsyncSession, *, member_id: int, offset: int, limit: int
) -> tuple[int, list[LoginSession]]:
    total = await session.scalar(
        select(func.count()).select_from(LoginSession).where(LoginSession.member_id == member_id)
    )
    rows = await session.execute(
        select(LoginSession)
        .where(LoginSession.member_id == member_id)
        .order_by(LoginSession.created_at.desc(), LoginSession.id.desc())
        .offset(offset)
        .limit(limit)
    )
    return int(total or 0), list(rows.scalars())


async def list_changes(
    session: AsyncSession, *, member_id: int, offset: int, limit: int
) -> tuple[int, list[MemberChange]]:
    """One page of the member's changes of name, bank account and password, newest first."""
    total = await session.scalar(
        select(func.count()).select_from(MemberChange).where(MemberChange.member_id == member_id)
    )
    rows = await session.execute(
        select(MemberChange)
        .where(MemberChange.member_id == member_id)
        .order_by(MemberChange.created_at.desc(), MemberChange.id.desc())
        .offset(offset)
        .limit(limit)
    )
    return int(total or 0), list(rows.scalars())
