"""ThaiBulkSMS's OTP adapter pinned to its wire format (providers.md §5) with
``httpx.MockTransport``: the request and verify bodies, the documented success, and the safe
reading of everything else (ADR 0030): a send is only a ``status: success`` with a token and a
refno, a PIN only passes on a definite HTTP 200, and no answer is never a pass."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from pao.core.settings import Settings
from pao.identity.exceptions import OtpSendFail
from pao.identity.otp_provider import ProviderOtp, Verdict
from pao.identity.sms_providers.thaibulksms_otp import ThaiBulkSmsOtp

SETTINGS = Settings(
    env="test",
    sandbox=False,
    otp_provider="thaibulksms",
    thaibulksms_otp_key="tbs-otp-key-0001",
    thaibulksms_otp_secret="tbs-otp-secret-0001",
)
# The documented success [T2].
REQUESTED = {"status": "success", "token": "3M7pLq9Xr2ZyKw8A", "refno": "TQ8V2"}
Answer = tuple[int, Any] | Exception


def handler_for(answer: Answer, seen: list[httpx.Request]) -> Any:
    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        if isinstance(answer, Exception):
            raise answer
        status, body = answer
        if isinstance(body, str):
            return httpx.Response(status, text=body)
        return httpx.Response(status, json=body)

    return handler


async def request(answer: Answer, seen: list[httpx.Request] | None = None) -> ProviderOtp:
    seen = [] if seen is None else seen
    async with httpx.AsyncClient(transport=httpx.MockTransport(handler_for(answer, seen))) as h:
        return await ThaiBulkSmsOtp(h, SETTINGS).request(phone="0952483338")


async def verify(answer: Answer, seen: list[httpx.Request] | None = None) -> Verdict:
    seen = [] if seen is None else seen
    async with httpx.AsyncClient(transport=httpx.MockTransport(handler_for(answer, seen))) as h:
        return await ThaiBulkSmsOtp(h, SETTINGS).verify(token="3M7pLq9Xr2ZyKw8A", pin="093892")


async def test_request_body_and_documented_success() -> None:
    seen: list[httpx.Request] = []
    sent = await request((200, REQUESTED), seen)
    assert sent == ProviderOtp(token="3M7pLq9Xr2ZyKw8A", refno="TQ8V2")
    [call] = seen
    assert (call.method, str(call.url)) == ("POST", "https://otp.thaibulksms.com/v2/otp/request")
    assert call.headers["content-type"] == "application/json"
    assert "authorization" not in call.headers  # the key and secret travel in the body
    assert json.loads(call.content) == {
        "key": "tbs-otp-key-0001",
        "secret": "tbs-otp-secret-0001",
        "msisdn": "0952483338",
    }


async def test_verify_body_and_a_200_is_verified() -> None:
    seen: list[httpx.Request] = []
    assert await verify((200, {"status": "success", "message": "Code is correct."}), seen) == (
        Verdict.VERIFIED
    )
    [call] = seen
    assert str(call.url) == "https://otp.thaibulksms.com/v2/otp/verify"
    assert json.loads(call.content) == {
        "key": "tbs-otp-key-0001",
        "secret": "tbs-otp-secret-0001",
        "token": "3M7pLq9Xr2ZyKw8A",
        "pin": "093892",
    }
    assert await verify((200, {})) is Verdict.VERIFIED  # the body is UNCONFIRMED: 200 is the yes


@pytest.mark.parametrize(
    "answer",
    [
        (200, {"status": "error", "token": "t", "refno": "R1"}),
        (200, {"status": "success", "refno": "R1"}),  # no token
        (200, {"status": "success", "token": "", "refno": "R1"}),
        (200, {"status": "success", "token": "t"}),  # no refno
        (200, {"status": "success", "token": "t", "refno": "R1 <script>"}),
        (200, {"status": "success", "token": "t", "refno": "R" * 17}),
        (200, "<html>Cloudflare</html>"),
        (200, [REQUESTED]),
        (400, {"error": {"code": 400, "name": "INVALID_MSISDN", "description": "msisdn"}}),
        (401, {"error": {"code": 401, "name": "UNAUTHORIZED", "description": "key"}}),
        (500, {**REQUESTED}),  # a success body on an error status is not a send
        (503, "Service Unavailable"),
        httpx.ConnectError("refused"),
        httpx.ReadTimeout("slow"),
    ],
)
async def test_anything_but_a_documented_success_is_otp_send_fail(answer: Answer) -> None:
    with pytest.raises(OtpSendFail):
        await request(answer)


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        ((400, {"error": {"code": 4043, "name": "PIN_INVALID"}}), Verdict.WRONG),  # wrong pin
        ((400, {"error": {"code": 4042, "name": "TOKEN_EXPIRED"}}), Verdict.WRONG),  # expired
        ((404, {"message": "token not found"}), Verdict.WRONG),
        ((422, "bad pin"), Verdict.WRONG),
        ((201, {"status": "success"}), Verdict.WRONG),  # only a 200 is the documented yes
        ((200, {"status": "fail"}), Verdict.WRONG),
        ((401, {"error": {"code": 401, "name": "UNAUTHORIZED"}}), Verdict.UNAVAILABLE),
        ((403, {}), Verdict.UNAVAILABLE),
        ((429, {}), Verdict.UNAVAILABLE),
        ((500, {"status": "success"}), Verdict.UNAVAILABLE),
        ((502, "<html>Bad Gateway</html>"), Verdict.UNAVAILABLE),
        ((200, "<html>Bad Gateway</html>"), Verdict.UNAVAILABLE),  # malformed: not a yes
        ((200, "not json {"), Verdict.UNAVAILABLE),
        (httpx.ConnectError("refused"), Verdict.UNAVAILABLE),
        (httpx.ReadTimeout("slow"), Verdict.UNAVAILABLE),
    ],
)
async def test_only_a_definite_200_verifies(answer: Answer, verdict: Verdict) -> None:
    assert await verify(answer) is verdict


async def test_the_url_setting_points_the_adapter_elsewhere() -> None:
    seen: list[httpx.Request] = []
    settings = SETTINGS.model_copy(update={"thaibulksms_otp_url": "https://otp.example/"})
    async with httpx.AsyncClient(transport=httpx.MockTransport(handler_for((200, {}), seen))) as h:
        await ThaiBulkSmsOtp(h, settings).verify(token="t", pin="1")
    assert str(seen[0].url) == "https://otp.example/v2/otp/verify"


async def test_nothing_secret_is_logged(capfd: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(OtpSendFail):
        await request((401, {"error": {"code": 401, "name": "UNAUTHORIZED", "description": "x"}}))
    await verify((400, {"error": {"code": 4043, "name": "PIN_INVALID"}}))
    await verify(httpx.ConnectError("refused"))
    out, err = capfd.readouterr()
    assert "UNAUTHORIZED" in out + err
    assert "PIN_INVALID" in out + err
    for secret in ("tbs-otp-key-0001", "tbs-otp-secret-0001", "3M7pLq9Xr2ZyKw8A", "093892"):
        assert secret not in out + err


def test_credentials_required_without_the_sandbox() -> None:
    paid = {
        "bank_webhook_secret": "s",
        "gateway_ww_secret": "s",
        "gateway_paytimz_secret": "s",
        "gateway_payonex_secret": "s",
        "game_provider_key": "k",
    }
    settings = Settings(sandbox=False, otp_provider="thaibulksms", **paid)  # type: ignore[arg-type]
    with pytest.raises(
        RuntimeError,
        match="PAO_OTP_PROVIDER=thaibulksms without PAO_THAIBULKSMS_OTP_KEY, "
        "PAO_THAIBULKSMS_OTP_SECRET",
    ):
        settings.require_third_party_secrets()
    # The SMS API's key does not stand in for the OTP API's.
    sms_only = Settings(
        sandbox=False,
        otp_provider="thaibulksms",
        thaibulksms_api_key="k",
        thaibulksms_api_secret="s",
        **paid,  # type: ignore[arg-type]
    )
    with pytest.raises(RuntimeError, match="PAO_THAIBULKSMS_OTP_KEY"):
        sms_only.require_third_party_secrets()
    Settings(sandbox=True, otp_provider="thaibulksms").require_third_party_secrets()
