"""The transfer saga under faults (money rule 4): provider time-outs, refusals, late answers
in both directions, a process that dies between the hold and the post, the reconciler, and
many simultaneous transfers from one wallet. After every scenario each baht is where the
ledger says and the books balance."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import select

from pao.games import transfers
from pao.games.models import GameTransfer, GameTransferStatus
from pao.games.reconciler import reconcile_tick
from pao.kit.clock import clock
from pao.kit.money import Currency
from pao.ledger.models import AccountKind, Hold, HoldStatus
from tests.games_support import (
    activate,
    arm,
    assert_books_balance,
    balance_of,
    funded_member,
    provider_balance,
    seed,
    transfer_headers,
    username_of,
    wallet_minor,
)
from tests.helpers import auth

# Also on SQLite (tests/databases.py): transfer outcomes settled by the steps.
pytestmark = pytest.mark.sqlite

# The adapter gives up after this; faults answer (or not) after LATE. A "late" provider has
# moved the money before it waits, and the adapter's time-out cancels the in-process sandbox
# call (asyncio.timeout around the ASGI transport), so nothing is left to wait for after the
# faulty call returns: no test sleeps LATE.
TIMEOUT = 2.0
LATE = 4.0


@pytest.fixture
async def game_app(app: FastAPI) -> FastAPI:
    await seed(app)
    return app


async def _faulty(
    app: FastAPI, client: httpx.AsyncClient, token: str, source: str, dest: str, amount: float
) -> httpx.Response:
    """A transfer whose provider call is given only TIMEOUT seconds (set up and reconcile
    calls get a generous time-out, so a slow test machine does not fail them)."""
    app.state.settings.game_provider_timeout_seconds = TIMEOUT
    try:
        return await _transfer(client, token, source, dest, amount)
    finally:
        app.state.settings.game_provider_timeout_seconds = 60.0


async def _transfer(
    client: httpx.AsyncClient, token: str, source: str, dest: str, amount: float
) -> httpx.Response:
    return await client.post(
        "/api/wallet/transfer",
        json={"from": source, "to": dest, "amount": amount},
        headers=auth(token),
    )


async def _only_transfer(app: FastAPI) -> GameTransfer:
    async with app.state.sessionmaker() as session:
        rows: list[GameTransfer] = list(
            (await session.execute(select(GameTransfer).order_by(GameTransfer.id))).scalars()
        )
    assert len(rows) >= 1
    return rows[-1]


async def _reconcile_later(app: FastAPI) -> int:
    """Move past every back-off and run the reconciler once (tests do not run the runner)."""
    clock.advance(timedelta(minutes=15))
    return await reconcile_tick(app)


async def _statement_statuses(client: httpx.AsyncClient, token: str) -> list[str]:
    body = (await client.post("/api/statement", json={}, headers=auth(token))).json()
    return [s["status"] for s in body["statements"] if s["statementType"] == "transfer"]


@pytest.mark.parametrize("mode", ["timeout", "late", "error"])
async def test_deposit_with_unknown_outcome_is_settled_by_the_reconciler(
    game_app: FastAPI, client: httpx.AsyncClient, mode: str
) -> None:
    app = game_app
    token, mid = await funded_member(client, 20_00)
    await activate(client, token, "JOKER")
    user = await username_of(app, mid, "JOKER")
    await arm(client, mode, operation="deposit", delay=LATE)

    response = await _faulty(app, client, token, "WALLET", "JOKER", 8)
    assert response.status_code == 200, response.text
    assert response.json()["code"] == "PENDING"
    # The money is held: out of the wallet, in suspense, not yet at the provider's float.
    assert await wallet_minor(app, mid) == 12_00
    assert await balance_of(app, AccountKind.GAME_TRANSFERS_PENDING) == 8_00
    assert await balance_of(app, AccountKind.PROVIDER_FLOAT, "JOKER") == 0
    assert await _statement_statuses(client, token) == ["PENDING"]
    # late: the provider did it; timeout / error: it did not (yet).
    assert await provider_balance(client, "JOKER", user) == (8_00 if mode == "late" else 0)

    assert await _reconcile_later(app) == 1
    # Either way it ends up done exactly once: the status query finds it, or the same
    # transfer id is re-sent and the provider does it now.
    assert await provider_balance(client, "JOKER", user) == 8_00
    assert await wallet_minor(app, mid) == 12_00
    assert await balance_of(app, AccountKind.GAME_TRANSFERS_PENDING) == 0
    assert await balance_of(app, AccountKind.PROVIDER_FLOAT, "JOKER") == 8_00
    assert (await _only_transfer(app)).status == GameTransferStatus.SUCCESS
    assert await _statement_statuses(client, token) == ["SUCCESS"]
    # A second pass finds nothing to do and moves nothing.
    assert await _reconcile_later(app) == 0
    assert await provider_balance(client, "JOKER", user) == 8_00
    await assert_books_balance(app)


@pytest.mark.parametrize("mode", ["timeout", "late", "error"])
async def test_withdraw_with_unknown_outcome_is_settled_by_the_reconciler(
    game_app: FastAPI, client: httpx.AsyncClient, mode: str
) -> None:
    app = game_app
    token, mid = await funded_member(client, 20_00)
    await activate(client, token, "JOKER")
    user = await username_of(app, mid, "JOKER")
    assert (await _transfer(client, token, "WALLET", "JOKER", 20)).status_code == 200
    await arm(client, mode, operation="withdraw", delay=LATE)

    response = await _faulty(app, client, token, "JOKER", "WALLET", 15)
    assert response.status_code == 200, response.text
    assert response.json()["code"] == "PENDING"
    # Nothing is credited before the provider confirms.
    assert await wallet_minor(app, mid) == 0
    assert await provider_balance(client, "JOKER", user) == (5_00 if mode == "late" else 20_00)

    assert await _reconcile_later(app) == 1
    assert await provider_balance(client, "JOKER", user) == 5_00
    assert await wallet_minor(app, mid) == 15_00
    assert await balance_of(app, AccountKind.PROVIDER_FLOAT, "JOKER") == 5_00
    assert await _statement_statuses(client, token) == ["SUCCESS", "SUCCESS"]
    assert await _reconcile_later(app) == 0
    assert await wallet_minor(app, mid) == 15_00
    await assert_books_balance(app)


async def test_refused_withdraw_credits_nothing(
    game_app: FastAPI, client: httpx.AsyncClient
) -> None:
    app = game_app
    token, mid = await funded_member(client, 20_00)
    await activate(client, token, "JOKER")
    assert (await _transfer(client, token, "WALLET", "JOKER", 20)).status_code == 200
    await arm(client, "refuse", operation="withdraw")
    response = await _transfer(client, token, "JOKER", "WALLET", 15)
    assert response.status_code == 400
    assert response.json() == {"message": "TRANSFER_FAIL"}
    assert await wallet_minor(app, mid) == 0
    assert await provider_balance(client, "JOKER", await username_of(app, mid, "JOKER")) == 20_00
    assert await _reconcile_later(app) == 0
    await assert_books_balance(app)


async def test_provider_unreachable_for_a_while(
    game_app: FastAPI, client: httpx.AsyncClient
) -> None:
    """The status query itself fails at first: the transfer waits, then settles."""
    app = game_app
    token, mid = await funded_member(client, 10_00)
    await activate(client, token, "JOKER")
    await arm(client, "error", operation="any", count=2)  # the deposit and the first status
    assert (await _faulty(app, client, token, "WALLET", "JOKER", 10)).json()["code"] == "PENDING"
    assert await _reconcile_later(app) == 1
    assert (await _only_transfer(app)).status == GameTransferStatus.PENDING
    assert await wallet_minor(app, mid) == 0
    assert await _reconcile_later(app) == 1
    assert (await _only_transfer(app)).status == GameTransferStatus.SUCCESS
    assert await provider_balance(client, "JOKER", await username_of(app, mid, "JOKER")) == 10_00
    await assert_books_balance(app)


async def test_process_killed_after_the_hold_before_the_provider_call(
    game_app: FastAPI, client: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Transaction 1 committed, then the process died: the request never reached the
    provider. The reconciler sends the same transfer id and posts the hold, once."""
    app = game_app
    token, mid = await funded_member(client, 10_00)
    await activate(client, token, "JOKER")
    user = await username_of(app, mid, "JOKER")

    async def die(_app: Any, _pk: int, _plan: Any = None) -> None:
        raise SystemExit("killed between hold and post")

    monkeypatch.setattr(transfers, "drive", die)
    with pytest.raises(SystemExit):
        await _transfer(client, token, "WALLET", "JOKER", 7)
    monkeypatch.undo()

    assert await wallet_minor(app, mid) == 3_00
    assert await balance_of(app, AccountKind.GAME_TRANSFERS_PENDING) == 7_00
    assert await provider_balance(client, "JOKER", user) == 0
    # Too early: the reconciler leaves a fresh transfer to its request.
    assert await reconcile_tick(app) == 0

    assert await _reconcile_later(app) == 1
    assert await provider_balance(client, "JOKER", user) == 7_00
    assert await balance_of(app, AccountKind.GAME_TRANSFERS_PENDING) == 0
    assert await balance_of(app, AccountKind.PROVIDER_FLOAT, "JOKER") == 7_00
    async with app.state.sessionmaker() as session:
        hold = (await session.execute(select(Hold))).scalar_one()
        assert hold.status == HoldStatus.POSTED
    await assert_books_balance(app)


async def test_process_killed_after_the_provider_did_it_before_the_post(
    game_app: FastAPI, client: httpx.AsyncClient
) -> None:
    """The provider took the money but we died before transaction 2: the reconciler finds
    the transfer at the provider and posts the hold; nothing is sent twice."""
    app = game_app
    token, mid = await funded_member(client, 10_00)
    await activate(client, token, "JOKER")
    user = await username_of(app, mid, "JOKER")
    async with app.state.sessionmaker() as session:
        pending = await transfers.begin_in(
            session, member_id=mid, currency=Currency.THB, code="JOKER", amount=6_00
        )
        await session.commit()
    outcome = await transfers.call_provider(
        app,
        code="JOKER",
        direction="in",
        username=user,
        amount=6_00,
        transfer_id=pending.transfer_id,
    )
    assert outcome.remote is not None
    # … the process dies here, before transaction 2.
    assert await provider_balance(client, "JOKER", user) == 6_00
    assert await wallet_minor(app, mid) == 4_00

    assert await _reconcile_later(app) == 1
    assert await provider_balance(client, "JOKER", user) == 6_00
    assert await balance_of(app, AccountKind.PROVIDER_FLOAT, "JOKER") == 6_00
    assert await balance_of(app, AccountKind.GAME_TRANSFERS_PENDING) == 0
    # Driving it again (a late request, a second reconciler) changes nothing.
    await transfers.drive(app, pending.id)
    assert await provider_balance(client, "JOKER", user) == 6_00
    await assert_books_balance(app)


async def test_game_to_game_first_leg_unknown_then_reconciled(
    game_app: FastAPI, client: httpx.AsyncClient
) -> None:
    app = game_app
    token, mid = await funded_member(client, 20_00)
    await activate(client, token, "JOKER")
    await activate(client, token, "PG")
    assert (await _transfer(client, token, "WALLET", "JOKER", 20)).status_code == 200
    await arm(client, "late", operation="withdraw", delay=LATE)
    response = await _faulty(app, client, token, "JOKER", "PG", 12)
    assert response.json()["code"] == "PENDING"
    await _reconcile_later(app)
    # Leg one settled, and the same reconcile pass carried the money on to PG.
    assert await provider_balance(client, "PG", await username_of(app, mid, "PG")) == 12_00
    assert await provider_balance(client, "JOKER", await username_of(app, mid, "JOKER")) == 8_00
    assert await wallet_minor(app, mid) == 0
    await assert_books_balance(app)


@pytest.mark.parametrize("attempts", [20])
async def test_many_simultaneous_transfers_never_overdraw(
    game_app: FastAPI, client: httpx.AsyncClient, attempts: int
) -> None:
    app = game_app
    token, mid = await funded_member(client, 10_00)
    await activate(client, token, "JOKER")
    results = await asyncio.gather(
        *(
            client.post(
                "/api/wallet/transfer",
                json={"from": "WALLET", "to": "JOKER", "amount": 3},
                headers=transfer_headers(token, f"k{i}"),
            )
            for i in range(attempts)
        )
    )
    codes = sorted(r.status_code for r in results)
    assert codes.count(200) == 3, [r.text for r in results]
    assert {r.json()["message"] for r in results if r.status_code != 200} == {"MONEY_NOT_ENOUGH"}
    assert await wallet_minor(app, mid) == 1_00
    assert await provider_balance(client, "JOKER", await username_of(app, mid, "JOKER")) == 9_00
    assert await balance_of(app, AccountKind.PROVIDER_FLOAT, "JOKER") == 9_00
    await assert_books_balance(app)


async def test_same_key_concurrently_moves_once(
    game_app: FastAPI, client: httpx.AsyncClient
) -> None:
    app = game_app
    token, mid = await funded_member(client, 10_00)
    await activate(client, token, "JOKER")
    results = await asyncio.gather(
        *(
            client.post(
                "/api/wallet/transfer",
                json={"from": "WALLET", "to": "JOKER", "amount": 2},
                headers=transfer_headers(token, "same-intent"),
            )
            for _ in range(5)
        )
    )
    assert all(r.status_code == 200 for r in results), [r.text for r in results]
    await _reconcile_later(app)
    assert await wallet_minor(app, mid) == 8_00
    assert await provider_balance(client, "JOKER", await username_of(app, mid, "JOKER")) == 2_00
    await assert_books_balance(app)
