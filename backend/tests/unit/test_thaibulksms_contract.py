"""ThaiBulkSMS's SMS adapter pinned to its wire format (providers.md §5) with
``httpx.MockTransport``: the request, the documented success, and every other answer
(a bad number, an error, a shape not understood, no answer) refused as OTP_SEND_FAIL."""

from __future__ import annotations

import base64
from typing import Any
from urllib.parse import parse_qs

import httpx
import pytest

from pao.core.settings import Settings
from pao.identity.exceptions import OtpSendFail
from pao.identity.sms import build_sms_sender
from pao.identity.sms_providers.thaibulksms import ThaiBulkSmsSender

SETTINGS = Settings(
    env="test",
    sandbox=False,
    sms_provider="thaibulksms",
    sms_sender="PAO",
    thaibulksms_api_key="tbs-key-0001",
    thaibulksms_api_secret="tbs-secret-0001",
)
# The documented success [T2].
SENT: dict[str, Any] = {
    "remaining_credit": 2,
    "total_use_credit": 1,
    "credit_type": "corporate",
    "phone_number_list": [
        {"number": "66952483338", "message_id": "btv151h3NUhTlmXzLoUH7v", "used_credit": 1}
    ],
    "bad_phone_number_list": [],
}


async def _send(status: int, body: Any, seen: list[httpx.Request] | None = None) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        if seen is not None:
            seen.append(request)
        if isinstance(body, str):
            return httpx.Response(status, text=body)
        return httpx.Response(status, json=body)

    async with httpx.AsyncClient(transport=httpx.MockTransport(handler)) as http:
        await build_sms_sender(http, SETTINGS).send(phone="0952483338", text="Pao OTP 123456")


async def test_request_and_documented_success() -> None:
    seen: list[httpx.Request] = []
    await _send(201, SENT, seen)
    [request] = seen
    assert request.method == "POST"
    assert str(request.url) == "https://api-v2.thaibulksms.com/sms"
    assert request.headers["content-type"] == "application/x-www-form-urlencoded"
    expected = base64.b64encode(b"tbs-key-0001:tbs-secret-0001").decode()
    assert request.headers["authorization"] == f"Basic {expected}"
    assert parse_qs(request.content.decode()) == {
        "msisdn": ["0952483338"],
        "message": ["Pao OTP 123456"],
        "sender": ["PAO"],
    }


@pytest.mark.parametrize(
    ("status", "body"),
    [
        (
            200,
            {
                **SENT,
                "phone_number_list": [],
                "bad_phone_number_list": [{"number": "0952483338", "message": "Invalid"}],
            },
        ),
        (400, {"error": {"code": 400, "name": "BAD_REQUEST", "description": "msisdn"}}),
        (401, {"error": {"code": 401, "name": "UNAUTHORIZED", "description": "key"}}),
        (402, {"error": {"code": 402, "name": "NOT_ENOUGH_CREDIT", "description": "credit"}}),
        (500, "<html>error</html>"),
        (200, "queued"),
        (200, {"status": "ok"}),
        (200, {**SENT, "phone_number_list": [{"number": "0952483338"}]}),  # no message id
    ],
)
async def test_anything_but_a_sent_message_is_otp_send_fail(status: int, body: Any) -> None:
    with pytest.raises(OtpSendFail):
        await _send(status, body)


async def test_no_answer_is_otp_send_fail() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        raise httpx.ReadTimeout("slow", request=request)

    async with httpx.AsyncClient(transport=httpx.MockTransport(handler)) as http:
        with pytest.raises(OtpSendFail):
            await ThaiBulkSmsSender(http, SETTINGS).send(phone="0952483338", text="x")


async def test_refusal_logs_no_credential(capfd: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(OtpSendFail):
        await _send(401, {"error": {"code": 401, "name": "UNAUTHORIZED", "description": "k"}})
    out, err = capfd.readouterr()
    assert "UNAUTHORIZED" in out + err
    for secret in ("tbs-key-0001", "tbs-secret-0001", base64.b64encode(b"tbs-key-0001").decode()):
        assert secret not in out + err


def test_credentials_required_without_the_sandbox() -> None:
    paid = {
        "bank_webhook_secret": "s",
        "gateway_ww_secret": "s",
        "gateway_paytimz_secret": "s",
        "gateway_payonex_secret": "s",
        "game_provider_key": "k",
    }
    settings = Settings(sandbox=False, sms_provider="thaibulksms", **paid)  # type: ignore[arg-type]
    with pytest.raises(RuntimeError, match="PAO_THAIBULKSMS_API_KEY, PAO_THAIBULKSMS_API_SECRET"):
        settings.require_third_party_secrets()
    Settings(sandbox=True, sms_provider="thaibulksms").require_third_party_secrets()
