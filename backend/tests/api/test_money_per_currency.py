"""Money rules per currency (issue 35 §1, ADR 0020): the member's wallet currency picks every
operator amount. A kip member gets the kip limits, minimums and coin rate; a baht member is
unchanged."""

from __future__ import annotations

from datetime import timedelta

import httpx
from fastapi import FastAPI
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from pao.identity.models import Member
from pao.kit.clock import utcnow
from pao.kit.money import Currency
from pao.ledger.service import check_books
from pao.promotions.models import BonusKind, CouponStatus, PrizeType, WheelCoupon, WheelSpin
from pao.wallet.adjustments import credit_manually
from pao.wallet.models import Withdrawal
from pao.wallet.service import find_member_by_phone, wallet_balance
from tests.helpers import auth, register_and_login, set_money_setting
from tests.promotions_helpers import (
    Player,
    add_bonus,
    add_wheel,
    books_balanced,
    coins,
    deposit,
    new_player,
    wallet_amount,
)


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


# --- Bonuses and prizes carry their currency --------------------------------------------------


async def kip_player(client: httpx.AsyncClient, app: FastAPI) -> Player:
    player = await new_player(client)
    async with app.state.sessionmaker() as session:
        row = await session.get(Member, player.id)
        assert row is not None
        row.currency = Currency.LAK
        await session.commit()
    return player


async def test_a_baht_bonus_is_not_offered_to_a_kip_member(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    """The demo's "Weekly 50 baht" on a kip wallet: not listed, and its code refused with
    CURRENCY_NOT_OFFERED; a kip bonus is listed and paid in kip; a baht member sees the baht
    one only."""
    await add_bonus(
        app, code="WEEKLY50", percent=0, fixed_amount=50_00, max_amount=50_00, min_deposit=0
    )
    await add_bonus(
        app, code="WEEKLYKIP", currency=Currency.LAK, percent=0, fixed_amount=30_000_00,
        max_amount=30_000_00, min_deposit=0,
    )  # fmt: skip
    await add_bonus(
        app, code="BAHTCODE", kind=BonusKind.PROMOTION, percent=0, fixed_amount=20_00,
        max_amount=20_00, min_deposit=0,
    )  # fmt: skip
    kip = await kip_player(client, app)
    baht = await new_player(client)

    listed = (await client.get("/api/bonus", headers=kip.headers)).json()
    assert [b["code"] for b in listed] == ["WEEKLYKIP"]
    assert [b["code"] for b in (await client.get("/api/bonus", headers=baht.headers)).json()] == [
        "WEEKLY50"
    ]
    refused = await client.get("/api/bonus/activate/WEEKLY50", headers=kip.headers)
    assert (refused.status_code, refused.json()["message"]) == (400, "CURRENCY_NOT_OFFERED")
    # A promotion code of baht: unknown to the kip member's search, refused on activation.
    assert (await client.get("/api/promotion/find/BAHTCODE", headers=kip.headers)).json() == {}
    code = await client.get("/api/promotion/activate/BAHTCODE", headers=kip.headers)
    assert (code.status_code, code.json()["message"]) == (400, "CURRENCY_NOT_OFFERED")
    assert await wallet_amount(client, kip) == 0

    granted = await client.get("/api/bonus/activate/WEEKLYKIP", headers=kip.headers)
    assert granted.status_code == 200, granted.text
    wallet = (await client.get("/api/wallet", headers=kip.headers)).json()["wallet"]
    assert wallet == {"amount": 30_000, "currency": "LAK"}
    assert await books_balanced(app)


async def test_a_kip_member_spins_the_kip_wheel_and_is_paid_in_kip(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    """A "Credit 50 ฿" prize never pays 50 kip: the kip member spins the kip wheel, whose
    coupon is in kip and pays kip; a baht coupon in a kip wallet is refused."""
    await add_wheel(app, [("C50", 1, PrizeType.CREDIT, 50_00), ("NONE", 0, PrizeType.NONE, 0)])
    kip = await kip_player(client, app)
    await deposit(app, kip.id, 100_000_00)  # 2 coins at 50,000 kip a coin

    # Only a baht wheel: the kip member is not offered it.
    setup = await client.get("/api/spinwheel/setup", headers=kip.headers)
    assert (setup.status_code, setup.json()["message"]) == (400, "SPIN_INACTIVE")
    assert (await client.get("/api/spinwheel/active", headers=kip.headers)).json() == {
        "isActive": False
    }
    refused = await client.post("/api/spinwheel/spin", headers=kip.headers)
    assert (refused.status_code, refused.json()["message"]) == (400, "CURRENCY_NOT_OFFERED")
    assert await coins(app, kip.id) == 2

    await add_wheel(
        app, [("K50K", 1, PrizeType.CREDIT, 50_000_00), ("NONE", 0, PrizeType.NONE, 0)],
        currency=Currency.LAK,
    )  # fmt: skip
    spun = await client.post("/api/spinwheel/spin", headers=kip.headers)
    assert spun.status_code == 200, spun.text
    assert spun.json()["result"]["code"] == "K50K"
    (coupon,) = (await client.get("/api/spinwheel/coupon", headers=kip.headers)).json()
    assert coupon["amount"] == 50_000
    claimed = await client.post(
        "/api/spinwheel/coupon/claim", json={"coupon": coupon["coupon"]}, headers=kip.headers
    )
    assert claimed.status_code == 200, claimed.text
    assert claimed.json()["amount"] == 50_000
    wallet = (await client.get("/api/wallet", headers=kip.headers)).json()["wallet"]
    assert wallet == {"amount": 150_000, "currency": "LAK"}

    # A coupon issued in baht (before the fix, a baht slice gave kip members baht coupons).
    async with app.state.sessionmaker() as session:
        row = (
            await session.execute(select(WheelCoupon).where(WheelCoupon.member_id == kip.id))
        ).scalar_one()
        spin_id, slice_id = row.spin_id, row.slice_id
        baht_spin = WheelSpin(member_id=kip.id, wheel_id=1, slice_id=slice_id)
        session.add(baht_spin)
        await session.flush()
        session.add(
            WheelCoupon(
                code="BAHTCOUPON23", member_id=kip.id, spin_id=baht_spin.id, slice_id=slice_id,
                prize_type=PrizeType.CREDIT, amount=50_00, currency=Currency.THB,
                status=CouponStatus.ISSUED, expires_at=utcnow() + timedelta(days=1),
            )
        )  # fmt: skip
        await session.commit()
    assert spin_id
    baht_claim = await client.post(
        "/api/spinwheel/coupon/claim", json={"coupon": "BAHTCOUPON23"}, headers=kip.headers
    )
    assert (baht_claim.status_code, baht_claim.json()["message"]) == (400, "CURRENCY_NOT_OFFERED")
    assert await wallet_amount(client, kip) == 150_000
    assert await books_balanced(app)
