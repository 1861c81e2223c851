"""TrueMoney gift links through the API on both databases, against the sandbox TrueMoney."""

from __future__ import annotations

import asyncio

import httpx
import pytest
from sqlalchemy import func, select

from pao.ledger.service import check_books
from pao.payments.accounts import seed_receiving_accounts
from pao.payments.truemoney.models import RedemptionStatus, VoucherRedemption
from tests.helpers import app_of, auth, register_and_login

# Also on SQLite (tests/databases.py): TrueMoney credits: money steps.
pytestmark = pytest.mark.sqlite


async def seed(client: httpx.AsyncClient) -> None:
    async with app_of(client).state.sessionmaker() as session:
        await seed_receiving_accounts(session)
        await session.commit()


async def mint(client: httpx.AsyncClient, amount: float, *, expired: bool = False) -> str:
    response = await client.post(
        "/sandbox/truemoney/vouchers", json={"amount": amount, "expired": expired}
    )
    assert response.status_code == 201, response.text
    link: str = response.json()["link"]
    return link


async def send(client: httpx.AsyncClient, token: str, link: str) -> httpx.Response:
    return await client.post("/api/wallet/truelink", json={"link": link}, headers=auth(token))


async def balance(client: httpx.AsyncClient, token: str) -> float:
    amount: float = (await client.get("/api/wallet", headers=auth(token))).json()["wallet"][
        "amount"
    ]
    return amount


async def test_gift_link_credits_once(client: httpx.AsyncClient) -> None:
    await seed(client)
    _phone, token = await register_and_login(client)
    link = await mint(client, 50.25)
    first = await send(client, token, link)
    assert first.status_code == 200
    assert first.json() == {"code": "SUCCESS", "amount": 50.25}
    again = await send(client, token, link)
    assert again.status_code == 400
    assert again.json()["message"] == "TRUELINK_DUPLICATE"
    assert await balance(client, token) == 50.25
    statements = await client.post(
        "/api/statement", json={"page": 1, "limit": 10}, headers=auth(token)
    )
    assert statements.json()["statements"][0]["from"] == "TRUEMONEY"


@pytest.mark.parametrize("kind", ["bad-link", "unknown", "expired", "used-elsewhere"])
async def test_invalid_links(client: httpx.AsyncClient, kind: str) -> None:
    await seed(client)
    _phone, token = await register_and_login(client)
    if kind == "bad-link":
        link = "https://gift.truemoney.com.evil.example/campaign/?v=0123456789abcdef"
    elif kind == "unknown":
        link = "https://gift.truemoney.com/campaign/?v=0123456789abcdef"
    elif kind == "expired":
        link = await mint(client, 10, expired=True)
    else:
        link = await mint(client, 10)
        voucher = link.split("v=")[1]
        await client.post(
            f"/sandbox/truemoney/campaign/vouchers/{voucher}/redeem",
            json={"mobile": "0800000000", "voucher_hash": voucher},
        )
    response = await send(client, token, link)
    assert response.status_code == 400
    assert response.json()["message"] == "TRUELINK_INVALID"
    assert await balance(client, token) == 0


async def test_minimum_two_baht(client: httpx.AsyncClient) -> None:
    await seed(client)
    _phone, token = await register_and_login(client)
    response = await send(client, token, await mint(client, 1.99))
    assert response.json() == {"message": "TRANSFER_MINIMUM", "minimum": 2}
    assert await balance(client, token) == 0


async def test_no_truemoney_wallet(client: httpx.AsyncClient) -> None:
    _phone, token = await register_and_login(client)
    response = await send(client, token, await mint(client, 10))
    assert response.json()["message"] == "NO_WALLET"


async def test_same_voucher_concurrently_credited_once(client: httpx.AsyncClient) -> None:
    await seed(client)
    tokens = [(await register_and_login(client))[1] for _ in range(3)]
    link = await mint(client, 30)
    answers = await asyncio.gather(
        *(send(client, t, link) for t in [*tokens, tokens[0], tokens[0]])
    )
    codes = sorted(a.json().get("message", "OK") for a in answers)
    assert codes.count("OK") == 1, [a.text for a in answers]
    assert set(codes) == {"OK", "TRUELINK_DUPLICATE"}
    balances = [await balance(client, t) for t in tokens]
    assert sorted(balances) == [0, 0, 30]
    async with app_of(client).state.sessionmaker() as session:
        rows = (
            await session.execute(select(func.count()).select_from(VoucherRedemption))
        ).scalar_one()
        credited = (
            await session.execute(
                select(func.count())
                .select_from(VoucherRedemption)
                .where(VoucherRedemption.status == RedemptionStatus.CREDITED)
            )
        ).scalar_one()
        assert (rows, credited) == (1, 1)
        assert (await check_books(session)).balanced
