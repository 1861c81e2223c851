"""``pao ops staff``: the first owner and the staff's lifecycle from the shell, through the
same service functions as the back office (audited as ``ops:<OS user>``)."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from pao.backoffice.models import AuditEntry, Staff, StaffSession
from pao.backoffice.sessions.service import open_session
from pao.core.security import verify_password
from pao.core.settings import Settings
from pao.kit.clock import utcnow

from .test_cli import cli, cli_db, data_dir, db, failed

__all__ = ["cli_db", "data_dir"]  # fixtures, re-used

SECRET = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"


async def all_staff(session: AsyncSession) -> list[Staff]:
    return list((await session.execute(select(Staff).order_by(Staff.id))).scalars().all())


async def audit(session: AsyncSession) -> list[tuple[str, str, str | None, int | None]]:
    rows = await session.execute(select(AuditEntry).order_by(AuditEntry.id))
    return [(e.actor, e.action, e.object_id, e.staff_id) for e in rows.scalars()]


def test_add_the_first_owner_with_a_given_secret(cli_db: Settings) -> None:
    result = cli(
        "ops", "staff", "add", "boss", "--role", "owner", "--password", "boss-pass-12",
        "--name", "The Boss", "--totp-secret", SECRET,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    lines = result.stdout.strip().splitlines()
    assert lines[0] == "staff 1 boss (The Boss) added as owner"
    assert lines[1] == f"totp secret: {SECRET}"
    uri = urlparse(lines[2].removeprefix("totp uri:").strip())
    assert (uri.scheme, parse_qs(uri.query)["secret"], parse_qs(uri.query)["issuer"]) == (
        "otpauth",
        [SECRET],
        ["Pao"],
    )
    [boss] = db(all_staff)
    assert (boss.role, boss.totp_secret, boss.totp_enrolled_at) == ("owner", SECRET, None)
    assert verify_password(boss.password_hash, "boss-pass-12")
    assert db(audit) == [("ops:alice", "staff.create", "1", None)]


def test_a_new_secret_is_generated_and_printed(cli_db: Settings) -> None:
    result = cli("ops", "staff", "add", "ann", "--role", "support", "--password", "ann-pass-123")
    assert result.exit_code == 0, result.output
    [ann] = db(all_staff)
    assert f"totp secret: {ann.totp_secret}" in result.stdout
    assert ann.totp_secret is not None
    assert len(ann.totp_secret) == 32


def test_add_refusals(cli_db: Settings) -> None:
    failed(
        cli("ops", "staff", "add", "x", "--role", "viewer", "--password", "long-enough-1",
            "--totp-secret", "not base32!"),
        "KEY_INVALID (field=totpSecret)",
    )  # fmt: skip
    missing_role = cli("ops", "staff", "add", "x", "--password", "long-enough-1")
    assert missing_role.exit_code == 2
    assert "--role" in missing_role.output
    assert db(all_staff) == []


def test_list_disable_enable_and_reset(cli_db: Settings) -> None:
    for login, role in (("boss", "owner"), ("ann", "support")):
        assert (
            cli("ops", "staff", "add", login, "--role", role, "--password", "pass-12345").exit_code
            == 0
        )

    async def open_ann_session(session: AsyncSession) -> None:
        ann = (await session.execute(select(Staff).where(Staff.login == "ann"))).scalar_one()
        ann.totp_enrolled_at = utcnow()
        await open_session(session, staff=ann, ip=None, user_agent=None)

    db(open_ann_session)
    listed = cli("ops", "staff", "list").stdout.splitlines()
    assert [line.split()[:5] for line in listed] == [
        ["1", "boss", "owner", "active", "2fa"],
        ["2", "ann", "support", "active", "2fa"],
    ]
    assert "2fa enrolled" in listed[1]
    assert "2fa pending" in listed[0]

    assert cli("ops", "staff", "disable", "ann").stdout.strip() == (
        "staff ann disabled; their sessions ended"
    )

    async def open_sessions(session: AsyncSession) -> int:
        rows = await session.execute(select(StaffSession).where(StaffSession.revoked_at.is_(None)))
        return len(rows.scalars().all())

    assert db(open_sessions) == 0
    assert "disabled" in cli("ops", "staff", "list").stdout.splitlines()[1]
    assert cli("ops", "staff", "enable", "ann").stdout.strip() == "staff ann enabled"
    reset = cli("ops", "staff", "reset-2fa", "ann")
    assert reset.exit_code == 0, reset.output
    [_, ann] = db(all_staff)
    assert (ann.totp_secret, ann.totp_enrolled_at, ann.disabled_at) == (None, None, None)

    # The last active owner stays; unknown logins are named.
    failed(cli("ops", "staff", "disable", "boss"), "STAFF_LAST_OWNER")
    failed(cli("ops", "staff", "disable", "nobody"), "STAFF_NOT_FOUND")
    assert [a[1] for a in db(audit)] == [
        "staff.create",
        "staff.create",
        "staff.update",
        "staff.update",
        "staff.reset_2fa",
    ]
    assert {a[0] for a in db(audit)} == {"ops:alice"}


def test_reset_password(cli_db: Settings) -> None:
    assert (
        cli(
            "ops", "staff", "add", "ann", "--role", "viewer", "--password", "old-pass-123"
        ).exit_code
        == 0
    )
    r = cli("ops", "staff", "reset-password", "ann", "--password", "new-pass-123")
    assert r.stdout.strip() == "staff ann: password set, sessions ended"
    [ann] = db(all_staff)
    assert verify_password(ann.password_hash, "new-pass-123")
