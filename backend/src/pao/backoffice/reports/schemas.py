"""Wire shapes of the reports (camelCase; money cells in major units)."""

from __future__ import annotations

from datetime import date

from pydantic import Field

from pao.backoffice.dashboard.schemas import DashboardQuery
from pao.backoffice.schemas import _Wire
from pao.kit.money import Currency, to_major
from pao.reports.catalogue import ReportName
from pao.reports.tables import Kind, Table

Cell = str | int | float | None


class ReportQuery(DashboardQuery):
    """The same range as the dashboard's: [from, to] in the operator's days, ≤ 366 days."""


class ColumnOut(_Wire):
    key: str
    kind: Kind = Field(description="How to show a cell: money is in major units.")


class TableOut(_Wire):
    name: str
    columns: list[ColumnOut]
    rows: list[list[Cell]]

    @classmethod
    def of(cls, table: Table) -> TableOut:
        kinds = [column.kind for column in table.columns]
        return cls(
            name=table.name,
            columns=[ColumnOut(key=column.key, kind=column.kind) for column in table.columns],
            rows=[
                [_cell(kind, value) for kind, value in zip(kinds, row, strict=True)]
                for row in table.rows
            ],
        )


def _cell(kind: Kind, value: object) -> Cell:
    if value is None:
        return None
    if kind is Kind.MONEY and isinstance(value, int):
        return to_major(value)
    if kind is Kind.DAY and isinstance(value, date):
        return value.isoformat()
    if isinstance(value, str | int | float):
        return value
    return str(value)


class ReportOut(_Wire):
    report: ReportName
    first: date = Field(alias="from")
    last: date = Field(alias="to")
    currency: Currency
    tables: list[TableOut]
