"""PAYTIMZ: form-encoded requests and callbacks, amounts in satang (``total_fee``), and a
``sign`` field = upper-case hex SHA-256 of ``k1=v1&k2=v2&…&key=SECRET`` (keys sorted, empty
values and ``sign`` left out)."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from datetime import datetime
from typing import Any
from urllib.parse import parse_qsl

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
    same,
)


def sign(secret: str, fields: Mapping[str, str]) -> str:
    pairs = "&".join(f"{k}={fields[k]}" for k in sorted(fields) if k != "sign" and fields[k])
    return hashlib.sha256(f"{pairs}&key={secret}".encode()).hexdigest().upper()


def signed(secret: str, fields: dict[str, str]) -> dict[str, str]:
    return {**fields, "sign": sign(secret, fields)}


def _payment(data: Mapping[str, Any]) -> VerifiedPayment:
    try:
        amount = int(str(data["total_fee"]))
        if amount <= 0:
            raise ValueError("amount")
        return VerifiedPayment(
            txn_id=str(data["transaction_id"]),
            order_ref=str(data["out_trade_no"]),
            amount=amount,
            currency=Currency.THB,
        )
    except (KeyError, ValueError) as exc:
        raise GatewayError(f"PAYTIMZ: bad payment {dict(data)!r}") from exc


class PaytimzAdapter:
    code = "PAYTIMZ"

    def __init__(self, *, base_url: str, secret: str) -> None:
        self._base = f"{base_url}/paytimz/gateway"
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
        if currency is not Currency.THB:
            raise GatewayError("PAYTIMZ takes THB only")
        form = signed(
            self._secret,
            {
                "out_trade_no": order_ref,
                "total_fee": str(amount),
                "notify_url": notify_url,
                "time_expire": str(int(expires_at.timestamp())),
            },
        )
        response = await call(http, "POST", f"{self._base}/create", data=form)
        data = response.json() if response.status_code == 200 else {}
        if not isinstance(data, dict) or data.get("code") != "0" or "qr_content" not in data:
            raise GatewayError(f"PAYTIMZ create refused: {data!r}")
        return GatewayOrder(order_id=str(data["trade_no"]), payload=str(data["qr_content"]))

    def verify_callback(self, *, headers: dict[str, str], body: bytes) -> VerifiedPayment:
        try:
            fields = dict(parse_qsl(body.decode("ascii"), strict_parsing=True))
        except (UnicodeDecodeError, ValueError) as exc:
            raise InvalidSignature("PAYTIMZ: not a form") from exc
        given = fields.get("sign", "")
        if not given or not same(given.upper(), sign(self._secret, fields)):
            raise InvalidSignature("PAYTIMZ")
        if fields.get("trade_status") != "SUCCESS":
            raise GatewayError("PAYTIMZ: not a success notification")
        return _payment(fields)

    async def query_status(self, http: httpx.AsyncClient, *, order_ref: str) -> OrderStatus:
        form = signed(self._secret, {"out_trade_no": order_ref})
        response = await call(http, "POST", f"{self._base}/query", data=form)
        data = response.json()
        if not isinstance(data, dict):
            raise GatewayError("PAYTIMZ: bad status answer")
        if data.get("code") == "404":
            return OrderStatus(OrderState.UNKNOWN_ORDER)
        if data.get("trade_status") == "SUCCESS":
            return OrderStatus(OrderState.PAID, _payment(data))
        return OrderStatus(OrderState.PENDING)
