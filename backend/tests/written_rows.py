"""What a piece of code wrote: the rows added to some tables since a mark, for the tests that
hold a money function to its steps (ADR 0018) or check that a refusal wrote nothing."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import Table, select
from sqlalchemy.ext.asyncio import AsyncSession

from pao.core.db import Base


async def high_marks(session: AsyncSession, tables: Iterable[str]) -> dict[str, int]:
    """Each table's highest id now (0 when empty)."""
    marks = {}
    for name in tables:
        table = Base.metadata.tables[name]
        rows = await session.execute(select(table.c.id).order_by(table.c.id.desc()).limit(1))
        marks[name] = rows.scalar() or 0
    return marks


async def rows_after(
    session: AsyncSession, marks: dict[str, int]
) -> dict[str, list[dict[str, Any]]]:
    """Every row written since ``marks`` (table → highest id then), by table, in id order."""
    written: dict[str, list[dict[str, Any]]] = {}
    for name, mark in marks.items():
        table: Table = Base.metadata.tables[name]
        result = await session.execute(select(table).where(table.c.id > mark).order_by(table.c.id))
        written[name] = [dict(row._mapping) for row in result]
    return written
