"""Whether a provider can be used now: the operator's maintenance (pao.games.maintenance) and
the health tracker's circuit (pao.games.health), as one state per game code (ADR 0013)::

    maintenance  the operator said so (until its planned end, if any)
    down         the tracker's circuit is open (failure rate over its window)
    ok           anything else (a probing circuit included: its calls are the probes)

:func:`ensure_available` is what a player's action calls first (transfer, launch, opening an
account, a new password): it reads the state fresh and refuses before anything is written.
:func:`screen_statuses` is what the wallet screen shows: the same, read at most once a second
per app, so a change reaches every player within a second without a query per page load.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from time import monotonic
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from pao.games.exceptions import ProviderDown, ProviderInMaintenance
from pao.games.health import Health, HealthTracker, tracker_of
from pao.games.models import Game, ProviderMaintenance
from pao.kit.clock import utcnow

CACHE_SECONDS = 1.0


class ProviderState(StrEnum):
    OK = "ok"
    MAINTENANCE = "maintenance"
    DOWN = "down"


@dataclass(frozen=True)
class ProviderStatus:
    code: str
    state: ProviderState
    health: Health
    reason: str | None = None  # the maintenance's reason (for staff)
    until: datetime | None = None  # the maintenance's planned end
    set_by: str | None = None
    set_at: datetime | None = None

    @property
    def usable(self) -> bool:
        return self.state == ProviderState.OK


def active(row: ProviderMaintenance, now: datetime) -> bool:
    """A maintenance whose planned end has passed is over."""
    return row.until is None or row.until > now


async def statuses(
    tracker: HealthTracker, session: AsyncSession, codes: Iterable[str] | None = None
) -> dict[str, ProviderStatus]:
    """The state of each of ``codes`` (default: every game in the catalogue), read now."""
    if codes is None:
        codes = (await session.execute(select(Game.code).order_by(Game.code))).scalars().all()
    codes = list(dict.fromkeys(codes))
    if not codes:
        return {}
    rows = {
        row.game_code: row
        for row in (
            await session.execute(
                select(ProviderMaintenance).where(ProviderMaintenance.game_code.in_(codes))
            )
        ).scalars()
    }
    health = await tracker.health(codes)
    now = utcnow()
    found: dict[str, ProviderStatus] = {}
    for code in codes:
        row = rows.get(code)
        if row is not None and active(row, now):
            found[code] = ProviderStatus(
                code=code,
                state=ProviderState.MAINTENANCE,
                health=health[code],
                reason=row.reason,
                until=row.until,
                set_by=row.set_by,
                set_at=row.set_at,
            )
        else:
            state = ProviderState.DOWN if health[code].down else ProviderState.OK
            found[code] = ProviderStatus(code=code, state=state, health=health[code])
    return found


async def ensure_available(app: Any, session: AsyncSession, codes: Iterable[str]) -> None:
    """Refuse (PROVIDER_MAINTENANCE, else PROVIDER_UNAVAILABLE) when any of ``codes`` cannot
    be used now. Unknown codes pass: the caller's own checks answer NO_GAME for them."""
    found = await statuses(tracker_of(app), session, codes)
    states = {status.state for status in found.values()}
    if ProviderState.MAINTENANCE in states:
        raise ProviderInMaintenance()
    if ProviderState.DOWN in states:
        raise ProviderDown()


def invalidate(app: Any) -> None:
    """Drop this app's cached copy (an operator's change in this process shows at once; in
    another process within :data:`CACHE_SECONDS`)."""
    app.state.provider_screen_cache = None


async def screen_statuses(app: Any, session: AsyncSession) -> dict[str, ProviderStatus]:
    """:func:`statuses` of every game, cached for at most :data:`CACHE_SECONDS` per app."""
    cached: tuple[float, dict[str, ProviderStatus]] | None = getattr(
        app.state, "provider_screen_cache", None
    )
    if cached is not None and monotonic() - cached[0] < CACHE_SECONDS:
        return cached[1]
    read_at = monotonic()
    found = await statuses(tracker_of(app), session)
    app.state.provider_screen_cache = (read_at, found)
    return found
