"""Calendar days of the operator's time zone, for figures grouped by day.

A day of figures is a day on the operator's wall clock (``SiteSettings.timezone``, Asia/Bangkok
by default), not a UTC day: a deposit at 23:59 in Bangkok belongs to that Bangkok day although
it is 16:59 UTC. :func:`day_bounds` turns an inclusive range of local days into the UTC instants
``[start, end)`` that the columns (UTC) are compared with, and :func:`local_day` is the SQL
expression of a UTC column's local day.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import Date, cast, func
from sqlalchemy.sql.elements import ColumnElement


def day_bounds(first: date, last: date, zone: ZoneInfo) -> tuple[datetime, datetime]:
    """UTC ``[start, end)`` covering the local days ``first`` … ``last`` (inclusive)."""
    start = datetime.combine(first, time(0), tzinfo=zone).astimezone(UTC)
    end = datetime.combine(last + timedelta(days=1), time(0), tzinfo=zone).astimezone(UTC)
    return start, end


def days(first: date, last: date) -> list[date]:
    return [first + timedelta(days=n) for n in range((last - first).days + 1)]


def local_day(column: Any, zone: ZoneInfo, *, dialect: str, at: datetime) -> ColumnElement[Any]:
    """The local day of a UTC timestamp column, as SQL.

    PostgreSQL converts with the zone's rules (``timezone(zone, ts)``). SQLite stores naive UTC
    text and has no zone database: the column is shifted by the zone's offset at ``at`` (the
    range's start). Zones without daylight saving (Asia/Bangkok, Asia/Vientiane) are exact;
    elsewhere a range across a switch is off by an hour at its edges on SQLite only."""
    if dialect == "postgresql":
        return cast(func.timezone(zone.key, column), Date)
    offset = at.astimezone(zone).utcoffset() or timedelta(0)
    return func.date(column, f"{int(offset.total_seconds()):+d} seconds")


def as_date(value: Any) -> date:
    """A day as the driver returns it (a ``date`` on PostgreSQL, text on SQLite)."""
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    return date.fromisoformat(str(value)[:10])
