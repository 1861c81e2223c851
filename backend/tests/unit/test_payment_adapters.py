"""The slip-verification and payout adapters against recorded bank payloads."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import httpx
import pytest

from pao.core.settings import Settings
from pao.payments.payouts.adapter import BankPayoutState, PayoutBank
from pao.payments.slips.port import SlipQuery
from pao.payments.slips.verifier import PaoSlipVerifier, VerifierUnavailable

SETTINGS = Settings(env="test", public_base_url="http://bank.test", sandbox=True)

SLIP_FOUND = {
    "reference": "2026112112345678901",
    "sendingBank": "004",
    "kind": "TRANSFER",
    "amount": 1500.5,
    "currency": "THB",
    "transferredAt": "2026-11-21T14:03:00+00:00",
    "sender": {"bankCode": "KBANK", "accountNo": "1234567890", "name": "SOMCHAI"},
    "receiver": {"bankCode": "SCB", "accountNo": "4441112223", "name": "PAO CO"},
    "slipUrl": "/sandbox/bank/slips/2026112112345678901.png",
}


def client(handler: httpx.MockTransport) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=handler)


async def test_verifier_reads_a_transfer() -> None:
    seen: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(str(request.url))
        return httpx.Response(200, json=SLIP_FOUND)

    async with client(httpx.MockTransport(handler)) as http:
        found = await PaoSlipVerifier(http, SETTINGS).lookup(
            SlipQuery("004", "2026112112345678901")
        )
    assert seen == ["http://bank.test/sandbox/bank/api/slips/004/2026112112345678901"]
    assert found is not None
    assert found.amount == 1500_50
    assert found.transferred_at == datetime(2026, 11, 21, 14, 3, tzinfo=UTC)
    assert (found.sender_bank, found.sender_account) == ("KBANK", "1234567890")
    assert (found.receiver_bank, found.receiver_account) == ("SCB", "4441112223")


async def test_verifier_not_found() -> None:
    transport = httpx.MockTransport(lambda _: httpx.Response(404, json={"code": "NOT_FOUND"}))
    async with client(transport) as http:
        assert await PaoSlipVerifier(http, SETTINGS).lookup(SlipQuery("004", "X1")) is None


@pytest.mark.parametrize(
    "response",
    [
        httpx.Response(503, json={"code": "DOWN"}),
        httpx.Response(200, content=b"<html>"),
        httpx.Response(200, json={**SLIP_FOUND, "amount": 1.005}),
        httpx.Response(200, json={**SLIP_FOUND, "transferredAt": "2026-11-21T14:03:00"}),
        httpx.Response(200, json={"reference": "x"}),
    ],
)
async def test_verifier_unusable_answers(response: httpx.Response) -> None:
    async with client(httpx.MockTransport(lambda _: response)) as http:
        with pytest.raises(VerifierUnavailable):
            await PaoSlipVerifier(http, SETTINGS).lookup(SlipQuery("004", "X1"))


async def test_verifier_timeout() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        raise httpx.ReadTimeout("slow", request=request)

    async with client(httpx.MockTransport(handler)) as http:
        with pytest.raises(VerifierUnavailable):
            await PaoSlipVerifier(http, SETTINGS).lookup(SlipQuery("004", "X1"))


async def _create(
    response: httpx.Response | Exception,
) -> tuple[BankPayoutState, list[dict[str, object]]]:
    bodies: list[dict[str, object]] = []

    def handler(request: httpx.Request) -> httpx.Response:
        bodies.append(json.loads(request.content))
        if isinstance(response, Exception):
            raise response
        return response

    async with client(httpx.MockTransport(handler)) as http:
        result = await PayoutBank(http, SETTINGS).create(
            payout_id="pao-payout-7",
            bank_code="SCB",
            account_no="4441112223",
            account_name="TEST",
            amount=250_75,
            currency="THB",
        )
    return result.state, bodies


@pytest.mark.parametrize(
    ("response", "state"),
    [
        (httpx.Response(200, json={"payoutId": "pao-payout-7", "status": "SUCCESS"}), "SUCCESS"),
        (httpx.Response(200, json={"status": "FAILED", "reason": "CLOSED"}), "FAILED"),
        (httpx.Response(202, json={"status": "PENDING"}), "PENDING"),
        (httpx.Response(400, json={"code": "INVALID_ACCOUNT"}), "FAILED"),
        (httpx.Response(504, json={"code": "GATEWAY_TIMEOUT"}), "UNKNOWN"),
        (httpx.Response(500, text="oops"), "UNKNOWN"),
        (httpx.Response(200, json={"status": "WHATEVER"}), "UNKNOWN"),
        (httpx.Response(200, text="not json"), "UNKNOWN"),
        (httpx.ConnectError("refused"), "UNKNOWN"),
    ],
)
async def test_payout_create_outcomes(response: httpx.Response | Exception, state: str) -> None:
    got, bodies = await _create(response)
    assert got == state
    assert bodies == [
        {
            "payoutId": "pao-payout-7",
            "bankCode": "SCB",
            "accountNo": "4441112223",
            "accountName": "TEST",
            "amount": 250.75,
            "currency": "THB",
        }
    ]


@pytest.mark.parametrize(
    ("response", "state"),
    [
        (httpx.Response(200, json={"status": "SUCCESS", "reference": "R1"}), "SUCCESS"),
        (httpx.Response(404, json={"code": "NOT_FOUND"}), "NOT_FOUND"),
        (httpx.Response(502), "UNKNOWN"),
    ],
)
async def test_payout_status(response: httpx.Response, state: str) -> None:
    async with client(httpx.MockTransport(lambda _: response)) as http:
        result = await PayoutBank(http, SETTINGS).status(payout_id="pao-payout-7")
    assert result.state == state
