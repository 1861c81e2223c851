"""The member's own account: profile, bank account (name), password, agreement."""

from __future__ import annotations

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import select

from pao.identity.models import LoginSession, Member
from pao.identity.service import create_member
from pao.kit.clock import utcnow
from tests.helpers import (
    auth,
    login,
    member_id,
    new_bank_account_no,
    new_phone,
    register,
    register_and_login,
)

PROTECTED = [
    ("GET", "/api/account/profile"),
    ("PUT", "/api/account/profile"),
    ("PUT", "/api/account/bankAccountName"),
    ("PUT", "/api/account/changepwd"),
    ("GET", "/api/account/agreement"),
    ("PUT", "/api/account/agreement"),
    ("POST", "/api/logout"),
]


async def load_member(app: FastAPI, phone: str) -> Member:
    async with app.state.sessionmaker() as s:
        member: Member = (await s.execute(select(Member).where(Member.phone == phone))).scalar_one()
        return member


async def legacy_member(app: FastAPI, *, bank_code: str, account_name: str) -> str:
    """A member whose bank account name predates the English-only rule (no rule checks)."""
    phone = new_phone()
    async with app.state.sessionmaker() as s:
        await create_member(
            s,
            phone=phone,
            name="Legacy",
            password="secret123",
            bank_code=bank_code,
            bank_account_name=account_name,
            bank_account_no=new_bank_account_no(),
        )
        await s.commit()
    return phone


@pytest.mark.parametrize(("method", "path"), PROTECTED)
async def test_every_account_route_needs_a_token(
    client: httpx.AsyncClient, method: str, path: str
) -> None:
    response = await client.request(method, path, json={})
    assert (response.status_code, response.json()) == (401, {"message": "invalid-token"})


async def test_profile_shape(client: httpx.AsyncClient, app: FastAPI) -> None:
    phone, token = await register_and_login(
        client, name="Somchai", bank_code="SCB", bank_account_no="1112223334"
    )
    member = await load_member(app, phone)
    response = await client.get("/api/account/profile", headers=auth(token))
    assert response.status_code == 200, response.text
    assert response.json() == {
        "profile": {
            "_id": str(member.id),
            "username": phone,
            "name": "Somchai",
            "createdAt": member.created_at.isoformat().replace("+00:00", "Z"),
        },
        "bankAccount": {
            "bank": {"nameTH": "ธนาคารไทยพาณิชย์", "nameEN": "Siam Commercial Bank"},
            "bankAccountName": "TEST MEMBER",
            "bankAccountNo": "1112223334",
            "bankCode": "SCB",
        },
    }


async def test_members_only_see_their_own_profile(client: httpx.AsyncClient) -> None:
    alice_phone, alice = await register_and_login(client, name="Alice")
    bob_phone, bob = await register_and_login(client, name="Bob")
    alice_id = await member_id(client, alice)
    # There is no id parameter: whatever the client adds, the token decides whose data it is.
    for token, phone, name in [(alice, alice_phone, "Alice"), (bob, bob_phone, "Bob")]:
        response = await client.get(
            "/api/account/profile",
            params={"_id": str(alice_id), "id": str(alice_id), "username": alice_phone},
            headers=auth(token),
        )
        profile = response.json()["profile"]
        assert (profile["username"], profile["name"]) == (phone, name)

    # An update with someone else's id in the body changes only the caller.
    body = {
        "_id": str(alice_id),
        "name": "Bob Renamed",
        "bankCode": "KBANK",
        "bankAccountName": "BOB",
        "bankAccountNo": new_bank_account_no(),
        "password": "secret123",
    }
    response = await client.put("/api/account/profile", json=body, headers=auth(bob))
    assert response.status_code == 200, response.text
    assert response.json()["profile"]["username"] == bob_phone
    alice_profile = (await client.get("/api/account/profile", headers=auth(alice))).json()
    assert alice_profile["profile"]["name"] == "Alice"


async def test_update_profile(client: httpx.AsyncClient, app: FastAPI) -> None:
    phone, token = await register_and_login(client)
    body = {
        "name": "  New Name ",
        "bankCode": "ktb",
        "bankAccountName": " new   name ",
        "bankAccountNo": "987-654-3210",
        "password": "secret123",
    }
    response = await client.put("/api/account/profile", json=body, headers=auth(token))
    assert response.status_code == 200, response.text
    assert response.json()["profile"]["name"] == "New Name"
    assert response.json()["bankAccount"] == {
        "bank": {"nameTH": "ธนาคารกรุงไทย", "nameEN": "Krungthai Bank"},
        "bankAccountName": "NEW NAME",
        "bankAccountNo": "9876543210",
        "bankCode": "KTB",
    }
    member = await load_member(app, phone)
    assert (member.name, member.bank_code, member.bank_account_no) == (
        "New Name",
        "KTB",
        "9876543210",
    )
    # Saving the same account again is not a conflict with oneself.
    again = await client.put("/api/account/profile", json=body, headers=auth(token))
    assert again.status_code == 200, again.text


@pytest.mark.parametrize(
    ("override", "status", "code"),
    [
        ({"bankCode": "NOPE"}, 400, "INVALID_BANK"),
        ({"bankAccountNo": "12345"}, 400, "INVALID_BANK"),
        ({"bankCode": "BBL", "bankAccountName": "สมชาย"}, 400, "BANK_ACCOUNT_NAME_ENG"),
        ({"name": " "}, 422, "KEY_MISSING"),
        ({"bankAccountName": ""}, 422, "KEY_MISSING"),
    ],
)
async def test_update_profile_rules(
    client: httpx.AsyncClient, app: FastAPI, override: dict[str, str], status: int, code: str
) -> None:
    phone, token = await register_and_login(client)
    before = await load_member(app, phone)
    body = {
        "name": "Name",
        "bankCode": "KBANK",
        "bankAccountName": "NAME",
        "bankAccountNo": new_bank_account_no(),
        "password": "secret123",
        **override,
    }
    response = await client.put("/api/account/profile", json=body, headers=auth(token))
    assert (response.status_code, response.json()["message"]) == (status, code)
    after = await load_member(app, phone)
    assert (after.name, after.bank_code, after.bank_account_no) == (
        before.name,
        before.bank_code,
        before.bank_account_no,
    )


async def test_update_profile_to_another_members_account(client: httpx.AsyncClient) -> None:
    taken = new_bank_account_no()
    await register(client, bank_code="SCB", bank_account_no=taken)
    _, token = await register_and_login(client)
    body = {
        "name": "X",
        "bankCode": "SCB",
        "bankAccountName": "X",
        "bankAccountNo": taken,
        "password": "secret123",
    }
    response = await client.put("/api/account/profile", json=body, headers=auth(token))
    assert (response.status_code, response.json()) == (409, {"message": "EXISTING_BANK"})


@pytest.mark.parametrize("bank_code", ["KTB", "TMB", "BBL"])
async def test_fix_a_thai_account_name(
    client: httpx.AsyncClient, app: FastAPI, bank_code: str
) -> None:
    phone = await legacy_member(app, bank_code=bank_code, account_name="สมชาย ใจดี")
    token = await login(client, phone)

    thai = {"bankCode": bank_code, "bankAccountName": "สมศักดิ์", "password": "secret123"}
    response = await client.put("/api/account/bankAccountName", json=thai, headers=auth(token))
    assert (response.status_code, response.json()) == (400, {"message": "BANK_ACCOUNT_NAME_ENG"})

    other_bank = {
        "bankCode": "KBANK",
        "bankAccountName": "SOMCHAI JAIDEE",
        "password": "secret123",
    }
    response = await client.put(
        "/api/account/bankAccountName", json=other_bank, headers=auth(token)
    )
    assert (response.status_code, response.json()) == (400, {"message": "INVALID_BANK"})

    english = {
        "bankCode": bank_code.lower(),
        "bankAccountName": " somchai  jaidee ",
        "password": "secret123",
    }
    response = await client.put("/api/account/bankAccountName", json=english, headers=auth(token))
    assert response.status_code == 200, response.text
    assert response.json()["bankAccount"]["bankAccountName"] == "SOMCHAI JAIDEE"
    assert (await load_member(app, phone)).bank_account_name == "SOMCHAI JAIDEE"

    # Once English, the name can no longer be changed this way.
    again = {"bankCode": bank_code, "bankAccountName": "SOMEONE ELSE", "password": "secret123"}
    response = await client.put("/api/account/bankAccountName", json=again, headers=auth(token))
    assert (response.status_code, response.json()) == (400, {"message": "INVALID_BANK"})
    assert (await load_member(app, phone)).bank_account_name == "SOMCHAI JAIDEE"


async def test_bank_account_name_only_for_english_only_banks(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    phone = await legacy_member(app, bank_code="KBANK", account_name="สมชาย ใจดี")
    token = await login(client, phone)
    body = {"bankCode": "KBANK", "bankAccountName": "SOMCHAI", "password": "secret123"}
    response = await client.put("/api/account/bankAccountName", json=body, headers=auth(token))
    assert (response.status_code, response.json()) == (400, {"message": "INVALID_BANK"})
    assert (await load_member(app, phone)).bank_account_name == "สมชาย ใจดี"


async def test_change_password_revokes_every_session(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    phone, first = await register_and_login(client)
    second = await login(client, phone)
    body = {"oldPassword": "secret123", "newPassword": "n3w-secret"}
    response = await client.put("/api/account/changepwd", json=body, headers=auth(first))
    assert response.status_code == 200, response.text
    assert response.json() == {"code": "OK"}

    for token in (first, second):
        gone = await client.get("/api/account/profile", headers=auth(token))
        assert (gone.status_code, gone.json()) == (401, {"message": "invalid-token"})
    member = await load_member(app, phone)
    async with app.state.sessionmaker() as s:
        sessions = (
            (await s.execute(select(LoginSession).where(LoginSession.member_id == member.id)))
            .scalars()
            .all()
        )
    assert len(sessions) == 2
    assert all(s.revoked_at is not None and s.revoked_at <= utcnow() for s in sessions)

    old = await client.post("/api/login", json={"username": phone, "password": "secret123"})
    assert old.json() == {"message": "WRONG_CREDENTIAL"}
    assert await login(client, phone, "n3w-secret")


async def test_change_password_rules(client: httpx.AsyncClient) -> None:
    phone, token = await register_and_login(client)
    cases = [
        ({"oldPassword": "wrong-one", "newPassword": "whatever1"}, 400, "WRONG_PASSWORD"),
        ({"oldPassword": "secret123", "newPassword": "12345"}, 400, "INVALID_USER_INFO"),
        ({"oldPassword": "secret123", "newPassword": ""}, 422, "KEY_MISSING"),
        ({"oldPassword": "secret123"}, 422, "KEY_MISSING"),
    ]
    for body, status, code in cases:
        response = await client.put("/api/account/changepwd", json=body, headers=auth(token))
        assert (response.status_code, response.json()["message"]) == (status, code), body
    # Nothing changed: the session lives and the old password still works.
    assert (await client.get("/api/account/profile", headers=auth(token))).status_code == 200
    assert await login(client, phone, "secret123")


async def test_wrong_old_passwords_are_throttled(client: httpx.AsyncClient) -> None:
    _, token = await register_and_login(client)
    wrong = {"oldPassword": "guess", "newPassword": "whatever1"}
    for _ in range(5):  # loginFailuresPerPhone defaults to 5
        response = await client.put("/api/account/changepwd", json=wrong, headers=auth(token))
        assert response.json() == {"message": "WRONG_PASSWORD"}
    right = {"oldPassword": "secret123", "newPassword": "whatever1"}
    response = await client.put("/api/account/changepwd", json=right, headers=auth(token))
    assert (response.status_code, response.json()) == (429, {"message": "REQUEST_LIMIT"})


async def test_agreement(client: httpx.AsyncClient, app: FastAPI) -> None:
    phone, token = await register_and_login(client)
    _, other = await register_and_login(client)
    get = await client.get("/api/account/agreement", headers=auth(token))
    assert (get.status_code, get.json()) == (200, {"accepted": False})
    put = await client.put("/api/account/agreement", headers=auth(token))
    assert (put.status_code, put.json()) == (200, {"accepted": True})
    assert (await client.get("/api/account/agreement", headers=auth(token))).json() == {
        "accepted": True
    }
    accepted_at = (await load_member(app, phone)).agreement_accepted_at
    assert accepted_at is not None
    # Accepting again keeps the first acceptance time; other members are unaffected.
    await client.put("/api/account/agreement", headers=auth(token))
    assert (await load_member(app, phone)).agreement_accepted_at == accepted_at
    assert (await client.get("/api/account/agreement", headers=auth(other))).json() == {
        "accepted": False
    }
