"""``pao ops backup DIR`` and ``pao ops restore BACKUP``: the database and the uploads.

A backup is a directory ``pao-backup-<UTC time>/`` holding:

* ``database.dump`` — PostgreSQL: ``pg_dump --format=custom`` (schema, data, the ledger's and
  audit log's triggers), taken on a snapshot exported by a REPEATABLE READ transaction;
* ``pao.db`` — SQLite: a copy made with SQLite's online backup API
  (``sqlite3.Connection.backup``), consistent while the app writes (a file copy of a live WAL
  database is not);
* ``sandbox.db`` — the sandbox's own SQLite store, when there is one (development);
* ``uploads.tar.gz`` — slips and chat files (``PAO_DATA_DIR/uploads``);
* ``manifest.json`` — what it is, the schema revision, and the books at that instant:
  the per-currency totals and a digest of every ledger account's balance.

The books are read in the very snapshot that was dumped (PostgreSQL: the same exported
snapshot; SQLite: from the copy), so the manifest describes exactly what was saved.
``restore`` loads a backup into an *empty* database (refused otherwise: restoring over live
data would mix two histories), unpacks the uploads, then runs the books check and compares the
balances with the manifest; any difference fails the command.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
import tarfile
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any

import typer
from sqlalchemy import inspect, make_url, select, text
from sqlalchemy.engine import URL
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncSession

from pao.core.db import create_engine
from pao.core.settings import Settings, get_settings
from pao.ledger.models import LedgerAccount
from pao.ledger.service import check_books
from pao.ops.base import OpsError, fail

MANIFEST = "manifest.json"
PG_DUMP = "database.dump"
SQLITE_COPY = "pao.db"
SANDBOX_COPY = "sandbox.db"
UPLOADS = "uploads.tar.gz"
FORMAT_VERSION = 1


@dataclass(frozen=True)
class Books:
    """The books at one instant: balanced or not, totals, and a digest of every balance."""

    balanced: bool
    accounts: int
    totals: dict[str, int]
    balances_sha256: str


async def read_books(session: AsyncSession) -> Books:
    report = await check_books(session)
    rows = await session.execute(
        select(LedgerAccount.id, LedgerAccount.balance).order_by(LedgerAccount.id)
    )
    balances = [f"{account_id}:{balance}" for account_id, balance in rows]
    digest = hashlib.sha256("\n".join(balances).encode()).hexdigest()
    return Books(report.balanced, len(balances), dict(sorted(report.totals.items())), digest)


async def _revision(connection: AsyncConnection) -> str | None:
    try:
        revision = await connection.scalar(text("SELECT version_num FROM alembic_version"))
    except Exception:  # never migrated (a schema built from the models)
        return None
    return None if revision is None else str(revision)


# ----- PostgreSQL -----------------------------------------------------------------------------


def _tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise OpsError(f"{name} not found: install PostgreSQL's client tools (postgresql-client)")
    return found


def _libpq(url: URL) -> tuple[list[str], dict[str, str]]:
    """pg_dump/pg_restore connection options, and the environment carrying the password (an
    argument would show in ``ps``)."""
    args = ["--dbname", url.database or "", "--username", url.username or "postgres"]
    if url.host:
        args += ["--host", url.host]
    if url.port:
        args += ["--port", str(url.port)]
    env = {**os.environ}
    if url.password:
        env["PGPASSWORD"] = str(url.password)
    return args, env


async def _backup_postgres(settings: Settings, target: Path) -> tuple[Books, str | None]:
    url = make_url(settings.resolved_database_url)
    engine = create_engine(settings)
    try:
        async with engine.connect() as connection:
            connection = await connection.execution_options(isolation_level="REPEATABLE READ")
            await connection.begin()
            snapshot = await connection.scalar(text("SELECT pg_export_snapshot()"))
            args, env = _libpq(url)
            # The dump reads the snapshot this transaction exported, while it stays open.
            process = await asyncio.create_subprocess_exec(
                _tool("pg_dump"), "--format=custom", "--no-owner", "--no-privileges",
                f"--snapshot={snapshot}", "--file", str(target / PG_DUMP), *args,
                env=env, stderr=subprocess.PIPE,
            )  # fmt: skip
            _out, err = await process.communicate()
            if process.returncode != 0:
                raise OpsError(f"pg_dump failed: {err.decode().strip()}")
            books = await read_books(AsyncSession(bind=connection))
            revision = await _revision(connection)
            await connection.rollback()
    finally:
        await engine.dispose()
    return books, revision


async def _is_empty(settings: Settings) -> bool:
    engine = create_engine(settings)
    try:
        async with engine.connect() as connection:
            tables = await connection.run_sync(lambda sync: inspect(sync).get_table_names())
    finally:
        await engine.dispose()
    return not tables


def _restore_postgres(settings: Settings, source: Path) -> None:
    args, env = _libpq(make_url(settings.resolved_database_url))
    # One transaction: a restore that fails half-way leaves the database empty, not half full.
    done = subprocess.run(  # noqa: S603 (a fixed program; the arguments are not a shell line)
        [
            _tool("pg_restore"), "--no-owner", "--no-privileges", "--exit-on-error",
            "--single-transaction", *args, str(source / PG_DUMP),
        ],
        env=env, capture_output=True, check=False,
    )  # fmt: skip
    if done.returncode != 0:
        raise OpsError(f"pg_restore failed: {done.stderr.decode().strip()}")


# ----- SQLite ---------------------------------------------------------------------------------


def _sqlite_path(settings: Settings) -> Path:
    database = make_url(settings.resolved_database_url).database
    assert database
    return Path(database)


def _sqlite_copy(source: Path, target: Path) -> None:
    """SQLite's online backup: pages copied under SQLite's own locking, WAL included."""
    with (
        contextlib.closing(sqlite3.connect(source)) as src,
        contextlib.closing(sqlite3.connect(target)) as dst,
    ):
        src.backup(dst)


async def _books_of_sqlite_file(path: Path) -> tuple[Books, str | None]:
    settings = Settings(database_url=f"sqlite+aiosqlite:///{path}", data_dir=path.parent)
    engine = create_engine(settings)
    try:
        async with engine.connect() as connection:
            return await read_books(AsyncSession(bind=connection)), await _revision(connection)
    finally:
        await engine.dispose()


# ----- both -----------------------------------------------------------------------------------


def _pack_uploads(settings: Settings, target: Path) -> int:
    uploads = settings.data_dir / "uploads"
    count = 0
    with tarfile.open(target / UPLOADS, "w:gz") as archive:
        if uploads.is_dir():
            for path in sorted(uploads.rglob("*")):
                if path.is_file():
                    archive.add(path, arcname=str(path.relative_to(uploads)))
                    count += 1
    return count


def _unpack_uploads(settings: Settings, source: Path) -> int:
    uploads = settings.data_dir / "uploads"
    if uploads.is_dir() and any(uploads.iterdir()):
        raise OpsError(f"{uploads} is not empty: restore into a fresh data directory")
    uploads.mkdir(parents=True, exist_ok=True)
    with tarfile.open(source / UPLOADS, "r:gz") as archive:
        members = [member for member in archive.getmembers() if member.isfile()]
        # The "data" filter refuses absolute paths, "..", links and devices.
        archive.extractall(uploads, members=members, filter="data")
    return len(members)


async def backup(settings: Settings, destination: Path) -> tuple[Path, dict[str, Any]]:
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    target = destination / f"pao-backup-{stamp}"
    target.mkdir(parents=True, exist_ok=False)
    if settings.is_sqlite:
        _sqlite_copy(_sqlite_path(settings), target / SQLITE_COPY)
        books, revision = await _books_of_sqlite_file(target / SQLITE_COPY)
        kind = "sqlite"
    else:
        books, revision = await _backup_postgres(settings, target)
        kind = "postgresql"
    sandbox = settings.data_dir / "sandbox.db"
    if sandbox.is_file():
        _sqlite_copy(sandbox, target / SANDBOX_COPY)
    uploads = _pack_uploads(settings, target)
    manifest = {
        "format": FORMAT_VERSION,
        "createdAt": datetime.now(UTC).isoformat(),
        "database": kind,
        "revision": revision,
        "uploads": uploads,
        "books": asdict(books),
    }
    (target / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n")
    return target, manifest


async def restore(settings: Settings, source: Path) -> Books:
    try:
        manifest = json.loads((source / MANIFEST).read_text())
    except (OSError, ValueError):
        raise OpsError(f"{source} is not a Pao backup (no readable {MANIFEST})") from None
    kind = "sqlite" if settings.is_sqlite else "postgresql"
    if manifest.get("database") != kind:
        raise OpsError(f"this backup is of a {manifest.get('database')} database, not {kind}")
    if not await _is_empty(settings):
        raise OpsError("the database is not empty: restore into a fresh database")
    if settings.is_sqlite:
        path = _sqlite_path(settings)
        path.parent.mkdir(parents=True, exist_ok=True)
        # WAL and shared-memory files of the fresh database are stale once it is replaced.
        for leftover in (
            path,
            path.with_name(path.name + "-wal"),
            path.with_name(path.name + "-shm"),
        ):
            leftover.unlink(missing_ok=True)
        _sqlite_copy(source / SQLITE_COPY, path)
    else:
        _restore_postgres(settings, source)
    if (source / SANDBOX_COPY).is_file():
        settings.data_dir.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source / SANDBOX_COPY, settings.data_dir / "sandbox.db")
    _unpack_uploads(settings, source)
    engine = create_engine(settings)
    try:
        async with engine.connect() as connection:
            books = await read_books(AsyncSession(bind=connection))
    finally:
        await engine.dispose()
    if not books.balanced:
        raise OpsError("restored, but the books do not balance: do not serve this database")
    if asdict(books) != manifest["books"]:
        raise OpsError("restored, but the balances differ from the backup's manifest")
    return books


def _run(work: Any) -> Any:
    try:
        return asyncio.run(work)
    except OpsError as exc:
        fail(str(exc))
    except OSError as exc:
        fail(str(exc))


def backup_command(
    destination: Annotated[Path, typer.Argument(help="Directory to write the backup into.")],
) -> None:
    """Back up the database (consistent while Pao runs) and the uploads."""
    target, manifest = _run(backup(get_settings(), destination))
    books = manifest["books"]
    typer.echo(f"backup written to {target}")
    typer.echo(
        f"{manifest['database']} at revision {manifest['revision']}, {books['accounts']} "
        f"ledger accounts, books {'balanced' if books['balanced'] else 'NOT balanced'}, "
        f"{manifest['uploads']} uploaded files"
    )


def restore_command(
    source: Annotated[Path, typer.Argument(help="A pao-backup-… directory.")],
) -> None:
    """Restore a backup into an empty database and data directory, then check the books."""
    books = _run(restore(get_settings(), source))
    typer.echo(
        f"restored {source.name}: books balanced, {books.accounts} ledger accounts with the "
        "balances of the backup"
    )
