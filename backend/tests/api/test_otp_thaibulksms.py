"""Registration OTP through ThaiBulkSMS's OTP API (``PAO_OTP_PROVIDER=thaibulksms``, ADR 0030),
end to end against the sandbox's twin of it: the provider makes and checks the code while
Pao's throttles, budgets, try counting and single use stay in front. Every failure answer
shows the member a clear code (never a 500) and registers nobody."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import timedelta
from itertools import count

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import func, select

from pao.core.settings import Settings
from pao.identity import otp_proof
from pao.identity.models import OtpRequest, OtpStatus
from pao.identity.otp import MAX_WRONG_ATTEMPTS, OTP_TTL
from pao.identity.otp_provider import ProviderOtp, Verdict
from pao.identity.sms import get_otp_checker
from pao.identity.sms_providers.thaibulksms_otp import ThaiBulkSmsOtp
from pao.kit.clock import clock
from pao.sandbox.thaibulksms_otp import ThaiBulkSmsOtpCode
from tests.helpers import (
    latest_otp_code,
    login,
    new_phone,
    register,
    registration_payload,
    set_site_setting,
    sms_outbox,
)

pytestmark = pytest.mark.sqlite


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return settings.model_copy(update={"otp_provider": "thaibulksms"})


class CountingChecker:
    """The real adapter, counting the PINs put to the provider."""

    def __init__(self, inner: ThaiBulkSmsOtp) -> None:
        self.inner = inner
        self.calls = 0

    async def request(self, *, phone: str) -> ProviderOtp:
        return await self.inner.request(phone=phone)

    async def verify(self, *, token: str, pin: str) -> Verdict:
        self.calls += 1
        return await self.inner.verify(token=token, pin=pin)


@pytest.fixture
async def checker(app: FastAPI) -> AsyncIterator[CountingChecker]:
    counting = CountingChecker(ThaiBulkSmsOtp(app.state.http, app.state.settings))
    app.dependency_overrides[get_otp_checker] = lambda: counting
    yield counting
    app.dependency_overrides.pop(get_otp_checker, None)


async def send(client: httpx.AsyncClient, phone: str) -> httpx.Response:
    return await client.post("/api/otp/send", json={"phoneNumber": phone})


async def verify(client: httpx.AsyncClient, token: str, code: str) -> httpx.Response:
    return await client.post("/api/otp/verify", json={"otpToken": token, "otpCode": code})


async def fault(client: httpx.AsyncClient, value: str | None) -> None:
    response = await client.post("/sandbox/thaibulksms-otp/controls", json={"fault": value})
    assert response.status_code == 200, response.text


async def otp_row(app: FastAPI, phone: str) -> OtpRequest:
    async with app.state.sessionmaker() as s:
        query = select(OtpRequest).where(OtpRequest.phone == phone)
        row: OtpRequest = (await s.execute(query)).scalar_one()
        return row


async def provider_codes(app: FastAPI, phone: str) -> int:
    """How many codes the sandbox provider made for ``phone`` (each one a request)."""
    async with app.state.sandbox_sessionmaker() as s:
        query = select(func.count()).where(ThaiBulkSmsOtpCode.msisdn == phone)
        return int((await s.execute(query)).scalar_one())


def wrong(code: str) -> str:
    return f"{(int(code) + 1) % 1_000_000:06d}"


async def sent_code(client: httpx.AsyncClient, phone: str) -> tuple[str, str, str]:
    """Send an OTP to ``phone``; its ``(otpToken, otpRef, code from the outbox)``."""
    sent = await send(client, phone)
    assert sent.status_code == 200, sent.text
    return sent.json()["otpToken"], sent.json()["otpRef"], await latest_otp_code(client, phone)


async def test_a_thaibulksms_otp_registers_the_member(
    client: httpx.AsyncClient, app: FastAPI, checker: CountingChecker
) -> None:
    phone = await register(client, via_otp=True)

    [message] = await sms_outbox(client, phone)
    assert message["text"].startswith("TBS Code: ")
    row = await otp_row(app, phone)
    assert row.status == OtpStatus.CONSUMED
    assert row.provider_token  # kept to verify with; ThaiBulkSMS's refno is the ref shown
    assert f"(Ref: {row.ref})" in message["text"]
    assert checker.calls == 1
    assert await login(client, phone)


async def test_the_ref_shown_is_the_providers_refno(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    phone = new_phone()
    _, ref, _ = await sent_code(client, phone)
    [message] = await sms_outbox(client, phone)
    assert f"(Ref: {ref})" in message["text"]
    assert len(ref) == 6
    assert (await otp_row(app, phone)).ref == ref


async def test_a_retried_verify_is_answered_by_pao_without_the_provider(
    client: httpx.AsyncClient, checker: CountingChecker
) -> None:
    phone = new_phone()
    token, _, code = await sent_code(client, phone)
    assert (await verify(client, token, code)).json() == {"code": "OK"}
    # The sandbox used the token up: only Pao's own memory of the code can answer this.
    again = await verify(client, token, code)
    assert (again.status_code, again.json()) == (200, {"code": "OTP_VERIFIED"})
    assert (await verify(client, token, wrong(code))).json() == {"message": "OTP_CODE_INVALID"}
    assert checker.calls == 1


async def test_a_wrong_pin_is_counted_and_five_burn_the_code(
    client: httpx.AsyncClient, app: FastAPI, checker: CountingChecker
) -> None:
    phone = new_phone()
    token, _, code = await sent_code(client, phone)
    for n in range(1, MAX_WRONG_ATTEMPTS):
        refused = await verify(client, token, wrong(code))
        assert (refused.status_code, refused.json()) == (400, {"message": "OTP_CODE_INVALID"})
        assert (await otp_row(app, phone)).wrong_attempts == n
    burned = await verify(client, token, wrong(code))
    assert (burned.status_code, burned.json()) == (429, {"message": "OTP_BLOCK"})
    # Burned: even the right code is refused, and the provider is no longer asked.
    assert (await verify(client, token, code)).json() == {"message": "OTP_BLOCK"}
    assert checker.calls == MAX_WRONG_ATTEMPTS
    refused = await client.post(
        "/api/account", json=registration_payload(phone=phone, otpToken=token)
    )
    assert (refused.status_code, refused.json()) == (400, {"message": "UNVERIFIED_OTP"})


async def test_a_pin_that_is_not_digits_is_a_wrong_try_without_a_call(
    client: httpx.AsyncClient, app: FastAPI, checker: CountingChecker
) -> None:
    phone = new_phone()
    token, _, _ = await sent_code(client, phone)
    refused = await verify(client, token, "12ab56")
    assert (refused.status_code, refused.json()) == (400, {"message": "OTP_CODE_INVALID"})
    assert (await otp_row(app, phone)).wrong_attempts == 1
    assert checker.calls == 0


async def test_an_expired_code_is_refused_by_pao_first(
    client: httpx.AsyncClient, checker: CountingChecker
) -> None:
    phone = new_phone()
    token, _, code = await sent_code(client, phone)
    clock.advance(OTP_TTL + timedelta(seconds=1))
    refused = await verify(client, token, code)
    assert (refused.status_code, refused.json()) == (400, {"message": "OTP_EXPIRED"})
    assert checker.calls == 0


@pytest.mark.parametrize("kind", ["error", "garbage"])
async def test_a_provider_fault_on_verify_is_try_again_never_a_pass(
    client: httpx.AsyncClient, app: FastAPI, kind: str
) -> None:
    phone = new_phone()
    token, _, code = await sent_code(client, phone)
    await fault(client, kind)
    refused = await verify(client, token, code)
    assert (refused.status_code, refused.json()) == (502, {"message": "OTP_VERIFY_FAIL"})
    row = await otp_row(app, phone)
    assert (row.status, row.wrong_attempts) == (OtpStatus.PENDING, 1)  # counted: it was a try
    not_yet = await client.post(
        "/api/account", json=registration_payload(phone=phone, otpToken=token)
    )
    assert (not_yet.status_code, not_yet.json()) == (400, {"message": "UNVERIFIED_OTP"})
    # Healed: the same code passes.
    await fault(client, None)
    assert (await verify(client, token, code)).json() == {"code": "OK"}


@pytest.mark.parametrize("kind", ["error", "garbage"])
async def test_a_provider_fault_on_request_is_otp_send_fail_and_stores_nothing(
    client: httpx.AsyncClient, app: FastAPI, kind: str
) -> None:
    await fault(client, kind)
    phone = new_phone()
    refused = await send(client, phone)
    assert (refused.status_code, refused.json()) == (502, {"message": "OTP_SEND_FAIL"})
    async with app.state.sessionmaker() as s:
        count = await s.scalar(
            select(func.count()).select_from(OtpRequest).where(OtpRequest.phone == phone)
        )
    assert count == 0
    await fault(client, None)
    assert (await send(client, phone)).status_code == 200  # nothing counted: at once


async def test_pao_throttles_and_budgets_run_before_the_provider(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    phone = new_phone()
    await sent_code(client, phone)
    # One per phone per minute: refused by Pao, ThaiBulkSMS never asked.
    again = await send(client, phone)
    assert (again.status_code, again.json()["message"]) == (429, "REQUEST_LIMIT_1MIN")
    assert await provider_codes(app, phone) == 1
    # The hourly total spent (the one SMS above): refused before the provider.
    await set_site_setting(client, "otpHourlyCap", 1)
    other = new_phone()
    blocked = await send(client, other)
    assert (blocked.status_code, blocked.json()["message"]) == (429, "OTP_BLOCK")
    assert await provider_codes(app, other) == 0
    assert await sms_outbox(client, other) == []


async def test_a_proof_of_work_opens_the_reserve_for_the_provider_too(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    await set_site_setting(client, "otpHourlyCap", 1)
    app.state.settings.otp_reserve_per_hour = 1
    app.state.settings.otp_proof_bits = 8
    await sent_code(client, new_phone())
    phone = new_phone()
    refused = await send(client, phone)
    assert refused.json() == {"message": "OTP_BLOCK", "reserve": True}
    assert await provider_codes(app, phone) == 0
    challenge = (await client.get("/api/otp/challenge")).json()["challenge"]
    nonce = next(str(n) for n in count() if otp_proof.solves(challenge, str(n), 8))
    # Another IP: the daily cap per IP is not what this is about.
    transport = httpx.ASGITransport(app=app, client=("10.79.0.1", 4000))
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as other:
        proven = await other.post(
            "/api/otp/send",
            json={"phoneNumber": phone, "proof": {"challenge": challenge, "nonce": nonce}},
        )
    assert proven.status_code == 200, proven.text
    assert await provider_codes(app, phone) == 1


async def test_two_concurrent_verifies_of_one_code_pass_once(
    client: httpx.AsyncClient, app: FastAPI, checker: CountingChecker
) -> None:
    phone = new_phone()
    token, _, code = await sent_code(client, phone)
    answers = await asyncio.gather(verify(client, token, code), verify(client, token, code))
    assert sorted(a.json()["code"] for a in answers) == ["OK", "OTP_VERIFIED"]
    assert checker.calls == 1
    # And the verified code registers one member, once.
    first = await client.post(
        "/api/account", json=registration_payload(phone=phone, otpToken=token)
    )
    assert first.status_code == 201, first.text
    assert (await verify(client, token, code)).json() == {"message": "OTP_NOT_EXIST"}


async def test_the_provider_token_and_secrets_are_never_logged(
    client: httpx.AsyncClient, app: FastAPI, capfd: pytest.CaptureFixture[str]
) -> None:
    capfd.readouterr()
    phone = new_phone()
    token, _, code = await sent_code(client, phone)
    await verify(client, token, wrong(code))
    await fault(client, "error")
    await verify(client, token, code)
    await fault(client, None)
    out, err = capfd.readouterr()
    settings: Settings = app.state.settings
    provider_token = (await otp_row(app, phone)).provider_token
    assert provider_token
    for secret in (
        provider_token,
        settings.thaibulksms_otp_key.get_secret_value(),
        settings.thaibulksms_otp_secret.get_secret_value(),
        token,
    ):
        assert secret not in out + err
