"""SCB's slip verification (``PAO_SLIP_VERIFIER=scb``; providers.md §6).

``GET {scb_url}/v1/payment/billpayment/transactions/{transRef}?sendingBank=<3 digits>`` with
``authorization: Bearer <token>`` (:mod:`pao.payments.scb.oauth`), ``resourceOwnerId``,
``requestUId`` and ``accept-language: EN``; ``{status{code, description}, data{transRef,
sendingBank, receivingBank, transDate, transTime, sender{account}, receiver{account}, amount
(a string), paidLocalCurrency, …}}``, ``status.code`` 1000 = success.

SCB's error codes are not documented (UNCONFIRMED), so the safe reading (ADR 0026): only
``1000`` with a transfer is an answer; everything else, including what may be "no such
transfer", is unknown and retried until the reconciler gives up (UNKNOW_ERROR, staff review).
A 401 drops the cached token and asks once more with a new one. SCB keeps no duplicate flag:
Pao's own claim on (sending bank, transRef) is the only one.
"""

from __future__ import annotations

from urllib.parse import quote

import httpx
import structlog

from pao.core.settings import Settings
from pao.payments.scb.oauth import ScbOAuth, ScbUnavailable, request_uid, scb_base_url
from pao.payments.slips.port import SlipQuery, VerifiedTransfer, VerifierUnavailable
from pao.payments.slips.providers.wire import (
    amount_minor,
    bangkok_datetime,
    call,
    currency_of,
    json_body,
    pao_bank,
)

log = structlog.get_logger(__name__)

PROVIDER = "scb-slip"


def _account(party: object) -> str:
    if not isinstance(party, dict):
        return ""
    account = party.get("account")
    value = account.get("value") if isinstance(account, dict) else None
    return str(value or "")


def classify(response: httpx.Response) -> VerifiedTransfer:
    body = json_body(response)
    status = body.get("status") if body else None
    code = status.get("code") if isinstance(status, dict) else None
    data = body.get("data") if body else None
    if response.status_code != 200 or code != 1000 or not isinstance(data, dict):
        log.warning("scb slip answer not a success", http=response.status_code, code=code)
        raise VerifierUnavailable(f"SCB answered HTTP {response.status_code}, code {code}")
    try:
        reference = str(data.get("transRef") or "")
        sending_bank = str(data.get("sendingBank") or "")
        if not reference or not sending_bank:
            raise ValueError("no transRef or sendingBank")
        return VerifiedTransfer(
            reference=reference,
            sending_bank=sending_bank,
            amount=amount_minor(data.get("amount")),
            currency=currency_of(data.get("paidLocalCurrency")),
            transferred_at=bangkok_datetime(data.get("transDate"), data.get("transTime")),
            sender_bank=pao_bank(sending_bank),
            sender_account=_account(data.get("sender")),
            receiver_bank=pao_bank(data.get("receivingBank")),
            receiver_account=_account(data.get("receiver")),
        )
    except ValueError as exc:
        log.warning("scb slip answer not understood", error=str(exc))
        raise VerifierUnavailable("SCB answer not understood") from exc


class ScbSlipVerifier:
    name = PROVIDER
    needs_payload = False

    def __init__(self, http: httpx.AsyncClient, settings: Settings, oauth: ScbOAuth) -> None:
        self._http = http
        self._base = scb_base_url(settings)
        self._oauth = oauth
        self._timeout = settings.slip_verify_timeout_seconds

    async def _ask(self, query: SlipQuery) -> tuple[httpx.Response, str]:
        try:
            token = await self._oauth.access_token()
        except ScbUnavailable as exc:
            raise VerifierUnavailable(str(exc)) from exc
        url = f"{self._base}/v1/payment/billpayment/transactions/{quote(query.reference, safe='')}"
        headers = {
            "authorization": f"Bearer {token}",
            "resourceOwnerId": self._oauth.api_key,
            "requestUId": request_uid(),
            "accept-language": "EN",
        }

        async def send() -> httpx.Response:
            return await self._http.get(
                url,
                params={"sendingBank": query.sending_bank},
                headers=headers,
                timeout=self._timeout,
            )

        return await call(PROVIDER, "verify", send), token

    async def lookup(self, query: SlipQuery) -> VerifiedTransfer | None:
        response, token = await self._ask(query)
        if response.status_code == 401:
            # The token died early (revoked, SCB restarted): one more try with a new one.
            await self._oauth.invalidate(token)
            response, _ = await self._ask(query)
        return classify(response)
