"""The sandbox's store is shared by every ``pao serve`` process on one data dir: its tables are
created under SQLite's write lock, so that processes starting together never collide."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Column, Integer, MetaData, event, inspect, text

import pao.sandbox.router  # noqa: F401  (registers the sandbox's tables)
from pao.core.settings import Settings
from pao.sandbox.store import (
    SandboxBase,
    create_sandbox_engine,
    fingerprint,
    init_sandbox_store,
    schema_fingerprint,
)

# Also on SQLite (tests/databases.py): the sandbox store under SQLite's write lock.
pytestmark = pytest.mark.sqlite


async def test_tables_are_created_under_the_write_lock(tmp_path: Path) -> None:
    engine = create_sandbox_engine(Settings(data_dir=tmp_path))
    statements: list[str] = []

    def record(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        statements.append(statement.strip().split()[0].upper() + " " + statement.split()[1])

    event.listen(engine.sync_engine, "before_cursor_execute", record)
    try:
        await init_sandbox_store(engine)
        # The lock is taken before the existence checks, not only at the first CREATE.
        assert statements[0] == "BEGIN IMMEDIATE", statements[:3]
        assert any(s.startswith("CREATE") for s in statements)
        # A second process starting on the same file finds the tables and creates none: the
        # stamp alone says the schema is there, no table is even looked for.
        again = create_sandbox_engine(Settings(data_dir=tmp_path))
        statements.clear()
        event.listen(again.sync_engine, "before_cursor_execute", record)
        await init_sandbox_store(again)
        assert not [s for s in statements if s.startswith("CREATE")]
        assert statements == ["BEGIN IMMEDIATE", "PRAGMA user_version"], statements
        async with again.connect() as connection:
            tables = await connection.run_sync(lambda c: inspect(c).get_table_names())
        assert "sandbox_sms" in tables
        await again.dispose()
    finally:
        await engine.dispose()


async def test_a_file_of_another_schema_gets_its_missing_tables_and_the_stamp(
    tmp_path: Path,
) -> None:
    engine = create_sandbox_engine(Settings(data_dir=tmp_path))
    try:
        await init_sandbox_store(engine)
        # As a file of an older sandbox: a table missing, and that schema's stamp.
        async with engine.begin() as connection:
            await connection.exec_driver_sql("DROP TABLE sandbox_sms")
            await connection.exec_driver_sql("PRAGMA user_version = 7")
        await init_sandbox_store(engine)
        async with engine.connect() as connection:
            tables = await connection.run_sync(lambda c: inspect(c).get_table_names())
            stamp = await connection.scalar(text("PRAGMA user_version"))
        assert "sandbox_sms" in tables
        assert stamp == schema_fingerprint()
    finally:
        await engine.dispose()


def test_the_stamp_follows_the_schema() -> None:
    def copy() -> MetaData:
        metadata = MetaData()
        for table in SandboxBase.metadata.sorted_tables:
            table.to_metadata(metadata)
        return metadata

    same, changed = copy(), copy()
    assert fingerprint(same) == fingerprint(changed)
    changed.tables["sandbox_sms"].append_column(Column("added_later", Integer))
    assert fingerprint(same) != fingerprint(changed)
    assert 0 < schema_fingerprint() < 2**31
