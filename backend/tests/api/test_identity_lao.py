"""Registration in the Lao build (``PAO_LAO_MODE``): phone lengths, LAK or BAHT, Lao banks."""

from __future__ import annotations

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import select

from pao.core.settings import Settings
from pao.identity.models import Member
from pao.kit.money import Currency
from pao.ledger.models import AccountKind, LedgerAccount
from pao.payments.accounts import seed_receiving_accounts
from pao.payments.truemoney.models import VoucherRedemption
from tests.helpers import auth, login, registration_payload, set_site_setting


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return settings.model_copy(update={"lao_mode": True})


@pytest.fixture(autouse=True)
async def otp_off(client: httpx.AsyncClient) -> None:
    await set_site_setting(client, "registerOTP", False)


async def created(app: FastAPI, phone: str) -> tuple[Member, list[LedgerAccount]]:
    async with app.state.sessionmaker() as s:
        member = (await s.execute(select(Member).where(Member.phone == phone))).scalar_one()
        wallets = (
            (
                await s.execute(
                    select(LedgerAccount).where(
                        LedgerAccount.kind == AccountKind.PLAYER_WALLET,
                        LedgerAccount.owner == str(member.id),
                    )
                )
            )
            .scalars()
            .all()
        )
        return member, list(wallets)


@pytest.mark.parametrize("phone", ["20551234", "2055123456", "8562055123456"])
async def test_lao_phone_lengths(client: httpx.AsyncClient, phone: str) -> None:
    response = await client.post("/api/account", json=registration_payload(phone=phone))
    assert response.status_code == 201, response.text


@pytest.mark.parametrize("phone", ["2055123", "85620551234567", "2055-1234"])
async def test_lao_phone_bounds(client: httpx.AsyncClient, phone: str) -> None:
    response = await client.post("/api/account", json=registration_payload(phone=phone))
    assert (response.status_code, response.json()) == (
        400,
        {"message": "PHONE_NUMBER_REQUIRE_10_DIGIT"},
    )


@pytest.mark.parametrize(
    ("currency", "expected"),
    [(None, Currency.LAK), ("LAK", Currency.LAK), ("BAHT", Currency.THB)],
)
async def test_currency_choice_opens_that_wallet(
    client: httpx.AsyncClient, app: FastAPI, currency: str | None, expected: Currency
) -> None:
    phone = "2055000111"
    body = registration_payload(phone=phone, bank_code="BCEL", bank_account_no="010120000123456001")
    if currency is not None:
        body["currency"] = currency
    response = await client.post("/api/account", json=body)
    assert response.status_code == 201, response.text
    member, wallets = await created(app, phone)
    assert member.currency == expected
    assert [(w.currency, w.balance) for w in wallets] == [(expected, 0)]
    assert member.bank_account_no == "010120000123456001"
    # The app formats the balance by the wallet's currency (kip without decimals).
    wallet = (await client.get("/api/wallet", headers=auth(await login(client, phone)))).json()
    assert wallet["wallet"] == {"amount": 0, "currency": expected.value}


async def test_unknown_currency(client: httpx.AsyncClient) -> None:
    body = registration_payload(phone="2055000222", currency="USD")
    response = await client.post("/api/account", json=body)
    assert (response.status_code, response.json()["message"]) == (422, "KEY_INVALID")


async def test_lao_account_number_bounds(client: httpx.AsyncClient) -> None:
    too_long = registration_payload(
        phone="2055000333", bank_code="BCEL", bank_account_no="0101200001234560019"
    )
    response = await client.post("/api/account/validate", json=too_long)
    assert (response.status_code, response.json()) == (400, {"message": "INVALID_BANK"})


async def test_a_kip_wallet_takes_no_gift_link(client: httpx.AsyncClient, app: FastAPI) -> None:
    """A TrueMoney gift link carries baht: a kip wallet is refused before the voucher is
    claimed, so nothing is credited and the link stays usable elsewhere."""
    async with app.state.sessionmaker() as session:
        await seed_receiving_accounts(session, lao_mode=True)
        await session.commit()
    phone = "2055000222"
    body = registration_payload(phone=phone, bank_code="BCEL", bank_account_no="010120000123456002")
    assert (await client.post("/api/account", json=body)).status_code == 201
    token = await login(client, phone)
    minted = await client.post("/sandbox/truemoney/vouchers", json={"amount": 50})
    answer = await client.post(
        "/api/wallet/truelink", json={"link": minted.json()["link"]}, headers=auth(token)
    )
    assert answer.status_code == 400
    assert answer.json()["message"] == "NO_WALLET"
    wallet = (await client.get("/api/wallet", headers=auth(token))).json()["wallet"]
    assert wallet == {"amount": 0, "currency": "LAK"}
    async with app.state.sessionmaker() as session:
        assert (await session.execute(select(VoucherRedemption))).first() is None
