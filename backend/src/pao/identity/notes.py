"""Staff notes on a member: added, listed newest first, never edited (the list is the history)."""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from pao.identity.exceptions import KeyMissing
from pao.identity.models import MemberNote
from pao.kit.clock import utcnow

NOTE_MAX = 2000


async def add_note(
    session: AsyncSession, *, member_id: int, author_id: int | None, author: str, body: str
) -> MemberNote:
    """Append a note (KEY_MISSING body when blank). The caller has checked the member exists."""
    body = body.strip()
    if not body:
        raise KeyMissing(field="body")
    note = MemberNote(
        member_id=member_id,
        author_id=author_id,
        author=author[:80],
        body=body[:NOTE_MAX],
        created_at=utcnow(),
    )
    session.add(note)
    await session.flush()
    return note


async def list_notes(
    session: AsyncSession, *, member_id: int, offset: int, limit: int
) -> tuple[int, list[MemberNote]]:
    """One page of the member's notes, newest first, and their count."""
    total = await session.scalar(
        select(func.count()).select_from(MemberNote).where(MemberNote.member_id == member_id)
    )
    rows = await session.execute(
        select(MemberNote)
        .where(MemberNote.member_id == member_id)
        .order_by(MemberNote.created_at.desc(), MemberNote.id.desc())
        .offset(offset)
        .limit(limit)
    )
    return int(total or 0), list(rows.scalars())
