"""The SMS adapter against recorded gateway exchanges (httpx.MockTransport), and OTP texts."""

from __future__ import annotations

import json
import re

import httpx
import pytest

from pao.core.settings import Settings
from pao.identity.exceptions import OtpSendFail
from pao.identity.otp import new_code, new_ref, otp_text
from pao.identity.sms import HttpSmsSender, sms_endpoint


class Gateway:
    """A recorded SMS gateway: answers ``status`` and keeps every request."""

    def __init__(self, status: int = 200, body: object | None = None) -> None:
        self.status = status
        self.body = body if body is not None else {"status": "queued", "id": "msg-1"}
        self.requests: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        return httpx.Response(self.status, json=self.body)


async def test_posts_json_to_the_gateway() -> None:
    gateway = Gateway()
    async with httpx.AsyncClient(transport=httpx.MockTransport(gateway)) as http:
        sender = HttpSmsSender(http, url="https://sms.example/v1/send", sender="Pao")
        await sender.send(phone="0812345678", text="Pao OTP 123456 (ref ABCD).")
    [request] = gateway.requests
    assert request.method == "POST"
    assert str(request.url) == "https://sms.example/v1/send"
    assert request.headers["content-type"] == "application/json"
    assert json.loads(request.content) == {
        "phone": "0812345678",
        "text": "Pao OTP 123456 (ref ABCD).",
        "sender": "Pao",
    }


@pytest.mark.parametrize("status", [400, 401, 429, 500, 503])
async def test_gateway_refusal_is_otp_send_fail(status: int) -> None:
    gateway = Gateway(status, {"error": "nope"})
    async with httpx.AsyncClient(transport=httpx.MockTransport(gateway)) as http:
        sender = HttpSmsSender(http, url="https://sms.example/v1/send", sender="Pao")
        with pytest.raises(OtpSendFail) as raised:
            await sender.send(phone="0812345678", text="x")
    assert raised.value.status_code == 502
    assert raised.value.body() == {"message": "OTP_SEND_FAIL"}


@pytest.mark.parametrize(
    "error",
    [httpx.ConnectError("refused"), httpx.ReadTimeout("slow"), httpx.RemoteProtocolError("x")],
)
async def test_transport_errors_are_otp_send_fail(error: httpx.HTTPError) -> None:
    def broken(request: httpx.Request) -> httpx.Response:
        raise error

    async with httpx.AsyncClient(transport=httpx.MockTransport(broken)) as http:
        sender = HttpSmsSender(http, url="https://sms.example/v1/send", sender="Pao")
        with pytest.raises(OtpSendFail):
            await sender.send(phone="0812345678", text="x")


def test_endpoint_defaults_to_the_sandbox_outbox() -> None:
    assert (
        sms_endpoint(Settings(host="127.0.0.1", port=8000)) == "http://127.0.0.1:8000/sandbox/sms"
    )
    assert (
        sms_endpoint(Settings(public_base_url="https://pao.example"))
        == "https://pao.example/sandbox/sms"
    )
    assert sms_endpoint(Settings(sms_url="https://sms.example/send")) == "https://sms.example/send"


def test_codes_refs_and_text() -> None:
    codes = {new_code() for _ in range(200)}
    assert all(re.fullmatch(r"\d{6}", c) for c in codes)
    assert len(codes) > 150  # random, not a counter
    refs = {new_ref() for _ in range(50)}
    assert all(re.fullmatch(r"[A-HJ-NP-Z2-9]{4}", r) for r in refs)
    assert otp_text(sender="Pao", code="012345", ref="AB2C") == (
        "Pao OTP 012345 (ref AB2C). Valid 5 minutes."
    )
