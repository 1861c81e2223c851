"""Registration (spec §3, §4, §5): POST /api/account/validate and POST /api/account."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import func, select

from pao.identity.models import Member, OtpRequest, OtpStatus
from pao.identity.otp import VERIFIED_TTL
from pao.kit.clock import clock
from pao.kit.money import Currency
from pao.kit.states import StatusChange
from pao.ledger.models import AccountKind, LedgerAccount
from tests.helpers import (
    new_bank_account_no,
    new_phone,
    register,
    registration_payload,
    set_site_setting,
    verify_phone,
)

ENDPOINTS = ["/api/account/validate", "/api/account"]


@pytest.fixture
async def otp_off(client: httpx.AsyncClient) -> None:
    await set_site_setting(client, "registerOTP", False)


async def member_by_phone(app: FastAPI, phone: str) -> Member | None:
    async with app.state.sessionmaker() as s:
        query = select(Member).where(Member.phone == phone)
        member: Member | None = (await s.execute(query)).scalar_one_or_none()
        return member


async def member_count(app: FastAPI) -> int:
    async with app.state.sessionmaker() as s:
        return int((await s.execute(select(func.count()).select_from(Member))).scalar_one())


async def refused(client: httpx.AsyncClient, body: dict[str, Any], status: int, code: str) -> None:
    """Both endpoints refuse ``body`` with ``code``."""
    for path in ENDPOINTS:
        response = await client.post(path, json=body)
        assert response.status_code == status, (path, response.text)
        assert response.json()["message"] == code, (path, response.text)


@pytest.mark.usefixtures("otp_off")
async def test_register_creates_the_member_and_an_empty_wallet(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    phone = new_phone()
    body = registration_payload(
        phone=f" {phone} ",
        name="  Somchai Jaidee ",
        bank_account_name="  somchai   jaidee ",
        bank_account_no="123-456-7890",
        sourceCode="FACEBOOK",
    )
    response = await client.post("/api/account", json=body)
    assert response.status_code == 201, response.text
    assert response.json() == {"code": "OK"}

    member = await member_by_phone(app, phone)
    assert member is not None
    assert member.name == "Somchai Jaidee"
    assert member.bank_account_name == "SOMCHAI JAIDEE"
    assert member.bank_account_no == "1234567890"
    assert member.bank_code == "KBANK"
    assert member.source_code == "FACEBOOK"
    assert member.inviter_id is None
    assert member.currency == Currency.THB
    assert member.password_hash.startswith("$argon2id$")
    assert "secret123" not in member.password_hash
    async with app.state.sessionmaker() as s:
        wallet = (
            await s.execute(
                select(LedgerAccount).where(
                    LedgerAccount.kind == AccountKind.PLAYER_WALLET,
                    LedgerAccount.owner == str(member.id),
                )
            )
        ).scalar_one()
    assert wallet.currency == Currency.THB
    assert wallet.balance == 0


@pytest.mark.usefixtures("otp_off")
async def test_validate_accepts_without_creating(client: httpx.AsyncClient, app: FastAPI) -> None:
    response = await client.post(
        "/api/account/validate", json=registration_payload(phone=new_phone())
    )
    assert response.status_code == 200, response.text
    assert response.json() == {"code": "OK"}
    assert await member_count(app) == 0


BANK_FIELDS = ("bankCode", "bankAccountName", "bankAccountNo")


@pytest.mark.usefixtures("otp_off")
async def test_validate_checks_step_three_before_bank_data(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    """The wizard validates name/phone/password/inviter before the member enters bank data."""
    step_three = {
        k: v for k, v in registration_payload(phone=new_phone()).items() if k not in BANK_FIELDS
    }
    response = await client.post("/api/account/validate", json=step_three)
    assert response.status_code == 200, response.text
    taken = await register(client)
    response = await client.post("/api/account/validate", json={**step_three, "username": taken})
    assert response.json()["message"] == "EXISTING_USER"
    response = await client.post(
        "/api/account/validate", json={**step_three, "inviteCode": "PR999999"}
    )
    assert response.json()["message"] == "INVALID_USER_INFO"
    # Registering for real still needs every bank field.
    response = await client.post("/api/account", json=step_three)
    assert response.status_code == 422
    assert response.json() == {"message": "KEY_MISSING", "field": "bankCode"}
    assert await member_count(app) == 1


@pytest.mark.usefixtures("otp_off")
@pytest.mark.parametrize(
    "field", ["name", "username", "password", "bankCode", "bankAccountName", "bankAccountNo"]
)
async def test_required_fields(client: httpx.AsyncClient, app: FastAPI, field: str) -> None:
    body = registration_payload(phone=new_phone())
    absent = {k: v for k, v in body.items() if k != field}
    for path in ENDPOINTS:
        response = await client.post(path, json=absent)
        assert response.status_code == 422, response.text
        assert response.json() == {"message": "KEY_MISSING", "field": field}
        blank = {**body, field: "   " if field != "password" else ""}
        response = await client.post(path, json=blank)
        assert response.status_code == 422, response.text
        assert response.json() == {"message": "KEY_MISSING", "field": field}
    assert await member_count(app) == 0


@pytest.mark.usefixtures("otp_off")
@pytest.mark.parametrize(
    "phone",
    ["081234567", "08123456789", "08-1234567", "08123456ab", "０８１２３４５６７８", "+668123456"],
)
async def test_phone_must_be_ten_digits(client: httpx.AsyncClient, phone: str) -> None:
    await refused(client, registration_payload(phone=phone), 400, "PHONE_NUMBER_REQUIRE_10_DIGIT")


@pytest.mark.usefixtures("otp_off")
async def test_password_of_at_least_six_characters(client: httpx.AsyncClient) -> None:
    await refused(
        client, registration_payload(phone=new_phone(), password="12345"), 400, "INVALID_USER_INFO"
    )
    response = await client.post(
        "/api/account", json=registration_payload(phone=new_phone(), password="123456")
    )
    assert response.status_code == 201, response.text


@pytest.mark.usefixtures("otp_off")
@pytest.mark.parametrize(
    ("bank_code", "account_no"),
    [
        ("NOPE", "1234567890"),
        ("KBANK", "123456789"),  # 9 digits
        ("KBANK", "1234567890123456"),  # 16 digits
        ("KBANK", "12345abcde"),
        ("KBANK", "１２３４５６７８９０"),  # full-width digits
    ],
)
async def test_invalid_bank(client: httpx.AsyncClient, bank_code: str, account_no: str) -> None:
    body = registration_payload(phone=new_phone(), bank_code=bank_code, bank_account_no=account_no)
    await refused(client, body, 400, "INVALID_BANK")


@pytest.mark.usefixtures("otp_off")
async def test_bank_code_is_case_insensitive(client: httpx.AsyncClient, app: FastAPI) -> None:
    phone = new_phone()
    body = registration_payload(phone=phone, bank_code="scb", bank_account_no="123456789012345")
    assert (await client.post("/api/account", json=body)).status_code == 201
    member = await member_by_phone(app, phone)
    assert member is not None
    assert (member.bank_code, member.bank_account_no) == ("SCB", "123456789012345")


@pytest.mark.usefixtures("otp_off")
@pytest.mark.parametrize("bank_code", ["KTB", "TMB", "BBL"])
async def test_english_account_name_for_ktb_tmb_bbl(
    client: httpx.AsyncClient, app: FastAPI, bank_code: str
) -> None:
    for name in ["สมชาย ใจดี", "SOMCHAI 2", "O'NEIL SMITH", "JOHN-SMITH"]:
        body = registration_payload(phone=new_phone(), bank_code=bank_code, bank_account_name=name)
        await refused(client, body, 400, "BANK_ACCOUNT_NAME_ENG")
    phone = new_phone()
    body = registration_payload(phone=phone, bank_code=bank_code, bank_account_name=" john  Smith ")
    assert (await client.post("/api/account", json=body)).status_code == 201
    member = await member_by_phone(app, phone)
    assert member is not None
    assert member.bank_account_name == "JOHN SMITH"


@pytest.mark.usefixtures("otp_off")
async def test_other_banks_take_thai_names(client: httpx.AsyncClient, app: FastAPI) -> None:
    phone = new_phone()
    body = registration_payload(phone=phone, bank_code="KBANK", bank_account_name="สมชาย ใจดี")
    assert (await client.post("/api/account", json=body)).status_code == 201
    member = await member_by_phone(app, phone)
    assert member is not None
    assert member.bank_account_name == "สมชาย ใจดี"


@pytest.mark.usefixtures("otp_off")
async def test_existing_phone_and_existing_bank_account(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    phone, account_no = new_phone(), new_bank_account_no()
    first = registration_payload(phone=phone, bank_account_no=account_no)
    assert (await client.post("/api/account", json=first)).status_code == 201

    await refused(client, registration_payload(phone=phone), 409, "EXISTING_USER")
    same_account = registration_payload(phone=new_phone(), bank_account_no=account_no)
    await refused(client, same_account, 409, "EXISTING_BANK")
    # The same number at another bank is another account.
    other_bank = registration_payload(
        phone=new_phone(), bank_code="SCB", bank_account_no=account_no
    )
    assert (await client.post("/api/account", json=other_bank)).status_code == 201
    assert await member_count(app) == 2


@pytest.mark.usefixtures("otp_off")
async def test_inviter_code_is_recorded(client: httpx.AsyncClient, app: FastAPI) -> None:
    inviter_phone = await register(client)
    inviter = await member_by_phone(app, inviter_phone)
    assert inviter is not None

    for code in [f"PR{inviter.id}", f"pr{inviter.id}"]:
        phone = new_phone()
        response = await client.post(
            "/api/account", json=registration_payload(phone=phone, inviteCode=code)
        )
        assert response.status_code == 201, response.text
        member = await member_by_phone(app, phone)
        assert member is not None
        assert member.inviter_id == inviter.id

    for bad in ["PR999999", "PR0", "XX1", "PR", "PR1a", "1"]:
        await refused(
            client,
            registration_payload(phone=new_phone(), inviteCode=bad),
            400,
            "INVALID_USER_INFO",
        )
    # Blank means "no inviter".
    phone = new_phone()
    response = await client.post(
        "/api/account", json=registration_payload(phone=phone, inviteCode=" ")
    )
    assert response.status_code == 201, response.text


@pytest.mark.usefixtures("otp_off")
async def test_wrong_types_and_oversized_fields_are_key_invalid(client: httpx.AsyncClient) -> None:
    overrides: list[dict[str, Any]] = [
        {"bankAccountNo": 1234567890},
        {"name": "x" * 101},
        {"password": "p" * 129},
        {"currency": "USD"},
    ]
    for override in overrides:
        body = {**registration_payload(phone=new_phone()), **override}
        response = await client.post("/api/account", json=body)
        assert response.status_code == 422, response.text
        assert response.json()["message"] == "KEY_INVALID"


@pytest.mark.usefixtures("otp_off")
async def test_currency_is_ignored_outside_lao_mode(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    phone = new_phone()
    body = registration_payload(phone=phone, currency="LAK")
    assert (await client.post("/api/account", json=body)).status_code == 201
    member = await member_by_phone(app, phone)
    assert member is not None
    assert member.currency == Currency.THB


async def test_registration_otp_is_required_when_on(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    # registerOTP defaults to on.
    phone = new_phone()
    await refused(client, registration_payload(phone=phone), 400, "UNVERIFIED_OTP")

    # A sent but unverified OTP is not enough either.
    sent = await client.post("/api/otp/send", json={"phoneNumber": phone})
    assert sent.status_code == 200, sent.text
    body = registration_payload(phone=phone, otpToken=sent.json()["otpToken"])
    await refused(client, body, 400, "UNVERIFIED_OTP")
    assert await member_count(app) == 0


async def test_verified_otp_registers_once_and_is_consumed(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    phone = new_phone()
    token = await verify_phone(client, phone)
    body = registration_payload(phone=phone, otpToken=token)
    validated = await client.post("/api/account/validate", json=body)
    assert validated.status_code == 200, validated.text
    created = await client.post("/api/account", json=body)
    assert created.status_code == 201, created.text

    async with app.state.sessionmaker() as s:
        otp = (await s.execute(select(OtpRequest).where(OtpRequest.phone == phone))).scalar_one()
        assert otp.status == OtpStatus.CONSUMED
        assert otp.consumed_at is not None
        changes = (
            (await s.execute(select(StatusChange).where(StatusChange.entity == "otp_requests")))
            .scalars()
            .all()
        )
        assert [(c.from_status, c.to_status) for c in changes] == [
            ("PENDING", "VERIFIED"),
            ("VERIFIED", "CONSUMED"),
        ]
    # The phone is taken now; its OTP cannot be used for anything else.
    assert (await client.post("/api/account", json=body)).json()["message"] == "EXISTING_USER"


async def test_without_token_any_verified_otp_of_the_phone_counts(
    client: httpx.AsyncClient,
) -> None:
    phone = new_phone()
    await verify_phone(client, phone)
    response = await client.post("/api/account", json=registration_payload(phone=phone))
    assert response.status_code == 201, response.text


async def test_a_token_must_belong_to_the_phone(client: httpx.AsyncClient) -> None:
    verified_phone = new_phone()
    token = await verify_phone(client, verified_phone)
    # Another phone cannot ride on that verification.
    body = registration_payload(phone=new_phone(), otpToken=token)
    await refused(client, body, 400, "UNVERIFIED_OTP")
    # And a phone's verification does not accept someone else's (or a made-up) token.
    body = registration_payload(phone=verified_phone, otpToken="x" * 43)
    await refused(client, body, 400, "UNVERIFIED_OTP")


async def test_verified_otp_expires_for_registration(client: httpx.AsyncClient) -> None:
    phone = new_phone()
    token = await verify_phone(client, phone)
    clock.advance(VERIFIED_TTL + timedelta(seconds=1))
    body = registration_payload(phone=phone, otpToken=token)
    await refused(client, body, 400, "UNVERIFIED_OTP")
