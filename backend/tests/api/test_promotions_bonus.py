"""Bonuses and promotion codes through the API: activation, the turnover and percentFail
conditions, clearing, the gates on withdrawals and transfers, received counts per period."""

from __future__ import annotations

from datetime import timedelta

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import select

from pao.kit.clock import clock, utcnow
from pao.kit.money import Currency
from pao.ledger.models import AccountKind
from pao.ledger.service import get_or_open_account, player_wallet, transfer
from pao.promotions.exceptions import BonusRemaining
from pao.promotions.gates import BONUS_GATE_ON_TRANSFERS
from pao.promotions.models import BonusKind, BonusType, MemberBonus, MemberBonusStatus
from tests.promotions_helpers import (
    Player,
    add_bonus,
    books_balanced,
    deposit,
    fake_game_results,
    new_player,
    wallet_amount,
)

# Also on SQLite (tests/databases.py): bonus payouts: money steps.
pytestmark = pytest.mark.sqlite


async def statements(client: httpx.AsyncClient, player: Player) -> list[dict[str, object]]:
    response = await client.post(
        "/api/statement", json={"page": 1, "limit": 50}, headers=player.headers
    )
    assert response.status_code == 200, response.text
    lines: list[dict[str, object]] = response.json()["statements"]
    return lines


async def test_bonus_list_shows_cards_with_sanitised_banners(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    await add_bonus(app)
    await add_bonus(app, code="HIDDEN", kind=BonusKind.PROMOTION)
    await add_bonus(app, code="OFF", is_active=False)
    player = await new_player(client)
    response = await client.get("/api/bonus", headers=player.headers)
    assert response.status_code == 200
    items = response.json()
    assert [i["code"] for i in items] == ["WELCOME"]
    item = items[0]
    assert item["type"] == "limit"
    assert item["maxReceived"] == 1
    assert item["percentFail"] == 10
    assert item["banners"] == [{"image": "/b.svg", "html": "<p>hi</p>", "title": ""}]
    assert item["userBonus"] is None


async def test_activation_pays_percent_of_the_deposit(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    await add_bonus(app, max_amount=150_00)
    player = await new_player(client)
    await deposit(app, player.id, 200_00)
    minimum = await client.get("/api/bonus/check/minimum", headers=player.headers)
    assert minimum.json() == {"status": True, "amount": 200.0}

    response = await client.get("/api/bonus/activate/WELCOME", headers=player.headers)
    assert response.status_code == 200, response.text
    grant = response.json()
    # 100 % of 200, capped at 150; turnover 5 × (200 + 150).
    assert grant["amount"] == 150.0
    assert grant["isActive"] is True
    assert grant["turnoverRequired"] == 1750.0
    assert len(grant["received"]) == 1
    assert await wallet_amount(client, player) == 350.0

    active = await client.get("/api/bonus/check/active", headers=player.headers)
    assert active.json()["status"] is True
    assert active.json()["type"] == "limit"
    assert active.json()["canClear"] is False

    lines = await statements(client, player)
    bonus_line = next(line for line in lines if line["statementType"] == "bonus")
    assert bonus_line["amount"] == 150.0
    assert bonus_line["bonus"] == {
        "description": "Welcome",
        "code": "bonus.received",
        "params": {"name": "Welcome"},
    }

    listed = (await client.get("/api/bonus", headers=player.headers)).json()[0]
    assert listed["userBonus"]["isActive"] is True
    assert len(listed["userBonus"]["received"]) == 1
    assert await books_balanced(app)


async def test_activation_refusals(client: httpx.AsyncClient, app: FastAPI) -> None:
    await add_bonus(app)
    player = await new_player(client)
    unknown = await client.get("/api/bonus/activate/NOPE", headers=player.headers)
    assert (unknown.status_code, unknown.json()) == (404, {"message": "NO_DATA"})
    no_deposit = await client.get("/api/bonus/activate/WELCOME", headers=player.headers)
    assert no_deposit.json() == {"message": "BONUS_CONDITION"}
    await deposit(app, player.id, 99_00)  # below min_deposit
    small = await client.get("/api/bonus/activate/WELCOME", headers=player.headers)
    assert small.json() == {"message": "BONUS_CONDITION"}
    # A deposit outside the window does not qualify.
    await deposit(app, player.id, 100_00)
    clock.advance(timedelta(hours=25))
    late = await client.get("/api/bonus/activate/WELCOME", headers=player.headers)
    assert late.json() == {"message": "BONUS_CONDITION"}
    assert await wallet_amount(client, player) == 199.0


async def test_spent_deposit_does_not_qualify(client: httpx.AsyncClient, app: FastAPI) -> None:
    await add_bonus(app)
    player = await new_player(client)
    await deposit(app, player.id, 100_00)
    # The deposit left the wallet (e.g. moved to a game): no bonus for it.
    async with app.state.sessionmaker() as session:
        wallet = await player_wallet(session, member_id=player.id, currency=Currency.THB)
        float_ = await get_or_open_account(
            session, kind=AccountKind.PROVIDER_FLOAT, currency=Currency.THB, owner="X"
        )
        await transfer(
            session, source=wallet, destination=float_, amount=50_00, kind="test", actor="t"
        )
        await session.commit()
    response = await client.get("/api/bonus/activate/WELCOME", headers=player.headers)
    assert response.json() == {"message": "BONUS_CONDITION"}


async def test_active_bonus_blocks_withdrawals_transfers_and_another_bonus(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    await add_bonus(app)
    await add_bonus(app, code="SECOND", min_deposit=0, percent=0, fixed_amount=10_00)
    player = await new_player(client)
    await deposit(app, player.id, 100_00)
    assert (await client.get("/api/bonus/activate/WELCOME", headers=player.headers)).is_success
    again = await client.get("/api/bonus/activate/SECOND", headers=player.headers)
    assert again.json() == {"message": "BONUS_ALREADY_ACTIVE"}
    withdraw = await client.post(
        "/api/wallet/withdraw", json={"amount": 100}, headers=player.headers
    )
    assert (withdraw.status_code, withdraw.json()) == (400, {"message": "BONUS_REMAINING"})
    async with app.state.sessionmaker() as session:
        # Into a game: allowed (that is how the turnover is played); back to the wallet: not.
        await BONUS_GATE_ON_TRANSFERS(
            session, member_id=player.id, source="wallet", destination="PG", amount=1
        )
        with pytest.raises(BonusRemaining):
            await BONUS_GATE_ON_TRANSFERS(
                session, member_id=player.id, source="PG", destination="WALLET", amount=1
            )


async def test_clear_needs_the_turnover(client: httpx.AsyncClient, app: FastAPI) -> None:
    games = fake_game_results(app)
    await add_bonus(app)
    player = await new_player(client)
    await deposit(app, player.id, 100_00)
    assert (await client.get("/api/bonus/activate/WELCOME", headers=player.headers)).is_success
    # Required: 5 × (100 + 100) = 1000 THB of stakes after activation.
    games.bet(player.id, at=utcnow() - timedelta(minutes=1), stake=5_000_00, payout=0)  # before
    clock.advance(timedelta(minutes=1))
    games.bet(player.id, at=utcnow(), stake=999_99, payout=900_00)
    refused = await client.get("/api/bonus/clear", headers=player.headers)
    assert (refused.status_code, refused.json()) == (400, {"message": "BONUS_CONDITION"})
    games.bet(player.id, at=utcnow(), stake=1, payout=0)
    active = (await client.get("/api/bonus/check/active", headers=player.headers)).json()
    assert active["turnover"] == 1000.0
    assert active["canClear"] is True
    cleared = await client.get("/api/bonus/clear", headers=player.headers)
    assert cleared.json() == {"message": "BONUS_CLEAR"}
    assert (await client.get("/api/bonus/check/active", headers=player.headers)).json() == {
        "status": False
    }
    assert (await client.get("/api/bonus/clear", headers=player.headers)).json() == {
        "message": "OK"
    }
    lines = await statements(client, player)
    assert [line["statementType"] for line in lines].count("finish_bonus") == 1
    withdraw = await client.post(
        "/api/wallet/withdraw", json={"amount": 100}, headers=player.headers
    )
    assert withdraw.status_code == 200, withdraw.text


async def test_percent_fail_ends_the_bonus_early(client: httpx.AsyncClient, app: FastAPI) -> None:
    fake_game_results(app)
    await add_bonus(app)
    player = await new_player(client)
    await deposit(app, player.id, 100_00)
    assert (await client.get("/api/bonus/activate/WELCOME", headers=player.headers)).is_success

    async def lose(amount: int) -> None:
        async with app.state.sessionmaker() as session:
            wallet = await player_wallet(session, member_id=player.id, currency=Currency.THB)
            float_ = await get_or_open_account(
                session, kind=AccountKind.PROVIDER_FLOAT, currency=Currency.THB, owner="X"
            )
            await transfer(
                session, source=wallet, destination=float_, amount=amount, kind="test", actor="t"
            )
            await session.commit()

    await lose(180_00)  # balance 20 = 10 % of 200: not below
    refused = await client.get("/api/bonus/clear", headers=player.headers)
    assert refused.json() == {"message": "BONUS_CONDITION"}
    await lose(1)
    ended = await client.get("/api/bonus/clear", headers=player.headers)
    assert ended.json() == {"message": "OK"}
    async with app.state.sessionmaker() as session:
        grant = (await session.execute(select(MemberBonus))).scalar_one()
        assert grant.status == MemberBonusStatus.ENDED


async def test_received_counts_per_day_including_ended_ones(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    games = fake_game_results(app)
    await add_bonus(app, code="DAILY", type=BonusType.DAY, turnover_multiplier=1)
    player = await new_player(client)

    async def take() -> httpx.Response:
        await deposit(app, player.id, 100_00)
        return await client.get("/api/bonus/activate/DAILY", headers=player.headers)

    assert (await take()).is_success
    games.bet(player.id, at=utcnow(), stake=10_000_00, payout=0)
    assert (await client.get("/api/bonus/clear", headers=player.headers)).json() == {
        "message": "BONUS_CLEAR"
    }
    # Ended, yet it still counts: no second one today.
    assert (await take()).json() == {"message": "BONUS_MAX_CLAIMED"}
    listed = (await client.get("/api/bonus", headers=player.headers)).json()[0]
    assert listed["userBonus"]["isActive"] is False
    assert len(listed["userBonus"]["received"]) == 1
    clock.advance(timedelta(days=1))
    assert (await take()).is_success


async def test_week_bonus_resets_on_monday(client: httpx.AsyncClient, app: FastAPI) -> None:
    games = fake_game_results(app)
    await add_bonus(app, code="WEEKLY", type=BonusType.WEEK, turnover_multiplier=1)
    player = await new_player(client)
    await deposit(app, player.id, 100_00)
    assert (await client.get("/api/bonus/activate/WEEKLY", headers=player.headers)).is_success
    games.bet(player.id, at=utcnow(), stake=10_000_00, payout=0)
    assert (await client.get("/api/bonus/clear", headers=player.headers)).is_success
    await deposit(app, player.id, 100_00)
    again = await client.get("/api/bonus/activate/WEEKLY", headers=player.headers)
    assert again.json() == {"message": "BONUS_MAX_CLAIMED"}
    clock.advance(timedelta(days=7))
    await deposit(app, player.id, 100_00)
    assert (await client.get("/api/bonus/activate/WEEKLY", headers=player.headers)).is_success


async def test_promotion_codes(client: httpx.AsyncClient, app: FastAPI) -> None:
    games = fake_game_results(app)
    await add_bonus(
        app,
        code="PAO2026",
        kind=BonusKind.PROMOTION,
        description="20% up to 300",
        percent=20,
        percent_fail=15,
        total_limit=1,
        turnover_multiplier=1,
    )
    first, second = await new_player(client), await new_player(client)
    found = await client.get("/api/promotion/find/pao2026", headers=first.headers)
    assert found.json() == {"code": "PAO2026", "percentFail": 15, "description": "20% up to 300"}
    missing = await client.get("/api/promotion/find/NOPE", headers=first.headers)
    assert missing.json() == {}
    nope = await client.get("/api/promotion/activate/NOPE", headers=first.headers)
    assert nope.json() == {"message": "NO_PROMOTION"}
    # A promotion code is not a bonus card.
    assert (await client.get("/api/bonus/activate/PAO2026", headers=first.headers)).status_code == (
        404
    )

    await deposit(app, first.id, 500_00)
    granted = await client.get("/api/promotion/activate/pao2026", headers=first.headers)
    assert granted.status_code == 200, granted.text
    assert granted.json()["amount"] == 100.0
    current = await client.get("/api/promotion/current", headers=first.headers)
    assert current.json()["code"] == "PAO2026"
    games.bet(first.id, at=utcnow(), stake=10_000_00, payout=0)
    assert (await client.get("/api/bonus/clear", headers=first.headers)).is_success
    await deposit(app, first.id, 500_00)
    twice = await client.get("/api/promotion/activate/PAO2026", headers=first.headers)
    assert twice.json() == {"message": "PROMOTION_RECEIVED"}

    await deposit(app, second.id, 500_00)
    full = await client.get("/api/promotion/activate/PAO2026", headers=second.headers)
    assert full.json() == {"message": "BONUS_FULL"}
    assert await books_balanced(app)
