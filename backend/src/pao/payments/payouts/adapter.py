"""The payout adapter: the bank's payout API over HTTP.

* ``POST {payout_url}`` {payoutId, bankCode, accountNo, accountName, amount, currency}
  → 200/202 {payoutId, status: SUCCESS | FAILED | PENDING, reason, reference};
  a 4xx is a definite refusal (nothing was paid);
* ``GET {payout_url}/{payoutId}`` → the same, or 404 when the bank never received it.

A timeout, a connection error, a 5xx or an unreadable answer is :data:`UNKNOWN`: the money may
or may not have left, so the payout stays PENDING until the reconciler asks again.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from urllib.parse import quote

import httpx
import structlog

from pao.core import metrics
from pao.core.settings import Settings

log = structlog.get_logger(__name__)


class BankPayoutState(StrEnum):
    SUCCESS = "SUCCESS"
    FAILED = "FAILED"
    PENDING = "PENDING"
    UNKNOWN = "UNKNOWN"  # no usable answer
    NOT_FOUND = "NOT_FOUND"  # the bank never received it (status query only)


@dataclass(frozen=True)
class BankPayoutResult:
    state: BankPayoutState
    reason: str | None = None
    reference: str | None = None


def payout_base_url(settings: Settings) -> str:
    return (settings.payout_url or f"{settings.base_url}/sandbox/bank/api/payouts").rstrip("/")


def _read(response: httpx.Response) -> BankPayoutResult:
    try:
        body = response.json()
        state = BankPayoutState(str(body["status"]))
    except (ValueError, KeyError, TypeError):
        return BankPayoutResult(BankPayoutState.UNKNOWN, reason="unreadable answer")
    if state not in (BankPayoutState.SUCCESS, BankPayoutState.FAILED, BankPayoutState.PENDING):
        return BankPayoutResult(BankPayoutState.UNKNOWN, reason="unexpected status")
    reason = body.get("reason")
    reference = body.get("reference")
    return BankPayoutResult(
        state,
        reason=str(reason)[:200] if reason else None,
        reference=str(reference)[:40] if reference else None,
    )


# The label of the bank's payout API in pao_provider_calls_total.
PROVIDER = "bank-payout"


class PayoutBank:
    def __init__(self, http: httpx.AsyncClient, settings: Settings) -> None:
        self._http = http
        self._base = payout_base_url(settings)
        self._timeout = settings.payout_timeout_seconds

    async def create(
        self,
        *,
        payout_id: str,
        bank_code: str,
        account_no: str,
        account_name: str,
        amount: int,
        currency: str,
    ) -> BankPayoutResult:
        body = {
            "payoutId": payout_id,
            "bankCode": bank_code,
            "accountNo": account_no,
            "accountName": account_name,
            "amount": float(Decimal(amount).scaleb(-2)),
            "currency": currency,
        }
        with metrics.provider_call(PROVIDER, "create") as call:
            try:
                response = await self._http.post(self._base, json=body, timeout=self._timeout)
            except httpx.HTTPError as exc:
                call.failed(exc)
                log.warning("payout outcome unknown", payout_id=payout_id, error=repr(exc))
                return BankPayoutResult(BankPayoutState.UNKNOWN, reason=type(exc).__name__)
            call.answered(response.status_code)
        if 400 <= response.status_code < 500:
            try:
                code = str(response.json().get("code", "REFUSED"))
            except (ValueError, AttributeError):
                code = "REFUSED"
            return BankPayoutResult(BankPayoutState.FAILED, reason=code[:200])
        if response.status_code not in (200, 201, 202):
            return BankPayoutResult(BankPayoutState.UNKNOWN, reason=f"HTTP {response.status_code}")
        return _read(response)

    async def status(self, *, payout_id: str) -> BankPayoutResult:
        url = f"{self._base}/{quote(payout_id, safe='')}"
        with metrics.provider_call(PROVIDER, "status") as call:
            try:
                response = await self._http.get(url, timeout=self._timeout)
            except httpx.HTTPError as exc:
                call.failed(exc)
                return BankPayoutResult(BankPayoutState.UNKNOWN, reason=type(exc).__name__)
            # Not found is an answer: the bank never saw this payout.
            call.answered(200 if response.status_code == 404 else response.status_code)
        if response.status_code == 404:
            return BankPayoutResult(BankPayoutState.NOT_FOUND)
        if response.status_code != 200:
            return BankPayoutResult(BankPayoutState.UNKNOWN, reason=f"HTTP {response.status_code}")
        return _read(response)
