"""Invite income, refunds and the prize wheel through the API."""

from __future__ import annotations

from datetime import timedelta

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import select

from pao.kit.clock import clock, utcnow
from pao.promotions.models import PrizeType, WheelCoupon
from tests.helpers import set_money_setting, set_site_setting
from tests.promotions_helpers import (
    add_bonus,
    add_wheel,
    books_balanced,
    coins,
    deposit,
    fake_game_results,
    new_player,
    wallet_amount,
)

# Also on SQLite (tests/databases.py): wheel, coupon, invite and refund payouts: money steps.
pytestmark = pytest.mark.sqlite

# ── invite ───────────────────────────────────────────────────────────────────────────────


async def test_invite_income_accrues_and_is_collected_once(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    inviter = await new_player(client)
    invitee = await new_player(client, invite_code=f"PR{inviter.id}")
    bystander = await new_player(client, invite_code=f"PR{inviter.id}")
    assert bystander.id != invitee.id

    await deposit(app, invitee.id, 1_000_00)  # 5 % → 50
    await deposit(app, invitee.id, 50_00)  # below the 100 minimum → nothing
    summary = (await client.get("/api/wallet", headers=inviter.headers)).json()["invite"]
    assert summary == {"amount": 50.0, "success": 1, "fail": 1}

    listed = await client.post(
        "/api/invite", json={"page": 1, "limit": 10}, headers=inviter.headers
    )
    assert listed.status_code == 200
    invites = listed.json()["invites"]
    assert len(invites) == 1
    assert invites[0]["from"] == {"name": "Test Member"}
    assert invites[0]["amount"] == 50.0

    collected = await client.get("/api/invite/bonus", headers=inviter.headers)
    assert collected.json() == {"message": "INVITE_BONUS_SUCCESS", "amount": 50.0}
    again = await client.get("/api/invite/bonus", headers=inviter.headers)
    assert (again.status_code, again.json()) == (400, {"message": "NO_INVITE_BONUS"})
    assert await wallet_amount(client, inviter) == 50.0
    assert (await client.get("/api/wallet", headers=inviter.headers)).json()["invite"][
        "amount"
    ] == 0.0
    assert await books_balanced(app)


async def test_invite_cap_per_invitee_and_disabled(client: httpx.AsyncClient, app: FastAPI) -> None:
    inviter = await new_player(client)
    invitee = await new_player(client, invite_code=f"PR{inviter.id}")
    await set_money_setting(app, "inviteMaxPerInvitee", THB=60_00)
    await deposit(app, invitee.id, 1_000_00)
    await deposit(app, invitee.id, 1_000_00)
    summary = (await client.get("/api/wallet", headers=inviter.headers)).json()["invite"]
    assert summary["amount"] == 60.0
    await set_site_setting(app, "inviteEnabled", False)
    off = await client.get("/api/invite/bonus", headers=inviter.headers)
    assert off.json() == {"message": "INVITE_INACTIVE"}


async def test_banners_come_from_settings_sanitised(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    player = await new_player(client)
    assert (await client.get("/api/invite/banners", headers=player.headers)).json() == []
    await set_site_setting(
        app, "refundBanners", [{"image": "/r.svg", "html": "<b>x</b><img src=x onerror=y>"}]
    )
    banners = (await client.get("/api/refund/banners", headers=player.headers)).json()
    assert banners[0]["image"] == "/r.svg"
    assert "onerror" not in banners[0]["html"]


# ── refund ───────────────────────────────────────────────────────────────────────────────


async def test_refund_receive_then_add_to_wallet(client: httpx.AsyncClient, app: FastAPI) -> None:
    games = fake_game_results(app)
    player = await new_player(client)
    check = (await client.get("/api/refund/check", headers=player.headers)).json()
    assert check["result"] is False
    assert check["refundAmount"] == 0.0
    assert (await client.get("/api/refund/receive", headers=player.headers)).json() == {
        "message": "NO_REFUND"
    }
    games.bet(player.id, at=utcnow(), stake=1_000_00, payout=200_00)  # net loss 800 → 40
    check = (await client.get("/api/refund/check", headers=player.headers)).json()
    assert check["result"] is True
    assert check["refundAmount"] == 40.0
    assert check["info"]["netLoss"] == 800.0
    assert check["info"]["period"] == "week"

    received = await client.get("/api/refund/receive", headers=player.headers)
    assert received.json() == {"message": "REFUND_SUCCESS", "amount": 40.0}
    assert (await client.get("/api/refund/receive", headers=player.headers)).json() == {
        "message": "REFUND_MINIMUM"
    }
    check = (await client.get("/api/refund/check", headers=player.headers)).json()
    assert check["refundSuccess"] == 40.0
    assert check["refundAmount"] == 0.0
    assert await wallet_amount(client, player) == 0.0

    added = await client.get("/api/refund/addWallet", headers=player.headers)
    assert added.json() == {"message": "REFUND_SUCCESS", "amount": 40.0}
    assert (await client.get("/api/refund/addWallet", headers=player.headers)).json() == {
        "message": "NO_REFUND"
    }
    assert await wallet_amount(client, player) == 40.0
    logs = await client.post("/api/refund", json={"page": 1, "limit": 10}, headers=player.headers)
    assert [r["refundAmount"] for r in logs.json()["refunds"]] == [40.0]

    # More losses in the same period: only the difference.
    games.bet(player.id, at=utcnow(), stake=200_00, payout=0)  # loss 1000 → 50 total
    assert (await client.get("/api/refund/receive", headers=player.headers)).json()[
        "amount"
    ] == 10.0
    # Next week starts from zero.
    clock.advance(timedelta(days=7))
    assert (await client.get("/api/refund/receive", headers=player.headers)).json() == {
        "message": "NO_REFUND"
    }
    assert await books_balanced(app)


async def test_refund_blocked_by_bonus_minimum_and_switch(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    games = fake_game_results(app)
    player = await new_player(client)
    games.bet(player.id, at=utcnow(), stake=10_00, payout=0)  # refund 0.50
    await set_money_setting(app, "refundMinimum", THB=1_00)
    assert (await client.get("/api/refund/receive", headers=player.headers)).json() == {
        "message": "REFUND_MINIMUM"
    }
    games.bet(player.id, at=utcnow(), stake=1_000_00, payout=0)
    await add_bonus(app, min_deposit=0, percent=0, fixed_amount=5_00)
    assert (await client.get("/api/bonus/activate/WELCOME", headers=player.headers)).is_success
    check = (await client.get("/api/refund/check", headers=player.headers)).json()
    assert check["bonus"] is True
    assert check["result"] is False
    assert (await client.get("/api/refund/receive", headers=player.headers)).json() == {
        "message": "REFUND_CONDITION"
    }
    await set_site_setting(app, "refundEnabled", False)
    assert (await client.get("/api/refund/receive", headers=player.headers)).json() == {
        "message": "REFUND_INACTIVE"
    }


# ── prize wheel ──────────────────────────────────────────────────────────────────────────


async def test_coins_from_deposits_spin_and_claim(client: httpx.AsyncClient, app: FastAPI) -> None:
    await add_wheel(app)
    player = await new_player(client)
    assert (await client.get("/api/spinwheel/active", headers=player.headers)).json() == {
        "isActive": True
    }
    no_coin = await client.post("/api/spinwheel/spin", headers=player.headers)
    assert no_coin.json() == {"message": "NO_COIN"}
    await deposit(app, player.id, 250_00)  # 2 coins
    setup = (await client.get("/api/spinwheel/setup", headers=player.headers)).json()
    assert setup["userCoin"] == 2
    assert [s["code"] for s in setup["slice"]] == ["C10", "NONE"]
    assert "weight" not in setup["slice"][0]
    assert {o["code"]: o["probability"] for o in setup["odds"]} == {"C10": 1.0, "NONE": 0.0}

    spun = await client.post(
        "/api/spinwheel/spin", headers={**player.headers, "Idempotency-Key": "spin-1"}
    )
    assert spun.status_code == 200, spun.text
    result = spun.json()["result"]
    assert result["code"] == "C10"
    assert result["remainingCoin"] == 1
    assert result["index"] == 0
    replay = await client.post(
        "/api/spinwheel/spin", headers={**player.headers, "Idempotency-Key": "spin-1"}
    )
    assert replay.json() == spun.json()
    assert await coins(app, player.id) == 1

    coupons = (await client.get("/api/spinwheel/coupon", headers=player.headers)).json()
    assert len(coupons) == 1
    assert coupons[0]["claimable"] is True
    assert coupons[0]["prize"]["name"] == "Prize C10"
    assert coupons[0]["amount"] == 10.0
    code = coupons[0]["coupon"]
    claimed = await client.post(
        "/api/spinwheel/coupon/claim", json={"coupon": code}, headers=player.headers
    )
    assert claimed.json()["message"] == "SUCCESS"
    assert claimed.json()["amount"] == 10.0
    again = await client.post(
        "/api/spinwheel/coupon/claim", json={"coupon": code}, headers=player.headers
    )
    assert again.json() == {"message": "NO_CLAIMABLE_COUPON"}
    assert await wallet_amount(client, player) == 260.0
    statements = await client.post(
        "/api/statement", json={"page": 1, "limit": 10}, headers=player.headers
    )
    line = statements.json()["statements"][0]
    assert line["statementType"] == "bonus"
    assert line["luckydraw"] == {
        "description": "Prize C10",
        "code": "luckydraw.prize",
        "params": {"prize": "Prize C10"},
    }
    assert await books_balanced(app)


async def test_coupon_refusals(client: httpx.AsyncClient, app: FastAPI) -> None:
    await add_wheel(app, [("SHIRT", 1, PrizeType.ITEM, 0)])
    player = await new_player(client)
    await deposit(app, player.id, 300_00)
    bad = await client.post(
        "/api/spinwheel/coupon/claim", json={"coupon": "bad code"}, headers=player.headers
    )
    assert bad.json() == {"message": "INVALID_CODE"}
    unknown = await client.post(
        "/api/spinwheel/coupon/claim", json={"coupon": "ABCDEFGHJKLM"}, headers=player.headers
    )
    assert unknown.json() == {"message": "NO_CLAIMABLE_COUPON"}
    assert (await client.post("/api/spinwheel/spin", headers=player.headers)).is_success
    item = (await client.get("/api/spinwheel/coupon", headers=player.headers)).json()[0]
    assert item["claimable"] is False
    refused = await client.post(
        "/api/spinwheel/coupon/claim", json={"coupon": item["coupon"]}, headers=player.headers
    )
    assert refused.json() == {"message": "INVALID_COUPON_TYPE"}

    # A credit coupon: refused during a bonus, expired after couponValidDays.
    async with app.state.sessionmaker() as session:
        coupon = (await session.execute(select(WheelCoupon))).scalar_one()
        coupon.prize_type = PrizeType.CREDIT
        coupon.amount = 0
        await session.commit()
    zero = await client.post(
        "/api/spinwheel/coupon/claim", json={"coupon": item["coupon"]}, headers=player.headers
    )
    assert zero.json() == {"message": "INVALID_PRIZE_CODE"}
    async with app.state.sessionmaker() as session:
        coupon = (await session.execute(select(WheelCoupon))).scalar_one()
        coupon.amount = 5_00
        await session.commit()
    await add_bonus(app, min_deposit=0, percent=0, fixed_amount=5_00)
    assert (await client.get("/api/bonus/activate/WELCOME", headers=player.headers)).is_success
    blocked = await client.post(
        "/api/spinwheel/coupon/claim", json={"coupon": item["coupon"]}, headers=player.headers
    )
    assert blocked.json() == {"message": "BONUS_REMAINING"}
    clock.advance(timedelta(days=8))
    expired = await client.post(
        "/api/spinwheel/coupon/claim", json={"coupon": item["coupon"]}, headers=player.headers
    )
    assert expired.json() == {"message": "COUPON_EXPIRED"}
    again = await client.post(
        "/api/spinwheel/coupon/claim", json={"coupon": item["coupon"]}, headers=player.headers
    )
    assert again.json() == {"message": "COUPON_EXPIRED"}


async def test_spin_inactive(client: httpx.AsyncClient, app: FastAPI) -> None:
    player = await new_player(client)
    assert (await client.get("/api/spinwheel/active", headers=player.headers)).json() == {
        "isActive": False
    }
    assert (await client.get("/api/spinwheel/setup", headers=player.headers)).json() == {
        "message": "SPIN_INACTIVE"
    }
    await add_wheel(app)
    await set_site_setting(app, "spinEnabled", False)
    await deposit(app, player.id, 500_00)
    assert await coins(app, player.id) == 0
    assert (await client.post("/api/spinwheel/spin", headers=player.headers)).json() == {
        "message": "SPIN_INACTIVE"
    }
