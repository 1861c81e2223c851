"""The shape every report answers in: named tables of typed columns, and the range asked for.

A report is a list of :class:`Table`; the back office renders each as a table (and a chart where
it has one) and exports each as CSV. Amounts are minor units here; the wire converts them.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from datetime import date, datetime
from enum import StrEnum
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy.ext.asyncio import AsyncSession

from pao.kit.days import day_bounds
from pao.kit.money import Currency


class Kind(StrEnum):
    DAY = "day"
    TEXT = "text"
    COUNT = "count"
    MONEY = "money"  # minor units of the range's currency
    SECONDS = "seconds"
    PERCENT = "percent"  # a share, 0–100, one decimal


@dataclass(frozen=True)
class Column:
    key: str
    kind: Kind


Row = tuple[Any, ...]


@dataclass
class Table:
    name: str
    columns: tuple[Column, ...]
    rows: list[Row] = field(default_factory=list)
    # The whole table for a CSV export, in chunks, when it is larger than what is shown.
    chunks: Callable[[], AsyncIterator[list[Row]]] | None = None


@dataclass(frozen=True)
class Range:
    """Local days ``first`` … ``last`` (inclusive) of ``zone``, in ``currency``."""

    first: date
    last: date
    currency: Currency
    zone: ZoneInfo

    @property
    def bounds(self) -> tuple[datetime, datetime]:
        return day_bounds(self.first, self.last, self.zone)


def columns(**kinds: Kind) -> tuple[Column, ...]:
    return tuple(Column(key, kind) for key, kind in kinds.items())


def wanted(only: str | None, name: str) -> bool:
    """Whether table ``name`` is asked for (``only``: one table, for its CSV; None: all)."""
    return only is None or only == name


Report = Callable[[AsyncSession, Range], Awaitable[list[Table]]]
