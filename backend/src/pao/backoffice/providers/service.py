"""A provider's maintenance set or ended, with its audit row: the one implementation that
``/api/backoffice/providers/{code}/maintenance`` and ``pao ops providers maintenance on|off``
call (the rule itself is :mod:`pao.games.maintenance`)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from pao.backoffice.audit import service as audit
from pao.backoffice.audit.service import Actor
from pao.games import maintenance

OBJECT = "provider"


async def _audited(
    session: AsyncSession,
    *,
    actor: Actor,
    action: str,
    code: str,
    before: dict[str, Any],
    after: dict[str, Any],
) -> None:
    old, new = audit.changed(before, after)
    await audit.record(
        session,
        actor=actor,
        action=action,
        object_type=OBJECT,
        object_id=code.strip().upper(),
        before=old,
        after=new,
    )


async def turn_on(
    session: AsyncSession, *, code: str, reason: str, until: datetime | None, actor: Actor
) -> dict[str, Any]:
    """Set (or change) maintenance and audit it; the snapshot after."""
    before, after = await maintenance.set_maintenance(
        session, code=code, reason=reason, until=until, actor=actor.label
    )
    await _audited(
        session,
        actor=actor,
        action="provider.maintenance.on",
        code=code,
        before=before,
        after=after,
    )
    return after


async def turn_off(session: AsyncSession, *, code: str, actor: Actor) -> dict[str, Any]:
    """End maintenance and audit it; the snapshot before."""
    before, after = await maintenance.end_maintenance(session, code=code)
    await _audited(
        session,
        actor=actor,
        action="provider.maintenance.off",
        code=code,
        before=before,
        after=after,
    )
    return before
