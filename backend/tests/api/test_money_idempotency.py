"""Money calls that the contract makes idempotent by state honour an Idempotency-Key too.

A retry after a lost answer (same key) gets the first answer again instead of a refusal such as
``NO_INVITE_BONUS``, and the money moves once; the same key on another request is
``IDEMPOTENCY_KEY_REUSED``. (Withdrawals, transfers, QR, slips, spin and coupon claims have
their own tests.)
"""

from __future__ import annotations

import httpx
import pytest
from fastapi import FastAPI

from pao.kit.clock import utcnow
from pao.payments.accounts import seed_receiving_accounts
from pao.promotions.models import BonusKind
from tests.helpers import auth, register_and_login
from tests.promotions_helpers import (
    Player,
    add_bonus,
    books_balanced,
    deposit,
    fake_game_results,
    new_player,
    wallet_amount,
)

# Also on SQLite (tests/databases.py): idempotent retries of every money path, on the steps.
pytestmark = pytest.mark.sqlite


def keyed(player: Player, key: str) -> dict[str, str]:
    return {**player.headers, "Idempotency-Key": key}


async def test_bonus_activation_replays(client: httpx.AsyncClient, app: FastAPI) -> None:
    await add_bonus(app, max_amount=150_00)
    await add_bonus(app, code="OTHER")
    player = await new_player(client)
    await deposit(app, player.id, 200_00)
    first = await client.get("/api/bonus/activate/WELCOME", headers=keyed(player, "b-1"))
    assert first.status_code == 200, first.text
    replay = await client.get("/api/bonus/activate/WELCOME", headers=keyed(player, "b-1"))
    assert (replay.status_code, replay.json()) == (200, first.json())
    assert await wallet_amount(client, player) == 350.0
    # Without the key, the state answers (the bonus is active already).
    plain = await client.get("/api/bonus/activate/WELCOME", headers=player.headers)
    assert plain.json() == {"message": "BONUS_ALREADY_ACTIVE"}
    other = await client.get("/api/bonus/activate/OTHER", headers=keyed(player, "b-1"))
    assert (other.status_code, other.json()) == (409, {"message": "IDEMPOTENCY_KEY_REUSED"})
    long_key = await client.get("/api/bonus/activate/OTHER", headers=keyed(player, "k" * 201))
    assert (long_key.status_code, long_key.json()["message"]) == (422, "KEY_INVALID")
    assert await books_balanced(app)


async def test_promotion_code_and_bonus_clear_replay(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    games = fake_game_results(app)
    await add_bonus(app, code="PAO2026", kind=BonusKind.PROMOTION, percent=20)
    player = await new_player(client)
    await deposit(app, player.id, 500_00)
    first = await client.get("/api/promotion/activate/pao2026", headers=keyed(player, "p-1"))
    assert first.status_code == 200, first.text
    # The code is upper-cased: the same request.
    replay = await client.get("/api/promotion/activate/PAO2026", headers=keyed(player, "p-1"))
    assert (replay.status_code, replay.json()) == (200, first.json())
    assert await wallet_amount(client, player) == 600.0

    games.bet(player.id, at=utcnow(), stake=10_000_00, payout=0)
    cleared = await client.get("/api/bonus/clear", headers=keyed(player, "c-1"))
    assert cleared.json() == {"message": "BONUS_CLEAR"}
    again = await client.get("/api/bonus/clear", headers=keyed(player, "c-1"))
    assert (again.status_code, again.json()) == (200, {"message": "BONUS_CLEAR"})
    statements = await client.post(
        "/api/statement", json={"page": 1, "limit": 50}, headers=player.headers
    )
    kinds = [line["statementType"] for line in statements.json()["statements"]]
    assert kinds.count("finish_bonus") == 1
    assert await books_balanced(app)


async def test_invite_collection_replays(client: httpx.AsyncClient, app: FastAPI) -> None:
    inviter = await new_player(client)
    invitee = await new_player(client, invite_code=f"PR{inviter.id}")
    await deposit(app, invitee.id, 1_000_00)  # 5 % → 50
    first = await client.get("/api/invite/bonus", headers=keyed(inviter, "i-1"))
    assert first.json() == {"message": "INVITE_BONUS_SUCCESS", "amount": 50.0}
    replay = await client.get("/api/invite/bonus", headers=keyed(inviter, "i-1"))
    assert (replay.status_code, replay.json()) == (200, first.json())
    fresh = await client.get("/api/invite/bonus", headers=keyed(inviter, "i-2"))
    assert (fresh.status_code, fresh.json()) == (400, {"message": "NO_INVITE_BONUS"})
    assert await wallet_amount(client, inviter) == 50.0
    assert await books_balanced(app)


async def test_refund_receive_and_add_to_wallet_replay(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    games = fake_game_results(app)
    player = await new_player(client)
    games.bet(player.id, at=utcnow(), stake=1_000_00, payout=200_00)  # net loss 800 → 40
    received = await client.get("/api/refund/receive", headers=keyed(player, "r-1"))
    assert received.json() == {"message": "REFUND_SUCCESS", "amount": 40.0}
    replay = await client.get("/api/refund/receive", headers=keyed(player, "r-1"))
    assert (replay.status_code, replay.json()) == (200, received.json())

    added = await client.get("/api/refund/addWallet", headers=keyed(player, "w-1"))
    assert added.json() == {"message": "REFUND_SUCCESS", "amount": 40.0}
    replay = await client.get("/api/refund/addWallet", headers=keyed(player, "w-1"))
    assert (replay.status_code, replay.json()) == (200, added.json())
    assert await wallet_amount(client, player) == 40.0
    logs = await client.post("/api/refund", json={"page": 1, "limit": 10}, headers=player.headers)
    assert [r["refundAmount"] for r in logs.json()["refunds"]] == [40.0]
    # Another operation under a key already used: refused, whatever the route.
    reused = await client.get("/api/refund/addWallet", headers=keyed(player, "r-1"))
    assert (reused.status_code, reused.json()) == (409, {"message": "IDEMPOTENCY_KEY_REUSED"})
    assert await books_balanced(app)


async def test_truemoney_gift_link_replays(client: httpx.AsyncClient, app: FastAPI) -> None:
    async with app.state.sessionmaker() as session:
        await seed_receiving_accounts(session)
        await session.commit()
    _phone, token = await register_and_login(client)
    minted = await client.post("/sandbox/truemoney/vouchers", json={"amount": 50.25})
    link = minted.json()["link"]
    headers = {**auth(token), "Idempotency-Key": "t-1"}
    first = await client.post("/api/wallet/truelink", json={"link": link}, headers=headers)
    assert (first.status_code, first.json()) == (200, {"code": "SUCCESS", "amount": 50.25})
    replay = await client.post("/api/wallet/truelink", json={"link": link}, headers=headers)
    assert (replay.status_code, replay.json()) == (200, first.json())
    # Without the key (or with a new one) the voucher is spent.
    plain = await client.post("/api/wallet/truelink", json={"link": link}, headers=auth(token))
    assert plain.json() == {"message": "TRUELINK_DUPLICATE"}
    other = (await client.post("/sandbox/truemoney/vouchers", json={"amount": 5})).json()["link"]
    reused = await client.post("/api/wallet/truelink", json={"link": other}, headers=headers)
    assert (reused.status_code, reused.json()) == (409, {"message": "IDEMPOTENCY_KEY_REUSED"})
    wallet = (await client.get("/api/wallet", headers=auth(token))).json()["wallet"]
    assert wallet["amount"] == 50.25
