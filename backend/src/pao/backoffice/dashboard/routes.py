"""``GET /api/backoffice/dashboard`` (the figures of a range of days) and
``GET /api/backoffice/dashboard/queues`` (the live queue counts, polled by the screen)."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Annotated
from zoneinfo import ZoneInfo

from fastapi import Depends, Query, Request

from pao.backoffice.dashboard import figures
from pao.backoffice.dashboard.schemas import (
    MAX_RANGE_DAYS,
    DashboardOut,
    DashboardQuery,
    QueuesOut,
)
from pao.backoffice.deps import require
from pao.backoffice.models import Staff
from pao.backoffice.routing import AUTHENTICATED, backoffice_router
from pao.backoffice.staff.roles import Permission
from pao.core.errors import BadRequest
from pao.core.openapi import VALIDATION, errors
from pao.core.uow import SessionDep
from pao.kit.clock import utcnow
from pao.kit.money import Currency
from pao.reports.refresh import catch_up
from pao.site.settings import load_site_settings

router = backoffice_router()


def day_range(query: DashboardQuery, today: date) -> tuple[date, date]:
    last = query.last or (query.first if query.first and query.first > today else today)
    first = query.first or last
    if first > last:
        raise BadRequest("KEY_INVALID", field="from")
    if (last - first) >= timedelta(days=MAX_RANGE_DAYS):
        raise BadRequest("KEY_INVALID", field="to")
    return first, last


@router.get(
    "/dashboard",
    operation_id="backofficeDashboard",
    response_model=DashboardOut,
    responses={**AUTHENTICATED, **VALIDATION, **errors(_400="KEY_INVALID")},
    summary="The operator's figures for the days [from, to] (operator's time zone; ≤ 366 days)",
)
async def dashboard(
    request: Request,
    query: Annotated[DashboardQuery, Query()],
    session: SessionDep,
    staff: Annotated[Staff, Depends(require(Permission.DASHBOARD_READ))],
) -> DashboardOut:
    site = await load_site_settings(session)
    zone = ZoneInfo(site.timezone)
    first, last = day_range(query, utcnow().astimezone(zone).date())
    currency = query.currency or (
        Currency.LAK if request.app.state.settings.lao_mode else Currency.THB
    )
    await catch_up(session, request.app.state.sessionmaker, zone=zone)
    result = await figures.compute(session, first=first, last=last, currency=currency, zone=zone)
    return DashboardOut.of(result, await figures.queues(session))


@router.get(
    "/dashboard/queues",
    operation_id="backofficeDashboardQueues",
    response_model=QueuesOut,
    responses=AUTHENTICATED,
    summary="The live counts of the queues waiting for staff",
)
async def dashboard_queues(
    session: SessionDep,
    staff: Annotated[Staff, Depends(require(Permission.DASHBOARD_READ))],
) -> QueuesOut:
    return QueuesOut.of(await figures.queues(session))
