"""ThaiBulkSMS's OTP API (``PAO_OTP_PROVIDER=thaibulksms``; providers.md §5, ADR 0030).

* ``POST {thaibulksms_otp_url}/v2/otp/request`` JSON ``{key, secret, msisdn}`` →
  ``{status: "success", token, refno}``: ThaiBulkSMS makes the code and texts it;
* ``POST {thaibulksms_otp_url}/v2/otp/verify`` JSON ``{key, secret, token, pin}`` → HTTP 200
  when the PIN is right.

The key and secret travel in the body (no header auth), and are the OTP API's own, not the SMS
API's. The verify answer's body and error codes are UNCONFIRMED, so the safe reading:

* request: only a 2xx ``status: "success"`` with a token and a short alphanumeric refno is
  a sent code; anything else → ``OTP_SEND_FAIL``;
* verify: only HTTP 200 whose body is JSON and does not say another ``status`` than
  ``success`` is :attr:`Verdict.VERIFIED`; any other 2xx–4xx answer is :attr:`Verdict.WRONG`
  (ThaiBulkSMS's wrong, expired and used-up answers cannot be told apart, and need not be),
  except 401/403/429 (Pao's credentials or rate, not the PIN); those, 5xx, no answer, or a
  200 that is not JSON → :attr:`Verdict.UNAVAILABLE` ("try again", never a pass).

Logged: the HTTP status and the provider's error code/name. Never the key, secret, token or
PIN (they are in the request body, which is never logged).
"""

from __future__ import annotations

import re
from typing import Any

import httpx
import structlog

from pao.core import metrics
from pao.core.settings import Settings
from pao.identity.exceptions import OtpSendFail
from pao.identity.otp_provider import ProviderOtp, Verdict

log = structlog.get_logger(__name__)

PUBLIC_URL = "https://otp.thaibulksms.com"
PROVIDER = "thaibulksms-otp"
TIMEOUT_SECONDS = 10.0
# What Pao shows and stores as the reference (otp_requests.ref is 16 wide); ThaiBulkSMS's are
# a few letters and digits.
_REFNO = re.compile(r"[A-Za-z0-9]{1,16}")
_TOKEN_MAX = 255
# Refusals of Pao's credentials or rate, not of the member's PIN: "try again", not "wrong code"
# (a misconfigured key must not tell every member their code is wrong).
_NOT_ABOUT_THE_PIN = frozenset({401, 403, 429})


def thaibulksms_otp_base_url(settings: Settings) -> str:
    return settings.provider_url(
        settings.thaibulksms_otp_url, PUBLIC_URL, "/sandbox/thaibulksms-otp"
    )


def _json(response: httpx.Response) -> Any:
    try:
        return response.json()
    except ValueError:
        return None


def _error_fields(body: Any) -> dict[str, Any]:
    """The provider's error code and name when it sent them (never its free text, which may
    echo what it was sent)."""
    error = body.get("error") if isinstance(body, dict) else None
    if not isinstance(error, dict):
        return {}
    return {"code": error.get("code"), "name": error.get("name")}


def sent_otp(body: Any) -> ProviderOtp | None:
    """The token and refno of a success answer, or None when it is not one."""
    if not isinstance(body, dict) or body.get("status") != "success":
        return None
    token, refno = body.get("token"), body.get("refno")
    if not isinstance(token, str) or not 0 < len(token) <= _TOKEN_MAX:
        return None
    if not isinstance(refno, str) or not _REFNO.fullmatch(refno):
        return None
    return ProviderOtp(token=token, refno=refno)


def verdict_of(response: httpx.Response) -> Verdict:
    """The safe reading of a verify answer (see the module docstring)."""
    if response.status_code >= 500 or response.status_code in _NOT_ABOUT_THE_PIN:
        return Verdict.UNAVAILABLE
    body = _json(response)
    if response.status_code != 200:
        return Verdict.WRONG
    if not isinstance(body, dict):
        return Verdict.UNAVAILABLE  # a proxy's page, not ThaiBulkSMS's answer
    return Verdict.VERIFIED if body.get("status", "success") == "success" else Verdict.WRONG


class ThaiBulkSmsOtp:
    def __init__(self, http: httpx.AsyncClient, settings: Settings) -> None:
        self._http = http
        self._base = thaibulksms_otp_base_url(settings)
        self._key = settings.thaibulksms_otp_key
        self._secret = settings.thaibulksms_otp_secret

    def _credentials(self) -> dict[str, str]:
        return {"key": self._key.get_secret_value(), "secret": self._secret.get_secret_value()}

    async def request(self, *, phone: str) -> ProviderOtp:
        body = {**self._credentials(), "msisdn": phone}
        with metrics.provider_call(PROVIDER, "request") as call:
            try:
                response = await self._http.post(
                    f"{self._base}/v2/otp/request", json=body, timeout=TIMEOUT_SECONDS
                )
            except httpx.HTTPError as exc:
                call.failed(exc)
                log.warning("thaibulksms otp unreachable", error=type(exc).__name__)
                raise OtpSendFail() from exc
            call.answered(response.status_code)
        answer = _json(response)
        sent = sent_otp(answer) if response.is_success else None
        if sent is None:
            log.warning(
                "thaibulksms otp not sent", http=response.status_code, **_error_fields(answer)
            )
            raise OtpSendFail()
        return sent

    async def verify(self, *, token: str, pin: str) -> Verdict:
        body = {**self._credentials(), "token": token, "pin": pin}
        with metrics.provider_call(PROVIDER, "verify") as call:
            try:
                response = await self._http.post(
                    f"{self._base}/v2/otp/verify", json=body, timeout=TIMEOUT_SECONDS
                )
            except httpx.HTTPError as exc:
                call.failed(exc)
                log.warning("thaibulksms otp verify unreachable", error=type(exc).__name__)
                return Verdict.UNAVAILABLE
            call.answered(response.status_code)
        verdict = verdict_of(response)
        if verdict is not Verdict.VERIFIED:
            log.info(
                "thaibulksms otp not verified",
                http=response.status_code,
                verdict=verdict.value,
                **_error_fields(_json(response)),
            )
        return verdict
