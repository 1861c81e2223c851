"""The demo data of ``pao demo`` works through the API: the demo login and its wallet."""

from __future__ import annotations

import httpx
import pytest
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from pao import demo
from pao.backoffice.models import Staff
from pao.backoffice.staff.roles import Role
from pao.core.settings import Settings
from pao.demo import seed_demo
from tests.helpers import auth, login
from tests.staff_helpers import StaffAccount, log_in

# Also on SQLite (tests/databases.py): `make run`'s own flow (migrate, demo).
pytestmark = pytest.mark.sqlite


async def test_demo_member_logs_in_and_sees_the_demo_money(
    client: httpx.AsyncClient, session: AsyncSession
) -> None:
    await seed_demo(session)
    await session.commit()
    again = await seed_demo(session)
    await session.commit()
    assert "member 0812345678 already exists; left as it is" in again

    token = await login(client, "0812345678", "demo1234")
    wallet = (await client.get("/api/wallet", headers=auth(token))).json()
    second = await login(client, "0898765432", "demo1234")
    second_wallet = (await client.get("/api/wallet", headers=auth(second))).json()

    assert wallet["profile"]["name"] == "Somchai Demo"
    assert wallet["bankAccount"]["bankCode"] == "KBANK"
    assert wallet["bankAccount"]["bankAccountNo"] == "1234567890"
    assert wallet["wallet"] == {"amount": 1000.0, "currency": "THB"}
    assert second_wallet["wallet"] == {"amount": 250.0, "currency": "THB"}
    statements = await client.post(
        "/api/statement", json={"page": 1, "limit": 10}, headers=auth(token)
    )
    assert statements.json()["total"] == 1
    assert statements.json()["statements"][0]["statementType"] == "deposit"


async def test_demo_staff_one_per_role_in_sandbox_mode_only(
    client: httpx.AsyncClient, session: AsyncSession, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(demo, "get_settings", lambda: Settings(sandbox=False))
    assert await demo.seed_demo_staff(session) == ["demo staff: not added (PAO_SANDBOX is off)"]
    monkeypatch.setattr(demo, "get_settings", lambda: Settings(sandbox=True))
    lines = await demo.seed_demo_staff(session)
    await session.commit()
    again = await demo.seed_demo_staff(session)
    await session.commit()
    assert again == lines  # a second run adds nothing
    assert lines[0] == (
        "back office: owner / staff-demo-1  (role owner, TOTP secret "
        "PAODEMOOWNERAAAAAAAAAAAAAAAAAAAA)"
    )
    staff = (await session.execute(select(Staff).order_by(Staff.id))).scalars().all()
    await session.commit()
    assert [(s.login, s.role) for s in staff] == [(r.value, r.value) for r in Role]
    for member in staff:
        account = StaffAccount(
            id=member.id,
            login=member.login,
            role=Role(member.role),
            password=demo.DEMO_STAFF_PASSWORD,
            secret=demo.DEMO_STAFF_SECRETS[Role(member.role)],
            display_name=member.display_name,
        )
        token = await log_in(client, account)
        me = await client.get("/api/backoffice/me", headers=auth(token))
        assert me.json()["role"] == member.role
