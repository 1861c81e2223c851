"""Which database each test runs on, and the check that SQLite keeps every money path.

PostgreSQL is production: with ``PAO_TEST_DATABASE_URL`` set, every database test runs on it.
SQLite is the embedded default (``make run``): there a test runs only when its behaviour can
differ on SQLite (migrations, the executor's two paths, SQLite's write locking, the money
recipes' steps, which PostgreSQL replaces by one statement, ``make run``'s own flow). Such a
test (or module, through ``pytestmark``) declares it with ``@pytest.mark.sqlite``. Without
PostgreSQL, or with ``PAO_TEST_EVERY_DATABASE=1``, every database test runs on SQLite as well.

``--database=postgres|sqlite`` keeps one side of a run (``make test`` times each as a stage):
``postgres`` keeps the PostgreSQL cases and the tests that use no database, ``sqlite`` only the
SQLite cases.

The check: with ``PAO_TEST_ENTRY_KINDS`` naming a folder, every test records the kinds of the
journal entries it wrote (one file per database and worker), and ``python -m
tests.databases FOLDER`` fails when a kind of money movement written on PostgreSQL was never
written on SQLite, so that no money path loses its SQLite coverage by a marker forgotten.
"""

from __future__ import annotations

import os
import sqlite3
import sys
from collections.abc import Iterable
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncConnection

# The parameters that choose a test's database: conftest's ``database_url`` and the modules
# that make their own database (migrations, the ledger's property test).
DATABASE_PARAMS = ("database_url", "database", "empty_database")
SQLITE, POSTGRES = "sqlite", "postgres"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--database",
        choices=("auto", POSTGRES, SQLITE),
        default="auto",
        help="keep the PostgreSQL side (and the tests using no database) or the SQLite side",
    )


def database_of(item: pytest.Item) -> str | None:
    """The database a collected case runs on, or None for a test that uses none."""
    callspec = getattr(item, "callspec", None)
    if callspec is None:
        return None
    for name in DATABASE_PARAMS:
        value = callspec.params.get(name)
        if value in (SQLITE, POSTGRES):
            return str(value)
    return None


def keeps(item: pytest.Item, side: str, every_database: bool) -> bool:
    database = database_of(item)
    if side == SQLITE and database != SQLITE:
        return False
    if side == POSTGRES and database == SQLITE:
        return False
    if database != SQLITE or every_database:
        return True
    # A SQLite case runs beside its PostgreSQL twin only when declared.
    return item.get_closest_marker("sqlite") is not None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    from .conftest import PG_URL

    side = config.getoption("--database")
    every_database = PG_URL is None or os.environ.get("PAO_TEST_EVERY_DATABASE") == "1"
    kept: list[pytest.Item] = []
    dropped: list[pytest.Item] = []
    for item in items:
        (kept if keeps(item, side, every_database) else dropped).append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


# --- the check: every kind of journal entry written on PostgreSQL is written on SQLite too ----


ENTRY_KINDS_SQL = "SELECT DISTINCT kind FROM journal_entries"


def _folder() -> str | None:
    return os.environ.get("PAO_TEST_ENTRY_KINDS") or None


async def record_entry_kinds_of(conn: AsyncConnection, database: str) -> None:
    """Record the kinds of journal entry ``conn``'s database holds (nothing, not even the query,
    when the check is off): PostgreSQL's before a test empties the worker's database."""
    if _folder():
        record_entry_kinds(database, await conn.scalars(text(ENTRY_KINDS_SQL)))


def record_entry_kinds_of_file(db: Path) -> None:
    """The same for a test's own SQLite file, once the test is done with it."""
    if _folder():
        with sqlite3.connect(db) as conn:
            record_entry_kinds(SQLITE, (row[0] for row in conn.execute(ENTRY_KINDS_SQL)))


def record_entry_kinds(database: str, kinds: Iterable[str]) -> None:
    """Add ``kinds`` to this worker's record for ``database`` (when the check is on)."""
    folder = _folder()
    kinds = set(kinds)
    if not folder or not kinds:
        return
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    path = Path(folder) / f"{database}-{worker}.txt"
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as out:
        out.writelines(f"{kind}\n" for kind in sorted(kinds))


def recorded(folder: Path, database: str) -> set[str]:
    return {
        line.strip()
        for path in folder.glob(f"{database}-*.txt")
        for line in path.read_text().splitlines()
        if line.strip()
    }


def missing_on_sqlite(folder: Path) -> set[str]:
    return recorded(folder, POSTGRES) - recorded(folder, SQLITE)


def main(argv: list[str]) -> int:
    folder = Path(argv[0])
    on_postgres = recorded(folder, POSTGRES)
    if not on_postgres:
        print(f"no journal entry kinds recorded under {folder}: was the check on?")
        return 1
    missing = missing_on_sqlite(folder)
    if missing:
        print(
            "money paths tested on PostgreSQL but never on SQLite (mark a test that writes them "
            "@pytest.mark.sqlite): " + ", ".join(sorted(missing))
        )
        return 1
    print(f"SQLite keeps every money path: {len(on_postgres)} kinds of journal entry on both")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
