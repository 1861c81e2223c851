"""Hub88's documented wallet scenarios, signed as Hub88 signs them, against the real app on
SQLite and PostgreSQL: balance, bet, win, replay, duplicate with different data, rollback,
rollback before bet, win on a rolled-back bet, insufficient funds, bad signature, an expired
token (refused on a bet, not on a win), wrong currency, unknown game; and the money rules
under concurrency. The books balance after every test."""

from __future__ import annotations

import asyncio
import json
import uuid
from datetime import timedelta
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select, update

from pao.games.seamless import tokens
from pao.games.seamless.hub88.signature import SANDBOX_PRIVATE_KEY, load_private, sign
from pao.games.seamless.hub88.wire import user_of
from pao.games.seamless.models import SeamlessGame, SeamlessRound, SeamlessSession
from pao.games.turnover import GameTotals, game_results
from pao.kit.clock import utcnow
from pao.kit.money import Currency
from pao.ledger.models import AccountKind
from pao.ledger.service import account_balance, check_books
from tests.games_support import funded_member
from tests.helpers import app_of

pytestmark = pytest.mark.sqlite

KEY = load_private(str(SANDBOX_PRIVATE_KEY))
GAME = "clt_dragonrising"
UNIT = 1000  # Hub88's units per satang


class Wallet:
    """One member playing one Hub88 game, as Hub88 would call Pao."""

    def __init__(self, client: httpx.AsyncClient, member_id: int, token: str) -> None:
        self.client = client
        self.user = user_of(member_id)
        self.member_id = member_id
        self.token = token

    async def call(self, path: str, body: dict[str, Any], *, signed: bool = True) -> dict[str, Any]:
        raw = json.dumps(body).encode()
        headers = {"Content-Type": "application/json"}
        if signed:
            headers["X-Hub88-Signature"] = sign(KEY, raw)
        response = await self.client.post(f"/api/hub88{path}", content=raw, headers=headers)
        assert response.status_code == 200, response.text
        answer: dict[str, Any] = response.json()
        assert answer["request_uuid"] == body.get("request_uuid")
        return answer

    def txn(self, amount: int, **fields: Any) -> dict[str, Any]:
        return {
            "user": self.user,
            "transaction_uuid": str(uuid.uuid4()),
            "supplier_transaction_id": str(uuid.uuid4()),
            "token": self.token,
            "supplier_user": "cg_1",
            "round_closed": False,
            "round": "r-" + uuid.uuid4().hex[:8],
            "reward_uuid": None,
            "request_uuid": str(uuid.uuid4()),
            "is_free": False,
            "is_aggregated": False,
            "game_code": GAME,
            "currency": "THB",
            "bet": "zero",
            "amount": amount * UNIT,
            "meta": {},
            **fields,
        }

    async def bet(self, amount: int, **fields: Any) -> dict[str, Any]:
        return await self.call("/transaction/bet", self.txn(amount, **fields))

    async def win(self, bet: dict[str, Any], amount: int, **fields: Any) -> dict[str, Any]:
        body = self.txn(
            amount, round=bet["round"], reference_transaction_uuid=bet["transaction_uuid"]
        )
        return await self.call("/transaction/win", {**body, **fields})

    def rollback_of(self, bet: dict[str, Any]) -> dict[str, Any]:
        return {
            "user": self.user,
            "transaction_uuid": str(uuid.uuid4()),
            "reference_transaction_uuid": bet["transaction_uuid"],
            "token": self.token,
            "round": bet["round"],
            "round_closed": True,
            "request_uuid": str(uuid.uuid4()),
            "game_code": GAME,
            "meta": {},
        }

    async def balance(self) -> int:
        body = {
            "user": self.user,
            "request_uuid": str(uuid.uuid4()),
            "token": self.token,
            "game_code": GAME,
        }
        answer = await self.call("/user/balance", body)
        assert answer["status"] == "RS_OK"
        return int(answer["balance"]) // UNIT


async def _player(client: httpx.AsyncClient, minor: int) -> Wallet:
    _, member_id = await funded_member(client, minor)
    app = app_of(client)
    async with app.state.sessionmaker() as session:
        if await session.scalar(select(func.count()).select_from(SeamlessGame)) == 0:
            session.add(
                SeamlessGame(provider="hub88", game_code=GAME, name="Dragon", category="slot")
            )
        token = await tokens.issue(
            session, provider="hub88", member_id=member_id, game_code=GAME, currency=Currency.THB
        )
        await session.commit()
    return Wallet(client, member_id, token)


@pytest.fixture(autouse=True)
async def _books_balance(client: httpx.AsyncClient) -> Any:
    yield
    async with app_of(client).state.sessionmaker() as session:
        report = await check_books(session)
    assert report.balanced, report


async def test_balance_bet_win_and_the_round(client: httpx.AsyncClient) -> None:
    wallet = await _player(client, 10_000)
    info = await wallet.call("/user/info", {"user": wallet.user, "request_uuid": "r1"})
    assert info["status"] == "RS_OK"
    assert info["country"] == "TH"
    assert info["currency"] == "THB"
    assert await wallet.balance() == 10_000

    bet = wallet.txn(2_500)
    answer = await wallet.call("/transaction/bet", bet)
    assert answer == {
        "user": wallet.user,
        "status": "RS_OK",
        "request_uuid": bet["request_uuid"],
        "currency": "THB",
        "balance": 7_500 * UNIT,
    }
    answer = await wallet.win(bet, 4_000, round_closed=True)
    assert answer["status"] == "RS_OK"
    assert answer["balance"] == 11_500 * UNIT

    async with app_of(client).state.sessionmaker() as session:
        round_ = (await session.execute(select(SeamlessRound))).scalar_one()
        assert (round_.bets, round_.wins, round_.closed_at is not None) == (2_500, 4_000, True)
        clearing = await account_balance(
            session, kind=AccountKind.SEAMLESS_CLEARING, owner="hub88", currency=Currency.THB
        )
    assert clearing == -1_500  # the operator paid out more than it took in this round


async def test_replay_answers_as_the_first_time_and_different_data_is_a_duplicate(
    client: httpx.AsyncClient,
) -> None:
    wallet = await _player(client, 10_000)
    bet = wallet.txn(1_000)
    first = await wallet.call("/transaction/bet", bet)
    again = await wallet.call("/transaction/bet", {**bet, "request_uuid": "retry"})
    assert first["status"] == again["status"] == "RS_OK"
    assert again["balance"] == first["balance"] == 9_000 * UNIT
    changed = await wallet.call("/transaction/bet", {**bet, "amount": 2_000 * UNIT})
    assert changed["status"] == "RS_ERROR_DUPLICATE_TRANSACTION"
    win = wallet.txn(500, round=bet["round"], reference_transaction_uuid=bet["transaction_uuid"])
    assert (await wallet.call("/transaction/win", win))["status"] == "RS_OK"
    assert (await wallet.call("/transaction/win", win))["balance"] == 9_500 * UNIT
    assert await wallet.balance() == 9_500


async def test_rollback_gives_the_stake_back_once(client: httpx.AsyncClient) -> None:
    wallet = await _player(client, 10_000)
    bet = wallet.txn(3_000)
    await wallet.call("/transaction/bet", bet)
    rollback = wallet.rollback_of(bet)
    assert (await wallet.call("/transaction/rollback", rollback))["balance"] == 10_000 * UNIT
    replay = await wallet.call("/transaction/rollback", rollback)
    assert replay["status"] == "RS_OK"
    assert replay["balance"] == 10_000 * UNIT
    second = await wallet.call("/transaction/rollback", wallet.rollback_of(bet))
    assert second["status"] == "RS_ERROR_TRANSACTION_ROLLED_BACK"
    win = await wallet.win(bet, 9_000)
    assert win["status"] == "RS_ERROR_TRANSACTION_ROLLED_BACK"
    assert await wallet.balance() == 10_000


async def test_rollback_before_its_bet_refuses_the_late_bet(client: httpx.AsyncClient) -> None:
    wallet = await _player(client, 10_000)
    bet = wallet.txn(3_000)
    early = await wallet.call("/transaction/rollback", wallet.rollback_of(bet))
    assert early["status"] == "RS_OK"
    assert early["balance"] == 10_000 * UNIT
    late = await wallet.call("/transaction/bet", bet)
    assert late["status"] == "RS_ERROR_TRANSACTION_ROLLED_BACK"
    assert await wallet.balance() == 10_000


async def test_win_for_an_unknown_bet_and_rollback_of_a_won_bet(client: httpx.AsyncClient) -> None:
    wallet = await _player(client, 10_000)
    ghost = wallet.txn(1_000)
    assert (await wallet.win(ghost, 5_000))["status"] == "RS_ERROR_TRANSACTION_DOES_NOT_EXIST"
    bet = wallet.txn(1_000)
    await wallet.call("/transaction/bet", bet)
    await wallet.win(bet, 2_000)
    late = await wallet.call("/transaction/rollback", wallet.rollback_of(bet))
    assert late["status"] == "RS_ERROR_UNKNOWN"
    assert late["balance"] == 11_000 * UNIT
    assert await wallet.balance() == 11_000


async def test_insufficient_funds_answers_the_balance(client: httpx.AsyncClient) -> None:
    wallet = await _player(client, 500)
    answer = await wallet.bet(1_000)
    assert answer["status"] == "RS_ERROR_NOT_ENOUGH_MONEY"
    assert answer["balance"] == 500 * UNIT
    assert await wallet.balance() == 500


async def test_bad_signature_moves_nothing(client: httpx.AsyncClient) -> None:
    wallet = await _player(client, 10_000)
    bet = wallet.txn(1_000)
    unsigned = await wallet.call("/transaction/bet", bet, signed=False)
    assert unsigned["status"] == "RS_ERROR_INVALID_SIGNATURE"
    raw = json.dumps(bet).encode()
    forged = sign(KEY, raw.replace(b"100000", b"100001"))
    response = await client.post(
        "/api/hub88/transaction/bet",
        content=raw,
        headers={"X-Hub88-Signature": forged, "Content-Type": "application/json"},
    )
    assert response.json()["status"] == "RS_ERROR_INVALID_SIGNATURE"
    assert await wallet.balance() == 10_000


async def test_expired_token_refuses_a_bet_but_never_a_win(client: httpx.AsyncClient) -> None:
    wallet = await _player(client, 10_000)
    bet = wallet.txn(1_000)
    await wallet.call("/transaction/bet", bet)
    async with app_of(client).state.sessionmaker() as session:
        await session.execute(
            update(SeamlessSession).values(expires_at=utcnow() - timedelta(minutes=1))
        )
        await session.commit()
    assert (await wallet.bet(1_000))["status"] == "RS_ERROR_TOKEN_EXPIRED"
    retried = await wallet.call("/transaction/bet", bet)  # a retry of the bet taken before
    assert retried["status"] == "RS_OK"
    assert (await wallet.win(bet, 3_000))["status"] == "RS_OK"
    assert await wallet.balance() == 12_000


async def test_wrong_currency_unknown_game_and_someone_elses_token(
    client: httpx.AsyncClient,
) -> None:
    wallet = await _player(client, 10_000)
    other = await _player(client, 10_000)
    assert (await wallet.bet(100, currency="LAK"))["status"] == "RS_ERROR_WRONG_CURRENCY"
    assert (await wallet.bet(100, game_code="nope"))["status"] == "RS_ERROR_INVALID_GAME"
    stolen = await wallet.bet(100, token=other.token)
    assert stolen["status"] == "RS_ERROR_INVALID_TOKEN"
    odd = {**wallet.txn(100), "amount": 123}  # not a whole satang
    assert (await wallet.call("/transaction/bet", odd))["status"] == "RS_ERROR_WRONG_TYPES"
    text = {**wallet.txn(100), "amount": "100000"}
    assert (await wallet.call("/transaction/bet", text))["status"] == "RS_ERROR_WRONG_TYPES"
    assert (await wallet.call("/transaction/bet", {"user": wallet.user, "request_uuid": "x"}))[
        "status"
    ] == "RS_ERROR_WRONG_SYNTAX"
    assert await wallet.balance() == 10_000
    assert await other.balance() == 10_000


async def test_fifty_concurrent_bets_never_go_below_zero(client: httpx.AsyncClient) -> None:
    wallet = await _player(client, 10_000)
    answers = await asyncio.gather(*(wallet.bet(1_000) for _ in range(50)))
    taken = [a for a in answers if a["status"] == "RS_OK"]
    refused = [a for a in answers if a["status"] == "RS_ERROR_NOT_ENOUGH_MONEY"]
    assert (len(taken), len(refused)) == (10, 40)
    assert await wallet.balance() == 0


async def test_one_transaction_id_sent_at_once_moves_money_once(client: httpx.AsyncClient) -> None:
    wallet = await _player(client, 10_000)
    bet = wallet.txn(1_000)
    answers = await asyncio.gather(*(wallet.call("/transaction/bet", bet) for _ in range(20)))
    assert {a["status"] for a in answers} == {"RS_OK"}
    assert {a["balance"] for a in answers} == {9_000 * UNIT}
    other = await _player(client, 10_000)
    stolen = await other.call("/transaction/bet", {**bet, "user": other.user, "token": other.token})
    assert stolen["status"] == "RS_ERROR_DUPLICATE_TRANSACTION"
    assert await wallet.balance() == 9_000
    assert await other.balance() == 10_000


async def test_wagering_counts_settled_bets_and_never_a_rolled_back_one(
    client: httpx.AsyncClient,
) -> None:
    wallet = await _player(client, 10_000)
    kept, undone = wallet.txn(1_500), wallet.txn(700)
    for bet in (kept, undone):
        await wallet.call("/transaction/bet", bet)
    await wallet.win(kept, 2_000)
    await wallet.call("/transaction/rollback", wallet.rollback_of(undone))
    app = app_of(client)
    async with app.state.sessionmaker() as session:
        now = utcnow()
        results = await game_results(
            app, session, member_id=wallet.member_id, since=now - timedelta(1), until=now
        )
    assert results.by_game == {"HUB88": GameTotals(turnover=1_500, payout=2_000, bets=1)}
    assert (results.turnover, results.payout) == (1_500, 2_000)
