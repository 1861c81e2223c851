"""The ``pao`` slip verifier (``PAO_SLIP_VERIFIER=pao``): Pao's own dialect, the sandbox bank's.

``GET {slip_verify_url}/{sendingBank}/{reference}`` → 200 with the transfer (amount in major
units, currency, transferredAt ISO, sender and receiver ``{bankCode, accountNo, name}``) or
404 when the bank knows no such transfer. Anything else (timeouts, 5xx, garbage) is
:class:`VerifierUnavailable`: the caller cannot tell whether the slip is good. The real
providers' adapters are in :mod:`pao.payments.slips.providers`; the port in
:mod:`pao.payments.slips.port`.
"""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from urllib.parse import quote

import httpx
import structlog
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from pao.core import metrics
from pao.core.settings import Settings
from pao.payments.slips.port import SlipQuery, VerifiedTransfer, VerifierUnavailable, to_minor

__all__ = ["PaoSlipVerifier", "VerifiedTransfer", "VerifierUnavailable", "verify_base_url"]

log = structlog.get_logger(__name__)


class _Party(BaseModel):
    model_config = ConfigDict(populate_by_name=True)

    bank_code: str = Field(alias="bankCode", max_length=10)
    account_no: str = Field(alias="accountNo", max_length=40)
    name: str = ""


class _TransferBody(BaseModel):
    model_config = ConfigDict(populate_by_name=True)

    reference: str
    sending_bank: str = Field(alias="sendingBank")
    amount: Decimal
    currency: str
    transferred_at: datetime = Field(alias="transferredAt")
    sender: _Party
    receiver: _Party


def verify_base_url(settings: Settings) -> str:
    return (settings.slip_verify_url or f"{settings.base_url}/sandbox/bank/api/slips").rstrip("/")


# The label of the bank's slip-verification API in pao_provider_calls_total.
PROVIDER = "bank-slip-verify"


class PaoSlipVerifier:
    name = PROVIDER
    needs_payload = False

    def __init__(self, http: httpx.AsyncClient, settings: Settings) -> None:
        self._http = http
        self._base = verify_base_url(settings)

    async def lookup(self, query: SlipQuery) -> VerifiedTransfer | None:
        """The transfer, or None when the bank says there is none."""
        sending_bank, reference = query.sending_bank, query.reference
        url = f"{self._base}/{quote(sending_bank, safe='')}/{quote(reference, safe='')}"
        with metrics.provider_call(PROVIDER, "lookup") as call:
            try:
                response = await self._http.get(url, timeout=15.0)
            except httpx.HTTPError as exc:
                call.failed(exc)
                log.warning("slip verifier unreachable", error=str(exc))
                raise VerifierUnavailable(str(exc)) from exc
            # "No such transfer" is an answer, not a failure of the bank's API.
            call.answered(200 if response.status_code == 404 else response.status_code)
        if response.status_code == 404:
            return None
        if response.status_code != 200:
            raise VerifierUnavailable(f"HTTP {response.status_code}")
        try:
            body = _TransferBody.model_validate_json(response.content)
            if body.transferred_at.tzinfo is None:
                raise ValueError("naive transferredAt")
            return VerifiedTransfer(
                reference=body.reference,
                sending_bank=body.sending_bank,
                amount=to_minor(body.amount),
                currency=body.currency.upper(),
                transferred_at=body.transferred_at,
                sender_bank=body.sender.bank_code.upper(),
                sender_account=body.sender.account_no,
                receiver_bank=body.receiver.bank_code.upper(),
                receiver_account=body.receiver.account_no,
            )
        except (ValidationError, ValueError) as exc:
            log.warning("slip verifier answered garbage", error=str(exc))
            raise VerifierUnavailable("bad answer") from exc
