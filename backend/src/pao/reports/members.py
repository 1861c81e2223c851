"""Members: registrations by day and by source code with their first-deposit conversion (a
member converted once their first deposit ever is summarised), and the range's depositors.

Depositors come from the per-member daily summary: the screen shows the top ones by amount;
the CSV streams every depositor of the range in member order, a chunk at a time by keyset, so a
year's export starts at once and holds one chunk in memory.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Any

from sqlalchemy import Select, case, func, literal_column, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from pao.identity.models import Member
from pao.kit.days import as_date, local_day
from pao.reports.models import MemberDay, MemberFirstDeposit
from pao.reports.tables import Kind, Range, Row, Table, columns, wanted

REGISTRATIONS = columns(
    day=Kind.DAY, registered=Kind.COUNT, converted=Kind.COUNT, conversion=Kind.PERCENT
)
SOURCES = columns(
    source=Kind.TEXT, registered=Kind.COUNT, converted=Kind.COUNT, conversion=Kind.PERCENT
)
DEPOSITORS = columns(
    member=Kind.TEXT, name=Kind.TEXT, deposits_count=Kind.COUNT, deposits=Kind.MONEY
)
TOP = 100
CHUNK = 5_000


def share(part: int, whole: int) -> float:
    return round(100 * part / whole, 1) if whole else 0.0


def _depositors(span: Range) -> Select[int, int, int]:
    query = (
        select(
            MemberDay.member_id,
            func.sum(MemberDay.deposit_count).label("n"),
            func.sum(MemberDay.deposit_sum).label("total"),
        )
        .where(
            MemberDay.day >= span.first,
            MemberDay.day <= span.last,
            MemberDay.currency == span.currency,
        )
        .group_by(MemberDay.member_id)
    )
    return query


async def report(
    session: AsyncSession,
    span: Range,
    *,
    only: str | None = None,
    sessionmaker: async_sessionmaker[AsyncSession] | None = None,
) -> list[Table]:
    tables: list[Table] = []
    if wanted(only, "registrations"):
        tables.append(await _registrations(session, span))
    if wanted(only, "sources"):
        tables.append(await _sources(session, span))
    if wanted(only, "depositors"):
        # The CSV streams every depositor; the screen shows the top ones.
        if only is not None and sessionmaker is not None:
            tables.append(
                Table("depositors", DEPOSITORS, chunks=_every_depositor(span, sessionmaker))
            )
        else:
            tables.append(await _top_depositors(session, span))
    return tables


def _registered(session: AsyncSession, span: Range, group: Any) -> Select[Any]:
    """Members registered in ``span`` and how many of them converted, by ``group``."""
    start, end = span.bounds
    converted = case((MemberFirstDeposit.member_id.is_not(None), 1), else_=0)
    return (
        select(group, func.count(), func.sum(converted))
        .select_from(Member)
        .outerjoin(MemberFirstDeposit, MemberFirstDeposit.member_id == Member.id)
        .where(
            Member.currency == span.currency, Member.created_at >= start, Member.created_at < end
        )
        .group_by(literal_column(group.name))
    )


async def _registrations(session: AsyncSession, span: Range) -> Table:
    start, _ = span.bounds
    day = local_day(
        Member.created_at, span.zone, dialect=session.get_bind().dialect.name, at=start
    ).label("r_day")
    query = _registered(session, span, day).order_by(literal_column("r_day"))
    rows: list[Row] = [
        (as_date(value), int(count), int(done or 0), share(int(done or 0), int(count)))
        for value, count, done in await session.execute(query)
    ]
    return Table("registrations", REGISTRATIONS, rows)


async def _sources(session: AsyncSession, span: Range) -> Table:
    source = func.coalesce(Member.source_code, "").label("r_source")
    query = _registered(session, span, source).order_by(
        func.count().desc(), literal_column("r_source")
    )
    rows: list[Row] = [
        (value, int(count), int(done or 0), share(int(done or 0), int(count)))
        for value, count, done in await session.execute(query)
    ]
    return Table("sources", SOURCES, rows)


async def _top_depositors(session: AsyncSession, span: Range) -> Table:
    totals = _depositors(span).subquery()
    rows: list[Row] = [
        (int(member), name, int(n), int(total))
        for member, name, n, total in await session.execute(
            select(totals.c.member_id, Member.name, totals.c.n, totals.c.total)
            .join(Member, Member.id == totals.c.member_id)
            .order_by(totals.c.total.desc(), totals.c.member_id)
            .limit(TOP)
        )
    ]
    return Table("depositors", DEPOSITORS, rows)


def _every_depositor(
    span: Range, sessionmaker: async_sessionmaker[AsyncSession]
) -> Callable[[], AsyncIterator[list[Row]]]:
    async def chunks() -> AsyncIterator[list[Row]]:
        after = -1
        while True:
            # A short session a chunk: nothing held open between two chunks sent.
            async with sessionmaker() as own:
                chunk = (
                    _depositors(span)
                    .where(MemberDay.member_id > after)
                    .order_by(MemberDay.member_id)
                    .limit(CHUNK)
                    .subquery()
                )
                rows: list[Row] = [
                    (int(member), name, int(n), int(total))
                    for member, name, n, total in await own.execute(
                        select(chunk.c.member_id, Member.name, chunk.c.n, chunk.c.total)
                        .join(Member, Member.id == chunk.c.member_id)
                        .order_by(chunk.c.member_id)
                    )
                ]
            if not rows:
                return
            yield rows
            after = rows[-1][0]

    return chunks
