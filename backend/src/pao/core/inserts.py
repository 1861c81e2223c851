"""``insert_now``: write one new ORM object with a single ``INSERT … RETURNING`` at once.

The ORM's unit of work (``session.add`` + ``flush``) costs about three times the CPU of the
same insert in Core, and the money paths insert several rows per request (entry, hold,
withdrawal, statement line): on the hot paths that difference is most of a request's cost
(docs/benchmarks.md). ``insert_now`` keeps the ORM's model classes, column defaults and types,
sends one prebuilt Core statement per (table, set columns), and hands the object back attached
to the session, exactly as if it had been added and flushed.
"""

from __future__ import annotations

from typing import Any, TypeVar

from sqlalchemy import Insert, Table, insert, inspect
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import make_transient_to_detached
from sqlalchemy.orm.attributes import set_committed_value

from pao.core import executor

T = TypeVar("T")

# Prebuilt statements: a statement object reused keeps its compiled form and cache key.
_statements: dict[tuple[Table, frozenset[str]], Insert] = {}


async def insert_now(session: AsyncSession, obj: T) -> T:
    """INSERT ``obj`` (a new, transient model instance) and make it persistent in ``session``.

    Columns the caller did not set get their column defaults, as with ``flush``; every column
    the database returns (ids, defaults) is set on ``obj``."""
    state = inspect(obj)
    mapper = state.mapper
    table: Any = mapper.local_table
    params = {
        prop.columns[0].key: state.dict[prop.key]
        for prop in mapper.column_attrs
        if prop.key in state.dict
    }
    key = (table, frozenset(params))
    statement = _statements.get(key)
    if statement is None:
        # RETURNING in the order of the mapper's attributes, which the loop above zips with.
        statement = _statements[key] = insert(table).returning(
            *(prop.columns[0] for prop in mapper.column_attrs)
        )
    # On PostgreSQL on the driver, in the session's transaction (pao.core.executor).
    row = (await executor.fetch(session, statement, params))[0]
    for prop, value in zip(mapper.column_attrs, row, strict=True):
        set_committed_value(obj, prop.key, value)
    make_transient_to_detached(obj)
    session.add(obj)
    return obj
