"""Setting a provider into maintenance and ending it: the one implementation behind the back
office's ``/api/backoffice/providers/{code}/maintenance`` and ``pao ops providers maintenance
on|off`` (each of them audits the change; this module only applies it).

A maintenance has a reason (for staff) and an optional planned end, after which it is over by
itself; players see "maintenance until …" on the game card and cannot start a transfer to or
from it, launch it or open an account there (pao.games.availability: every process's cache
of the states re-reads once the change commits here, within a second elsewhere). Transfers
already in flight are not touched: the reconciler settles them as always.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from pao.core.errors import Unprocessable
from pao.games.availability import maintenance_changed
from pao.games.exceptions import NoGame
from pao.games.models import Game, ProviderMaintenance
from pao.kit.clock import utcnow

REASON_MAX = 200


def snapshot(row: ProviderMaintenance | None) -> dict[str, Any]:
    """The audit's view of a provider's maintenance (``{"maintenance": False}`` when none)."""
    if row is None:
        return {"maintenance": False}
    return {
        "maintenance": True,
        "reason": row.reason,
        "until": row.until.isoformat() if row.until is not None else None,
    }


async def _game(session: AsyncSession, code: str) -> Game:
    game = await session.get(Game, code.strip().upper())
    if game is None:
        raise NoGame()
    return game


async def current(session: AsyncSession, code: str) -> ProviderMaintenance | None:
    """The maintenance row of ``code`` (ended by its planned end or not)."""
    return await session.get(ProviderMaintenance, code)


async def set_maintenance(
    session: AsyncSession, *, code: str, reason: str, until: datetime | None, actor: str
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Put ``code`` into maintenance (or change the reason / planned end of the one it is
    in); returns the snapshots before and after. NO_GAME for an unknown code; KEY_INVALID
    (``field``) for a blank reason or a planned end that is not in the future."""
    game = await _game(session, code)
    reason = " ".join(reason.split())
    if not reason or len(reason) > REASON_MAX:
        raise Unprocessable("KEY_INVALID", field="reason")
    if until is not None and (until.tzinfo is None or until <= utcnow()):
        raise Unprocessable("KEY_INVALID", field="until")
    row = await current(session, game.code)
    before = snapshot(row)
    if row is None:
        row = ProviderMaintenance(game_code=game.code)
        session.add(row)
    row.reason, row.until, row.set_by, row.set_at = reason, until, actor[:80], utcnow()
    await session.flush()
    maintenance_changed(session)
    return before, snapshot(row)


async def end_maintenance(
    session: AsyncSession, *, code: str
) -> tuple[dict[str, Any], dict[str, Any]]:
    """End ``code``'s maintenance now (nothing to do when it is in none); returns the
    snapshots before and after."""
    game = await _game(session, code)
    row = await current(session, game.code)
    before = snapshot(row)
    if row is not None:
        await session.delete(row)
        await session.flush()
        maintenance_changed(session)
    return before, snapshot(None)
