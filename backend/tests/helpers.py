"""Helpers for API tests of every domain: members, tokens, site settings, the SMS outbox.

Typical use::

    from tests.helpers import auth, register_and_login

    async def test_something(client: httpx.AsyncClient) -> None:
        phone, token = await register_and_login(client)
        response = await client.get("/api/wallet", headers=auth(token))

Everything goes through the public API (like a real client) except
:func:`set_site_setting`, which writes an operator setting straight into the app's database
(there is no operator API for settings). The ``client`` must be the conftest ``client``
fixture (or any ``httpx.AsyncClient`` over ``httpx.ASGITransport(app=...)``): the helpers
reach the app through that transport.
"""

from __future__ import annotations

import itertools
import re
import secrets
from typing import Any, cast

import httpx
from fastapi import FastAPI

from pao.site.settings import load_site_settings, set_value

DEFAULT_PASSWORD = "secret123"
DEFAULT_NAME = "Test Member"
DEFAULT_BANK_ACCOUNT_NAME = "TEST MEMBER"

_serial = itertools.count(1)
# Pao's own text ("Pao OTP 123456 …") or ThaiBulkSMS's ("TBS Code: 123456 …").
OTP_IN_TEXT = re.compile(r"(?:OTP|Code:) (\d{6})")


def auth(token: str) -> dict[str, str]:
    """The headers of an authenticated call."""
    return {"Authorization": f"Bearer {token}"}


def new_phone() -> str:
    """A 10-digit phone number not used before in this test run."""
    return f"09{next(_serial) % 10_000:04d}{secrets.randbelow(10_000):04d}"


def new_bank_account_no() -> str:
    """A 10-digit bank account number, unique enough for one test database."""
    return f"{next(_serial) % 100_000:05d}{secrets.randbelow(100_000):05d}"


class ServedClient(httpx.AsyncClient):
    """A client of a real ``pao serve`` over a socket, with an app of the same settings beside
    it for arranging and asserting on the same database (``app_of`` returns it)."""

    def __init__(self, app: FastAPI, base_url: str) -> None:
        super().__init__(base_url=base_url, timeout=30)
        self.app = app


def app_of(client: httpx.AsyncClient) -> FastAPI:
    """The app behind an in-process test client (or beside a served one)."""
    if isinstance(client, ServedClient):
        return client.app
    transport = client._transport
    assert isinstance(transport, httpx.ASGITransport), "needs a client over ASGITransport"
    return cast(FastAPI, transport.app)


async def set_site_setting(
    app_or_client: FastAPI | httpx.AsyncClient, key: str, value: Any
) -> None:
    """Write an operator setting (key as stored, e.g. ``"registerOTP"``) and commit."""
    app = app_of(app_or_client) if isinstance(app_or_client, httpx.AsyncClient) else app_or_client
    async with app.state.sessionmaker() as session:
        await set_value(session, key, value, actor="test")
        await session.commit()


async def set_money_setting(
    app_or_client: FastAPI | httpx.AsyncClient, key: str, **amounts: int | None
) -> None:
    """Write a money setting's amounts (minor units) for the currencies named, e.g.
    ``set_money_setting(client, "withdrawMax", THB=500_00)``; the others keep theirs."""
    app = app_or_client if isinstance(app_or_client, FastAPI) else app_of(app_or_client)
    async with app.state.sessionmaker() as session:
        stored = (await load_site_settings(session)).model_dump(mode="json", by_alias=True)
        await set_value(session, key, {**stored[key], **amounts}, actor="test")
        await session.commit()


async def sms_outbox(client: httpx.AsyncClient, phone: str) -> list[dict[str, Any]]:
    """The sandbox SMS outbox for ``phone``, newest first: ``[{phone, text, createdAt}]``."""
    response = await client.get("/sandbox/sms", params={"phone": phone})
    assert response.status_code == 200, response.text
    messages: list[dict[str, Any]] = response.json()
    return messages


async def latest_otp_code(client: httpx.AsyncClient, phone: str) -> str:
    """The 6-digit code of the newest OTP SMS sent to ``phone``."""
    for message in await sms_outbox(client, phone):
        match = OTP_IN_TEXT.search(message["text"])
        if match:
            return match.group(1)
    raise AssertionError(f"no OTP SMS for {phone}")


async def verify_phone(client: httpx.AsyncClient, phone: str) -> str:
    """Send an OTP to ``phone``, read it from the sandbox outbox, verify it; returns otpToken.

    Each call sends a real (sandbox) SMS, so the OTP throttles apply: one per phone per
    minute, and the daily caps per phone and per client IP.
    """
    sent = await client.post("/api/otp/send", json={"phoneNumber": phone})
    assert sent.status_code == 200, sent.text
    assert sent.json()["code"] == "OK", sent.text
    token: str = sent.json()["otpToken"]
    code = await latest_otp_code(client, phone)
    verified = await client.post("/api/otp/verify", json={"otpToken": token, "otpCode": code})
    assert verified.status_code == 200, verified.text
    return token


def registration_payload(
    *,
    phone: str,
    password: str = DEFAULT_PASSWORD,
    name: str = DEFAULT_NAME,
    bank_code: str = "KBANK",
    bank_account_name: str = DEFAULT_BANK_ACCOUNT_NAME,
    bank_account_no: str | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """A valid ``POST /api/account`` body; ``extra`` adds or overrides wire fields."""
    return {
        "name": name,
        "username": phone,
        "password": password,
        "bankCode": bank_code,
        "bankAccountName": bank_account_name,
        "bankAccountNo": bank_account_no or new_bank_account_no(),
        "sourceCode": None,
        "inviteCode": None,
        **extra,
    }


async def register(
    client: httpx.AsyncClient,
    *,
    phone: str | None = None,
    password: str = DEFAULT_PASSWORD,
    name: str = DEFAULT_NAME,
    bank_code: str = "KBANK",
    bank_account_name: str = DEFAULT_BANK_ACCOUNT_NAME,
    bank_account_no: str | None = None,
    invite_code: str | None = None,
    via_otp: bool = False,
) -> str:
    """Register a member through the API; returns the phone.

    ``via_otp=False`` (the default) switches the operator setting ``registerOTP`` *off* for
    the test's app first, so any number of members can be registered without the OTP
    throttles. ``via_otp=True`` leaves the setting alone and verifies the phone through
    ``/api/otp/send``, the sandbox outbox and ``/api/otp/verify``.
    """
    phone = phone or new_phone()
    extra: dict[str, Any] = {"inviteCode": invite_code}
    if via_otp:
        extra["otpToken"] = await verify_phone(client, phone)
    else:
        await set_site_setting(client, "registerOTP", False)
    body = registration_payload(
        phone=phone,
        password=password,
        name=name,
        bank_code=bank_code,
        bank_account_name=bank_account_name,
        bank_account_no=bank_account_no,
        **extra,
    )
    response = await client.post("/api/account", json=body)
    assert response.status_code == 201, response.text
    return phone


async def login(client: httpx.AsyncClient, phone: str, password: str = DEFAULT_PASSWORD) -> str:
    """Log in; returns the bearer token."""
    response = await client.post("/api/login", json={"username": phone, "password": password})
    assert response.status_code == 200, response.text
    token: str = response.json()["token"]
    return token


async def member_id(client: httpx.AsyncClient, token: str) -> int:
    """The id of the member behind ``token`` (from the profile)."""
    response = await client.get("/api/account/profile", headers=auth(token))
    assert response.status_code == 200, response.text
    return int(response.json()["profile"]["_id"])


async def register_and_login(
    client: httpx.AsyncClient,
    *,
    phone: str | None = None,
    password: str = DEFAULT_PASSWORD,
    name: str = DEFAULT_NAME,
    bank_code: str = "KBANK",
    bank_account_name: str = DEFAULT_BANK_ACCOUNT_NAME,
    bank_account_no: str | None = None,
    invite_code: str | None = None,
    via_otp: bool = False,
) -> tuple[str, str]:
    """Register a fresh member and log in; returns ``(phone, token)``.

    See :func:`register` for ``via_otp`` (by default ``registerOTP`` is switched off).
    The member's wallet exists (empty) afterwards; fund it through the ledger.
    """
    phone = await register(
        client,
        phone=phone,
        password=password,
        name=name,
        bank_code=bank_code,
        bank_account_name=bank_account_name,
        bank_account_no=bank_account_no,
        invite_code=invite_code,
        via_otp=via_otp,
    )
    return phone, await login(client, phone, password)
