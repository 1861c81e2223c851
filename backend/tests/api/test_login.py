"""Login, sessions and logout: argon2id, WRONG_CREDENTIAL, INACTIVE_USER, throttles (per phone
and IP, per IP, the per-phone backstop), tokens."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta

import httpx
import pytest
from argon2 import PasswordHasher, Type
from fastapi import FastAPI
from sqlalchemy import select, update

from pao.core.security import needs_rehash, token_digest, verify_password
from pao.identity import service
from pao.identity.models import LoginSession, Member, MemberStatus
from pao.kit.clock import clock, utcnow
from tests.helpers import auth, login, new_phone, register, set_site_setting


async def attempt(client: httpx.AsyncClient, phone: str, password: str) -> httpx.Response:
    return await client.post("/api/login", json={"username": phone, "password": password})


async def profile_status(client: httpx.AsyncClient, token: str) -> int:
    return (await client.get("/api/account/profile", headers=auth(token))).status_code


async def sessions_of(app: FastAPI, phone: str) -> list[LoginSession]:
    async with app.state.sessionmaker() as s:
        member = (await s.execute(select(Member).where(Member.phone == phone))).scalar_one()
        query = select(LoginSession).where(LoginSession.member_id == member.id)
        return list((await s.execute(query.order_by(LoginSession.id))).scalars().all())


@pytest.fixture
async def other_ip_client(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=app, client=("10.1.2.3", 5000))
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as c:
        yield c


async def test_login_opens_a_stored_hashed_session(client: httpx.AsyncClient, app: FastAPI) -> None:
    phone = await register(client)
    response = await client.post(
        "/api/login",
        json={"username": phone, "password": "secret123"},
        headers={"User-Agent": "pao-test/1.0"},
    )
    assert response.status_code == 200, response.text
    assert set(response.json()) == {"token"}
    token = response.json()["token"]
    assert len(token) >= 40

    [login_session] = await sessions_of(app, phone)
    assert login_session.token_digest == token_digest(token)
    assert login_session.ip == "127.0.0.1"
    assert login_session.user_agent == "pao-test/1.0"
    assert login_session.revoked_at is None
    ttl = app.state.settings.session_ttl_hours
    assert login_session.expires_at - login_session.created_at == timedelta(hours=ttl)
    assert await profile_status(client, token) == 200


async def test_wrong_password_and_unknown_phone_look_the_same(client: httpx.AsyncClient) -> None:
    phone = await register(client)
    wrong = await attempt(client, phone, "not-the-password")
    unknown = await attempt(client, new_phone(), "secret123")
    for response in (wrong, unknown):
        assert response.status_code == 401
        assert response.json() == {"message": "WRONG_CREDENTIAL"}


async def test_unknown_phone_still_costs_an_argon2_check(
    client: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    checked: list[str | None] = []

    def spy(password_hash: str | None, password: str) -> bool:
        checked.append(password_hash)
        return verify_password(password_hash, password)

    monkeypatch.setattr(service, "verify_password", spy)
    await attempt(client, new_phone(), "whatever")
    assert checked == [None]  # verify_password hashes against a dummy when there is no hash


async def test_missing_fields(client: httpx.AsyncClient) -> None:
    response = await client.post("/api/login", json={"username": "0812345678"})
    assert response.status_code == 422
    assert response.json() == {"message": "KEY_MISSING", "field": "password"}


async def test_inactive_member(client: httpx.AsyncClient, app: FastAPI) -> None:
    phone = await register(client)
    token = await login(client, phone)
    async with app.state.sessionmaker() as s:
        await s.execute(
            update(Member).where(Member.phone == phone).values(status=MemberStatus.INACTIVE)
        )
        await s.commit()
    response = await attempt(client, phone, "secret123")
    assert (response.status_code, response.json()) == (403, {"message": "INACTIVE_USER"})
    # A wrong password does not reveal that the account exists but is inactive.
    response = await attempt(client, phone, "wrong-password")
    assert (response.status_code, response.json()) == (401, {"message": "WRONG_CREDENTIAL"})
    # Sessions opened before the deactivation stop working too.
    assert await profile_status(client, token) == 401


@asynccontextmanager
async def client_at(app: FastAPI, ip: str) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=app, client=(ip, 1234))
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as c:
        yield c


async def test_throttle_per_phone_and_ip(
    client: httpx.AsyncClient, other_ip_client: httpx.AsyncClient
) -> None:
    await set_site_setting(client, "loginFailuresPerPhone", 3)
    phone = await register(client)
    other = await register(client)
    for _ in range(3):
        assert (await attempt(client, phone, "bad-guess")).json()["message"] == "WRONG_CREDENTIAL"
    # The limit is checked before the password: even the right one is refused now, from here.
    limited = await attempt(client, phone, "secret123")
    assert (limited.status_code, limited.json()) == (429, {"message": "REQUEST_LIMIT"})
    # Another phone from the same IP is not affected, nor the phone from another IP.
    assert (await attempt(client, other, "secret123")).status_code == 200
    assert (await attempt(other_ip_client, phone, "secret123")).status_code == 200


async def test_a_strangers_failures_do_not_lock_the_owner_out(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    phone = await register(client)
    async with client_at(app, "203.0.113.9") as stranger:
        for _ in range(5):  # loginFailuresPerPhone defaults to 5
            assert (await attempt(stranger, phone, "bad-guess")).status_code == 401
        limited = await attempt(stranger, phone, "secret123")
        assert (limited.status_code, limited.json()) == (429, {"message": "REQUEST_LIMIT"})
        # Repeating it keeps the stranger out ...
        assert (await attempt(stranger, phone, "bad-guess")).status_code == 429
    # ... and the owner in, from any other address (never seen before included).
    async with client_at(app, "198.51.100.7") as owner:
        assert (await attempt(owner, phone, "secret123")).status_code == 200
    assert (await attempt(client, phone, "secret123")).status_code == 200


async def test_the_backstop_lets_only_the_owners_addresses_in(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    await set_site_setting(client, "loginFailuresPerAccount", 6)
    phone = await register(client)
    async with client_at(app, "198.51.100.7") as home:
        assert (await attempt(home, phone, "secret123")).status_code == 200
        # A guesser rotating addresses: two tries each, under the per-(phone, IP) limit.
        for n in range(3):
            async with client_at(app, f"203.0.113.{n + 10}") as guesser:
                for _ in range(2):
                    assert (await attempt(guesser, phone, "bad-guess")).status_code == 401
        async with client_at(app, "203.0.113.99") as unknown:
            limited = await attempt(unknown, phone, "secret123")
            assert (limited.status_code, limited.json()) == (429, {"message": "REQUEST_LIMIT"})
        # The owner's earlier address still gets in; other phones are not affected.
        assert (await attempt(home, phone, "secret123")).status_code == 200
        other = await register(client)
        async with client_at(app, "203.0.113.99") as unknown:
            assert (await attempt(unknown, other, "secret123")).status_code == 200


async def test_concurrent_guesses_get_only_the_allowed_checks(client: httpx.AsyncClient) -> None:
    # The probe sent 50 wrong passwords at once and got 11 checks where 5 were allowed: each
    # attempt is now reserved before the password is looked at.
    phone = await register(client)
    answers = await asyncio.gather(*(attempt(client, phone, "bad-guess") for _ in range(50)))
    messages = sorted(a.json()["message"] for a in answers)
    assert messages.count("WRONG_CREDENTIAL") == 5, messages
    assert messages.count("REQUEST_LIMIT") == 45, messages


async def test_throttle_per_phone_counts_unknown_phones_too(client: httpx.AsyncClient) -> None:
    await set_site_setting(client, "loginFailuresPerPhone", 2)
    phone = new_phone()
    await attempt(client, phone, "x")
    await attempt(client, phone, "x")
    assert (await attempt(client, phone, "x")).json() == {"message": "REQUEST_LIMIT"}


async def test_success_resets_the_counter_of_its_address(client: httpx.AsyncClient) -> None:
    await set_site_setting(client, "loginFailuresPerPhone", 3)
    phone = await register(client)
    for _ in range(3):
        for _ in range(2):
            assert (await attempt(client, phone, "bad-guess")).status_code == 401
        assert (await attempt(client, phone, "secret123")).status_code == 200


async def test_throttle_per_ip(
    client: httpx.AsyncClient, other_ip_client: httpx.AsyncClient
) -> None:
    await set_site_setting(client, "loginFailuresPerIp", 3)
    phone = await register(client)
    for _ in range(3):  # one failure each on three different phones
        assert (await attempt(client, new_phone(), "guess")).status_code == 401
    limited = await attempt(client, phone, "secret123")
    assert (limited.status_code, limited.json()) == (429, {"message": "REQUEST_LIMIT"})
    # The member can still log in from elsewhere.
    assert (await attempt(other_ip_client, phone, "secret123")).status_code == 200


async def test_old_parameters_are_rehashed_on_login(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    phone = await register(client)
    old = PasswordHasher(time_cost=3, memory_cost=2048, parallelism=1, type=Type.ID)
    old_hash = old.hash("secret123")
    async with app.state.sessionmaker() as s:
        await s.execute(update(Member).where(Member.phone == phone).values(password_hash=old_hash))
        await s.commit()
    await login(client, phone)
    async with app.state.sessionmaker() as s:
        member = (await s.execute(select(Member).where(Member.phone == phone))).scalar_one()
    assert member.password_hash != old_hash
    assert not needs_rehash(member.password_hash)  # the configured cost now
    assert verify_password(member.password_hash, "secret123")


async def test_logout_revokes_only_the_current_token(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    phone = await register(client)
    first, second = await login(client, phone), await login(client, phone)
    response = await client.post("/api/logout", headers=auth(first))
    assert response.status_code == 204
    assert response.content == b""
    assert await profile_status(client, first) == 401
    again = await client.post("/api/logout", headers=auth(first))
    assert (again.status_code, again.json()) == (401, {"message": "invalid-token"})
    assert await profile_status(client, second) == 200
    revoked = [s for s in await sessions_of(app, phone) if s.revoked_at is not None]
    assert [s.token_digest for s in revoked] == [token_digest(first)]


async def test_expired_token_is_invalid(client: httpx.AsyncClient, app: FastAPI) -> None:
    phone = await register(client)
    token = await login(client, phone)
    ttl = timedelta(hours=app.state.settings.session_ttl_hours)
    clock.advance(ttl - timedelta(seconds=5))
    assert await profile_status(client, token) == 200
    clock.advance(timedelta(seconds=10))
    response = await client.get("/api/account/profile", headers=auth(token))
    assert (response.status_code, response.json()) == (401, {"message": "invalid-token"})
    assert utcnow() > (await sessions_of(app, phone))[0].expires_at


@pytest.mark.parametrize(
    "headers",
    [
        {},
        {"Authorization": "Bearer "},
        {"Authorization": "Bearer nonsense"},
        {"Authorization": "x"},
    ],
)
async def test_missing_or_bad_token_is_invalid(
    client: httpx.AsyncClient, headers: dict[str, str]
) -> None:
    for method, path in [("GET", "/api/account/profile"), ("POST", "/api/logout")]:
        response = await client.request(method, path, headers=headers)
        assert (response.status_code, response.json()) == (401, {"message": "invalid-token"})
