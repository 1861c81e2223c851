"""Helpers for withdrawal tests: a member with a PENDING withdrawal, through the public API
(register, fund through the ledger as ``pao ops deposit`` does, withdraw), or a funded member
made on a session of the test's own."""

from __future__ import annotations

import httpx
from sqlalchemy.ext.asyncio import AsyncSession

from pao.identity.models import Member
from pao.identity.service import create_member
from pao.wallet.adjustments import credit_manually
from pao.wallet.service import find_member_by_phone
from tests.helpers import app_of, auth, new_bank_account_no, new_phone, register_and_login

FUNDS = 1_000_00
PREFIX = "/api/backoffice/withdrawals"


async def funded_member(client: httpx.AsyncClient, *, funds: int = FUNDS) -> tuple[str, str]:
    """(phone, token) of a new member with ``funds`` (minor units) in the wallet."""
    phone, token = await register_and_login(
        client, bank_code="SCB", bank_account_no=new_bank_account_no()
    )
    async with app_of(client).state.sessionmaker() as session:
        member = await find_member_by_phone(session, phone=phone)
        await credit_manually(session, member=member, amount=funds, note="test", actor="test")
        await session.commit()
    return phone, token


async def request_withdrawal(client: httpx.AsyncClient, token: str, amount: float) -> int:
    response = await client.post(
        "/api/wallet/withdraw", headers=auth(token), json={"amount": amount}
    )
    assert response.status_code == 200, response.text
    withdrawal_id: int = response.json()["withdrawalId"]
    return withdrawal_id


async def pending_withdrawal(client: httpx.AsyncClient, amount: float = 300) -> tuple[int, str]:
    """(withdrawal id, member token) of a fresh PENDING withdrawal."""
    _, token = await funded_member(client)
    return await request_withdrawal(client, token, amount), token


async def member_with_funds(session: AsyncSession, amount: int) -> Member:
    """A new member with ``amount`` (minor units) in the wallet and a bank account, made on
    ``session`` (not committed)."""
    member = await create_member(
        session,
        phone=new_phone(),
        name="Test",
        password="secret123",
        bank_code="SCB",
        bank_account_name="TEST MEMBER",
        bank_account_no=new_bank_account_no(),
    )
    await credit_manually(session, member=member, amount=amount, note="test", actor="test")
    return member
