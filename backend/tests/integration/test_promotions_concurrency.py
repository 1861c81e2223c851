"""Every promotion payout under real concurrency, on both databases: many clicks at once,
exactly one payment (or exactly the allowed number), and balanced books afterwards.

Game results come from the real games domain: bets are recorded at the sandbox provider for
the member's game account, and ``pao.games.turnover.game_results`` reads them back over HTTP.
"""

from __future__ import annotations

import asyncio
from collections import Counter

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import func, select

from pao.kit.clock import utcnow
from pao.promotions.models import (
    Bonus,
    BonusKind,
    InviteCollection,
    MemberBonus,
    PrizeType,
    RefundReceipt,
    WheelCoupon,
)
from pao.sandbox.games.models import SandboxGameBet
from tests.games_support import activate, seed, username_of
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

# Also on SQLite (tests/databases.py): concurrent claims under SQLite's write lock.
pytestmark = pytest.mark.sqlite

RACERS = 8


def outcomes(responses: list[httpx.Response]) -> Counter[tuple[int, str]]:
    return Counter((r.status_code, str(r.json().get("message", "OK"))) for r in responses)


async def record_bets(app: FastAPI, player: Player, *, stake: int, payout: int) -> None:
    """A bet as the sandbox provider records it when the member plays JOKER."""
    username = await username_of(app, player.id, "JOKER")
    async with app.state.sandbox_sessionmaker() as session:
        session.add(
            SandboxGameBet(
                brand="JOKER",
                username=username,
                bet=stake,
                payout=payout,
                reels="7|7|1",
                created_at=utcnow(),
            )
        )
        await session.commit()


async def count(app: FastAPI, model: type, *where: object) -> int:
    async with app.state.sessionmaker() as session:
        query = select(func.count()).select_from(model).where(*where)  # type: ignore[arg-type]
        return int((await session.execute(query)).scalar_one())


async def test_racing_bonus_activations_pay_once(client: httpx.AsyncClient, app: FastAPI) -> None:
    await add_bonus(app)
    await add_bonus(app, code="OTHER", percent=50)
    player = await new_player(client)
    await deposit(app, player.id, 100_00)
    responses = await asyncio.gather(
        *(
            client.get(f"/api/bonus/activate/{code}", headers=player.headers)
            for code in ["WELCOME", "OTHER"] * (RACERS // 2)
        )
    )
    result = outcomes(responses)
    assert sum(n for (status, _), n in result.items() if status == 200) == 1
    assert await count(app, MemberBonus) == 1
    paid = 200.0 if any(r.json().get("amount") == 100.0 for r in responses) else 150.0
    assert await wallet_amount(client, player) == paid
    assert await books_balanced(app)


async def test_promotion_code_global_limit_holds_under_a_rush(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    await add_bonus(
        app, code="RUSH", kind=BonusKind.PROMOTION, min_deposit=0, percent=0,
        fixed_amount=10_00, max_amount=10_00, total_limit=3,
    )  # fmt: skip
    players = [await new_player(client) for _ in range(RACERS)]
    responses = await asyncio.gather(
        *(client.get("/api/promotion/activate/rush", headers=p.headers) for p in players)
    )
    assert outcomes(responses) == {(200, "OK"): 3, (400, "BONUS_FULL"): RACERS - 3}
    async with app.state.sessionmaker() as session:
        bonus = (await session.execute(select(Bonus).where(Bonus.code == "RUSH"))).scalar_one()
        assert bonus.claimed_count == 3
    assert await count(app, MemberBonus) == 3
    assert await books_balanced(app)


async def test_racing_invite_collections_pay_once(client: httpx.AsyncClient, app: FastAPI) -> None:
    inviter = await new_player(client)
    invitee = await new_player(client, invite_code=f"PR{inviter.id}")
    await deposit(app, invitee.id, 1_000_00)
    responses = await asyncio.gather(
        *(client.get("/api/invite/bonus", headers=inviter.headers) for _ in range(RACERS))
    )
    assert outcomes(responses) == {
        (200, "INVITE_BONUS_SUCCESS"): 1,
        (400, "NO_INVITE_BONUS"): RACERS - 1,
    }
    assert await wallet_amount(client, inviter) == 50.0
    assert await count(app, InviteCollection) == 1
    assert await books_balanced(app)


async def test_racing_refund_receive_and_add_wallet_pay_once(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    await seed(app)
    player = await new_player(client)
    await activate(client, player.token, "JOKER")
    await record_bets(app, player, stake=1_000_00, payout=0)  # net loss 1000 → refund 50
    responses = await asyncio.gather(
        *(client.get("/api/refund/receive", headers=player.headers) for _ in range(RACERS))
    )
    assert outcomes(responses) == {
        (200, "REFUND_SUCCESS"): 1,
        (400, "REFUND_MINIMUM"): RACERS - 1,
    }
    assert await count(app, RefundReceipt) == 1
    responses = await asyncio.gather(
        *(client.get("/api/refund/addWallet", headers=player.headers) for _ in range(RACERS))
    )
    assert outcomes(responses) == {(200, "REFUND_SUCCESS"): 1, (400, "NO_REFUND"): RACERS - 1}
    assert await wallet_amount(client, player) == 50.0
    assert await books_balanced(app)


async def test_racing_spins_never_take_coins_below_zero(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    await add_wheel(app)
    player = await new_player(client)
    await deposit(app, player.id, 300_00)  # 3 coins
    responses = await asyncio.gather(
        *(client.post("/api/spinwheel/spin", headers=player.headers) for _ in range(RACERS))
    )
    assert outcomes(responses) == {(200, "OK"): 3, (400, "NO_COIN"): RACERS - 3}
    assert await coins(app, player.id) == 0
    assert await count(app, WheelCoupon) == 3


async def test_racing_coupon_claims_pay_once(client: httpx.AsyncClient, app: FastAPI) -> None:
    await add_wheel(app, [("C50", 1, PrizeType.CREDIT, 50_00)])
    player = await new_player(client)
    await deposit(app, player.id, 100_00)
    assert (await client.post("/api/spinwheel/spin", headers=player.headers)).is_success
    code = (await client.get("/api/spinwheel/coupon", headers=player.headers)).json()[0]["coupon"]
    responses = await asyncio.gather(
        *(
            client.post("/api/spinwheel/coupon/claim", json={"coupon": code}, headers=h)
            for h in [player.headers] * RACERS
        )
    )
    assert outcomes(responses) == {
        (200, "SUCCESS"): 1,
        (400, "NO_CLAIMABLE_COUPON"): RACERS - 1,
    }
    assert await wallet_amount(client, player) == 150.0
    assert await books_balanced(app)


async def test_bonus_clears_with_real_game_turnover(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    await seed(app)
    await add_bonus(app, turnover_multiplier=1)
    player = await new_player(client)
    await activate(client, player.token, "JOKER")
    await deposit(app, player.id, 100_00)
    assert (await client.get("/api/bonus/activate/WELCOME", headers=player.headers)).is_success
    refused = await client.get("/api/bonus/clear", headers=player.headers)
    assert refused.json() == {"message": "BONUS_CONDITION"}
    await record_bets(app, player, stake=200_00, payout=150_00)  # required 1 × (100 + 100)
    responses = await asyncio.gather(
        *(client.get("/api/bonus/clear", headers=player.headers) for _ in range(RACERS))
    )
    assert outcomes(responses) == {(200, "BONUS_CLEAR"): 1, (200, "OK"): RACERS - 1}
