"""AMB's Common Flow against the real app on SQLite and PostgreSQL, signed as AMB signs:
balance, bets, settlement (and single-state products), AMB's duplicate rule, cancel once and
before its bet, settle on a cancelled bet, insufficient funds, bad signature, a batch stopping
at its first refusal. The same core as Hub88's: only the wire differs."""

from __future__ import annotations

import json
import time
import uuid
from typing import Any

import httpx
import pytest

from pao.games.seamless.amb.signature import sign
from pao.games.seamless.hub88.wire import user_of
from pao.ledger.service import check_books
from tests.games_support import funded_member
from tests.helpers import app_of

pytestmark = pytest.mark.sqlite


class Amb:
    def __init__(self, client: httpx.AsyncClient, member_id: int) -> None:
        self.client = client
        self.username = user_of(member_id)

    async def call(self, path: str, body: dict[str, Any], *, signed: bool = True) -> Any:
        raw = json.dumps(body).encode()
        stamp = str(int(time.time() * 1000))
        headers = {"Content-Type": "application/json", "sapi-timestamp": stamp}
        if signed:
            headers["sapi-signature"] = sign(app_of(self.client).state.settings, stamp, raw)
        response = await self.client.post(f"/api/amb/pgsoft/{path}", content=raw, headers=headers)
        assert response.status_code == 200, response.text
        return response.json()

    def envelope(self, *txns: dict[str, Any]) -> dict[str, Any]:
        return {
            "id": str(uuid.uuid4()),
            "timestampMillis": int(time.time() * 1000),
            "productId": "PGSOFT",
            "currency": "THB",
            "username": self.username,
            "txns": list(txns),
        }

    @staticmethod
    def txn(status: str, bet: float, payout: float = 0, **fields: Any) -> dict[str, Any]:
        return {
            "id": "tx-" + uuid.uuid4().hex[:10],
            "status": status,
            "roundId": "r-" + uuid.uuid4().hex[:10],
            "betAmount": bet,
            "payoutAmount": payout,
            "gameCode": "1",
            "playInfo": "UNKNOWN",
            "transactionType": "BY_TRANSACTION",
            **fields,
        }

    async def balance(self) -> float:
        body = {"id": "b", "productId": "PGSOFT", "currency": "THB", "username": self.username}
        answer = await self.call("checkBalance", body)
        assert answer["statusCode"] == 0
        return float(answer["balance"])


async def _amb(client: httpx.AsyncClient, minor: int) -> Amb:
    _, member_id = await funded_member(client, minor)
    return Amb(client, member_id)


@pytest.fixture(autouse=True)
async def _books_balance(client: httpx.AsyncClient) -> Any:
    yield
    async with app_of(client).state.sessionmaker() as session:
        report = await check_books(session)
    assert report.balanced, report


async def test_bet_then_settle_and_the_duplicate_rule(client: httpx.AsyncClient) -> None:
    amb = await _amb(client, 100_000)
    assert await amb.balance() == 1_000
    bet = amb.txn("OPEN", 100)
    placed = await amb.call("placeBets", amb.envelope(bet))
    assert (placed["statusCode"], placed["balance"], placed["balanceBefore"]) == (0, 900, 1_000)
    again = await amb.call("placeBets", amb.envelope(bet))
    assert (again["statusCode"], again["balance"]) == (20002, 900)
    settle = {**bet, "status": "SETTLED", "payoutAmount": 250.5}
    settled = await amb.call("settleBets", amb.envelope(settle))
    assert (settled["statusCode"], settled["balance"]) == (0, 1_150.5)
    assert (await amb.call("settleBets", amb.envelope(settle)))["statusCode"] == 20002
    assert await amb.balance() == 1_150.5


async def test_single_state_settlement_takes_the_stake_and_pays(client: httpx.AsyncClient) -> None:
    amb = await _amb(client, 100_000)
    one = amb.txn("SETTLED", 10, 25, isSingleState=True, isEndRound=True)
    answer = await amb.call("settleBets", amb.envelope(one))
    assert (answer["statusCode"], answer["balance"]) == (0, 1_015)
    assert (await amb.call("settleBets", amb.envelope(one)))["statusCode"] == 20002
    assert await amb.balance() == 1_015


async def test_cancel_once_and_cancel_before_the_bet(client: httpx.AsyncClient) -> None:
    amb = await _amb(client, 100_000)
    bet = amb.txn("OPEN", 300)
    await amb.call("placeBets", amb.envelope(bet))
    cancel = {**bet, "status": "REFUND"}
    assert (await amb.call("cancelBets", amb.envelope(cancel)))["balance"] == 1_000
    assert (await amb.call("cancelBets", amb.envelope(cancel)))["statusCode"] == 20002
    settle = {**bet, "status": "SETTLED", "payoutAmount": 900}
    assert (await amb.call("settleBets", amb.envelope(settle)))["statusCode"] == 20003

    late = amb.txn("OPEN", 200)
    early = await amb.call("cancelBets", amb.envelope({**late, "status": "REFUND"}))
    assert early["statusCode"] == 0
    assert (await amb.call("placeBets", amb.envelope(late)))["statusCode"] == 20003
    assert await amb.balance() == 1_000


async def test_a_batch_stops_at_its_first_refusal(client: httpx.AsyncClient) -> None:
    amb = await _amb(client, 50_000)
    batch = amb.envelope(amb.txn("OPEN", 300), amb.txn("OPEN", 300), amb.txn("OPEN", 100))
    answer = await amb.call("placeBets", batch)
    assert (answer["statusCode"], answer["balance"]) == (10002, 200)
    assert await amb.balance() == 200  # the first stayed taken; the third was never tried


async def test_unsigned_unknown_and_unoffered_calls_move_nothing(client: httpx.AsyncClient) -> None:
    amb = await _amb(client, 10_000)
    bet = amb.envelope(amb.txn("OPEN", 10))
    assert (await amb.call("placeBets", bet, signed=False))["statusCode"] == 30002
    stranger = {**bet, "username": "m999999"}
    assert (await amb.call("placeBets", stranger))["statusCode"] == 10001
    assert (await amb.call("placeBets", {**bet, "currency": "LAK"}))["statusCode"] == 40003
    assert (await amb.call("adjustBalance", bet))["statusCode"] == 40003
    odd = amb.envelope(amb.txn("OPEN", 0.001))
    assert (await amb.call("placeBets", odd))["statusCode"] == 50001
    skipped = amb.envelope(amb.txn("OPEN", 10, skipBalanceUpdate=True))
    assert (await amb.call("placeBets", skipped))["statusCode"] == 0
    assert await amb.balance() == 100


async def _sandbox_round(client: httpx.AsyncClient, amb: Amb, **fields: Any) -> Any:
    body = {"username": amb.username, "currency": "THB", "stake": 1_000, **fields}
    response = await client.post("/sandbox/amb/play/round", json=body)
    assert response.status_code == 200, response.text
    return response.json()


async def test_the_sandbox_aggregator_plays_rounds_and_faults_once(
    client: httpx.AsyncClient,
) -> None:
    amb = await _amb(client, 100_000)
    played = await _sandbox_round(client, amb)
    assert played["balance"] == 100_000 - 1_000 + played["payout"]
    balance = played["balance"]
    timed_out = await _sandbox_round(client, amb, fault="timeout")
    assert timed_out["balance"] == balance
    early = await _sandbox_round(client, amb, fault="cancel_first")
    assert early["log"][1] == "bets: 20003"
    twice = await _sandbox_round(client, amb, fault="duplicate", single_state=True)
    assert twice["balance"] == balance - 1_000 + twice["payout"]
    assert await amb.balance() * 100 == twice["balance"]
