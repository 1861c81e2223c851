"""``/api/backoffice/providers``: each game provider's health (the circuit breaker's window:
calls, failures, time-outs, last success) and maintenance, which a manager sets with a reason
and an optional planned end, or ends. The routes call :mod:`pao.backoffice.providers.service`
(audited :mod:`pao.games.maintenance`), as ``pao ops providers maintenance on|off`` does,
and drop this process's cached provider states so players see it at once (other processes
within a second).
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from fastapi import Depends, Request
from pydantic import Field, StringConstraints

from pao.backoffice.deps import actor_of, require
from pao.backoffice.models import Staff
from pao.backoffice.providers import service as providers_service
from pao.backoffice.routing import AUTHENTICATED, backoffice_router
from pao.backoffice.schemas import _Wire, _WireIn
from pao.backoffice.staff.roles import Permission
from pao.core.openapi import VALIDATION, errors
from pao.core.uow import SessionDep
from pao.games import availability, maintenance
from pao.games.admin import providers_overview
from pao.games.availability import ProviderStatus
from pao.games.health import tracker_of
from pao.games.models import Game

router = backoffice_router()

Reader = Annotated[Staff, Depends(require(Permission.PROVIDERS_READ))]
Manager = Annotated[Staff, Depends(require(Permission.PROVIDERS_MANAGE))]
CHANGE = {**AUTHENTICATED, **errors(_404="NO_GAME"), **VALIDATION}


class MaintenanceOut(_Wire):
    reason: str
    until: datetime | None = Field(description="The planned end; none: until ended by hand.")
    set_by: str | None
    set_at: datetime | None


class ProviderOut(_Wire):
    code: str
    name: str
    enabled: bool = Field(description="Whether the game is in the players' catalogue.")
    state: Literal["ok", "maintenance", "down"]
    circuit: Literal["closed", "open", "probing"] = Field(
        description="The health tracker's circuit: open = marked down until downUntil, then "
        "probing (the next calls decide)."
    )
    calls: int = Field(description="Calls in the health window.")
    failures: int = Field(description="Failed or timed-out calls in the window.")
    timeouts: int
    failure_rate: float = Field(description="failures / calls, 0 without calls.")
    last_success_at: datetime | None
    last_failure_at: datetime | None
    last_error: str | None
    down_until: datetime | None
    maintenance: MaintenanceOut | None

    @classmethod
    def of(cls, game: Game, status: ProviderStatus) -> ProviderOut:
        health = status.health
        in_maintenance = status.state == availability.ProviderState.MAINTENANCE
        return cls(
            code=game.code,
            name=game.name,
            enabled=game.enabled,
            state=status.state.value,
            circuit=health.circuit.value,
            calls=health.calls,
            failures=health.failures,
            timeouts=health.timeouts,
            failure_rate=round(health.failure_rate, 4),
            last_success_at=health.last_success_at,
            last_failure_at=health.last_failure_at,
            last_error=health.last_error,
            down_until=health.down_until,
            maintenance=MaintenanceOut(
                reason=status.reason or "",
                until=status.until,
                set_by=status.set_by,
                set_at=status.set_at,
            )
            if in_maintenance
            else None,
        )


class ProviderListOut(_Wire):
    items: list[ProviderOut]
    window_seconds: int = Field(description="The health window the counts cover.")


class MaintenanceIn(_WireIn):
    reason: Annotated[str, StringConstraints(min_length=1, max_length=maintenance.REASON_MAX)]
    until: datetime | None = Field(
        default=None, description="The planned end (in the future, with a time zone), or none."
    )


async def _one(request: Request, session: SessionDep, code: str) -> ProviderOut:
    availability.invalidate(request.app)
    for game, status in await providers_overview(tracker_of(request.app), session):
        if game.code == code:
            return ProviderOut.of(game, status)
    raise AssertionError(code)  # the domain function found the game already


@router.get(
    "/providers",
    operation_id="backofficeProviders",
    response_model=ProviderListOut,
    responses=AUTHENTICATED,
    summary="Every game provider with its state, health window and maintenance",
)
async def list_providers(request: Request, session: SessionDep, staff: Reader) -> ProviderListOut:
    rows = await providers_overview(tracker_of(request.app), session)
    return ProviderListOut(
        items=[ProviderOut.of(game, status) for game, status in rows],
        window_seconds=request.app.state.settings.provider_health_window_seconds,
    )


@router.put(
    "/providers/{code}/maintenance",
    operation_id="backofficeProviderMaintenanceSet",
    response_model=ProviderOut,
    responses=CHANGE,
    summary="Set the provider into maintenance (or change its reason / planned end)",
)
async def set_maintenance(
    code: Annotated[str, StringConstraints(min_length=1, max_length=20)],
    body: MaintenanceIn,
    request: Request,
    session: SessionDep,
    staff: Manager,
) -> ProviderOut:
    code = code.strip().upper()
    await providers_service.turn_on(
        session, code=code, reason=body.reason, until=body.until, actor=actor_of(request)
    )
    return await _one(request, session, code)


@router.delete(
    "/providers/{code}/maintenance",
    operation_id="backofficeProviderMaintenanceEnd",
    response_model=ProviderOut,
    responses=CHANGE,
    summary="End the provider's maintenance now",
)
async def end_maintenance(
    code: Annotated[str, StringConstraints(min_length=1, max_length=20)],
    request: Request,
    session: SessionDep,
    staff: Manager,
) -> ProviderOut:
    code = code.strip().upper()
    await providers_service.turn_off(session, code=code, actor=actor_of(request))
    return await _one(request, session, code)
