"""Read-only member counts for the operator's figures (the back-office dashboard)."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import Select, String, cast, func, literal_column, select
from sqlalchemy.ext.asyncio import AsyncSession

from pao.identity.models import Member
from pao.kit.days import as_date, local_day
from pao.kit.money import Currency


async def count_members(
    session: AsyncSession,
    *,
    currency: Currency,
    before: datetime,
    since: datetime | None = None,
    among: Select[Any] | None = None,
) -> int:
    """Members of ``currency`` registered before ``before`` (and at or after ``since``),
    optionally only those whose id (as text, like a ledger owner) is in ``among``."""
    query = (
        select(func.count())
        .select_from(Member)
        .where(Member.currency == currency, Member.created_at < before)
    )
    if since is not None:
        query = query.where(Member.created_at >= since)
    if among is not None:
        query = query.where(cast(Member.id, String).in_(among))
    return int((await session.execute(query)).scalar_one())


async def new_members_by_day(
    session: AsyncSession,
    *,
    currency: Currency,
    start: datetime,
    end: datetime,
    zone: ZoneInfo,
) -> dict[date, int]:
    """Members registered in ``[start, end)``, by local day of registration."""
    day = local_day(
        Member.created_at, zone, dialect=session.get_bind().dialect.name, at=start
    ).label("f_day")
    query: Select[Any] = (
        select(day, func.count())
        .where(Member.currency == currency, Member.created_at >= start, Member.created_at < end)
        .group_by(literal_column("f_day"))
    )
    return {as_date(value): int(count) for value, count in await session.execute(query)}


async def wallet_currencies(session: AsyncSession) -> list[Currency]:
    """The currencies some member's wallet is in (one indexed existence check per currency,
    never a scan of the members)."""
    found = []
    for currency in Currency:
        query = select(select(Member.id).where(Member.currency == currency).exists())
        if (await session.execute(query)).scalar_one():
            found.append(currency)
    return found
