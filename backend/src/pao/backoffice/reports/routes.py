"""``GET /api/backoffice/reports/{report}`` (a report's tables over a range of days) and
``GET /api/backoffice/reports/{report}/{table}.csv`` (one table as CSV, streamed).

Each request first brings the summaries up to the last committed journal entry
(:func:`pao.reports.refresh.catch_up`), so a report is current to the second.
"""

from __future__ import annotations

from typing import Annotated
from zoneinfo import ZoneInfo

from fastapi import Depends, Path, Query, Request
from fastapi.responses import StreamingResponse
from sqlalchemy.ext.asyncio import AsyncSession

from pao.backoffice.dashboard.routes import day_range
from pao.backoffice.deps import require
from pao.backoffice.models import Staff
from pao.backoffice.reports import protection as protection_report
from pao.backoffice.reports import staff as staff_report
from pao.backoffice.reports.schemas import ReportOut, ReportQuery, TableOut
from pao.backoffice.routing import AUTHENTICATED, backoffice_router
from pao.backoffice.staff.roles import Permission
from pao.core.errors import NotFound
from pao.core.openapi import VALIDATION, errors
from pao.core.uow import SessionDep
from pao.kit.clock import utcnow
from pao.kit.money import Currency
from pao.reports import catalogue, export
from pao.reports.catalogue import TABLES, ReportName
from pao.reports.refresh import catch_up
from pao.reports.tables import Range, Table
from pao.site.settings import load_site_settings

router = backoffice_router()
Reader = Annotated[Staff, Depends(require(Permission.REPORTS_READ))]


async def _span(request: Request, session: AsyncSession, query: ReportQuery) -> Range:
    site = await load_site_settings(session)
    zone = ZoneInfo(site.timezone)
    first, last = day_range(query, utcnow().astimezone(zone).date())
    currency = query.currency or (
        Currency.LAK if request.app.state.settings.lao_mode else Currency.THB
    )
    await catch_up(session, request.app.state.sessionmaker, zone=zone)
    return Range(first=first, last=last, currency=currency, zone=zone)


async def _tables(
    request: Request, session: AsyncSession, name: ReportName, span: Range, only: str | None
) -> list[Table]:
    if name is ReportName.STAFF:
        return await staff_report.report(session, span)
    if name is ReportName.PROTECTION:
        return await protection_report.report(session, span)
    return await catalogue.run(
        name, session, span, only=only, sessionmaker=request.app.state.read_sessionmaker
    )


@router.get(
    "/reports/{report}",
    operation_id="backofficeReport",
    response_model=ReportOut,
    responses={**AUTHENTICATED, **VALIDATION, **errors(_400="KEY_INVALID")},
    summary="A report's tables for the days [from, to] (operator's time zone; ≤ 366 days)",
)
async def report(
    request: Request,
    report: ReportName,
    query: Annotated[ReportQuery, Query()],
    session: SessionDep,
    staff: Reader,
) -> ReportOut:
    span = await _span(request, session, query)
    tables = await _tables(request, session, report, span, None)
    return ReportOut(
        report=report,
        first=span.first,
        last=span.last,
        currency=span.currency,
        tables=[TableOut.of(table) for table in tables],
    )


@router.get(
    "/reports/{report}/{table}.csv",
    operation_id="backofficeReportCsv",
    response_class=StreamingResponse,
    responses={
        200: {"content": {"text/csv": {"schema": {"type": "string"}}}, "description": "CSV"},
        **AUTHENTICATED,
        **VALIDATION,
        **errors(_400="KEY_INVALID", _404="NO_DATA"),
    },
    summary="One table of a report as CSV (amounts in major units), streamed",
)
async def report_csv(
    request: Request,
    report: ReportName,
    table: Annotated[str, Path(max_length=40)],
    query: Annotated[ReportQuery, Query()],
    session: SessionDep,
    staff: Reader,
) -> StreamingResponse:
    if table not in TABLES[report]:
        raise NotFound()
    span = await _span(request, session, query)
    (found,) = [t for t in await _tables(request, session, report, span, table) if t.name == table]
    name = f"pao-{report.value}-{table}-{span.first.isoformat()}-{span.last.isoformat()}.csv"
    return StreamingResponse(
        export.stream(found),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )
