"""Staff actions in a range, per staff member and action, from the audit log: each staff member
by the name colleagues know them by, with the login they signed in with."""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from pao.backoffice.models import AuditEntry, Staff
from pao.reports.tables import Kind, Range, Row, Table, columns

ACTIONS = columns(
    staff=Kind.TEXT, login=Kind.TEXT, role=Kind.TEXT, action=Kind.TEXT, count=Kind.COUNT
)


async def report(session: AsyncSession, span: Range) -> list[Table]:
    start, end = span.bounds
    query = (
        select(
            AuditEntry.actor,
            Staff.display_name,
            AuditEntry.staff_role,
            AuditEntry.action,
            func.count(),
        )
        .outerjoin(Staff, Staff.id == AuditEntry.staff_id)
        .where(AuditEntry.at >= start, AuditEntry.at < end)
        .group_by(AuditEntry.actor, Staff.display_name, AuditEntry.staff_role, AuditEntry.action)
        .order_by(AuditEntry.actor, func.count().desc(), AuditEntry.action)
    )
    rows: list[Row] = [
        # Not staff (ops:<user>, a failed login's typed name): the actor stands for both.
        (name or actor, actor, role or "", action, int(count))
        for actor, name, role, action, count in await session.execute(query)
    ]
    return [Table("actions", ACTIONS, rows)]
