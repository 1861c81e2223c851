"""Where money statements execute: the one module that touches the database driver.

The hot paths' statements are SQLAlchemy Core constructs, built once. On PostgreSQL they run
here on the **asyncpg connection underneath the caller's session** — the same pooled
connection and the same transaction as everything else the request does — because
SQLAlchemy's async layer (greenlet hand-offs, the adapter's cursor emulation, result set-up)
caps a request at about a third of what the database can do (docs/benchmarks.md, the ceiling
rows; ADR 0014). On SQLite they run through ``session.execute`` as any other statement. Both
databases get the same statements, the same rows back (plain tuples) and the same SQLAlchemy
exceptions (``IntegrityError`` …), so the code that calls this module has one implementation.

Each statement is compiled once per dialect (and per length of its expanding ``IN`` lists):
the SQL text, the order of its positional parameters, the types' bind and result processors.
asyncpg prepares it once per connection (its own statement cache). The result processors are
the ones SQLAlchemy's asyncpg dialect picks for each column from the type the database reports
for it (``cursor.description``), which some depend on: a ``Float`` or ``Numeric`` converts only
when the database's type is not the one it returns (asyncpg gives a ``float`` for a double
precision, a ``Decimal`` for a numeric). So they are picked at a statement's first run here,
from the column types asyncpg's prepared statement describes.

The pitfall (ARCHITECTURE.md, "Where money statements execute"): SQLAlchemy's asyncpg adapter
opens the driver's transaction lazily, on its first statement. A raw statement sent before that
would run in asyncpg's autocommit and survive a rollback, so :func:`_driver` opens it first.
Pending ORM changes are flushed first too, as SQLAlchemy's autoflush would, so a raw statement
sees what the unit of work has written.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy import event, exc, inspect, text
from sqlalchemy.engine import Dialect
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, AsyncSession
from sqlalchemy.sql import Executable
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.dml import UpdateBase
from sqlalchemy.types import TypeEngine

from pao.core import reserve

T = TypeVar("T")
Params = Mapping[str, Any]
_Processor = Callable[[Any], Any]


@dataclass(slots=True)
class _Compiled:
    sql: str
    names: tuple[str, ...]
    binds: tuple[Any, ...]  # a bind processor (or None) per positional parameter
    types: tuple[TypeEngine[Any], ...]  # of the columns it returns
    defaults: dict[str, Callable[[], Any]] | None  # Python-side defaults of columns not given
    # (column position, its result processor) for the columns that need one, or None when
    # none does: picked at the statement's first run (_results) if it returns columns.
    results: tuple[tuple[int, _Processor], ...] | None = None
    picked: bool = False


_compiled: dict[tuple[Any, ...], _Compiled] = {}
# The statement is kept in the value: an id() stays unique while its object lives.
_base: dict[
    tuple[int, str, frozenset[str]],
    tuple[SQLCompiler, tuple[str, ...], dict[str, Any] | None, Executable],
] = {}
_INFO_KEY = "pao.executor.driver"


def _compile(statement: Executable, dialect: Dialect, params: Params) -> tuple[_Compiled, Params]:
    """The statement compiled for ``dialect``, and ``params`` with the values of the binds
    that the statement carries itself (``.where(x == 5)``) merged in."""
    # INSERT and UPDATE compile for the columns given (as SQLAlchemy's execute does); a
    # column left out whose default is computed in Python is filled in by _args.
    dml = isinstance(statement, UpdateBase)
    columns = frozenset(params) if dml else frozenset()
    base = _base.get((id(statement), dialect.name, columns))
    if base is None:
        compiled = statement.compile(  # type: ignore[attr-defined]
            dialect=dialect, column_keys=sorted(columns) if dml else None
        )
        assert isinstance(compiled, SQLCompiler)
        names = tuple(
            compiled.bind_names[bind] for bind in compiled.binds.values() if bind.expanding
        )
        own: dict[str, Any] = {
            name: value
            for name, value in compiled.construct_params(_check=False).items()
            if value is not None
        }
        base = _base[(id(statement), dialect.name, columns)] = (
            compiled,
            names,
            own or None,
            statement,
        )
    compiled, expanding, carried, _ = base
    if carried is not None:
        params = {**carried, **params}
    key: tuple[Any, ...] = (
        id(statement),
        dialect.name,
        columns,
        *(len(params[name]) for name in expanding),
    )
    found = _compiled.get(key)
    if found is not None:
        return found, params
    processors: Mapping[str, Any]
    if expanding:
        state = compiled.construct_expanded_state({name: params[name] for name in expanding})
        sql, names, processors = state.statement, tuple(state.positiontup or ()), state.processors
    else:
        sql, names = compiled.string, tuple(compiled.positiontup or ())
        processors = compiled._bind_processors
    binds = tuple(processors.get(name) for name in names)
    defaults = {
        column.key: _default(column)
        for column in (*compiled.insert_prefetch, *compiled.update_prefetch)
    }
    types = tuple(column.type for column in _returned_columns(statement))
    found = _Compiled(sql, tuple(names), binds, types, defaults or None, picked=not types)
    _compiled[key] = found
    return found, params


async def _results(
    compiled: _Compiled, dialect: Dialect, connection: Any
) -> tuple[tuple[int, _Processor], ...] | None:
    """The result processors SQLAlchemy's asyncpg dialect would use for ``compiled``'s columns:
    each type's for the type (OID) the database reports for that column, as the dialect's
    cursor reports it in ``description``. Asking asyncpg for the prepared statement here costs
    no round trip: it is the one its statement cache keeps for the run that follows
    (``Connection.fetch`` prepares through the same cache). ``_prepare(use_cache=True)`` is
    asyncpg's private way in to that cache (0.32; the public ``prepare`` bypasses it and would
    parse the statement a second time), covered by tests/integration/test_executor.py."""
    prepared = await connection._prepare(compiled.sql, use_cache=True)
    oids = [attribute.type.oid for attribute in prepared.get_attributes()]
    results = tuple(
        (position, process)
        for position, (type_, oid) in enumerate(zip(compiled.types, oids, strict=True))
        if (process := type_._cached_result_processor(dialect, oid)) is not None
    )
    return results or None


def _default(column: Any) -> Callable[[], Any]:
    """A column's Python-side default (``default=utcnow``, ``default=0``) as a function."""
    default = column.onupdate if column.default is None else column.default
    if default.is_callable:
        return lambda: default.arg(None)
    value = default.arg
    return lambda: value


def _returned_columns(statement: Executable) -> Sequence[Any]:
    selected = getattr(statement, "selected_columns", None)
    if selected is not None:
        return list(selected)
    returning = getattr(statement, "_returning", ())
    return [column for element in returning for column in _expand(element)]


def _expand(element: Any) -> Sequence[Any]:
    # returning(table) → its columns; returning(column) → the column.
    columns = getattr(element, "columns", None)
    return list(columns) if columns is not None and not hasattr(element, "type") else [element]


def _args(compiled: _Compiled, params: Params) -> list[Any]:
    if compiled.defaults is not None:
        params = {**{k: make() for k, make in compiled.defaults.items()}, **params}
    args = []
    for name, process in zip(compiled.names, compiled.binds, strict=True):
        base, _, index = name.rpartition("_")
        if name in params:
            value = params[name]
        elif base and index.isdigit():  # an expanded IN list: ids_1, ids_2, …
            value = params[base][int(index) - 1]
        else:
            value = None
        args.append(process(value) if process is not None and value is not None else value)
    return args


async def _driver(session: AsyncSession) -> Any:
    """The asyncpg connection under ``session``'s transaction, with that transaction open on
    the driver (ARCHITECTURE.md: a raw statement before it would be autocommitted)."""
    if not session.sync_session._is_clean():
        await session.flush()
    transaction = session.sync_session.get_transaction()
    cached = session.info.get(_INFO_KEY)
    if cached is not None and transaction is not None and cached[0] is transaction:
        adapter = cached[1]
    else:
        connection = await session.connection()
        adapter = (await connection.get_raw_connection()).dbapi_connection
        session.info[_INFO_KEY] = (session.sync_session.get_transaction(), adapter)
    if adapter._transaction is None:
        try:
            await adapter._start_transaction()
        except Exception as error:
            # A connection whose end the server announced while it sat in the pool can fail
            # its BEGIN before asyncpg has seen it closed ("another operation is in
            # progress"). It will never serve again: closed at once (its socket, not a
            # goodbye it could not send), invalidated so that the pool drops it, and the
            # request gets the outage answer (a 503), as a statement that found the drop does.
            adapter._connection.terminate()
            await (await session.connection()).invalidate()
            raise exc.DBAPIError.instance(
                "BEGIN",
                None,
                error,
                adapter.dbapi.Error,
                hide_parameters=True,
                connection_invalidated=True,
            ) from error
    return adapter


async def _connection(session: AsyncSession) -> AsyncConnection:
    """SQLite: the session's connection, after the autoflush that ``session.execute`` does.
    Core rows (columns, not ORM entities) come back for ``select(Model)`` too."""
    if not session.sync_session._is_clean():
        await session.flush()
    return await session.connection()


def _wrap(adapter: Any, error: Exception, sql: str) -> exc.StatementError:
    try:
        adapter._handle_exception(error)
    except Exception as translated:  # the DB-API flavour of the driver's error
        return exc.DBAPIError.instance(
            sql, None, translated, adapter.dbapi.Error, hide_parameters=True
        )
    raise AssertionError("unreachable")  # pragma: no cover


def on_postgres(session: AsyncSession) -> bool:
    """Whether ``session`` runs on PostgreSQL: the statements go on the driver here, and the
    recipes that are one function there (ADR 0018) are called instead of their steps."""
    return session.get_bind().dialect.name == "postgresql"


# Called with the SQL of every statement sent here; see recorded().
listeners: list[Callable[[str], None]] = []


@contextmanager
def recorded(engine: AsyncEngine) -> Iterator[list[str]]:
    """Every statement sent to ``engine``'s database while inside, through SQLAlchemy or here
    on the driver, whitespace collapsed (for tests and bench/sqlcheck.py)."""
    statements: list[str] = []

    def record(sql: str) -> None:
        statements.append(" ".join(sql.split()))

    def before(_conn: Any, _cursor: Any, sql: str, *_args: Any) -> None:
        record(sql)

    event.listen(engine.sync_engine, "before_cursor_execute", before)
    listeners.append(record)
    try:
        yield statements
    finally:
        listeners.remove(record)
        event.remove(engine.sync_engine, "before_cursor_execute", before)


async def fetch(
    session: AsyncSession, statement: Executable, params: Params | None = None
) -> list[tuple[Any, ...]]:
    """Run ``statement`` in ``session``'s transaction; its rows as tuples (column order)."""
    params = params or {}
    if not on_postgres(session):
        return [tuple(row) for row in await (await _connection(session)).execute(statement, params)]
    return await _fetch_on(await _driver(session), session.get_bind().dialect, statement, params)


async def fetch_alone(
    engine: AsyncEngine, statement: Executable, params: Params | None = None
) -> list[tuple[Any, ...]]:
    """Run ``statement`` by itself, committed, on a connection of ``engine``'s pool: for a
    statement that is a whole transaction on its own (a seamless callback's function and its
    token read, ADR 0033), without a session's set-up and tear-down around it (half the cost of
    such a call in process). On PostgreSQL in autocommit (nothing opens a transaction, so none
    is left to end); on SQLite in a transaction of its own."""
    if engine.dialect.name != "postgresql":
        async with engine.begin() as connection:
            return [tuple(row) for row in await connection.execute(statement, params or {})]
    # The pool's connection itself, not an AsyncConnection around it (a third of the cost of
    # a call's checkout and return), and mostly one kept out of the pool between such
    # statements (pao.core.reserve: the rest of that cost).
    async with reserve.kept(engine) as pooled:
        return await _fetch_on(pooled.dbapi_connection, engine.dialect, statement, params or {})


async def fetch_in_request(
    engine: AsyncEngine, session: AsyncSession, statement: Executable, params: Params
) -> tuple[list[tuple[Any, ...]], bool]:
    """A statement that is a whole transaction on its own, in a request that has a session,
    and whether it ran alone (committed when this returns). Alone (:func:`fetch_alone`),
    unless the session already holds a connection (it read the settings, or a provider's
    state), in whose transaction it then runs, to be committed with it: a request never holds
    two of the pool's connections at once (a burst of requests each holding one and waiting
    for a second would wait on each other until the pool's timeout)."""
    if session.in_transaction():
        return await fetch(session, statement, params), False
    return await fetch_alone(engine, statement, params), True


async def read(
    engine: AsyncEngine, session: AsyncSession, statement: Executable, params: Params
) -> list[tuple[Any, ...]]:
    """A read route's statement (:class:`pao.core.uow.ReadRoute`: no transaction to be part
    of). On PostgreSQL run alone (:func:`fetch_alone`), as the route's autocommit session would
    run it, without the session's execution around it; on SQLite in the route's session (a
    transaction of its own there would take the write lock: ``BEGIN IMMEDIATE``)."""
    if engine.dialect.name != "postgresql":
        return [tuple(row) for row in await session.execute(statement, params)]
    return await fetch_alone(engine, statement, params)


async def execute_alone(engine: AsyncEngine, sql: str) -> None:
    """Run ``sql`` by itself as :func:`fetch_alone` does, for a constant statement whose rows
    are not wanted (the health probe's ``SELECT 1``): on PostgreSQL the driver's simple query,
    one round trip with nothing prepared."""
    if engine.dialect.name != "postgresql":
        async with engine.begin() as connection:
            await connection.execute(text(sql))
        return
    async with reserve.kept(engine) as pooled:
        await pooled.driver_connection.execute(sql)  # type: ignore[union-attr]


async def _fetch_on(
    adapter: Any, dialect: Dialect, statement: Executable, params: Params
) -> list[tuple[Any, ...]]:
    compiled, params = _compile(statement, dialect, params)
    for listener in listeners:
        listener(compiled.sql)
    try:
        if not compiled.picked:
            compiled.results = await _results(compiled, dialect, adapter._connection)
            compiled.picked = True
        records = await adapter._connection.fetch(compiled.sql, *_args(compiled, params))
    except Exception as error:
        raise _wrap(adapter, error, compiled.sql) from error
    processors = compiled.results
    if processors is None:
        return [tuple(record) for record in records]
    rows = []
    for record in records:
        row = list(record)
        for position, process in processors:
            row[position] = process(row[position])
        rows.append(tuple(row))
    return rows


async def fetch_one_or_none(
    session: AsyncSession, statement: Executable, params: Params | None = None
) -> tuple[Any, ...] | None:
    rows = await fetch(session, statement, params)
    return rows[0] if rows else None


async def execute_many(
    session: AsyncSession, statement: Executable, rows: Sequence[Params]
) -> None:
    """Run a DML ``statement`` once per parameter set (one pipelined round trip on asyncpg)."""
    if not rows:
        return
    if not on_postgres(session):
        await (await _connection(session)).execute(statement, list(rows))
        return
    compiled, _ = _compile(statement, session.get_bind().dialect, rows[0])
    args = [_args(compiled, _compile(statement, session.get_bind().dialect, p)[1]) for p in rows]
    adapter = await _driver(session)
    for listener in listeners:
        listener(compiled.sql)
    try:
        await adapter._connection.executemany(compiled.sql, args)
    except Exception as error:
        raise _wrap(adapter, error, compiled.sql) from error


def set_committed_values(obj: object, values: Mapping[str, Any]) -> None:
    """``set_committed_value`` for several column attributes at once: the values set as if
    loaded (no change recorded for a flush), with one ``InstanceState._commit`` for all of
    them as a load does, not one per attribute."""
    state = inspect(obj)
    state.dict.update(values)
    state._commit(state.dict, values.keys())


@dataclass(frozen=True, slots=True)
class _Shape:
    keys: tuple[str, ...]  # the column attributes, in the order select(model) returns them
    primary_key: tuple[int, ...]  # where the primary key's columns are in that order


_shapes: dict[Any, _Shape] = {}


def _shape(mapper: Any) -> _Shape:
    shape = _shapes.get(mapper)
    if shape is None:
        keys = tuple(prop.key for prop in mapper.column_attrs)
        positions = (keys.index(mapper.get_property_by_column(c).key) for c in mapper.primary_key)
        shape = _shapes[mapper] = _Shape(keys, tuple(positions))
    return shape


def persist(session: AsyncSession, obj: object, row: Sequence[Any]) -> None:
    """``obj`` (transient) gets ``row`` (its columns in ``select(model)``'s order, as read here
    or returned by an INSERT) and becomes persistent in ``session``, as a query's load makes an
    object (``sqlalchemy.orm.loading``): its identity key, its session, its place in the
    identity map, every value committed, no change left for a flush.

    ``make_transient_to_detached`` and ``Session.add`` reach the same state through the attach
    events and a walk of the relationship cascades: for the five to eight objects a money
    request reads or writes, about a twentieth of its CPU (docs/benchmarks.md). The private
    calls are those of the loading code, listed in ADR 0014; ``test_executor.py`` checks the
    object against one loaded by a query."""
    state = inspect(obj)
    mapper = state.mapper
    shape = _shape(mapper)
    identity = mapper.identity_key_from_primary_key([row[i] for i in shape.primary_key])
    state.dict.update(zip(shape.keys, row, strict=True))
    sync = session.sync_session
    state.key = identity
    state.identity_token = identity[2]
    state.session_id = sync.hash_key
    sync.identity_map._add_unpresent(state, identity)
    state._commit_all(state.dict, sync.identity_map)


def persist_written(session: AsyncSession, obj: object) -> None:
    """:func:`persist` for an object that a statement sent here has just written as it stands
    (a server-side function's row, ADR 0018): its own values, every column set, are the row."""
    state = inspect(obj)
    persist(session, obj, [state.dict[prop.key] for prop in state.mapper.column_attrs])


def attach(session: AsyncSession, model: type[T], row: Sequence[Any]) -> T:
    """The ORM object of ``model`` for a row of ``select(model)`` read here, in ``session`` as
    if loaded: the object already in the identity map is refreshed (``populate_existing``),
    otherwise a new one is made persistent (:func:`persist`)."""
    mapper = inspect(model)
    shape = _shape(mapper)
    identity = mapper.identity_key_from_primary_key([row[i] for i in shape.primary_key])
    existing: T | None = session.sync_session.identity_map.get(identity)
    if existing is not None:
        set_committed_values(existing, dict(zip(shape.keys, row, strict=True)))
        return existing
    obj: T = mapper.class_manager.new_instance()
    persist(session, obj, row)
    return obj
