"""Whether a provider can be used now: the operator's maintenance (pao.games.maintenance) and
the health tracker's circuit (pao.games.health), as one state per game code (ADR 0013)::

    maintenance  the operator said so (until its planned end, if any)
    down         the tracker's circuit is open (failure rate over its window)
    ok           anything else (a probing circuit included: its calls are the probes)

A player's action (transfer, launch, opening an account, a new password) calls
:func:`ensure_available` first, and the wallet screen shows :func:`screen_statuses`. Both read
one per-app :class:`AvailabilityCache` (ADR 0013, amendment): availability is a routing hint,
not a money rule, so it is read at most once every :data:`CACHE_SECONDS` per process instead
of once per request. A change made in this process is seen at once — a maintenance set or
ended once its transaction commits, a circuit this process's tracker opens or closes when it
does — and a change made in another process within :data:`CACHE_SECONDS`. A maintenance's
planned end is judged at each use, on the application clock. :func:`statuses` reads fresh
(the back office's view).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
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
from pao.kit.after_commit import after_commit
from pao.kit.clock import utcnow

# The bound: how old a state another process changed may be when a request acts on it.
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


@dataclass(frozen=True, slots=True)
class _Maintenance:
    """A ``provider_maintenance`` row as read (no ORM object outlives its session)."""

    reason: str
    until: datetime | None
    set_by: str | None
    set_at: datetime | None


def active(row: ProviderMaintenance | _Maintenance, now: datetime) -> bool:
    """A maintenance whose planned end has passed is over."""
    return row.until is None or row.until > now


async def _read(
    tracker: HealthTracker, session: AsyncSession, codes: Iterable[str] | None
) -> tuple[list[str], dict[str, _Maintenance], dict[str, Health]]:
    if codes is None:
        codes = (await session.execute(select(Game.code).order_by(Game.code))).scalars().all()
    codes = list(dict.fromkeys(codes))
    if not codes:
        return [], {}, {}
    rows = {
        row.game_code: _Maintenance(row.reason, row.until, row.set_by, row.set_at)
        for row in (
            await session.execute(
                select(ProviderMaintenance).where(ProviderMaintenance.game_code.in_(codes))
            )
        ).scalars()
    }
    return codes, rows, await tracker.health(codes)


def _status(code: str, row: _Maintenance | None, health: Health, now: datetime) -> ProviderStatus:
    if row is not None and active(row, now):
        return ProviderStatus(
            code=code,
            state=ProviderState.MAINTENANCE,
            health=health,
            reason=row.reason,
            until=row.until,
            set_by=row.set_by,
            set_at=row.set_at,
        )
    state = ProviderState.DOWN if health.down else ProviderState.OK
    return ProviderStatus(code=code, state=state, health=health)


async def statuses(
    tracker: HealthTracker, session: AsyncSession, codes: Iterable[str] | None = None
) -> dict[str, ProviderStatus]:
    """The state of each of ``codes`` (default: every game in the catalogue), read now."""
    found, rows, health = await _read(tracker, session, codes)
    now = utcnow()
    return {code: _status(code, rows.get(code), health[code], now) for code in found}


# Bumped when a maintenance change commits in this process (maintenance_changed): every
# app's cache of this process re-reads on its next use.
_generation = 0


@dataclass(slots=True)
class _Snapshot:
    read_at: float
    generation: int  # _generation when the read started
    tracker_changes: int  # the tracker's ``changes`` when the read started
    rows: dict[str, _Maintenance]
    health: dict[str, Health]
    # The states made from it (every wallet screen asks for all of them), and when they
    # change by themselves: the first planned end of a maintenance still on when they were made.
    states: dict[str, ProviderStatus] | None = None
    states_until: datetime | None = None

    def states_at(self, now: datetime) -> dict[str, ProviderStatus]:
        if self.states is None or (self.states_until is not None and now >= self.states_until):
            self.states = {
                code: _status(code, self.rows.get(code), health, now)
                for code, health in self.health.items()
            }
            ends = [r.until for r in self.rows.values() if r.until is not None and r.until > now]
            self.states_until = min(ends, default=None)
        return self.states


class AvailabilityCache:
    """Every game's maintenance and health, read at most once every ``ttl`` seconds (on
    ``clock``, monotonic seconds) and re-read at once after a change in this process."""

    def __init__(self, ttl: float = CACHE_SECONDS, clock: Callable[[], float] = monotonic):
        self.ttl = ttl
        self.clock = clock
        self._snapshot: _Snapshot | None = None

    def invalidate(self) -> None:
        self._snapshot = None

    async def statuses(
        self, tracker: HealthTracker, session: AsyncSession
    ) -> Mapping[str, ProviderStatus]:
        snapshot = self._snapshot
        if (
            snapshot is None
            or self.clock() - snapshot.read_at >= self.ttl
            or snapshot.generation != _generation
            or snapshot.tracker_changes != tracker.changes
        ):
            # Marks taken before reading: a change committed during the read leaves this
            # snapshot already out of date, so the next use reads again.
            read_at, generation, changes = self.clock(), _generation, tracker.changes
            _, rows, health = await _read(tracker, session, None)
            snapshot = self._snapshot = _Snapshot(read_at, generation, changes, rows, health)
        # Shared by every caller until the snapshot changes: read, never changed.
        return snapshot.states_at(utcnow())


def cache_of(app: Any) -> AvailabilityCache:
    """The app's cache, made on first use (a test may set ``app.state.provider_availability``
    to one with its own clock first)."""
    cache: AvailabilityCache | None = getattr(app.state, "provider_availability", None)
    if cache is None:
        cache = app.state.provider_availability = AvailabilityCache()
    return cache


async def ensure_available(app: Any, session: AsyncSession, codes: Iterable[str]) -> None:
    """Refuse (PROVIDER_MAINTENANCE, else PROVIDER_UNAVAILABLE) when any of ``codes`` cannot
    be used now, as the cache knows it. Unknown codes pass: the caller's own checks answer
    NO_GAME for them."""
    known = await cache_of(app).statuses(tracker_of(app), session)
    states = {known[code].state for code in codes if code in known}
    if ProviderState.MAINTENANCE in states:
        raise ProviderInMaintenance()
    if ProviderState.DOWN in states:
        raise ProviderDown()


def invalidate(app: Any) -> None:
    """Drop this app's cached states (its next use reads them again)."""
    cache_of(app).invalidate()


def _changed() -> None:
    global _generation
    _generation += 1


def maintenance_changed(session: AsyncSession) -> None:
    """Called by whoever writes ``provider_maintenance`` (after its flush): every cache of
    this process re-reads once this transaction commits (the outermost one: a savepoint's
    release is not visible to others yet; a rolled-back change drops nothing)."""
    after_commit(session, _changed)


async def screen_statuses(app: Any, session: AsyncSession) -> Mapping[str, ProviderStatus]:
    """Every game's state, from the app's cache (the wallet screen)."""
    return await cache_of(app).statuses(tracker_of(app), session)
