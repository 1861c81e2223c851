"""The ``pao`` command against a temporary SQLite data directory (PAO_DATA_DIR).

Each command runs in its own transaction; a refusal prints one ``error:`` line, exits 1 and
changes nothing."""

from __future__ import annotations

import asyncio
import getpass
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession
from typer.testing import CliRunner, Result

from pao.backoffice.models import AuditEntry
from pao.cli import app
from pao.core.db import create_engine, create_sessionmaker
from pao.core.metrics import MULTIPROC_ENV
from pao.core.settings import Settings, get_settings
from pao.games.seamless.hub88.signature import SANDBOX_PRIVATE_KEY, SANDBOX_PUBLIC_KEY
from pao.identity.changes import Origin, record_change
from pao.identity.models import Member, MemberChangeKind
from pao.identity.service import create_member
from pao.kit.money import Currency
from pao.ledger.models import JournalEntry
from pao.ledger.service import check_books
from pao.site.models import SiteSetting
from pao.wallet.adjustments import credit_manually
from pao.wallet.models import ManualAdjustment, Statement, Withdrawal
from pao.wallet.service import wallet_balance
from pao.wallet.withdrawals import request_withdrawal

from ..conftest import build_schema

T = TypeVar("T")
runner = CliRunner()


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """An empty data directory the CLI's settings point at (no schema)."""
    directory = tmp_path / "var"
    monkeypatch.setenv("PAO_DATA_DIR", str(directory))
    monkeypatch.setenv("PAO_ENV", "test")
    monkeypatch.delenv("PAO_DATABASE_URL", raising=False)
    monkeypatch.setattr(getpass, "getuser", lambda: "alice")
    get_settings.cache_clear()
    yield directory
    get_settings.cache_clear()


@pytest.fixture
def cli_db(data_dir: Path) -> Settings:
    """``data_dir`` with Pao's schema in it."""
    settings = get_settings()
    assert settings.resolved_database_url.endswith(f"{data_dir.name}/pao.db")

    async def build() -> None:
        engine = create_engine(settings)
        await build_schema(engine)
        await engine.dispose()

    asyncio.run(build())
    return settings


def db(work: Callable[[AsyncSession], Awaitable[T]]) -> T:
    """Arrange or inspect the CLI's database (committing)."""

    async def main() -> T:
        engine = create_engine(get_settings())
        try:
            async with create_sessionmaker(engine)() as session:
                result = await work(session)
                await session.commit()
                return result
        finally:
            await engine.dispose()

    return asyncio.run(main())


def cli(*args: str) -> Result:
    return runner.invoke(app, list(args))


def failed(result: Result, message: str) -> None:
    assert result.exit_code == 1, result.output
    assert result.stderr.strip() == f"error: {message}", result.stderr
    assert result.stdout == ""


def holder_of(phone: str) -> str:
    """A holder name of the member's own (TEST MEMBER DDDD, the phone's last digits as letters):
    members sharing one are linked, and their withdrawals held (ADR 0031)."""
    return "TEST MEMBER " + "".join(chr(ord("A") + int(digit)) for digit in phone[-4:])


async def add_member(session: AsyncSession, phone: str, amount: int = 0) -> int:
    member = await create_member(
        session,
        phone=phone,
        name=f"Member {phone[-4:]}",
        password="secret123",
        bank_code="KBANK",
        bank_account_name=holder_of(phone),
        bank_account_no=phone,
    )
    if amount:
        await credit_manually(session, member=member, amount=amount, note="seed", actor="test")
    return member.id


async def add_withdrawal(session: AsyncSession, phone: str, amount: int) -> int:
    member = (await session.execute(select(Member).where(Member.phone == phone))).scalar_one()
    return (await request_withdrawal(session, member=member, amount=amount)).id


async def balance_of(session: AsyncSession, phone: str) -> int:
    member_id = (await session.execute(select(Member.id).where(Member.phone == phone))).scalar_one()
    return await wallet_balance(session, member_id=member_id, currency=Currency.THB)


async def snapshot(session: AsyncSession) -> dict[str, Any]:
    """Everything a command could change."""
    counts = {
        model.__name__: (
            await session.execute(select(func.count()).select_from(model))
        ).scalar_one()
        for model in (Member, JournalEntry, Statement, Withdrawal)
    }
    balances = {
        phone: await balance_of(session, phone)
        for phone in (await session.execute(select(Member.phone))).scalars()
    }
    statuses = {
        key: value for key, value in await session.execute(select(Withdrawal.id, Withdrawal.status))
    }
    settings = {
        key: value
        for key, value in await session.execute(select(SiteSetting.key, SiteSetting.value))
    }
    return {"counts": counts, "balances": balances, "withdrawals": statuses, "settings": settings}


# --- ops deposit ---------------------------------------------------------------------------


def test_deposit_credits_the_wallet_with_who_and_why(cli_db: Settings) -> None:
    db(lambda s: add_member(s, "0811111111"))

    result = cli("ops", "deposit", "0811111111", "1000.50", "--note", "goodwill, ticket 42")

    assert result.exit_code == 0, result.output
    assert "credited 1,000.50 THB to 0811111111" in result.stdout
    assert "by ops:alice" in result.stdout
    assert db(lambda s: balance_of(s, "0811111111")) == 1_000_50

    async def recorded(session: AsyncSession) -> tuple[Any, ...]:
        entry = (
            (
                await session.execute(
                    select(JournalEntry)
                    .where(JournalEntry.kind == "manual_deposit")
                    .order_by(JournalEntry.id.desc())
                )
            )
            .scalars()
            .first()
        )
        line = (
            (await session.execute(select(Statement).order_by(Statement.id.desc())))
            .scalars()
            .first()
        )
        assert entry is not None
        assert line is not None
        adjustment = (
            await session.execute(
                select(ManualAdjustment).where(ManualAdjustment.entry_id == entry.id)
            )
        ).scalar_one()
        audited = (
            await session.execute(
                select(AuditEntry.actor).where(
                    AuditEntry.action == "adjustment.request",
                    AuditEntry.object_id == str(adjustment.id),
                )
            )
        ).scalar_one()
        return (
            (adjustment.status, adjustment.direction, adjustment.requested_by, audited),
            entry.actor,
            entry.memo,
            line.statement_type,
            line.status,
            line.amount,
            (await check_books(session)).balanced,
        )

    assert db(recorded) == (
        ("POSTED", "credit", "ops:alice", "ops:alice"),
        "ops:alice",
        "goodwill, ticket 42",
        "deposit",
        "SUCCESS",
        1_000_50,
        True,
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["0800000000", "10", "--note", "x"], "no member with phone 0800000000"),
        (
            ["0811111111", "1.234", "--note", "x"],
            "invalid amount '1.234': give baht with at most 2 decimals, e.g. 100 or 99.50",
        ),
        (
            ["0811111111", "ten", "--note", "x"],
            "invalid amount 'ten': give baht with at most 2 decimals, e.g. 100 or 99.50",
        ),
        (
            ["0811111111", "NaN", "--note", "x"],
            "invalid amount 'NaN': give baht with at most 2 decimals, e.g. 100 or 99.50",
        ),
        (
            ["--note", "x", "0811111111", "--", "-5"],
            "invalid amount '-5': give baht with at most 2 decimals, e.g. 100 or 99.50",
        ),
        (["0811111111", "0", "--note", "x"], "invalid amount '0': it must be more than 0"),
        (["0811111111", "10", "--note", "  "], "a note saying why is required (--note)"),
    ],
)
def test_deposit_refusals_change_nothing(cli_db: Settings, args: list[str], message: str) -> None:
    db(lambda s: add_member(s, "0811111111", 5_00))
    before = db(snapshot)

    failed(cli("ops", "deposit", *args), message)

    assert db(snapshot) == before


def test_deposit_needs_a_note(cli_db: Settings) -> None:
    result = cli("ops", "deposit", "0811111111", "10")
    assert result.exit_code == 2
    assert "--note" in result.output


# --- ops withdrawals -----------------------------------------------------------------------


def test_withdrawal_queue(cli_db: Settings) -> None:
    db(lambda s: add_member(s, "0822222222", 1_000_00))
    first = db(lambda s: add_withdrawal(s, "0822222222", 300_00))
    second = db(lambda s: add_withdrawal(s, "0822222222", 200_00))

    listed = cli("ops", "withdrawals", "list", "--status", "pending")
    assert listed.exit_code == 0, listed.output
    lines = listed.stdout.splitlines()
    assert [line.split()[0] for line in lines] == [f"#{first}", f"#{second}"]
    assert "300.00 THB" in lines[0]
    assert "(0822222222)" in lines[0]

    approved = cli("ops", "withdrawals", "approve", str(first), "--manual", "--note", "KBANK ref 9")
    assert approved.exit_code == 0, approved.output
    assert approved.stdout.startswith(f"paid: #{first}  PAID")
    assert "decided by ops:alice" in approved.stdout

    before = db(snapshot)
    failed(
        cli("ops", "withdrawals", "approve", str(first)),
        f"withdrawal #{first} is already PAID; it cannot become APPROVED (nothing changed)",
    )
    failed(
        cli("ops", "withdrawals", "reject", str(first), "--reason", "oops"),
        f"withdrawal #{first} is already PAID; it cannot become REJECTED (nothing changed)",
    )
    failed(cli("ops", "withdrawals", "approve", "999"), "no withdrawal #999")
    assert db(snapshot) == before

    assert cli("ops", "withdrawals", "reject", str(second)).exit_code == 2  # --reason missing
    rejected = cli("ops", "withdrawals", "reject", str(second), "--reason", "wrong account")
    assert rejected.exit_code == 0, rejected.output
    assert "reason: wrong account" in rejected.stdout

    assert db(lambda s: balance_of(s, "0822222222")) == 700_00
    assert db(lambda s: check_books(s)).balanced
    assert cli("ops", "withdrawals", "list", "--status", "PENDING").stdout.strip() == (
        "no PENDING withdrawals"
    )
    everything = cli("ops", "withdrawals", "list").stdout.splitlines()
    assert [line.split()[:2] for line in everything] == [
        [f"#{second}", "REJECTED"],
        [f"#{first}", "PAID"],
    ]


def test_withdrawal_status_is_checked(cli_db: Settings) -> None:
    result = cli("ops", "withdrawals", "list", "--status", "LOST")
    assert result.exit_code == 2


# --- ops member show -----------------------------------------------------------------------


def test_member_show(cli_db: Settings) -> None:
    db(lambda s: add_member(s, "0833333333", 1_000_00))
    withdrawal = db(lambda s: add_withdrawal(s, "0833333333", 250_00))

    result = cli("ops", "member", "show", "0833333333")

    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Member 3333  phone 0833333333  ACTIVE" in out
    assert f"bank     KBANK 0833333333 {holder_of('0833333333')}" in out
    assert "balance  750.00 THB" in out
    assert "statements (2 latest of 2):" in out
    assert "withdraw     PENDING  WALLET → KBANK  250.00 THB" in out
    assert "deposit      SUCCESS  MANUAL → WALLET  1,000.00 THB" in out
    assert f"  #{withdrawal}  PENDING" in out
    failed(cli("ops", "member", "show", "0800000000"), "no member with phone 0800000000")


def test_member_show_lists_changes_and_marks_withdrawals_after_a_bank_change(
    cli_db: Settings,
) -> None:
    changed = db(lambda s: add_member(s, "0844444444", 1_000_00))
    db(lambda s: add_member(s, "0855555555", 1_000_00))
    origin = Origin(ip="203.0.113.9", user_agent="pao-test/1.0")

    async def change(session: AsyncSession) -> None:
        record_change(
            session,
            member_id=changed,
            kind=MemberChangeKind.BANK_ACCOUNT,
            origin=origin,
            old="KBANK 0844444444",
            new="KTB 1234567890",
        )
        record_change(session, member_id=changed, kind=MemberChangeKind.PASSWORD, origin=origin)

    db(change)
    held = db(lambda s: add_withdrawal(s, "0844444444", 100_00))
    usual = db(lambda s: add_withdrawal(s, "0855555555", 100_00))

    result = cli("ops", "member", "show", "0844444444")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    start = lines.index("changes of name, bank account, password (2 latest):")
    assert "PASSWORD          password changed  from 203.0.113.9 (pao-test/1.0)" in lines[start + 1]
    assert (
        "BANK_ACCOUNT      KBANK 0844444444 → KTB 1234567890  from 203.0.113.9 (pao-test/1.0)"
        in lines[start + 2]
    )
    [open_line] = [line for line in lines if line.startswith(f"  #{held}  PENDING")]
    assert open_line.endswith(
        "!! bank account changed within 24 h of the request: check with the member"
    )

    listed = cli("ops", "withdrawals", "list", "--status", "PENDING").stdout.splitlines()
    assert [(line.split()[0], "!! bank account changed" in line) for line in listed] == [
        (f"#{held}", True),
        (f"#{usual}", False),
    ]
    other = cli("ops", "member", "show", "0855555555").stdout
    assert "changes of name, bank account, password (0 latest):\n  none" in other


# --- ops site / settings -------------------------------------------------------------------


def test_site_terminate_and_reopen(cli_db: Settings) -> None:
    terminated = cli("ops", "site", "terminate")
    assert terminated.exit_code == 0, terminated.output
    assert "terminated by ops:alice" in terminated.stdout
    assert cli("ops", "settings", "get", "terminated").stdout.strip() == "terminated = true"

    assert cli("ops", "site", "reopen").exit_code == 0
    assert cli("ops", "settings", "get", "terminated").stdout.strip() == "terminated = false"


def test_settings_set_and_get(cli_db: Settings) -> None:
    result = cli("ops", "settings", "set", "withdrawMin", "50.25", "--currency", "THB")
    assert result.exit_code == 0, result.output
    shown = "withdrawMin = THB=50.25 LAK=50000.00"
    assert result.stdout.strip() == f"{shown} (set by ops:alice)"
    stored = db(lambda s: s.get(SiteSetting, "withdrawMin")).value  # type: ignore[union-attr]
    assert stored == {"THB": 50_25, "LAK": 50_000_00}
    assert cli("ops", "settings", "get", "withdrawMin").stdout.strip() == shown
    # Both at once, as `get` shows them; a currency's value unset with none.
    result = cli("ops", "settings", "set", "withdrawAutoApproveMax", "THB=500 LAK=none")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("withdrawAutoApproveMax = THB=500.00 LAK=none ")

    everything = cli("ops", "settings", "get").stdout.splitlines()
    assert shown in everything
    assert "withdrawMax = THB=50000.00 LAK=20000000.00  (default)" in everything

    before = db(snapshot)
    assert cli("ops", "settings", "set", "withdrawMin", "lots").exit_code == 1
    assert cli("ops", "settings", "set", "withdrawMin", "100").exit_code == 1  # which currency?
    assert cli("ops", "settings", "set", "noSuchSetting", "1").exit_code == 1
    failed(cli("ops", "settings", "get", "noSuchSetting"), "no setting 'noSuchSetting'")
    assert db(snapshot) == before


# --- demo, serve, migrate, errors ----------------------------------------------------------


def test_demo_is_idempotent(cli_db: Settings) -> None:
    first = cli("demo")
    assert first.exit_code == 0, first.output
    assert "demo login: 0812345678 / demo1234" in first.stdout
    after_first = db(snapshot)
    assert after_first["balances"] == {"0812345678": 1_000_00, "0898765432": 250_00}
    assert after_first["counts"]["Statement"] == 2

    second = cli("demo")

    assert second.exit_code == 0, second.output
    assert "already exists" in second.stdout
    assert db(snapshot) == after_first
    assert db(lambda s: check_books(s)).balanced


def test_serve_runs_uvicorn_with_the_app_factory(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import uvicorn

    calls: list[tuple[tuple[Any, ...], dict[str, Any]]] = []
    monkeypatch.setattr(uvicorn, "run", lambda *a, **kw: calls.append((a, kw)))
    monkeypatch.setenv("PAO_PORT", "8123")
    # Several workers put this process's metrics into multi-process mode (the directory goes
    # into the environment); monkeypatch takes it out again after the test, or every later
    # test in this process would read its metrics from an empty directory.
    monkeypatch.setenv(MULTIPROC_ENV, "")
    get_settings.cache_clear()

    result = cli("serve", "--workers", "3")

    assert result.exit_code == 0, result.output
    assert calls == [
        (
            ("pao.main:create_served_app",),
            {
                "factory": True,
                "host": "127.0.0.1",
                "port": 8123,
                "workers": 3,
                "timeout_graceful_shutdown": 30,
                "timeout_keep_alive": 75,
                "timeout_worker_healthcheck": 30,
            },
        )
    ]


def test_migrate_upgrades_the_configured_database(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import pao.core.migrate

    seen: list[Settings] = []

    async def fake_upgrade(settings: Settings) -> None:
        seen.append(settings)

    monkeypatch.setattr(pao.core.migrate, "upgrade", fake_upgrade)

    result = cli("migrate")

    assert result.exit_code == 0, result.output
    assert [s.data_dir for s in seen] == [data_dir]
    assert "database up to date: sqlite+aiosqlite:///" in result.stdout


def test_a_missing_schema_is_one_clear_line(data_dir: Path) -> None:
    result = cli("ops", "member", "show", "0811111111")
    assert result.exit_code == 1
    assert result.stderr.startswith("error: database: no such table")
    assert result.stderr.strip().endswith("(run `pao migrate` first)")
    assert len(result.stderr.strip().splitlines()) == 1


def test_providers_sync_names_what_is_missing(
    cli_db: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    failed(cli("ops", "providers", "sync", "amb"), "unknown seamless aggregator 'amb': hub88")
    monkeypatch.setenv("PAO_SANDBOX", "0")
    get_settings.cache_clear()
    failed(
        cli("ops", "providers", "sync", "hub88"),
        "Hub88 is off: set PAO_HUB88_OPERATOR_ID and its keys",
    )
    # Hub88 on, but nobody answers at its address: one clear line, nothing written.
    monkeypatch.setenv("PAO_HUB88_OPERATOR_ID", "7")
    monkeypatch.setenv("PAO_HUB88_URL", "http://127.0.0.1:9")
    monkeypatch.setenv("PAO_HUB88_PUBLIC_KEY", str(SANDBOX_PUBLIC_KEY))
    monkeypatch.setenv("PAO_HUB88_PRIVATE_KEY", str(SANDBOX_PRIVATE_KEY))
    get_settings.cache_clear()
    failed(cli("ops", "providers", "sync", "hub88"), "hub88: /game/list: ConnectError")
