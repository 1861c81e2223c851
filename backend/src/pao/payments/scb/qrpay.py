"""SCB's QR payment API (``PAO_BANK_API=scb``; providers.md §6, ADR 0029): create a bill
payment QR, and ask SCB whether a payment really happened.

* ``POST {scb_url}/v2/payment/qrcode/create`` ``{qrType: "PP", ppType: "BILLERID", ppId,
  amount, ref1, ref2, ref3, numberOfTimes, expiryDate}`` → ``data{qrRawData, qrImage}``;
* ``GET {scb_url}/v1/payment/billpayment/inquiry?eventCode=00300100&billerId&reference1
  &transactionDate=yyyy-MM-dd`` → ``data``: the payments of that reference on that day, each
  in the payment confirmation's fields (``transactionId``, ``amount``, ``billPaymentRef1``,
  ``payeeProxyId``, …; the list's shape is UNCONFIRMED, ADR 0029).

Every call carries ``authorization: Bearer`` (:mod:`pao.payments.scb.oauth`),
``resourceOwnerId``, ``requestUId`` and ``accept-language: EN``; a 401 drops the token and asks
once more. Anything but ``status.code`` 1000 with the expected data is
:class:`ScbQrUnavailable`: for a QR, "creation failed"; for an inquiry, *unknown* (retried),
never "no such payment".
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone
from typing import Any

import httpx
import structlog

from pao.core import metrics
from pao.core.settings import Settings
from pao.payments.scb.oauth import ScbOAuth, ScbUnavailable, request_uid, scb_base_url
from pao.payments.slips.providers.wire import amount_minor, aware, json_body

log = structlog.get_logger(__name__)

PROVIDER = "scb-qr"
BANGKOK = timezone(timedelta(hours=7))
# Thai QR Code tag 30, customer scans the biller's QR (the inquiry's eventCode, [B6]).
EVENT_CODE = "00300100"
SUCCESS = 1000


class ScbQrUnavailable(Exception):
    """SCB gave no usable answer (down, refused, an answer not understood). Carries no
    credential: HTTP statuses and SCB's codes only."""


@dataclass(frozen=True)
class ScbPayment:
    """One payment as SCB's inquiry reports it (what Pao credits on)."""

    transaction_id: str
    amount: int  # satang
    ref1: str
    biller_id: str
    paid_at: datetime | None = None


def expiry_text(moment: datetime) -> str:
    """``expiryDate`` as SCB writes it: ``YYYY-MM-DD HH:MM:SS`` on Bangkok time (the zone is
    not stated: UNCONFIRMED, read as Thai time like every other SCB local time; ADR 0029)."""
    return moment.astimezone(BANGKOK).strftime("%Y-%m-%d %H:%M:%S")


def amount_text(amount: int) -> str:
    """Satang as SCB's Number(13,2) text, without passing through a float."""
    return f"{amount // 100}.{amount % 100:02d}"


def bangkok_day(moment: datetime) -> date:
    return moment.astimezone(BANGKOK).date()


def _status_code(body: dict[str, Any] | None) -> Any:
    status = body.get("status") if body else None
    return status.get("code") if isinstance(status, dict) else None


def parse_qr_create(response: httpx.Response) -> str:
    """The ``qrRawData`` of a QR create answer, or :class:`ScbQrUnavailable`."""
    body = json_body(response)
    code = _status_code(body)
    data = body.get("data") if body else None
    raw = data.get("qrRawData") if isinstance(data, dict) else None
    if response.status_code != 200 or code != SUCCESS or not isinstance(raw, str) or not raw:
        log.warning("scb qr create refused", http=response.status_code, code=code)
        raise ScbQrUnavailable(f"SCB QR create: HTTP {response.status_code}, code {code}")
    return raw.strip()


def _payment(item: Any) -> ScbPayment | None:
    if not isinstance(item, dict):
        return None
    try:
        transaction_id = str(item.get("transactionId") or "")
        if not transaction_id:
            return None
        return ScbPayment(
            transaction_id=transaction_id,
            amount=amount_minor(item.get("amount")),
            ref1=str(item.get("billPaymentRef1") or ""),
            biller_id=str(item.get("payeeProxyId") or ""),
            paid_at=_instant(item.get("transactionDateandTime")),
        )
    except ValueError:
        return None


def _instant(value: Any) -> datetime | None:
    try:
        return aware(value) if value else None
    except ValueError:
        return None


def parse_inquiry(response: httpx.Response) -> list[ScbPayment]:
    """The payments of an inquiry answer (a list, or one object), or
    :class:`ScbQrUnavailable`. Items Pao cannot read are left out: they confirm nothing."""
    body = json_body(response)
    code = _status_code(body)
    data = body.get("data") if body else None
    if response.status_code != 200 or code != SUCCESS:
        log.warning("scb inquiry not a success", http=response.status_code, code=code)
        raise ScbQrUnavailable(f"SCB inquiry: HTTP {response.status_code}, code {code}")
    items = data if isinstance(data, list) else [data] if isinstance(data, dict) else []
    return [payment for payment in map(_payment, items) if payment is not None]


class ScbQrApi:
    """Pao's calls to SCB's QR payment API. Cheap to build per call."""

    def __init__(self, http: httpx.AsyncClient, settings: Settings, oauth: ScbOAuth) -> None:
        self._http = http
        self._base = scb_base_url(settings)
        self._oauth = oauth
        self._timeout = settings.slip_verify_timeout_seconds
        self.biller_id = settings.scb_biller_id
        self.ref3 = settings.scb_ref3_prefix

    async def _headers(self) -> tuple[dict[str, str], str]:
        try:
            token = await self._oauth.access_token()
        except ScbUnavailable as exc:
            raise ScbQrUnavailable(str(exc)) from exc
        headers = {
            "authorization": f"Bearer {token}",
            "resourceOwnerId": self._oauth.api_key,
            "requestUId": request_uid(),
            "accept-language": "EN",
        }
        return headers, token

    async def _send(
        self, operation: str, send: Callable[[dict[str, str]], Awaitable[httpx.Response]]
    ) -> httpx.Response:
        for attempt in (1, 2):
            headers, token = await self._headers()
            with metrics.provider_call(PROVIDER, operation) as counted:
                try:
                    response = await send(headers)
                except httpx.HTTPError as exc:
                    counted.failed(exc)
                    log.warning("scb unreachable", operation=operation, error=type(exc).__name__)
                    raise ScbQrUnavailable(f"SCB {operation} unreachable") from exc
                counted.answered(response.status_code)
            if response.status_code != 401 or attempt == 2:
                return response
            # The token died early (revoked, SCB restarted): one more try with a new one.
            await self._oauth.invalidate(token)
        raise AssertionError("unreachable")

    async def create_qr(self, *, ref1: str, amount: int, expires_at: datetime) -> str:
        """A single-use bill payment QR for ``amount`` satang; its ``qrRawData``."""
        body = {
            "qrType": "PP",
            "ppType": "BILLERID",
            "ppId": self.biller_id,
            "amount": amount_text(amount),
            "ref1": ref1,
            "ref2": ref1,
            "ref3": self.ref3,
            "numberOfTimes": 1,
            "expiryDate": expiry_text(expires_at),
        }

        async def send(headers: dict[str, str]) -> httpx.Response:
            return await self._http.post(
                f"{self._base}/v2/payment/qrcode/create",
                json=body,
                headers=headers,
                timeout=self._timeout,
            )

        return parse_qr_create(await self._send("qr-create", send))

    async def inquire(self, *, ref1: str, day: date) -> list[ScbPayment]:
        """The payments SCB holds for ``ref1`` on ``day`` (Bangkok)."""
        params = {
            "eventCode": EVENT_CODE,
            "billerId": self.biller_id,
            "reference1": ref1,
            "transactionDate": day.isoformat(),
        }

        async def send(headers: dict[str, str]) -> httpx.Response:
            return await self._http.get(
                f"{self._base}/v1/payment/billpayment/inquiry",
                params=params,
                headers=headers,
                timeout=self._timeout,
            )

        return parse_inquiry(await self._send("inquiry", send))
