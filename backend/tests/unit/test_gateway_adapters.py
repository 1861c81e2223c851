"""Gateway adapters against recorded payloads (httpx.MockTransport): each gateway's signing
scheme, what a tampered or replayed callback gets, and the create/status wire formats."""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime, timedelta
from urllib.parse import parse_qsl

import httpx
import pytest

from pao.kit.clock import clock
from pao.kit.money import Currency
from pao.payments.gateways import payonex, paytimz, ww
from pao.payments.gateways.base import (
    GatewayUnavailable,
    InvalidSignature,
    OrderState,
    VerifiedPayment,
)

SECRET = "test-secret"
EXPIRES = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)


def test_paytimz_sign_is_sorted_fields_plus_key() -> None:
    expected = hashlib.sha256(b"a=1&b=2&key=test-secret").hexdigest().upper()
    assert paytimz.sign(SECRET, {"b": "2", "a": "1", "empty": "", "sign": "x"}) == expected


def test_ww_callback_verified_and_tamper_refused() -> None:
    adapter = ww.WwAdapter(base_url="http://gw", secret=SECRET)
    body = json.dumps(
        {
            "event": "PAYMENT_SUCCESS",
            "merchantRef": "Q1",
            "txnId": "T1",
            "amount": "150.25",
            "currency": "THB",
        }
    ).encode()
    headers = {"x-ww-signature": ww.sign(SECRET, body)}
    assert adapter.verify_callback(headers=headers, body=body) == VerifiedPayment(
        txn_id="T1", order_ref="Q1", amount=150_25, currency=Currency.THB
    )
    with pytest.raises(InvalidSignature):
        adapter.verify_callback(headers=headers, body=body.replace(b"150.25", b"950.25"))
    with pytest.raises(InvalidSignature):
        adapter.verify_callback(headers={}, body=body)


def test_paytimz_callback_tamper_refused() -> None:
    adapter = paytimz.PaytimzAdapter(base_url="http://gw", secret=SECRET)
    fields = paytimz.signed(
        SECRET,
        {
            "out_trade_no": "Q2",
            "total_fee": "1000",
            "trade_status": "SUCCESS",
            "transaction_id": "T2",
        },
    )
    body = "&".join(f"{k}={v}" for k, v in fields.items()).encode()
    assert adapter.verify_callback(headers={}, body=body).amount == 10_00
    with pytest.raises(InvalidSignature):
        adapter.verify_callback(headers={}, body=body.replace(b"total_fee=1000", b"total_fee=9000"))


def test_payonex_callback_replay_window() -> None:
    adapter = payonex.PayonexAdapter(base_url="http://gw", secret=SECRET)
    body = json.dumps(
        {
            "type": "charge.paid",
            "data": {"reference": "Q3", "amount": 20000, "currency": "THB", "transaction": "T3"},
        }
    ).encode()
    headers = {"payonex-signature": payonex.header_value(SECRET, body)}
    assert adapter.verify_callback(headers=headers, body=body).txn_id == "T3"
    clock.advance(timedelta(minutes=6))
    try:
        with pytest.raises(InvalidSignature):
            adapter.verify_callback(headers=headers, body=body)
    finally:
        clock.reset()


async def test_ww_create_and_status_wire_format() -> None:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        if request.method == "POST":
            assert request.headers["X-WW-Signature"] == ww.sign(SECRET, request.content)
            sent = json.loads(request.content)
            assert sent["amount"] == "100.50"
            assert sent["merchantRef"] == "Q9"
            return httpx.Response(200, json={"orderId": "WW1", "qrText": "000201…"})
        return httpx.Response(
            200,
            json={
                "status": "PAID",
                "txnId": "T9",
                "merchantRef": "Q9",
                "amount": "100.50",
                "currency": "THB",
            },
        )

    adapter = ww.WwAdapter(base_url="http://gw", secret=SECRET)
    async with httpx.AsyncClient(transport=httpx.MockTransport(handler)) as http:
        order = await adapter.create_order(
            http,
            order_ref="Q9",
            amount=100_50,
            currency=Currency.THB,
            expires_at=EXPIRES,
            notify_url="http://pao/cb",
        )
        status = await adapter.query_status(http, order_ref="Q9")
    assert (order.order_id, order.payload) == ("WW1", "000201…")
    assert status.state is OrderState.PAID
    assert status.payment is not None
    assert status.payment.amount == 100_50
    assert seen[1].url.path == "/ww/api/v1/orders/Q9"


async def test_paytimz_query_form_and_unavailable() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        fields = dict(parse_qsl(request.content.decode()))
        assert fields["sign"] == paytimz.sign(SECRET, fields)
        return httpx.Response(503)

    adapter = paytimz.PaytimzAdapter(base_url="http://gw", secret=SECRET)
    async with httpx.AsyncClient(transport=httpx.MockTransport(handler)) as http:
        with pytest.raises(GatewayUnavailable):
            await adapter.query_status(http, order_ref="Q1")
