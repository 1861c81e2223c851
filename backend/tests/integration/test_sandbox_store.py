"""The sandbox's store is shared by every ``pao serve`` process on one data dir: its tables are
created under SQLite's write lock, so that processes starting together never collide."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event, inspect

import pao.sandbox.router  # noqa: F401  (registers the sandbox's tables)
from pao.core.settings import Settings
from pao.sandbox.store import create_sandbox_engine, init_sandbox_store

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
        # A second process starting on the same file finds the tables and creates none.
        again = create_sandbox_engine(Settings(data_dir=tmp_path))
        statements.clear()
        event.listen(again.sync_engine, "before_cursor_execute", record)
        await init_sandbox_store(again)
        assert not [s for s in statements if s.startswith("CREATE")]
        async with again.connect() as connection:
            tables = await connection.run_sync(lambda c: inspect(c).get_table_names())
        assert "sandbox_sms" in tables
        await again.dispose()
    finally:
        await engine.dispose()
