"""PAYONEX: JSON, amounts as integer minor units, and a timestamped signature header
``Payonex-Signature: t=<unix seconds>,v1=<base64 HMAC-SHA512 of "<t>.<body>">``; a callback
older or newer than 5 minutes is refused (replay window)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from datetime import datetime
from typing import Any

import httpx

from pao.kit.clock import utcnow
from pao.kit.money import Currency
from pao.payments.gateways.base import (
    GatewayError,
    GatewayOrder,
    InvalidSignature,
    OrderState,
    OrderStatus,
    VerifiedPayment,
    call,
    same,
)

HEADER = "Payonex-Signature"
TOLERANCE_SECONDS = 300


def signature(secret: str, timestamp: int, data: bytes) -> str:
    digest = hmac.new(secret.encode(), f"{timestamp}.".encode() + data, hashlib.sha512).digest()
    return base64.b64encode(digest).decode()


def header_value(secret: str, data: bytes, timestamp: int | None = None) -> str:
    t = int(utcnow().timestamp()) if timestamp is None else timestamp
    return f"t={t},v1={signature(secret, t, data)}"


def check_header(secret: str, value: str, data: bytes) -> None:
    parts = dict(p.split("=", 1) for p in value.split(",") if "=" in p)
    try:
        timestamp = int(parts.get("t", ""))
    except ValueError:
        raise InvalidSignature("PAYONEX: no timestamp") from None
    if abs(utcnow().timestamp() - timestamp) > TOLERANCE_SECONDS:
        raise InvalidSignature("PAYONEX: outside the replay window")
    if not same(parts.get("v1", ""), signature(secret, timestamp, data)):
        raise InvalidSignature("PAYONEX")


def _payment(data: Any) -> VerifiedPayment:
    try:
        amount = data["amount"]
        if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
            raise ValueError("amount")
        return VerifiedPayment(
            txn_id=str(data["transaction"]),
            order_ref=str(data["reference"]),
            amount=amount,
            currency=Currency(data["currency"]),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise GatewayError(f"PAYONEX: bad charge {data!r}") from exc


class PayonexAdapter:
    code = "PAYONEX"

    def __init__(self, *, base_url: str, secret: str) -> None:
        self._base = f"{base_url}/payonex/v2"
        self._secret = secret

    async def create_order(
        self,
        http: httpx.AsyncClient,
        *,
        order_ref: str,
        amount: int,
        currency: Currency,
        expires_at: datetime,
        notify_url: str,
    ) -> GatewayOrder:
        body = json.dumps(
            {
                "reference": order_ref,
                "amount": amount,
                "currency": str(currency),
                "callback_url": notify_url,
                "expires_at": expires_at.isoformat(),
            }
        ).encode()
        response = await call(
            http,
            "POST",
            f"{self._base}/charges",
            content=body,
            headers={
                "Content-Type": "application/json",
                HEADER: header_value(self._secret, body),
            },
        )
        data = response.json() if response.status_code in (200, 201) else {}
        try:
            return GatewayOrder(order_id=str(data["id"]), payload=str(data["qr"]["payload"]))
        except (KeyError, TypeError) as exc:
            raise GatewayError(f"PAYONEX create refused: HTTP {response.status_code}") from exc

    def verify_callback(self, *, headers: dict[str, str], body: bytes) -> VerifiedPayment:
        check_header(self._secret, headers.get(HEADER.lower(), ""), body)
        try:
            event = json.loads(body)
        except ValueError as exc:
            raise GatewayError("PAYONEX: callback is not JSON") from exc
        if not isinstance(event, dict) or event.get("type") != "charge.paid":
            raise GatewayError("PAYONEX: not a charge.paid event")
        return _payment(event.get("data"))

    async def query_status(self, http: httpx.AsyncClient, *, order_ref: str) -> OrderStatus:
        path = f"/charges?reference={order_ref}"
        response = await call(
            http,
            "GET",
            f"{self._base}{path}",
            headers={HEADER: header_value(self._secret, path.encode())},
        )
        if response.status_code == 404:
            return OrderStatus(OrderState.UNKNOWN_ORDER)
        data = response.json()
        if not isinstance(data, dict):
            raise GatewayError("PAYONEX: bad status answer")
        if data.get("state") == "paid":
            return OrderStatus(OrderState.PAID, _payment(data))
        return OrderStatus(OrderState.PENDING)
