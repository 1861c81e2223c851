"""The HTTP game provider adapter against recorded provider payloads (httpx.MockTransport):
requests it sends, answers it understands, and how it classifies failures (refused vs
unknown) — the distinction the transfer saga depends on."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest

from pao.games.providers.base import (
    ProviderRefused,
    ProviderUnavailable,
    RemoteTransferState,
)
from pao.games.providers.http import HttpGameProvider

BASE = "http://provider.test/api"

# Answers recorded from the sandbox provider (/sandbox/games/api/JOKER/…).
RECORDED: dict[tuple[str, str], tuple[int, dict[str, Any]]] = {
    ("POST", "/api/JOKER/accounts"): (200, {"username": "jokerk7m2q9xa", "password": "p4tz8wq2mb"}),
    ("GET", "/api/JOKER/accounts/jokerk7m2q9xa/balance"): (
        200,
        {"username": "jokerk7m2q9xa", "balance": 4050},
    ),
    ("POST", "/api/JOKER/transfers"): (
        200,
        {
            "transferId": "5f0c",
            "status": "SUCCESS",
            "reason": None,
            "balance": 4050,
            "type": "deposit",
            "amount": 4050,
        },
    ),
    ("GET", "/api/JOKER/transfers/5f0c"): (
        200,
        {
            "transferId": "5f0c",
            "status": "SUCCESS",
            "reason": None,
            "balance": 4050,
            "type": "deposit",
            "amount": 4050,
        },
    ),
    ("GET", "/api/JOKER/transfers/unknown"): (404, {"error": "NOT_FOUND", "status": "NOT_FOUND"}),
    ("POST", "/api/JOKER/accounts/jokerk7m2q9xa/password"): (
        200,
        {"username": "jokerk7m2q9xa", "password": "n3wpassw0rd"},
    ),
    ("POST", "/api/JOKER/accounts/jokerk7m2q9xa/launch"): (
        200,
        {"url": "http://provider.test/sandbox/games/play/tok"},
    ),
    ("GET", "/api/JOKER/accounts/jokerk7m2q9xa/bets"): (
        200,
        {
            "bets": [
                {
                    "betId": "1",
                    "bet": 100,
                    "payout": 0,
                    "reels": ["BELL", "STAR", "LEMON"],
                    "createdAt": "2026-11-21T10:00:00+00:00",
                },
                {
                    "betId": "2",
                    "bet": 500,
                    "payout": 2500,
                    "reels": ["CHERRY", "CHERRY", "CHERRY"],
                    "createdAt": "2026-11-21T10:00:05+00:00",
                },
            ]
        },
    ),
}


def _adapter(handler: Any, timeout: float = 5.0) -> tuple[HttpGameProvider, httpx.AsyncClient]:
    client = httpx.AsyncClient(transport=httpx.MockTransport(handler))
    return (
        HttpGameProvider(http=client, base_url=BASE, brand="JOKER", api_key="k", timeout=timeout),
        client,
    )


async def test_every_call_against_recorded_answers() -> None:
    sent: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        sent.append(request)
        status, body = RECORDED[(request.method, request.url.path)]
        return httpx.Response(status, json=body)

    provider, client = _adapter(handler)
    async with client:
        creds = await provider.create_account(member_ref="pao-7")
        assert (creds.username, creds.password) == ("jokerk7m2q9xa", "p4tz8wq2mb")
        assert await provider.balance(username="jokerk7m2q9xa") == 4050
        done = await provider.deposit(username="jokerk7m2q9xa", amount=4050, transfer_id="5f0c")
        assert done.state == RemoteTransferState.SUCCESS
        assert done.balance == 4050
        status = await provider.transfer_status(transfer_id="5f0c")
        assert status.state == RemoteTransferState.SUCCESS
        missing = await provider.transfer_status(transfer_id="unknown")
        assert missing.state == RemoteTransferState.NOT_FOUND
        assert await provider.reset_password(username="jokerk7m2q9xa") == "n3wpassw0rd"
        assert (await provider.launch_link(username="jokerk7m2q9xa")).endswith("/play/tok")
        bets = await provider.bets(
            username="jokerk7m2q9xa",
            since=datetime(2026, 11, 21, tzinfo=UTC),
            until=datetime(2026, 11, 22, tzinfo=UTC),
        )
        assert [(b.bet, b.payout) for b in bets] == [(100, 0), (500, 2500)]
        assert bets[1].created_at.tzinfo is not None

    assert all(r.headers["X-Api-Key"] == "k" for r in sent)
    deposit = next(r for r in sent if r.url.path == "/api/JOKER/transfers")
    # Our transfer id is the provider's idempotency key; amounts are minor units.
    assert json.loads(deposit.content) == {
        "transferId": "5f0c",
        "username": "jokerk7m2q9xa",
        "type": "deposit",
        "amount": 4050,
    }
    bets_request = next(r for r in sent if r.url.path.endswith("/bets"))
    assert bets_request.url.params["since"] == "2026-11-21T00:00:00+00:00"


@pytest.mark.parametrize(
    ("status", "body", "kind", "reason"),
    [
        (400, {"error": "REFUSED"}, ProviderRefused, "REFUSED"),
        (404, {"error": "NO_ACCOUNT"}, ProviderRefused, "NO_ACCOUNT"),
        (409, {"error": "TRANSFER_ID_CONFLICT"}, ProviderRefused, "TRANSFER_ID_CONFLICT"),
        (500, {"error": "INTERNAL_ERROR"}, ProviderUnavailable, "HTTP_500"),
        (504, {"error": "GATEWAY_TIMEOUT"}, ProviderUnavailable, "HTTP_504"),
        (200, {"status": "WHATEVER"}, ProviderUnavailable, "BAD_STATUS"),
    ],
)
async def test_failures_are_classified(
    status: int, body: dict[str, Any], kind: type[Exception], reason: str
) -> None:
    provider, client = _adapter(lambda _r: httpx.Response(status, json=body))
    async with client:
        with pytest.raises(kind) as caught:
            await provider.deposit(username="u", amount=100, transfer_id="t")
    assert getattr(caught.value, "reason", None) == reason


@pytest.mark.parametrize(
    "url", ["javascript:alert(1)", "/\\evil.example", "data:text/html,x", "/sandbox/play", ""]
)
async def test_a_launch_link_that_is_not_an_absolute_web_url_is_refused(url: str) -> None:
    provider, client = _adapter(lambda _r: httpx.Response(200, json={"url": url}))
    async with client:
        with pytest.raises(ProviderUnavailable) as caught:
            await provider.launch_link(username="u")
    assert caught.value.reason == "BAD_LINK"


async def test_recorded_failed_withdraw_is_an_answer_not_an_error() -> None:
    body = {"transferId": "t", "status": "FAILED", "reason": "INSUFFICIENT_BALANCE", "balance": 0}
    provider, client = _adapter(lambda _r: httpx.Response(200, json=body))
    async with client:
        result = await provider.withdraw(username="u", amount=100, transfer_id="t")
    assert result.state == RemoteTransferState.FAILED
    assert result.reason == "INSUFFICIENT_BALANCE"


async def test_no_answer_in_time_is_unknown() -> None:
    async def slow(_request: httpx.Request) -> httpx.Response:
        await asyncio.sleep(5)
        return httpx.Response(200, json={})

    provider, client = _adapter(slow, timeout=0.05)
    async with client:
        with pytest.raises(ProviderUnavailable) as caught:
            await provider.deposit(username="u", amount=100, transfer_id="t")
    assert caught.value.reason == "TIMEOUT"


async def test_connection_errors_and_garbage_are_unknown() -> None:
    def refuse(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("refused", request=request)

    provider, client = _adapter(refuse)
    async with client:
        with pytest.raises(ProviderUnavailable):
            await provider.balance(username="u")
    provider, client = _adapter(lambda _r: httpx.Response(200, content=b"<html>"))
    async with client:
        with pytest.raises(ProviderUnavailable) as caught:
            await provider.balance(username="u")
    assert caught.value.reason == "BAD_BODY"
