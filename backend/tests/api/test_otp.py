"""Registration OTP (spec §7): send, verify, expiry, wrong tries, throttles, SMS failure."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import func, select

from pao.core.security import token_digest
from pao.identity.models import OtpRequest, OtpStatus
from pao.identity.otp import OTP_TTL, VERIFIED_TTL
from pao.identity.sms import HttpSmsSender, get_sms_sender
from pao.kit.clock import clock
from tests.helpers import (
    latest_otp_code,
    new_phone,
    register,
    registration_payload,
    set_site_setting,
    sms_outbox,
    verify_phone,
)


async def send(client: httpx.AsyncClient, phone: str) -> httpx.Response:
    return await client.post("/api/otp/send", json={"phoneNumber": phone})


async def verify(client: httpx.AsyncClient, token: str, code: str) -> httpx.Response:
    return await client.post("/api/otp/verify", json={"otpToken": token, "otpCode": code})


async def otp_rows(app: FastAPI, phone: str) -> list[OtpRequest]:
    async with app.state.sessionmaker() as s:
        query = select(OtpRequest).where(OtpRequest.phone == phone).order_by(OtpRequest.id)
        return list((await s.execute(query)).scalars().all())


def wrong(code: str) -> str:
    return f"{(int(code) + 1) % 1_000_000:06d}"


@pytest.fixture
async def other_ip_client(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=app, client=("10.9.8.7", 4000))
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as c:
        yield c


async def test_send_texts_a_code_and_stores_only_hashes(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    phone = new_phone()
    response = await send(client, phone)
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["code"] == "OK"
    assert len(body["otpRef"]) == 4
    token = body["otpToken"]
    assert len(token) >= 40

    outbox = await sms_outbox(client, phone)
    assert len(outbox) == 1
    assert outbox[0]["phone"] == phone
    assert body["otpRef"] in outbox[0]["text"]
    code = await latest_otp_code(client, phone)
    assert outbox[0]["text"] == f"Pao OTP {code} (ref {body['otpRef']}). Valid 5 minutes."

    [row] = await otp_rows(app, phone)
    assert row.token_digest == token_digest(token)
    assert token not in (row.token_digest, row.code_hmac)
    assert code not in row.code_hmac
    assert row.status == OtpStatus.PENDING
    assert row.ip == "127.0.0.1"
    assert row.expires_at - row.created_at == OTP_TTL


async def test_verify_right_code_then_repeat(client: httpx.AsyncClient, app: FastAPI) -> None:
    phone = new_phone()
    token = (await send(client, phone)).json()["otpToken"]
    code = await latest_otp_code(client, phone)

    first = await verify(client, token, code)
    assert first.status_code == 200, first.text
    assert first.json() == {"code": "OK"}
    [row] = await otp_rows(app, phone)
    assert row.status == OtpStatus.VERIFIED
    assert row.verified_at is not None

    # A retried verify (the first answer was lost) is not an error.
    again = await verify(client, token, code)
    assert again.status_code == 200, again.text
    assert again.json() == {"code": "OTP_VERIFIED"}
    # But not with a wrong code.
    assert (await verify(client, token, wrong(code))).json()["message"] == "OTP_CODE_INVALID"


async def test_wrong_code_is_counted_even_though_refused(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    phone = new_phone()
    token = (await send(client, phone)).json()["otpToken"]
    code = await latest_otp_code(client, phone)
    response = await verify(client, token, wrong(code))
    assert response.status_code == 400
    assert response.json() == {"message": "OTP_CODE_INVALID"}
    [row] = await otp_rows(app, phone)
    assert row.wrong_attempts == 1
    assert row.status == OtpStatus.PENDING
    # Still usable with the right code.
    assert (await verify(client, token, code)).json() == {"code": "OK"}


async def test_five_wrong_tries_burn_the_code(client: httpx.AsyncClient, app: FastAPI) -> None:
    phone = new_phone()
    token = (await send(client, phone)).json()["otpToken"]
    code = await latest_otp_code(client, phone)
    answers = [(await verify(client, token, wrong(code))) for _ in range(5)]
    assert [a.json()["message"] for a in answers] == ["OTP_CODE_INVALID"] * 4 + ["OTP_BLOCK"]
    assert answers[-1].status_code == 429

    right = await verify(client, token, code)
    assert right.status_code == 429
    assert right.json() == {"message": "OTP_BLOCK"}
    [row] = await otp_rows(app, phone)
    assert row.status == OtpStatus.BURNED
    assert row.wrong_attempts == 5
    assert row.verified_at is None


async def test_code_expires_after_five_minutes(client: httpx.AsyncClient) -> None:
    phone = new_phone()
    token = (await send(client, phone)).json()["otpToken"]
    code = await latest_otp_code(client, phone)
    clock.advance(OTP_TTL + timedelta(seconds=1))
    response = await verify(client, token, code)
    assert response.status_code == 400
    assert response.json() == {"message": "OTP_EXPIRED"}


async def test_code_is_valid_until_five_minutes(client: httpx.AsyncClient) -> None:
    phone = new_phone()
    token = (await send(client, phone)).json()["otpToken"]
    code = await latest_otp_code(client, phone)
    clock.advance(OTP_TTL - timedelta(seconds=30))
    assert (await verify(client, token, code)).json() == {"code": "OK"}


async def test_unknown_malformed_and_missing_tokens(client: httpx.AsyncClient) -> None:
    unknown = await verify(client, "A" * 43, "123456")
    assert (unknown.status_code, unknown.json()) == (400, {"message": "OTP_NOT_EXIST"})
    malformed = await verify(client, "not a token!", "123456")
    assert (malformed.status_code, malformed.json()) == (400, {"message": "OTP_TOKEN_INVALID"})
    missing = await client.post("/api/otp/verify", json={"otpCode": "123456"})
    assert missing.status_code == 422
    assert missing.json() == {"message": "KEY_MISSING", "field": "otpToken"}


async def test_a_consumed_otp_no_longer_exists(client: httpx.AsyncClient) -> None:
    phone = new_phone()
    token = await verify_phone(client, phone)
    code = await latest_otp_code(client, phone)
    created = await client.post(
        "/api/account", json=registration_payload(phone=phone, otpToken=token)
    )
    assert created.status_code == 201, created.text
    assert (await verify(client, token, code)).json() == {"message": "OTP_NOT_EXIST"}


async def test_one_send_per_phone_per_minute(client: httpx.AsyncClient) -> None:
    phone = new_phone()
    first = (await send(client, phone)).json()
    assert (first["code"], first["resendIn"]) == ("OK", 60)
    # The clock is real time plus the test's offset: leave the requests themselves ten seconds
    # (a loaded machine once took more than the one second that 59 s left).
    clock.advance(timedelta(seconds=50))
    again = await send(client, phone)
    assert again.status_code == 429
    # The seconds left before a resend is taken: what the app counts down from.
    body = again.json()
    assert body["message"] == "REQUEST_LIMIT_1MIN"
    assert 1 <= body["retryAfter"] <= 10
    assert len(await sms_outbox(client, phone)) == 1

    clock.advance(timedelta(seconds=11))
    later = await send(client, phone)
    assert later.status_code == 200, later.text
    outbox = await sms_outbox(client, phone)
    assert len(outbox) == 2
    # Newest first, and the new code is the one that verifies.
    newest_code = await latest_otp_code(client, phone)
    assert newest_code in outbox[0]["text"]
    assert (await verify(client, later.json()["otpToken"], newest_code)).json() == {"code": "OK"}


async def test_daily_cap_per_phone(client: httpx.AsyncClient) -> None:
    await set_site_setting(client, "otpDailyCapPerPhone", 2)
    phone = new_phone()
    for _ in range(2):
        assert (await send(client, phone)).status_code == 200
        clock.advance(timedelta(seconds=61))
    blocked = await send(client, phone)
    assert blocked.status_code == 429
    assert blocked.json() == {"message": "OTP_BLOCK"}
    assert len(await sms_outbox(client, phone)) == 2
    # Another phone is not affected.
    assert (await send(client, new_phone())).status_code == 200
    # A rolling 24 h: the first send leaves the window.
    clock.advance(timedelta(hours=24) - timedelta(seconds=100))
    assert (await send(client, phone)).status_code == 200


async def test_daily_cap_per_ip(
    client: httpx.AsyncClient, other_ip_client: httpx.AsyncClient, app: FastAPI
) -> None:
    await set_site_setting(client, "otpDailyCapPerIp", 3)
    for _ in range(3):
        assert (await send(client, new_phone())).status_code == 200
    blocked = await send(client, new_phone())
    assert blocked.status_code == 429
    assert blocked.json() == {"message": "OTP_BLOCK"}
    phone = new_phone()
    assert (await send(other_ip_client, phone)).status_code == 200
    [row] = await otp_rows(app, phone)
    assert row.ip == "10.9.8.7"


async def test_caps_are_counted_from_the_database(client: httpx.AsyncClient, app: FastAPI) -> None:
    """A new process (a fresh rate limiter) still knows the earlier sends."""
    phone = new_phone()
    assert (await send(client, phone)).status_code == 200
    await app.state.rate_limiter.close()  # forgets every in-memory counter
    assert (await send(client, phone)).json()["message"] == "REQUEST_LIMIT_1MIN"


async def test_verified_phone_answers_otp_verified_without_sms(
    client: httpx.AsyncClient,
) -> None:
    phone = new_phone()
    token = await verify_phone(client, phone)
    clock.advance(timedelta(seconds=61))
    response = await send(client, phone)
    assert response.status_code == 200, response.text
    assert response.json()["code"] == "OTP_VERIFIED"
    assert response.json()["otpToken"] is None
    assert len(await sms_outbox(client, phone)) == 1
    # Once the verification is too old, a new code is sent.
    clock.advance(VERIFIED_TTL)
    fresh = await send(client, phone)
    assert fresh.json()["code"] == "OK"
    assert fresh.json()["otpToken"] != token
    assert len(await sms_outbox(client, phone)) == 2


async def test_send_checks_the_phone(client: httpx.AsyncClient) -> None:
    bad = await send(client, "12345")
    assert (bad.status_code, bad.json()) == (400, {"message": "PHONE_NUMBER_REQUIRE_10_DIGIT"})
    blank = await send(client, " ")
    assert (blank.status_code, blank.json()["message"]) == (422, "KEY_MISSING")
    phone = await register(client)
    taken = await send(client, phone)
    assert (taken.status_code, taken.json()) == (409, {"message": "EXISTING_USER"})
    assert await sms_outbox(client, phone) == []


async def test_sms_gateway_failure_is_otp_send_fail_and_counts_nothing(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    sent: list[httpx.Request] = []

    def gateway(request: httpx.Request) -> httpx.Response:
        sent.append(request)
        return httpx.Response(503, json={"error": "down"})

    async with httpx.AsyncClient(transport=httpx.MockTransport(gateway)) as http:
        app.dependency_overrides[get_sms_sender] = lambda: HttpSmsSender(
            http, url="https://sms.example/send", sender="Pao"
        )
        try:
            phone = new_phone()
            response = await send(client, phone)
        finally:
            app.dependency_overrides.clear()
    assert response.status_code == 502
    assert response.json() == {"message": "OTP_SEND_FAIL"}
    assert len(sent) == 1
    assert await otp_rows(app, phone) == []
    # Nothing was counted: the phone may try again at once.
    assert (await send(client, phone)).status_code == 200


async def test_sms_url_setting_points_the_adapter_elsewhere(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    # A gateway URL that answers 404 (this app has no such path): the setting is honoured.
    app.state.settings.sms_url = "http://test/no-such-gateway"
    try:
        phone = new_phone()
        response = await send(client, phone)
    finally:
        app.state.settings.sms_url = None
    assert (response.status_code, response.json()) == (502, {"message": "OTP_SEND_FAIL"})
    assert await sms_outbox(client, phone) == []


async def test_otp_rows_are_not_left_behind_by_refusals(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    phone = new_phone()
    await send(client, phone)
    await send(client, phone)  # REQUEST_LIMIT_1MIN
    async with app.state.sessionmaker() as s:
        count = (await s.execute(select(func.count()).select_from(OtpRequest))).scalar_one()
    assert count == 1


async def test_sandbox_outbox(client: httpx.AsyncClient) -> None:
    for phone, text in [("0811111111", "one"), ("0822222222", "two"), ("0811111111", "three")]:
        response = await client.post("/sandbox/sms", json={"phone": phone, "text": text})
        assert response.status_code == 200, response.text
    everything = (await client.get("/sandbox/sms")).json()
    assert [m["text"] for m in everything] == ["three", "two", "one"]
    assert set(everything[0]) == {"phone", "text", "createdAt"}
    assert [m["text"] for m in await sms_outbox(client, "0811111111")] == ["three", "one"]
    assert await sms_outbox(client, "0899999999") == []
    empty = await client.post("/sandbox/sms", json={"phone": "0811111111", "text": ""})
    assert empty.status_code == 422
