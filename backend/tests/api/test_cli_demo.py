"""The demo data of ``pao demo`` works through the API: the demo login and its wallet."""

from __future__ import annotations

import httpx
from sqlalchemy.ext.asyncio import AsyncSession

from pao.demo import seed_demo
from tests.helpers import auth, login


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
    assert wallet["wallet"] == {"amount": 1000.0}
    assert second_wallet["wallet"] == {"amount": 250.0}
    statements = await client.post(
        "/api/statement", json={"page": 1, "limit": 10}, headers=auth(token)
    )
    assert statements.json()["total"] == 1
    assert statements.json()["statements"][0]["statementType"] == "deposit"
