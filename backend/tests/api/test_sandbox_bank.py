"""The sandbox bank: its page, transfers and slips, QR payments (signed notice to Pao),
gateway payments and payout controls."""

from __future__ import annotations

import hashlib
import hmac
import json

import httpx

from pao.payments.slips.decoder import decode_slip
from tests.helpers import app_of

PROMPTPAY_30 = "00020101021229370016A0000006770101110113006681222333353037645802TH540530.0063043CAD"
LAO_STATIC = (
    "00020101021138580016A00526628466257701080000041802030010315I90BYP17BC295VZ"
    "53034185802LA630491B3"
)


async def test_page_has_labelled_forms(client: httpx.AsyncClient) -> None:
    response = await client.get("/sandbox/bank")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    for label in (
        'for="from-account"',
        'for="to-account"',
        'for="qr-payload"',
        'for="gateway-order"',
    ):
        assert label in response.text


async def test_transfer_prints_a_verifiable_slip(client: httpx.AsyncClient) -> None:
    transfer = await client.post(
        "/sandbox/bank/api/transfers",
        json={
            "fromBank": "KBANK",
            "fromAccount": "123-4-56789-0",
            "toBank": "SCB",
            "toAccount": "4441112223",
            "amount": 12.5,
        },
    )
    assert transfer.status_code == 201
    body = transfer.json()
    assert body["sendingBank"] == "004"
    assert body["sender"]["accountNo"] == "1234567890"

    image = await client.get(body["slipUrl"])
    _, qr = decode_slip(image.content)
    assert (qr.sending_bank, qr.reference) == ("004", body["reference"])

    verified = await client.get(f"/sandbox/bank/api/slips/004/{body['reference']}")
    assert verified.json()["amount"] == 12.5
    assert (await client.get(f"/sandbox/bank/api/slips/014/{body['reference']}")).status_code == 404


async def test_transfer_refusals(client: httpx.AsyncClient) -> None:
    base = {
        "fromBank": "KBANK",
        "fromAccount": "1234567890",
        "toBank": "SCB",
        "toAccount": "1234567890",
    }
    too_much = await client.post("/sandbox/bank/api/transfers", json={**base, "amount": 2_000_000})
    assert too_much.json() == {"code": "INSUFFICIENT_FUNDS"}
    unknown = await client.post(
        "/sandbox/bank/api/transfers", json={**base, "fromBank": "NOPE", "amount": 1}
    )
    assert unknown.json() == {"code": "UNKNOWN_BANK"}


async def _pay_qr(
    client: httpx.AsyncClient, payload: str, amount: float | None = None
) -> tuple[httpx.Response, list[httpx.Request]]:
    app = app_of(client)
    seen: list[httpx.Request] = []

    def notify(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json={"code": "OK"})

    real = app.state.http
    app.state.http = httpx.AsyncClient(transport=httpx.MockTransport(notify))
    try:
        response = await client.post(
            "/sandbox/bank/api/qr-payments",
            json={
                "fromBank": "KBANK",
                "fromAccount": "1234567890",
                "payload": payload,
                "amount": amount,
            },
        )
    finally:
        await app.state.http.aclose()
        app.state.http = real
    return response, seen


async def test_paying_a_promptpay_qr_notifies_pao_signed(client: httpx.AsyncClient) -> None:
    response, seen = await _pay_qr(client, PROMPTPAY_30)

    assert response.status_code == 201, response.text
    assert response.json()["notified"] == 200
    [notice] = seen
    assert notice.url.path == "/api/payments/bank/notify"
    body = json.loads(notice.content)
    assert body["amount"] == 30.0
    assert body["currency"] == "THB"
    assert body["receiverProxy"] == "0066812223333"
    assert body["qrPayload"] == PROMPTPAY_30
    secret = app_of(client).state.settings.bank_webhook_secret
    expected = hmac.new(secret.encode(), notice.content, hashlib.sha256).hexdigest()
    assert notice.headers["X-Bank-Signature"] == expected


async def test_static_lao_qr_needs_an_amount(client: httpx.AsyncClient) -> None:
    refused, seen = await _pay_qr(client, LAO_STATIC)
    assert refused.json() == {"code": "AMOUNT_REQUIRED"}
    assert seen == []
    paid, seen = await _pay_qr(client, LAO_STATIC, 50_000)
    assert paid.status_code == 201
    body = json.loads(seen[0].content)
    assert (body["currency"], body["receiverProxy"], body["amount"]) == (
        "LAK",
        "I90BYP17BC295VZ",
        50000.0,
    )


async def test_bad_qr_is_refused(client: httpx.AsyncClient) -> None:
    response, seen = await _pay_qr(client, PROMPTPAY_30[:-4] + "0000")
    assert response.json() == {"code": "INVALID_QR"}
    assert seen == []


async def test_gateway_payment_calls_the_gateway(client: httpx.AsyncClient) -> None:
    app = app_of(client)
    seen: list[str] = []

    def gateway(request: httpx.Request) -> httpx.Response:
        seen.append(f"{request.method} {request.url.path}")
        return httpx.Response(200, json={"status": "PAID"})

    real = app.state.http
    app.state.http = httpx.AsyncClient(transport=httpx.MockTransport(gateway))
    try:
        response = await client.post(
            "/sandbox/bank/api/gateway-payments", json={"gateway": "ww", "orderId": "ord-1"}
        )
    finally:
        await app.state.http.aclose()
        app.state.http = real
    assert response.json() == {"status": 200, "detail": {"status": "PAID"}}
    assert seen == ["POST /sandbox/gateways/WW/orders/ord-1/pay"]


async def test_payouts_are_idempotent(client: httpx.AsyncClient) -> None:
    body = {"payoutId": "p-1", "bankCode": "SCB", "accountNo": "1112223334", "amount": 10}
    first = await client.post("/sandbox/bank/api/payouts", json=body)
    again = await client.post("/sandbox/bank/api/payouts", json={**body, "amount": 99})
    assert first.status_code == again.status_code == 200
    assert first.json() == again.json()
    assert first.json()["amount"] == 10
