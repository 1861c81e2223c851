"""EasySlip API v2 (``PAO_SLIP_VERIFIER=easyslip``; providers.md §4a).

``POST {easyslip_url}/verify/bank`` with ``Authorization: Bearer <API key>`` and JSON
``{"payload": <the slip's QR text>, "checkDuplicate": true}``. Success ``{"success": true,
"data": {isDuplicate, amountInSlip, rawSlip{transRef, date, amount{amount}, sender, receiver,
…}}}``; an error ``{"success": false, "error": {"code", "message"}}``.

Answers into Pao's verdicts (ADR 0026):

* success, not a duplicate → the transfer of ``rawSlip`` (accounts masked);
* ``isDuplicate: true`` → SLIP_REFNO_DUPLICATED with the staff review opened (Pao's claim
  was free, so Pao never credited it), the slip kept for the reviewer;
* 404 ``SLIP_NOT_FOUND`` → no such transfer (INVALID_SLIP, reviewable);
* ``QUOTA_EXCEEDED``, ``API_SERVER_ERROR`` ("retry later"), ``INTERNAL_SERVER_ERROR``, the
  key and account codes (401/403), ``VALIDATION_ERROR``, anything else → unknown, retried.

EasySlip's ``bank.id`` coding is inconsistent (providers.md): banks are read by ``short``
name; the sending bank is the slip QR's own, and the answer must name the same ``transRef``.
"""

from __future__ import annotations

from typing import Any

import httpx
import structlog

from pao.core.settings import EASYSLIP_PUBLIC_URL, Settings
from pao.payments.slips.models import SlipReason
from pao.payments.slips.port import SlipQuery, SlipRefused, VerifiedTransfer, VerifierUnavailable
from pao.payments.slips.providers.wire import amount_minor, aware, call, json_body, pao_bank

log = structlog.get_logger(__name__)

PROVIDER = "easyslip"
OPERATOR_MUST_ACT = frozenset(
    {
        "MISSING_API_KEY",
        "INVALID_API_KEY",
        "BRANCH_INACTIVE",
        "SERVICE_BANNED",
        "SERVICE_DELETED",
        "IP_NOT_ALLOWED",
        "QUOTA_EXCEEDED",
    }
)


def easyslip_base_url(settings: Settings) -> str:
    return settings.provider_url(settings.easyslip_url, EASYSLIP_PUBLIC_URL, "/sandbox/easyslip/v2")


def _party(party: Any) -> tuple[str, str]:
    """(bank, account shown) of a sender or receiver: ``bank.short`` and
    ``account.bank.account`` (masked), else the proxy's account."""
    if not isinstance(party, dict):
        return "", ""
    bank, account = _object(party.get("bank")), _object(party.get("account"))
    number = _object(account.get("bank")).get("account")
    return pao_bank(bank.get("short")), str(number or "")


def _object(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def parse_raw_slip(raw: Any, query: SlipQuery) -> VerifiedTransfer:
    if not isinstance(raw, dict):
        raise ValueError("no rawSlip")
    reference = str(raw.get("transRef") or "")
    if not reference:
        raise ValueError("no transRef")
    amount = _object(raw.get("amount"))
    currency = _object(amount.get("local")).get("currency")
    if currency not in (None, "", "THB"):
        raise ValueError(f"currency {currency!r}")
    sender_bank, sender_account = _party(raw.get("sender"))
    receiver_bank, receiver_account = _party(raw.get("receiver"))
    return VerifiedTransfer(
        reference=reference,
        sending_bank=query.sending_bank,
        amount=amount_minor(amount.get("amount")),
        currency="THB",
        transferred_at=aware(raw.get("date")),
        sender_bank=sender_bank,
        sender_account=sender_account,
        receiver_bank=receiver_bank,
        receiver_account=receiver_account,
    )


def classify(response: httpx.Response, query: SlipQuery) -> VerifiedTransfer | None:
    body = json_body(response)
    if body is None:
        raise VerifierUnavailable(f"EasySlip answered HTTP {response.status_code}, not JSON")
    if response.status_code == 200 and body.get("success") is True:
        data = body.get("data")
        if not isinstance(data, dict) or not isinstance(data.get("isDuplicate"), bool):
            raise VerifierUnavailable("EasySlip success without isDuplicate")
        try:
            transfer = parse_raw_slip(data.get("rawSlip"), query)
        except ValueError as exc:
            if data["isDuplicate"]:
                raise SlipRefused(
                    SlipReason.SLIP_REFNO_DUPLICATED, answer="easyslip:isDuplicate", review=True
                ) from None
            log.warning("easyslip answer not understood", error=str(exc))
            raise VerifierUnavailable("EasySlip answer not understood") from exc
        if data["isDuplicate"]:
            raise SlipRefused(
                SlipReason.SLIP_REFNO_DUPLICATED,
                answer="easyslip:isDuplicate",
                review=True,
                transfer=transfer,
            )
        return transfer
    error = body.get("error")
    code = str(error.get("code")) if isinstance(error, dict) else None
    if response.status_code == 404 and code == "SLIP_NOT_FOUND":
        return None
    if code in OPERATOR_MUST_ACT:
        log.error("easyslip refuses the operator's account", code=code)
    elif code not in ("API_SERVER_ERROR", "INTERNAL_SERVER_ERROR"):
        log.warning("easyslip answer not classified", code=code, http=response.status_code)
    raise VerifierUnavailable(f"EasySlip {code or response.status_code}")


class EasySlipVerifier:
    name = PROVIDER
    needs_payload = True

    def __init__(self, http: httpx.AsyncClient, settings: Settings) -> None:
        self._http = http
        self._url = f"{easyslip_base_url(settings)}/verify/bank"
        self._key = settings.easyslip_api_key.get_secret_value()
        self._timeout = settings.slip_verify_timeout_seconds

    async def lookup(self, query: SlipQuery) -> VerifiedTransfer | None:
        if not query.payload:
            raise VerifierUnavailable("EasySlip needs the slip's QR text")
        payload = query.payload

        async def send() -> httpx.Response:
            return await self._http.post(
                self._url,
                json={"payload": payload, "checkDuplicate": True},
                headers={"Authorization": f"Bearer {self._key}"},
                timeout=self._timeout,
            )

        # An answer about another transRef is judged INVALID_SLIP by the service.
        return classify(await call(PROVIDER, "verify", send), query)
