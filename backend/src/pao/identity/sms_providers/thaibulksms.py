"""ThaiBulkSMS's SMS API (``PAO_SMS_PROVIDER=thaibulksms``; providers.md §5).

``POST {thaibulksms_url}/sms`` with HTTP Basic ``api_key:api_secret`` and a form
(``application/x-www-form-urlencoded``, the vendor's own client) of ``msisdn``, ``message`` and
``sender``. A 2xx answers ``{remaining_credit, total_use_credit, credit_type,
phone_number_list[{number, message_id, used_credit}], bad_phone_number_list[{number,
message}]}``; an error is a non-2xx ``{"error": {"code", "name", "description"}}``.

Only a 2xx whose ``phone_number_list`` holds the message counts as sent (ADR 0026, addendum):
the number in ``bad_phone_number_list``, an error, a 2xx that is not that shape, a timeout →
``OTP_SEND_FAIL`` (the member asks again; Pao's throttles and hourly budgets stay in front).
Logged: the HTTP status and the error's code and name, never the credentials.
"""

from __future__ import annotations

from typing import Any

import httpx
import structlog

from pao.core import metrics
from pao.core.settings import Settings
from pao.identity.exceptions import OtpSendFail

log = structlog.get_logger(__name__)

PUBLIC_URL = "https://api-v2.thaibulksms.com"
PROVIDER = "thaibulksms"


def thaibulksms_base_url(settings: Settings) -> str:
    return settings.provider_url(settings.thaibulksms_url, PUBLIC_URL, "/sandbox/thaibulksms")


def _sent(body: Any) -> bool:
    """Whether a 2xx body says the message left: a non-empty ``phone_number_list`` and no bad
    number."""
    if not isinstance(body, dict):
        return False
    sent, bad = body.get("phone_number_list"), body.get("bad_phone_number_list")
    if not isinstance(sent, list) or not sent or bad not in (None, []):
        return False
    return all(isinstance(item, dict) and item.get("message_id") for item in sent)


def _error(body: Any) -> dict[str, Any]:
    error = body.get("error") if isinstance(body, dict) else None
    return error if isinstance(error, dict) else {}


class ThaiBulkSmsSender:
    def __init__(self, http: httpx.AsyncClient, settings: Settings) -> None:
        self._http = http
        self._url = f"{thaibulksms_base_url(settings)}/sms"
        self._auth = httpx.BasicAuth(
            settings.thaibulksms_api_key.get_secret_value(),
            settings.thaibulksms_api_secret.get_secret_value(),
        )
        self._sender = settings.sms_sender

    async def send(self, *, phone: str, text: str) -> None:
        form = {"msisdn": phone, "message": text, "sender": self._sender}
        with metrics.provider_call(PROVIDER, "sms") as call:
            try:
                response = await self._http.post(self._url, data=form, auth=self._auth)
            except httpx.HTTPError as exc:
                call.failed(exc)
                log.warning("thaibulksms unreachable", error=type(exc).__name__)
                raise OtpSendFail() from exc
            call.answered(response.status_code)
        try:
            body: Any = response.json()
        except ValueError:
            body = None
        if response.is_success and _sent(body):
            return
        error = _error(body)
        bad = body.get("bad_phone_number_list") if isinstance(body, dict) else None
        log.warning(
            "thaibulksms did not send",
            http=response.status_code,
            code=error.get("code"),
            name=error.get("name"),
            bad_number=bool(bad),
        )
        raise OtpSendFail()
