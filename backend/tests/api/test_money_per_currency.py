"""Money rules per currency (issue 35 §1, ADR 0020): the member's wallet currency picks every
operator amount. A kip member gets the kip limits, minimums and coin rate; a baht member is
unchanged."""

from __future__ import annotations

import httpx
from sqlalchemy.ext.asyncio import AsyncSession

from pao.identity.models import Member
from pao.kit.money import Currency
from pao.ledger.service import check_books
from pao.wallet.adjustments import credit_manually
from pao.wallet.models import Withdrawal
from pao.wallet.service import find_member_by_phone, wallet_balance
from tests.helpers import auth, register_and_login, set_money_setting


async def funded(
    client: httpx.AsyncClient, session: AsyncSession, currency: Currency, amount: int
) -> tuple[int, str]:
    """A logged-in member whose wallet is in ``currency`` and holds ``amount`` minor units."""
    phone, token = await register_and_login(client)
    member = await find_member_by_phone(session, phone=phone)
    member.currency = currency
    await session.flush()
    await credit_manually(session, member=member, amount=amount, note="test", actor="test")
    await session.commit()
    return member.id, token


async def test_a_kip_member_withdraws_within_the_kip_limits(
    client: httpx.AsyncClient, session: AsyncSession
) -> None:
    """500,000 kip is allowed (the kip maximum is 20,000,000), not refused by the baht
    maximum of 50,000; below the kip minimum (50,000 kip) is refused."""
    member_id, token = await funded(client, session, Currency.LAK, 1_000_000_00)

    limits = await client.get("/api/lookup/withdraw", headers=auth(token))
    assert limits.json() == {"withdrawMin": 50_000, "withdrawMax": 20_000_000}

    small = await client.post(
        "/api/wallet/withdrawAll", json={"amount": 40_000}, headers=auth(token)
    )
    assert (small.status_code, small.json()["message"]) == (400, "WITHDRAW_MINIMUM")

    answer = await client.post(
        "/api/wallet/withdrawAll", json={"amount": 500_000}, headers=auth(token)
    )
    assert answer.status_code == 200, answer.text
    withdrawal = await session.get(Withdrawal, answer.json()["withdrawalId"])
    assert withdrawal is not None
    assert (withdrawal.amount, withdrawal.currency) == (500_000_00, Currency.LAK)
    balance = await wallet_balance(session, member_id=member_id, currency=Currency.LAK)
    assert balance == 500_000_00
    assert (await check_books(session)).balanced


async def test_the_kip_maximum_is_the_kip_members_maximum(
    client: httpx.AsyncClient, session: AsyncSession
) -> None:
    await set_money_setting(client, "withdrawMax", LAK=300_000_00)
    _member_id, token = await funded(client, session, Currency.LAK, 1_000_000_00)
    limits = await client.get("/api/lookup/withdraw", headers=auth(token))
    assert limits.json() == {"withdrawMin": 50_000, "withdrawMax": 300_000}
    answer = await client.post(
        "/api/wallet/withdrawAll", json={"amount": 300_001}, headers=auth(token)
    )
    assert (answer.status_code, answer.json()["message"]) == (400, "WITHDRAW_MAXIMUM")


async def test_a_baht_member_keeps_the_baht_limits(
    client: httpx.AsyncClient, session: AsyncSession
) -> None:
    await set_money_setting(client, "withdrawMax", LAK=90_000_000_00)
    _member_id, token = await funded(client, session, Currency.THB, 100_000_00)
    limits = await client.get("/api/lookup/withdraw", headers=auth(token))
    assert limits.json() == {"withdrawMin": 100, "withdrawMax": 50_000}
    above = await client.post(
        "/api/wallet/withdrawAll", json={"amount": 50_001}, headers=auth(token)
    )
    assert (above.status_code, above.json()["message"]) == (400, "WITHDRAW_MAXIMUM")
    fine = await client.post(
        "/api/wallet/withdrawAll", json={"amount": 50_000}, headers=auth(token)
    )
    assert fine.status_code == 200, fine.text


async def test_withdrawals_are_not_offered_in_a_currency_without_limits(
    client: httpx.AsyncClient, session: AsyncSession
) -> None:
    """Unset for kip: no baht number stands in; the kip member is refused, nothing moves."""
    await set_money_setting(client, "withdrawMax", LAK=None)
    member_id, token = await funded(client, session, Currency.LAK, 100_000_00)
    limits = await client.get("/api/lookup/withdraw", headers=auth(token))
    assert limits.json() == {"withdrawMin": 0, "withdrawMax": 0}
    answer = await client.post(
        "/api/wallet/withdrawAll", json={"amount": 60_000}, headers=auth(token)
    )
    assert (answer.status_code, answer.json()["message"]) == (400, "CURRENCY_NOT_OFFERED")
    assert await wallet_balance(session, member_id=member_id, currency=Currency.LAK) == 100_000_00


async def test_the_slip_minimum_shown_is_the_members_currencys(
    client: httpx.AsyncClient, session: AsyncSession
) -> None:
    _kip_id, kip = await funded(client, session, Currency.LAK, 1_00)
    _baht_id, baht = await funded(client, session, Currency.THB, 1_00)
    assert (await client.get("/api/lookup/slip", headers=auth(kip))).json()[
        "minimumDeposit"
    ] == 1000
    assert (await client.get("/api/lookup/slip", headers=auth(baht))).json()["minimumDeposit"] == 1
    # Without a token: the operator's own currency (baht on a Thai server).
    assert (await client.get("/api/lookup/withdraw")).json()["withdrawMax"] == 50_000


async def test_coins_are_earned_per_kip_for_a_kip_deposit(
    client: httpx.AsyncClient, session: AsyncSession
) -> None:
    """50,000 kip earns one coin (50,000 kip per coin), not 500 (the baht rate read as kip);
    1,000 baht still earns 10."""
    kip_id, _kip = await funded(client, session, Currency.LAK, 50_000_00)
    baht_id, _baht = await funded(client, session, Currency.THB, 1_000_00)
    # The operator's credit (pao ops deposit) is a deposit: it earns coins as any does.
    kip_member = await session.get(Member, kip_id, populate_existing=True)
    baht_member = await session.get(Member, baht_id, populate_existing=True)
    assert kip_member is not None
    assert baht_member is not None
    assert (kip_member.coin, baht_member.coin) == (1, 10)
