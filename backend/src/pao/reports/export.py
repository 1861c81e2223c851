"""CSV of a report's table, produced as it is sent (a chunk of rows at a time).

Amounts are written in major units with the currency's two decimals, as the screens show them;
a CSV is for people and spreadsheets, so the header is the column's key and text cells that a
spreadsheet would run as a formula are prefixed with a quote (CSV injection).
"""

from __future__ import annotations

import csv
import io
from collections.abc import AsyncIterator, Iterable
from datetime import date
from typing import Any

from pao.reports.tables import Kind, Row, Table

_FORMULA = ("=", "+", "-", "@", "\t", "\r")


def cell(kind: Kind, value: Any) -> str:
    if value is None:
        return ""
    match kind:
        case Kind.MONEY:
            sign = "-" if value < 0 else ""
            whole, cents = divmod(abs(int(value)), 100)
            return f"{sign}{whole}.{cents:02d}"
        case Kind.DAY:
            return value.isoformat() if isinstance(value, date) else str(value)
        case Kind.TEXT:
            text = str(value)
            return "'" + text if text.startswith(_FORMULA) else text
    return str(value)


def _lines(table: Table, rows: Iterable[Row], *, header: bool = False) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    if header:
        writer.writerow([column.key for column in table.columns])
    for row in rows:
        writer.writerow(
            [cell(column.kind, value) for column, value in zip(table.columns, row, strict=True)]
        )
    return buffer.getvalue()


async def stream(table: Table) -> AsyncIterator[str]:
    """The header, then the rows (every chunk of a large table, else the rows shown)."""
    yield _lines(table, [], header=True)
    if table.chunks is None:
        yield _lines(table, table.rows)
        return
    async for chunk in table.chunks():
        yield _lines(table, chunk)
