"""``insert_now``: write one new ORM object with a single ``INSERT … RETURNING`` at once;
``update_now``: change columns of one loaded ORM object with a single ``UPDATE`` at once.

The ORM's unit of work (``session.add`` + ``flush``) costs about three times the CPU of the
same insert in Core, and the money paths insert several rows per request (entry, hold,
withdrawal, statement line): on the hot paths that difference is most of a request's cost
(docs/benchmarks.md). ``insert_now`` keeps the ORM's model classes, column defaults and types,
sends one prebuilt Core statement per (table, set columns), and hands the object back attached
to the session, exactly as if it had been added and flushed. ``update_now`` does the same for
a change of a row already loaded (a status and its companions): the values are sent by primary
key and set on the object as committed, so no flush has anything left to write.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

from sqlalchemy import Insert, Table, Update, bindparam, insert, inspect, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession

from pao.core import executor

T = TypeVar("T")

# Prebuilt statements: a statement object reused keeps its compiled form and cache key.
_statements: dict[tuple[Table, frozenset[str]], Insert] = {}
_updates: dict[tuple[Table, frozenset[str]], Update] = {}
_unless_present: dict[tuple[Table, frozenset[str], str], dict[str, Insert]] = {}


async def insert_now(session: AsyncSession, obj: T) -> T:
    """INSERT ``obj`` (a new, transient model instance) and make it persistent in ``session``.

    Columns the caller did not set get their column defaults, as with ``flush``; every column
    the database returns (ids, defaults) is set on ``obj``."""
    table, columns, params = _insertion(obj)
    key = (table, frozenset(params))
    statement = _statements.get(key)
    if statement is None:
        statement = _statements[key] = insert(table).returning(*columns)
    # On PostgreSQL on the driver, in the session's transaction (pao.core.executor).
    executor.persist(session, obj, (await executor.fetch(session, statement, params))[0])
    return obj


async def insert_now_unless_present(session: AsyncSession, obj: T, *, unique: str) -> T | None:
    """:func:`insert_now`, unless a row with ``obj``'s value of the unique column ``unique``
    exists (:func:`insert_unless_present`): then ``None``, and ``obj`` stays transient. One
    statement where a savepoint around a plain INSERT, to survive its IntegrityError, is
    three."""
    table, columns, params = _insertion(obj)
    key = (table, frozenset(params), unique)
    statements = _unless_present.get(key)
    if statements is None:
        statements = _unless_present[key] = insert_unless_present(
            table, unique=[unique], returning=columns
        )
    statement = statements[session.get_bind().dialect.name]
    row = await executor.fetch_one_or_none(session, statement, params)
    if row is None:
        return None
    executor.persist(session, obj, row)
    return obj


def _insertion(obj: object) -> tuple[Any, list[Any], dict[str, Any]]:
    """(table, every column in the mapper's attribute order, the values set on ``obj``)."""
    state = inspect(obj)
    mapper = state.mapper
    given = state.dict
    params = {
        prop.columns[0].key: given[prop.key] for prop in mapper.column_attrs if prop.key in given
    }
    # RETURNING in the order of the mapper's attributes, which executor.persist zips with.
    return mapper.local_table, [prop.columns[0] for prop in mapper.column_attrs], params


async def update_now(session: AsyncSession, obj: object, values: Mapping[str, Any]) -> None:
    """``UPDATE`` the row of ``obj`` (persistent, found by its primary key) with ``values``
    (attribute → value) at once, and set them on ``obj`` as committed."""
    state = inspect(obj)
    mapper = state.mapper
    table: Any = mapper.local_table
    key = (table, frozenset(values))
    statement = _updates.get(key)
    if statement is None:
        (primary_key,) = mapper.primary_key
        statement = _updates[key] = (
            update(table)
            .where(primary_key == bindparam("pk_"))
            .values(
                {
                    mapper.attrs[name].columns[0]: bindparam(
                        f"v_{name}", type_=mapper.attrs[name].columns[0].type
                    )
                    for name in sorted(values)
                }
            )
        )
    (identity,) = mapper.primary_key_from_instance(obj)
    params = {"pk_": identity, **{f"v_{name}": value for name, value in values.items()}}
    await executor.execute_many(session, statement, [params])
    executor.set_committed_values(obj, values)


def insert_unless_present(
    table: Any, *, unique: Sequence[str], returning: Sequence[Any]
) -> dict[str, Insert]:
    """``INSERT … ON CONFLICT (unique) DO NOTHING RETURNING …``, per dialect name (each
    dialect spells ON CONFLICT with its own ``insert()``): a row that collides on ``unique`` is
    not written and no row comes back. On PostgreSQL a concurrent insert of the same values
    waits on the unique index until the first transaction ends, as a plain INSERT would, and
    writes only if that one rolled back. Pick with ``session.get_bind().dialect.name``."""
    return {
        name: dialect_insert(table)
        .on_conflict_do_nothing(index_elements=list(unique))
        .returning(*returning)
        for name, dialect_insert in (("postgresql", postgresql.insert), ("sqlite", sqlite.insert))
    }
