"""Identity under real concurrency, on both databases: racing registrations, OTP sends and
wrong OTP guesses. Exactly one winner, and nothing counted twice or lost."""

from __future__ import annotations

import asyncio
from collections import Counter

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import ColumnElement, func, select

from pao.identity.models import Member, OtpRequest, OtpStatus
from tests.helpers import (
    latest_otp_code,
    new_bank_account_no,
    new_phone,
    registration_payload,
    set_site_setting,
    sms_outbox,
)

# Also on SQLite (tests/databases.py): concurrent registrations under SQLite's write lock.
pytestmark = pytest.mark.sqlite

RACERS = 10


async def count(app: FastAPI, where: ColumnElement[bool]) -> int:
    async with app.state.sessionmaker() as s:
        query = select(func.count()).select_from(Member).where(where)
        return int((await s.execute(query)).scalar_one())


async def test_concurrent_registrations_of_one_phone(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    await set_site_setting(client, "registerOTP", False)
    phone = new_phone()
    bodies = [
        registration_payload(phone=phone, bank_account_no=new_bank_account_no())
        for _ in range(RACERS)
    ]
    responses = await asyncio.gather(*(client.post("/api/account", json=b) for b in bodies))
    outcomes = Counter(
        (r.status_code, r.json().get("message", r.json().get("code"))) for r in responses
    )
    assert outcomes == {(201, "OK"): 1, (409, "EXISTING_USER"): RACERS - 1}
    assert await count(app, Member.phone == phone) == 1


async def test_concurrent_registrations_of_one_bank_account(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    await set_site_setting(client, "registerOTP", False)
    account_no = new_bank_account_no()
    bodies = [
        registration_payload(phone=new_phone(), bank_account_no=account_no) for _ in range(RACERS)
    ]
    responses = await asyncio.gather(*(client.post("/api/account", json=b) for b in bodies))
    outcomes = Counter(r.status_code for r in responses)
    assert outcomes == {201: 1, 409: RACERS - 1}
    assert {r.json()["message"] for r in responses if r.status_code == 409} == {"EXISTING_BANK"}
    assert await count(app, Member.bank_account_no == account_no) == 1


async def test_concurrent_otp_sends_to_one_phone(client: httpx.AsyncClient, app: FastAPI) -> None:
    phone = new_phone()
    responses = await asyncio.gather(
        *(client.post("/api/otp/send", json={"phoneNumber": phone}) for _ in range(RACERS))
    )
    outcomes = Counter(
        (r.status_code, r.json().get("code") or r.json().get("message")) for r in responses
    )
    assert outcomes == {(200, "OK"): 1, (429, "REQUEST_LIMIT_1MIN"): RACERS - 1}
    assert len(await sms_outbox(client, phone)) == 1
    async with app.state.sessionmaker() as s:
        rows = (await s.execute(select(OtpRequest).where(OtpRequest.phone == phone))).scalars()
        assert len(list(rows)) == 1


async def test_concurrent_wrong_guesses_are_all_counted(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    phone = new_phone()
    token = (await client.post("/api/otp/send", json={"phoneNumber": phone})).json()["otpToken"]
    code = await latest_otp_code(client, phone)
    wrong = f"{(int(code) + 1) % 1_000_000:06d}"
    responses = await asyncio.gather(
        *(
            client.post("/api/otp/verify", json={"otpToken": token, "otpCode": wrong})
            for _ in range(RACERS)
        )
    )
    outcomes = Counter(r.json()["message"] for r in responses)
    # Four counted misses, the fifth burns the code, the rest find it burned.
    assert outcomes == {"OTP_CODE_INVALID": 4, "OTP_BLOCK": RACERS - 4}
    async with app.state.sessionmaker() as s:
        otp = (await s.execute(select(OtpRequest).where(OtpRequest.phone == phone))).scalar_one()
    assert (otp.status, otp.wrong_attempts) == (OtpStatus.BURNED, 5)
