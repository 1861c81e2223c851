"""``pao ops backup`` then ``pao ops restore`` into a fresh database: the same books.

On SQLite (the online backup API) and, with PAO_TEST_DATABASE_URL, on PostgreSQL (pg_dump on
an exported snapshot, pg_restore in one transaction), with the uploads beside the database.
"""

from __future__ import annotations

import asyncio
import getpass
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import make_url, text
from sqlalchemy.ext.asyncio import AsyncSession, create_async_engine
from typer.testing import CliRunner, Result

from pao.cli import app
from pao.core.settings import get_settings
from tests.conftest import PG_URL
from tests.integration.test_cli import add_member, add_withdrawal, balance_of, db

runner = CliRunner()


def cli(*args: str) -> Result:
    return runner.invoke(app, list(args))


def _admin(statement: str) -> None:
    assert PG_URL

    async def main() -> None:
        admin = create_async_engine(
            make_url(PG_URL).set(database="postgres"), isolation_level="AUTOCOMMIT"
        )
        try:
            async with admin.connect() as conn:
                await conn.execute(text(statement))
        finally:
            await admin.dispose()

    asyncio.run(main())


@pytest.fixture(params=["sqlite", "postgres"])
def databases(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[str | None, str | None]]:
    """(source URL, fresh target URL); None = SQLite in the data directory."""
    monkeypatch.setenv("PAO_ENV", "test")
    monkeypatch.setattr(getpass, "getuser", lambda: "alice")
    if request.param == "sqlite":
        yield None, None
        return
    if not PG_URL:
        pytest.skip("PAO_TEST_DATABASE_URL is not set")
    base = make_url(PG_URL)
    names = [f"{base.database}_bk_{uuid.uuid4().hex[:8]}" for _ in range(2)]
    for name in names:
        _admin(f'CREATE DATABASE "{name}"')
    try:
        yield tuple(  # type: ignore[misc]
            base.set(database=name).render_as_string(hide_password=False) for name in names
        )
    finally:
        for name in names:
            _admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _use(monkeypatch: pytest.MonkeyPatch, data_dir: Path, url: str | None) -> None:
    monkeypatch.setenv("PAO_DATA_DIR", str(data_dir))
    if url is None:
        monkeypatch.delenv("PAO_DATABASE_URL", raising=False)
    else:
        monkeypatch.setenv("PAO_DATABASE_URL", url)
    get_settings.cache_clear()


def balances(phones: tuple[str, ...]) -> dict[str, int]:
    async def read(session: AsyncSession) -> dict[str, int]:
        return {phone: await balance_of(session, phone) for phone in phones}

    return db(read)


def test_a_backup_restores_into_a_fresh_database_with_the_same_books(
    databases: tuple[str | None, str | None], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source_url, target_url = databases
    _use(monkeypatch, tmp_path / "live", source_url)
    assert cli("migrate").exit_code == 0
    # Money in every state: a credit, a withdrawal on hold, a manual deposit by the CLI.
    db(lambda s: add_member(s, "0811111111", 1_000_00))
    db(lambda s: add_member(s, "0822222222", 500_00))
    db(lambda s: add_withdrawal(s, "0811111111", 300_00))
    assert cli("ops", "deposit", "0822222222", "250.50", "--note", "counter").exit_code == 0
    slip = tmp_path / "live" / "uploads" / "slips" / "2026" / "slip-1.jpg"
    slip.parent.mkdir(parents=True)
    slip.write_bytes(b"\xff\xd8 a slip")
    before = balances(("0811111111", "0822222222"))

    made = cli("ops", "backup", str(tmp_path / "backups"))
    assert made.exit_code == 0, made.output
    assert "books balanced" in made.stdout
    assert "1 uploaded files" in made.stdout
    (backup,) = (tmp_path / "backups").iterdir()

    _use(monkeypatch, tmp_path / "restored", target_url)
    restored = cli("ops", "restore", str(backup))
    assert restored.exit_code == 0, restored.output
    assert "books balanced" in restored.stdout
    after = balances(tuple(before))
    assert after == before == {"0811111111": 700_00, "0822222222": 750_50}
    assert (tmp_path / "restored" / "uploads" / "slips" / "2026" / "slip-1.jpg").read_bytes() == (
        b"\xff\xd8 a slip"
    )
    # The restored database serves: the CLI works on it, migrations are at head.
    assert cli("migrate").exit_code == 0

    # A second restore would mix two histories: refused.
    again = cli("ops", "restore", str(backup))
    assert again.exit_code == 1
    assert "not empty" in again.stderr
