"""Staff actions in a range, per staff member and action, from the audit log."""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from pao.backoffice.models import AuditEntry
from pao.reports.tables import Kind, Range, Row, Table, columns

ACTIONS = columns(staff=Kind.TEXT, role=Kind.TEXT, action=Kind.TEXT, count=Kind.COUNT)


async def report(session: AsyncSession, span: Range) -> list[Table]:
    start, end = span.bounds
    query = (
        select(AuditEntry.actor, AuditEntry.staff_role, AuditEntry.action, func.count())
        .where(AuditEntry.at >= start, AuditEntry.at < end)
        .group_by(AuditEntry.actor, AuditEntry.staff_role, AuditEntry.action)
        .order_by(AuditEntry.actor, func.count().desc(), AuditEntry.action)
    )
    rows: list[Row] = [
        (actor, role or "", action, int(count))
        for actor, role, action, count in await session.execute(query)
    ]
    return [Table("actions", ACTIONS, rows)]
