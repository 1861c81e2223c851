"""Members who hit a limit in a range (``reports.read``): per member and rule (deposit limit,
loss limit, exclusion), how often refused, how many payments were credited over it anyway
(flagged: money that had already left the member's bank), and when first and last (the
operator's clock). The records are pao.protection's (:mod:`pao.protection.hits`)."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from sqlalchemy.ext.asyncio import AsyncSession

from pao.protection import hits
from pao.reports.tables import Kind, Range, Row, Table, columns

HITS = columns(
    member=Kind.TEXT,
    name=Kind.TEXT,
    limit=Kind.TEXT,
    refusals=Kind.COUNT,
    flagged=Kind.COUNT,
    flagged_sum=Kind.MONEY,
    first_at=Kind.TEXT,
    last_at=Kind.TEXT,
)


def _local(at: datetime, zone: ZoneInfo) -> str:
    return at.astimezone(zone).strftime("%Y-%m-%d %H:%M")


async def report(session: AsyncSession, span: Range) -> list[Table]:
    start, end = span.bounds
    rows: list[Row] = [
        (
            hit.member_id,
            hit.member_name,
            hit.kind,
            hit.refusals,
            hit.credited,
            hit.credited_amount,
            _local(hit.first, span.zone),
            _local(hit.last, span.zone),
        )
        for hit in await hits.summary(session, start=start, end=end, currency=span.currency)
    ]
    return [Table("hits", HITS, rows)]
