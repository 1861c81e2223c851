"""WW: JSON bodies, amounts as "100.00" strings, ``X-WW-Signature`` = hex HMAC-SHA256 of the
raw body (of the merchant reference for a status query)."""

from __future__ import annotations

import hashlib
import hmac
import json
from datetime import datetime
from typing import Any

import httpx

from pao.kit.money import Currency
from pao.payments.gateways.base import (
    GatewayError,
    GatewayOrder,
    InvalidSignature,
    OrderState,
    OrderStatus,
    VerifiedPayment,
    call,
    major_text_to_minor,
    minor_to_major_text,
    same,
)

HEADER = "X-WW-Signature"


def sign(secret: str, data: bytes) -> str:
    return hmac.new(secret.encode(), data, hashlib.sha256).hexdigest()


def _payment(data: Any) -> VerifiedPayment:
    try:
        return VerifiedPayment(
            txn_id=str(data["txnId"]),
            order_ref=str(data["merchantRef"]),
            amount=major_text_to_minor(str(data["amount"])),
            currency=Currency(data["currency"]),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise GatewayError(f"WW: bad payment {data!r}") from exc


class WwAdapter:
    code = "WW"

    def __init__(self, *, base_url: str, secret: str) -> None:
        self._base = f"{base_url}/ww/api/v1"
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
                "merchantRef": order_ref,
                "amount": minor_to_major_text(amount),
                "currency": str(currency),
                "notifyUrl": notify_url,
                "expireAt": int(expires_at.timestamp()),
            }
        ).encode()
        response = await call(
            http,
            "POST",
            f"{self._base}/orders",
            content=body,
            headers={"Content-Type": "application/json", HEADER: sign(self._secret, body)},
        )
        data = response.json() if response.status_code == 200 else {}
        if not isinstance(data, dict) or "orderId" not in data or "qrText" not in data:
            raise GatewayError(f"WW create refused: HTTP {response.status_code}")
        return GatewayOrder(order_id=str(data["orderId"]), payload=str(data["qrText"]))

    def verify_callback(self, *, headers: dict[str, str], body: bytes) -> VerifiedPayment:
        given = headers.get(HEADER.lower(), "")
        if not given or not same(given.lower(), sign(self._secret, body)):
            raise InvalidSignature("WW")
        try:
            data = json.loads(body)
        except ValueError as exc:
            raise GatewayError("WW: callback is not JSON") from exc
        if not isinstance(data, dict) or data.get("event") != "PAYMENT_SUCCESS":
            raise GatewayError("WW: not a payment event")
        return _payment(data)

    async def query_status(self, http: httpx.AsyncClient, *, order_ref: str) -> OrderStatus:
        response = await call(
            http,
            "GET",
            f"{self._base}/orders/{order_ref}",
            headers={HEADER: sign(self._secret, order_ref.encode())},
        )
        if response.status_code == 404:
            return OrderStatus(OrderState.UNKNOWN_ORDER)
        data = response.json()
        if not isinstance(data, dict):
            raise GatewayError("WW: bad status answer")
        if data.get("status") == "PAID":
            return OrderStatus(OrderState.PAID, _payment(data))
        return OrderStatus(OrderState.PENDING)
