"""Changing who a member is or where their money goes: a token alone is not enough (the
password is asked again and wrong ones are throttled), every change is recorded with where it
came from, and a bank change is announced by SMS to the registered phone."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import delete, select, update
from sqlalchemy.exc import DBAPIError

from pao.identity.models import Member, MemberChange, MemberChangeKind
from pao.identity.service import create_member
from pao.identity.sms import get_sms_sender
from pao.kit.clock import utcnow
from tests.helpers import (
    DEFAULT_PASSWORD,
    auth,
    login,
    new_bank_account_no,
    new_phone,
    register_and_login,
    sms_outbox,
)

CLIENT_IP = "203.0.113.9"
USER_AGENT = "pao-test/2.0"


@pytest.fixture
async def remote(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    """A client at a public address, with a user agent."""
    transport = httpx.ASGITransport(app=app, client=(CLIENT_IP, 1234))
    async with httpx.AsyncClient(
        transport=transport, base_url="http://test", headers={"User-Agent": USER_AGENT}
    ) as c:
        yield c


async def load_member(app: FastAPI, phone: str) -> Member:
    async with app.state.sessionmaker() as s:
        member: Member = (await s.execute(select(Member).where(Member.phone == phone))).scalar_one()
        return member


async def changes_of(app: FastAPI, phone: str) -> list[MemberChange]:
    member = await load_member(app, phone)
    async with app.state.sessionmaker() as s:
        query = (
            select(MemberChange)
            .where(MemberChange.member_id == member.id)
            .order_by(MemberChange.id)
        )
        return list((await s.execute(query)).scalars())


async def legacy_member(app: FastAPI, *, bank_code: str = "KTB") -> str:
    """A member whose KTB/TMB/BBL account name predates the English-only rule."""
    phone = new_phone()
    async with app.state.sessionmaker() as s:
        await create_member(
            s,
            phone=phone,
            name="Legacy",
            password=DEFAULT_PASSWORD,
            bank_code=bank_code,
            bank_account_name="สมชาย ใจดี",
            bank_account_no=new_bank_account_no(),
        )
        await s.commit()
    return phone


def profile_body(account_no: str, **extra: Any) -> dict[str, Any]:
    return {
        "name": "Thief",
        "bankCode": "KTB",
        "bankAccountName": "THIEF",
        "bankAccountNo": account_no,
        **extra,
    }


def bank_name_body(**extra: Any) -> dict[str, Any]:
    return {"bankCode": "KTB", "bankAccountName": "SOMCHAI JAIDEE", **extra}


def bank_of(member: Member) -> tuple[str, str, str, str]:
    return (member.name, member.bank_code, member.bank_account_no, member.bank_account_name)


async def bank_change_sms(client: httpx.AsyncClient, phone: str) -> list[str]:
    return [m["text"] for m in await sms_outbox(client, phone) if "bank account" in m["text"]]


@pytest.mark.parametrize(
    ("extra", "status", "body"),
    [
        ({}, 422, {"message": "KEY_MISSING", "field": "password"}),
        ({"password": ""}, 422, {"message": "KEY_MISSING", "field": "password"}),
        ({"password": "not-the-password"}, 400, {"message": "WRONG_PASSWORD"}),
    ],
)
async def test_a_token_alone_cannot_change_the_bank(
    client: httpx.AsyncClient,
    app: FastAPI,
    extra: dict[str, str],
    status: int,
    body: dict[str, str],
) -> None:
    phone, token = await register_and_login(client)
    legacy = await legacy_member(app)
    legacy_token = await login(client, legacy)
    before = bank_of(await load_member(app, phone))
    legacy_before = bank_of(await load_member(app, legacy))

    response = await client.put(
        "/api/account/profile",
        json=profile_body(new_bank_account_no(), **extra),
        headers=auth(token),
    )
    assert (response.status_code, response.json()) == (status, body)
    response = await client.put(
        "/api/account/bankAccountName", json=bank_name_body(**extra), headers=auth(legacy_token)
    )
    assert (response.status_code, response.json()) == (status, body)

    assert bank_of(await load_member(app, phone)) == before
    assert bank_of(await load_member(app, legacy)) == legacy_before
    for who in (phone, legacy):
        assert await changes_of(app, who) == []
        assert await bank_change_sms(client, who) == []


async def test_the_password_changes_the_bank_and_the_change_is_recorded(
    client: httpx.AsyncClient, remote: httpx.AsyncClient, app: FastAPI
) -> None:
    old_account = new_bank_account_no()
    phone, token = await register_and_login(
        client, name="Somchai", bank_code="SCB", bank_account_no=old_account
    )
    new_account = new_bank_account_no()
    body = profile_body(new_account, password=DEFAULT_PASSWORD)
    response = await remote.put("/api/account/profile", json=body, headers=auth(token))
    assert response.status_code == 200, response.text
    assert response.json()["bankAccount"]["bankAccountNo"] == new_account
    assert bank_of(await load_member(app, phone)) == ("Thief", "KTB", new_account, "THIEF")

    changes = await changes_of(app, phone)
    assert [(c.kind, c.old_value, c.new_value) for c in changes] == [
        (MemberChangeKind.NAME, "Somchai", "Thief"),
        (MemberChangeKind.BANK_ACCOUNT, f"SCB {old_account}", f"KTB {new_account}"),
        (MemberChangeKind.BANK_ACCOUNT_NAME, "TEST MEMBER", "THIEF"),
    ]
    assert {(c.ip, c.user_agent) for c in changes} == {(CLIENT_IP, USER_AGENT)}
    assert all(abs((utcnow() - c.created_at).total_seconds()) < 60 for c in changes)

    # The owner hears of it on the registered phone.
    [text] = await bank_change_sms(client, phone)
    assert f"KTB xxxxxx{new_account[-4:]}" in text
    assert new_account not in text

    # Saving the same values again changes nothing, so nothing is recorded or announced.
    again = await remote.put("/api/account/profile", json=body, headers=auth(token))
    assert again.status_code == 200, again.text
    assert len(await changes_of(app, phone)) == 3
    assert len(await bank_change_sms(client, phone)) == 1


async def test_a_name_change_alone_is_recorded_but_not_announced(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    account = new_bank_account_no()
    phone, token = await register_and_login(client, bank_code="KBANK", bank_account_no=account)
    body = {
        "name": "Another Name",
        "bankCode": "KBANK",
        "bankAccountName": "TEST MEMBER",
        "bankAccountNo": account,
        "password": DEFAULT_PASSWORD,
    }
    response = await client.put("/api/account/profile", json=body, headers=auth(token))
    assert response.status_code == 200, response.text
    [change] = await changes_of(app, phone)
    assert (change.kind, change.new_value, change.ip) == (
        MemberChangeKind.NAME,
        "Another Name",
        "127.0.0.1",
    )
    assert await bank_change_sms(client, phone) == []


async def test_the_account_name_fix_needs_the_password_and_is_recorded(
    client: httpx.AsyncClient, remote: httpx.AsyncClient, app: FastAPI
) -> None:
    phone = await legacy_member(app, bank_code="BBL")
    token = await login(client, phone)
    body = {"bankCode": "BBL", "bankAccountName": "somchai jaidee", "password": DEFAULT_PASSWORD}
    response = await remote.put("/api/account/bankAccountName", json=body, headers=auth(token))
    assert response.status_code == 200, response.text
    [change] = await changes_of(app, phone)
    assert (change.kind, change.old_value, change.new_value, change.ip, change.user_agent) == (
        MemberChangeKind.BANK_ACCOUNT_NAME,
        "สมชาย ใจดี",
        "SOMCHAI JAIDEE",
        CLIENT_IP,
        USER_AGENT,
    )
    assert len(await bank_change_sms(client, phone)) == 1


async def test_a_password_change_is_recorded_without_the_password(
    client: httpx.AsyncClient, remote: httpx.AsyncClient, app: FastAPI
) -> None:
    phone, token = await register_and_login(client)
    body = {"oldPassword": DEFAULT_PASSWORD, "newPassword": "n3w-secret"}
    response = await remote.put("/api/account/changepwd", json=body, headers=auth(token))
    assert response.status_code == 200, response.text
    [change] = await changes_of(app, phone)
    assert (change.kind, change.old_value, change.new_value, change.ip, change.user_agent) == (
        MemberChangeKind.PASSWORD,
        None,
        None,
        CLIENT_IP,
        USER_AGENT,
    )
    # A refused change is not recorded.
    token = await login(client, phone, "n3w-secret")
    wrong = {"oldPassword": "guess", "newPassword": "whatever1"}
    response = await client.put("/api/account/changepwd", json=wrong, headers=auth(token))
    assert response.json() == {"message": "WRONG_PASSWORD"}
    assert len(await changes_of(app, phone)) == 1


async def test_wrong_passwords_on_the_profile_are_throttled(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    phone, token = await register_and_login(client)
    before = bank_of(await load_member(app, phone))
    for _ in range(5):  # loginFailuresPerPhone defaults to 5
        body = profile_body(new_bank_account_no(), password="guess")
        response = await client.put("/api/account/profile", json=body, headers=auth(token))
        assert response.json() == {"message": "WRONG_PASSWORD"}
    # Now even the right password is refused, on every route that asks for it.
    right = profile_body(new_bank_account_no(), password=DEFAULT_PASSWORD)
    response = await client.put("/api/account/profile", json=right, headers=auth(token))
    assert (response.status_code, response.json()) == (429, {"message": "REQUEST_LIMIT"})
    pwd = {"oldPassword": DEFAULT_PASSWORD, "newPassword": "whatever1"}
    response = await client.put("/api/account/changepwd", json=pwd, headers=auth(token))
    assert (response.status_code, response.json()) == (429, {"message": "REQUEST_LIMIT"})
    assert bank_of(await load_member(app, phone)) == before


async def test_the_counter_is_shared_with_the_password_change(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    phone = await legacy_member(app)
    token = await login(client, phone)
    wrong_pwd = {"oldPassword": "guess", "newPassword": "whatever1"}
    for _ in range(3):
        response = await client.put("/api/account/changepwd", json=wrong_pwd, headers=auth(token))
        assert response.json() == {"message": "WRONG_PASSWORD"}
    for _ in range(2):
        response = await client.put(
            "/api/account/bankAccountName",
            json=bank_name_body(password="guess"),
            headers=auth(token),
        )
        assert response.json() == {"message": "WRONG_PASSWORD"}
    response = await client.put(
        "/api/account/bankAccountName",
        json=bank_name_body(password=DEFAULT_PASSWORD),
        headers=auth(token),
    )
    assert (response.status_code, response.json()) == (429, {"message": "REQUEST_LIMIT"})


class BrokenSms:
    async def send(self, *, phone: str, text: str) -> None:
        raise RuntimeError("gateway down")


async def test_a_failed_sms_does_not_undo_the_change(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    phone, token = await register_and_login(client)
    app.dependency_overrides[get_sms_sender] = BrokenSms
    try:
        account = new_bank_account_no()
        body = profile_body(account, password=DEFAULT_PASSWORD)
        response = await client.put("/api/account/profile", json=body, headers=auth(token))
    finally:
        app.dependency_overrides.clear()
    assert response.status_code == 200, response.text
    assert (await load_member(app, phone)).bank_account_no == account
    assert len(await changes_of(app, phone)) == 3


async def test_the_record_is_append_only(client: httpx.AsyncClient, app: FastAPI) -> None:
    phone, token = await register_and_login(client)
    body = profile_body(new_bank_account_no(), password=DEFAULT_PASSWORD)
    assert (
        await client.put("/api/account/profile", json=body, headers=auth(token))
    ).status_code == 200
    for statement in (
        update(MemberChange).values(new_value="SCB 0000000000"),
        delete(MemberChange),
    ):
        async with app.state.sessionmaker() as s:
            with pytest.raises(DBAPIError, match="append-only"):
                await s.execute(statement)
    assert len(await changes_of(app, phone)) == 3
