"""The gateway adapter Protocol and what every gateway adapter shares.

Each gateway has its own wire format and signing scheme (see its module); Pao's code sees only
:class:`GatewayAdapter`: create an order (→ QR payload), verify a signed callback (→ a
:class:`VerifiedPayment`), query an order's status (the reconciler's fallback when a callback
never came). Errors::

    GatewayError            the gateway refused or answered nonsense (QR_FAIL to the member)
     └── GatewayUnavailable the call failed in transit: outcome unknown, try again later
    InvalidSignature        a callback whose signature (or timestamp) does not verify
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal, InvalidOperation
from enum import StrEnum
from typing import Protocol

import httpx

from pao.core.settings import Settings
from pao.kit.money import Currency


class GatewayError(Exception):
    pass


class GatewayUnavailable(GatewayError):
    pass


class InvalidSignature(Exception):
    pass


@dataclass(frozen=True)
class GatewayOrder:
    order_id: str
    payload: str  # the QR text the member's bank app scans


@dataclass(frozen=True)
class VerifiedPayment:
    txn_id: str
    order_ref: str
    amount: int  # minor units
    currency: Currency


class OrderState(StrEnum):
    PENDING = "PENDING"
    PAID = "PAID"
    UNKNOWN_ORDER = "UNKNOWN_ORDER"


@dataclass(frozen=True)
class OrderStatus:
    state: OrderState
    payment: VerifiedPayment | None = None


class GatewayAdapter(Protocol):
    code: str

    async def create_order(
        self,
        http: httpx.AsyncClient,
        *,
        order_ref: str,
        amount: int,
        currency: Currency,
        expires_at: datetime,
        notify_url: str,
    ) -> GatewayOrder: ...

    def verify_callback(self, *, headers: dict[str, str], body: bytes) -> VerifiedPayment: ...

    async def query_status(self, http: httpx.AsyncClient, *, order_ref: str) -> OrderStatus: ...


def gateway_base_url(settings: Settings) -> str:
    return (settings.gateway_base_url or f"{settings.base_url}/sandbox/gateways").rstrip("/")


def same(a: str, b: str) -> bool:
    """Constant-time comparison of two signatures."""
    return hmac.compare_digest(a.encode(), b.encode())


def major_text_to_minor(text: str) -> int:
    """ "100.00" → 10000; anything but a plain positive decimal with ≤ 2 places is refused."""
    try:
        value = Decimal(text)
    except (InvalidOperation, TypeError) as exc:
        raise GatewayError(f"bad amount {text!r}") from exc
    if not value.is_finite() or value <= 0 or value != value.quantize(Decimal("0.01")):
        raise GatewayError(f"bad amount {text!r}")
    return int(value * 100)


def minor_to_major_text(minor: int) -> str:
    return f"{minor // 100}.{minor % 100:02d}"


async def call(http: httpx.AsyncClient, method: str, url: str, **kwargs: object) -> httpx.Response:
    """One HTTP call; transport failures and 5xx become :class:`GatewayUnavailable`."""
    try:
        response = await http.request(method, url, **kwargs)  # type: ignore[arg-type]
    except httpx.HTTPError as exc:
        raise GatewayUnavailable(str(exc)) from exc
    if response.status_code >= 500:
        raise GatewayUnavailable(f"{url}: HTTP {response.status_code}")
    return response
