"""GET /api/wallet: the spec §3 shape, the ledger balance and the invite summary."""

from __future__ import annotations

import httpx
import pytest
from sqlalchemy.ext.asyncio import AsyncSession

from pao.wallet.adjustments import credit_manually
from pao.wallet.service import find_member_by_phone
from tests.helpers import auth, new_bank_account_no, register, register_and_login

# Also on SQLite (tests/databases.py): the wallet's balances as the steps leave them.
pytestmark = pytest.mark.sqlite


async def test_wallet_needs_a_token(client: httpx.AsyncClient) -> None:
    response = await client.get("/api/wallet")
    assert response.status_code == 401
    assert response.json() == {"message": "invalid-token"}
    bad = await client.get("/api/wallet", headers=auth("not-a-token"))
    assert bad.status_code == 401


async def test_wallet_shape(client: httpx.AsyncClient, session: AsyncSession) -> None:
    account_no = new_bank_account_no()
    phone, token = await register_and_login(
        client,
        name="Somchai Test",
        bank_code="KBANK",
        bank_account_name="SOMCHAI TEST",
        bank_account_no=account_no,
    )
    member = await find_member_by_phone(session, phone=phone)
    member_id = member.id
    await credit_manually(session, member=member, amount=1_234_50, note="test", actor="test")
    await session.commit()
    # Two members invited by this one, and one invited by somebody else.
    await register(client, invite_code=f"PR{member_id}")
    other_phone = await register(client, invite_code=f"PR{member_id}")
    other_id = (await find_member_by_phone(session, phone=other_phone)).id
    await session.rollback()
    await register(client, invite_code=f"PR{other_id}")

    response = await client.get("/api/wallet", headers=auth(token))

    assert response.status_code == 200, response.text
    assert response.json() == {
        # 1,234.50 THB deposited: one wheel coin per full 100 THB (docs/domain/promotions.md).
        "profile": {"name": "Somchai Test", "username": phone, "coin": 12, "_id": str(member_id)},
        "bankAccount": {
            "bank": {"nameTH": "ธนาคารกสิกรไทย", "nameEN": "Kasikornbank"},
            "bankAccountName": "SOMCHAI TEST",
            "bankAccountNo": account_no,
            "bankCode": "KBANK",
        },
        "wallet": {"amount": 1234.5, "currency": "THB"},
        # Two invitees, neither has deposited yet: nothing earned (promotions.md, invite).
        "invite": {"amount": 0.0, "success": 0, "fail": 2},
        "slots": [],
    }


async def test_a_new_wallet_is_empty(client: httpx.AsyncClient) -> None:
    _, token = await register_and_login(client)
    body = (await client.get("/api/wallet", headers=auth(token))).json()
    assert body["wallet"] == {"amount": 0.0, "currency": "THB"}
    assert body["invite"] == {"amount": 0.0, "success": 0, "fail": 0}


async def test_each_member_sees_their_own_wallet(
    client: httpx.AsyncClient, session: AsyncSession
) -> None:
    rich_phone, rich_token = await register_and_login(client)
    _, poor_token = await register_and_login(client)
    rich = await find_member_by_phone(session, phone=rich_phone)
    await credit_manually(session, member=rich, amount=500_00, note="test", actor="test")
    await session.commit()

    rich_body = (await client.get("/api/wallet", headers=auth(rich_token))).json()
    poor_body = (await client.get("/api/wallet", headers=auth(poor_token))).json()

    assert rich_body["wallet"]["amount"] == 500.0
    assert poor_body["wallet"]["amount"] == 0.0
    assert rich_body["profile"]["username"] == rich_phone
    assert poor_body["profile"]["username"] != rich_phone
