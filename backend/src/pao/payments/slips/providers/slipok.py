"""SlipOK (``PAO_SLIP_VERIFIER=slipok``; providers.md §4b).

``POST {slipok_url}/{branch id}`` with header ``x-authorization: <API key>`` and JSON
``{"data": <the slip's QR text>, "log": true}`` (``log`` makes SlipOK remember the slip, which
enables its duplicate 1012 and receiver 1014 checks). HTTP 200 ``{"success": true, "data":
{transRef, sendingBank, receivingBank, transDate, transTime, transTimestamp, sender{account},
receiver{account}, amount, paidLocalCurrency, …}}``; HTTP 400 ``{"code", "message", "data"?}``.

Answers into Pao's verdicts (ADR 0026):

========================  ===========================================================
200 success               the transfer (accounts masked: pao.payments.slips.matching)
1012 duplicate            SLIP_REFNO_DUPLICATED, review opened (Pao's ledger never
                          credited it: its own claim was free), the slip kept
1014 receiver mismatch    DEST_ACC_INVALID
1013 amount mismatch      INVALID_SLIP (reviewable; Pao sends no amount, so unexpected)
1008 not a slip QR,       INVALID_SLIP (reviewable)
1011 expired / no such
1009, 1010 try later      unknown → retried by the reconciler
1003/1004 package/quota   unknown → retried (logged as an error: the operator must act)
1000-1002, 1005-1007,     unknown (Pao's request or configuration is wrong; logged)
1015, anything else
========================  ===========================================================
"""

from __future__ import annotations

from typing import Any

import httpx
import structlog

from pao.core.settings import SLIPOK_PUBLIC_URL, Settings
from pao.payments.slips.models import SlipReason
from pao.payments.slips.port import SlipQuery, SlipRefused, VerifiedTransfer, VerifierUnavailable
from pao.payments.slips.providers.wire import (
    amount_minor,
    aware,
    bangkok_datetime,
    call,
    currency_of,
    json_body,
    pao_bank,
)

log = structlog.get_logger(__name__)

PROVIDER = "slipok"
RETRY_LATER = frozenset({1009, 1010})
# The operator's subscription or setup needs a person (still unknown for the slip).
OPERATOR_MUST_ACT = frozenset({1001, 1002, 1003, 1004, 1015})
REFUSALS: dict[int, tuple[SlipReason, bool]] = {
    1008: (SlipReason.INVALID_SLIP, False),
    1011: (SlipReason.INVALID_SLIP, False),
    1013: (SlipReason.INVALID_SLIP, False),
    1014: (SlipReason.DEST_ACC_INVALID, False),
}


def slipok_base_url(settings: Settings) -> str:
    return settings.provider_url(
        settings.slipok_url, SLIPOK_PUBLIC_URL, "/sandbox/slipok/api/line/apikey"
    )


def _account(party: Any) -> str:
    if not isinstance(party, dict):
        return ""
    account = party.get("account")
    value = account.get("value") if isinstance(account, dict) else None
    return str(value or "")


def parse_slip(data: Any) -> VerifiedTransfer:
    """SlipOK's ``data`` of a slip; ValueError when a field Pao needs is missing or bad."""
    if not isinstance(data, dict):
        raise ValueError("no data")
    reference = str(data.get("transRef") or "")
    sending_bank = str(data.get("sendingBank") or "")
    if not reference or not sending_bank:
        raise ValueError("no transRef or sendingBank")
    stamp = data.get("transTimestamp")
    transferred_at = (
        aware(stamp) if stamp else bangkok_datetime(data.get("transDate"), data.get("transTime"))
    )
    return VerifiedTransfer(
        reference=reference,
        sending_bank=sending_bank,
        amount=amount_minor(data.get("amount")),
        currency=currency_of(data.get("paidLocalCurrency")),
        transferred_at=transferred_at,
        sender_bank=pao_bank(sending_bank),
        sender_account=_account(data.get("sender")),
        receiver_bank=pao_bank(data.get("receivingBank")),
        receiver_account=_account(data.get("receiver")),
    )


def classify(response: httpx.Response) -> VerifiedTransfer:
    """SlipOK's answer → the transfer, or raises SlipRefused / VerifierUnavailable."""
    body = json_body(response)
    if body is None:
        raise VerifierUnavailable(f"SlipOK answered HTTP {response.status_code}, not JSON")
    if response.status_code == 200 and body.get("success") is True:
        data = body.get("data")
        # data.success is SlipOK's own "the slip checks out" (message "✅").
        if not isinstance(data, dict) or data.get("success") is not True:
            raise VerifierUnavailable("SlipOK success without a checked slip")
        try:
            return parse_slip(data)
        except ValueError as exc:
            log.warning("slipok answer not understood", error=str(exc))
            raise VerifierUnavailable("SlipOK answer not understood") from exc
    code = body.get("code")
    if isinstance(code, bool) or not isinstance(code, int):
        raise VerifierUnavailable(f"SlipOK answered HTTP {response.status_code} without a code")
    if code == 1012:
        try:
            kept: VerifiedTransfer | None = parse_slip(body.get("data"))
        except ValueError:
            kept = None
        raise SlipRefused(
            SlipReason.SLIP_REFNO_DUPLICATED, answer="slipok:1012", review=True, transfer=kept
        )
    if code in REFUSALS:
        reason, review = REFUSALS[code]
        raise SlipRefused(reason, answer=f"slipok:{code}", review=review)
    if code in OPERATOR_MUST_ACT:
        log.error("slipok refuses the operator's account", code=code)
    elif code not in RETRY_LATER:
        log.warning("slipok answer not classified", code=code, http=response.status_code)
    raise VerifierUnavailable(f"SlipOK {code}")


class SlipOkVerifier:
    name = PROVIDER
    needs_payload = True

    def __init__(self, http: httpx.AsyncClient, settings: Settings) -> None:
        self._http = http
        self._url = f"{slipok_base_url(settings)}/{settings.slipok_branch_id}"
        self._key = settings.slipok_api_key.get_secret_value()
        self._timeout = settings.slip_verify_timeout_seconds

    async def lookup(self, query: SlipQuery) -> VerifiedTransfer | None:
        if not query.payload:
            raise VerifierUnavailable("SlipOK needs the slip's QR text")
        payload = query.payload

        async def send() -> httpx.Response:
            return await self._http.post(
                self._url,
                json={"data": payload, "log": True},
                headers={"x-authorization": self._key},
                timeout=self._timeout,
            )

        return classify(await call(PROVIDER, "verify", send))
