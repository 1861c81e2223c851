"""The migrations build exactly the schema the models describe, on both databases, and the
database guards (the ledger's, the member changes' append-only triggers) come with them."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import make_url, text
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import create_async_engine

import pao.models  # noqa: F401
from pao.core.db import Base
from pao.core.migrate import upgrade
from pao.core.settings import Settings

from ..conftest import DATABASES, PG_URL


@pytest.fixture(params=DATABASES)
async def empty_database(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'migrated.db'}"
        return
    assert PG_URL
    name = f"pao_migrations_{uuid.uuid4().hex[:8]}"
    admin = create_async_engine(
        make_url(PG_URL).set(database="postgres"), isolation_level="AUTOCOMMIT"
    )
    async with admin.connect() as conn:
        await conn.execute(text(f'CREATE DATABASE "{name}"'))
    yield make_url(PG_URL).set(database=name).render_as_string(hide_password=False)
    async with admin.connect() as conn:
        await conn.execute(text(f'DROP DATABASE "{name}" WITH (FORCE)'))
    await admin.dispose()


def _diff(connection: Connection) -> list[object]:
    context = MigrationContext.configure(connection, opts={"compare_type": True})
    return list(compare_metadata(context, Base.metadata))


async def test_migrations_match_the_models(empty_database: str, tmp_path: Path) -> None:
    settings = Settings(database_url=empty_database, data_dir=tmp_path)
    await upgrade(settings)
    await upgrade(settings)  # a second run is a no-op
    engine = create_async_engine(empty_database)
    async with engine.connect() as conn:
        assert await conn.run_sync(_diff) == []
        if conn.dialect.name == "postgresql":
            triggers = {
                row[0]
                for row in await conn.execute(
                    text("SELECT tgname FROM pg_trigger WHERE NOT tgisinternal")
                )
            }
            assert {
                "postings_balanced",
                "postings_append_only",
                "member_changes_append_only",
            } <= triggers
        else:
            triggers = {
                row[0]
                for row in await conn.execute(
                    text("SELECT name FROM sqlite_master WHERE type = 'trigger'")
                )
            }
            assert {
                "postings_no_update",
                "journal_entries_no_delete",
                "member_changes_no_update",
                "member_changes_no_delete",
            } <= triggers
    await engine.dispose()
