"""Staff login (password, then TOTP; enrolment on the first login), replay and throttle
refusals, the idle lock and absolute expiry, a staff member's own sessions, and token
separation. The idle lock itself: tests/api/test_backoffice_idle_lock.py."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import timedelta

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import func, select

from pao.backoffice.audit.service import Actor
from pao.backoffice.models import AuditEntry, Staff, StaffSession
from pao.backoffice.staff.roles import Role, permissions_of
from pao.backoffice.staff.service import reset_password, reset_two_factor, update_staff
from pao.core.security import token_digest
from pao.kit.clock import clock
from tests.helpers import register_and_login
from tests.staff_helpers import (
    add_staff,
    bearer,
    code_now,
    log_in,
    next_step,
    password_step,
)

LOGIN = "/api/backoffice/auth/login"
TOTP = "/api/backoffice/auth/totp"
ME = "/api/backoffice/me"


def client_at(app: FastAPI, ip: str) -> httpx.AsyncClient:
    """A client whose requests come from ``ip``."""
    transport = httpx.ASGITransport(app=app, client=(ip, 40000))
    return httpx.AsyncClient(transport=transport, base_url="http://test")


@pytest.fixture
async def stranger(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    async with client_at(app, "203.0.113.66") as c:
        yield c


async def count(app: FastAPI, model: type[StaffSession] | type[AuditEntry]) -> int:
    async with app.state.sessionmaker() as s:
        return int(await s.scalar(select(func.count()).select_from(model)) or 0)


async def actions(app: FastAPI) -> list[str]:
    async with app.state.sessionmaker() as s:
        rows = await s.execute(select(AuditEntry.action).order_by(AuditEntry.id))
        return [str(r[0]) for r in rows]


async def code_step(client: httpx.AsyncClient, ticket: str, code: str) -> httpx.Response:
    return await client.post(TOTP, json={"ticket": ticket, "code": code})


async def test_first_login_enrols_then_logins_ask_for_the_code(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    ann = await add_staff(app, role=Role.CASHIER, login="ann", name="Ann")
    first = await password_step(client, ann)
    assert first.status_code == 200, first.text
    body = first.json()
    assert body["step"] == "enrol"
    assert body["enrolment"]["secret"] == ann.secret
    assert body["enrolment"]["uri"].startswith("otpauth://totp/Pao:ann?")
    assert body["enrolment"]["qr"].startswith("data:image/svg+xml")
    # A right password alone opens no session.
    assert await count(app, StaffSession) == 0

    wrong = await code_step(client, body["ticket"], code_now(ann, steps=5))
    assert (wrong.status_code, wrong.json()["message"]) == (401, "STAFF_CODE_INVALID")
    assert await count(app, StaffSession) == 0

    done = await code_step(client, body["ticket"], code_now(ann))
    assert done.status_code == 200, done.text
    started = done.json()
    assert started["staff"]["login"] == "ann"
    assert started["staff"]["totpEnrolled"] is True
    assert started["staff"]["permissions"] == [p.value for p in permissions_of(Role.CASHIER)]
    me = await client.get(ME, headers=bearer(started["token"]))
    assert (me.status_code, me.json()["role"]) == (200, "cashier")
    assert "staff.manage" not in me.json()["permissions"]

    next_step()
    again = await password_step(client, ann)
    assert again.json()["step"] == "code"
    assert again.json()["enrolment"] is None
    assert (await code_step(client, again.json()["ticket"], code_now(ann))).status_code == 200
    assert await actions(app) == [
        "staff.create",
        "auth.password_accepted",
        "auth.login_failed",
        "staff.totp_enrolled",
        "auth.login",
        "auth.password_accepted",
        "auth.login",
    ]


async def test_wrong_password_and_unknown_login_look_alike(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    ann = await add_staff(app, login="ann")
    for login, password in (("ann", "wrong-password"), ("nobody", ann.password)):
        r = await client.post(LOGIN, json={"login": login, "password": password})
        assert (r.status_code, r.json()) == (401, {"message": "WRONG_CREDENTIAL"})
    async with app.state.sessionmaker() as s:
        failed = (
            (await s.execute(select(AuditEntry).where(AuditEntry.action == "auth.login_failed")))
            .scalars()
            .all()
        )
    assert [(e.actor, e.object_id, e.staff_id, e.ip) for e in failed] == [
        ("login:ann", str(ann.id), None, "127.0.0.1"),
        ("login:nobody", None, None, "127.0.0.1"),
    ]


async def test_a_code_logs_in_once(client: httpx.AsyncClient, app: FastAPI) -> None:
    ann = await add_staff(app)
    code = code_now(ann)
    first = (await password_step(client, ann)).json()["ticket"]
    assert (await code_step(client, first, code)).status_code == 200
    # The same code again, within its window, with a fresh ticket (password known).
    second = (await password_step(client, ann)).json()["ticket"]
    replay = await code_step(client, second, code)
    assert (replay.status_code, replay.json()["message"]) == (401, "STAFF_CODE_USED")
    # The previous step's code is older still: refused too.
    older = await code_step(client, second, code_now(ann, steps=-1))
    assert older.json()["message"] == "STAFF_CODE_USED"
    next_step()
    assert (await code_step(client, second, code_now(ann))).status_code == 200


async def test_the_same_code_twice_at_once_opens_one_session(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    ann = await add_staff(app)
    first = (await password_step(client, ann)).json()["ticket"]
    second = (await password_step(client, ann)).json()["ticket"]
    code = code_now(ann)
    answers = await asyncio.gather(code_step(client, first, code), code_step(client, second, code))
    assert sorted(a.status_code for a in answers) == [200, 401]
    assert await count(app, StaffSession) == 1


async def test_a_ticket_is_single_use_and_short_lived(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    ann = await add_staff(app)
    ticket = (await password_step(client, ann)).json()["ticket"]
    assert (await code_step(client, ticket, code_now(ann))).status_code == 200
    next_step()
    used = await code_step(client, ticket, code_now(ann))
    assert (used.status_code, used.json()["message"]) == (401, "STAFF_LOGIN_EXPIRED")
    late = (await password_step(client, ann)).json()["ticket"]
    clock.advance(timedelta(minutes=6))
    expired = await code_step(client, late, code_now(ann))
    assert expired.json()["message"] == "STAFF_LOGIN_EXPIRED"
    unknown = await code_step(client, "no-such-ticket", code_now(ann))
    assert unknown.json()["message"] == "STAFF_LOGIN_EXPIRED"


async def test_a_disabled_staff_member_cannot_log_in(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    ann = await add_staff(app)
    ticket = (await password_step(client, ann)).json()["ticket"]
    async with app.state.sessionmaker() as s:
        await update_staff(s, actor=Actor.operator("test"), staff_id=ann.id, disabled=True)
        await s.commit()
    r = await password_step(client, ann)
    assert (r.status_code, r.json()["message"]) == (403, "STAFF_DISABLED")
    # A ticket opened before does not finish the login either: it was voided.
    late = await code_step(client, ticket, code_now(ann))
    assert (late.status_code, late.json()["message"]) == (401, "STAFF_LOGIN_EXPIRED")


@pytest.mark.parametrize("change", ["password", "authenticator"])
async def test_a_credential_change_voids_open_login_tickets(
    client: httpx.AsyncClient, app: FastAPI, change: str
) -> None:
    # The probe: a ticket begun before an owner reset the password still completed with the
    # code 31 s later. Any credential change voids the tickets open at the time.
    ann = await add_staff(app)
    ticket = (await password_step(client, ann)).json()["ticket"]
    owner = Actor.operator("test")
    async with app.state.sessionmaker() as s:
        if change == "password":
            await reset_password(s, actor=owner, staff_id=ann.id, password="a-new-pass-word-9")
        else:
            await reset_two_factor(s, actor=owner, staff_id=ann.id)
        await s.commit()
    clock.advance(timedelta(seconds=31))
    late = await code_step(client, ticket, code_now(ann))
    assert (late.status_code, late.json()["message"]) == (401, "STAFF_LOGIN_EXPIRED")
    assert await count(app, StaffSession) == 0


async def test_a_stranger_cannot_lock_a_staff_member_out(
    client: httpx.AsyncClient, app: FastAPI, stranger: httpx.AsyncClient
) -> None:
    ann = await add_staff(app)
    for _ in range(5):
        r = await password_step(stranger, ann, password="guess-guess")
        assert r.json()["message"] == "WRONG_CREDENTIAL"
    # The stranger's address is stopped, even with the right password…
    r = await password_step(stranger, ann)
    assert (r.status_code, r.json()["message"]) == (429, "REQUEST_LIMIT")
    # …and Ann, from her own address, logs in.
    await log_in(client, ann)


async def test_a_guesser_rotating_addresses_does_not_lock_out_a_known_address(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    ann = await add_staff(app)
    await log_in(client, ann)  # 127.0.0.1 becomes one of Ann's known addresses
    for n in range(50):  # the per-account backstop
        async with client_at(app, f"198.51.100.{n}") as guesser:
            await password_step(guesser, ann, password="guess-guess")
    async with client_at(app, "198.51.100.200") as another:
        r = await password_step(another, ann)
        assert (r.status_code, r.json()["message"]) == (429, "REQUEST_LIMIT")
    next_step()
    await log_in(client, ann)


async def test_code_guesses_are_throttled_too(client: httpx.AsyncClient, app: FastAPI) -> None:
    ann = await add_staff(app)
    ticket = (await password_step(client, ann)).json()["ticket"]
    wrong = code_now(ann, steps=7)
    for _ in range(5):
        assert (await code_step(client, ticket, wrong)).json()["message"] == "STAFF_CODE_INVALID"
    stopped = await code_step(client, ticket, code_now(ann))
    assert (stopped.status_code, stopped.json()["message"]) == (429, "REQUEST_LIMIT")
    # The password step counts the same failures: a known password buys no more guesses.
    assert (await password_step(client, ann)).status_code == 429


async def test_concurrent_code_guesses_get_only_the_allowed_checks(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    # The probe sent 50 wrong codes at once and got 7 checks where 5 were allowed: each attempt
    # is now reserved before the code is looked at.
    ann = await add_staff(app)
    ticket = (await password_step(client, ann)).json()["ticket"]
    wrong = code_now(ann, steps=7)
    answers = await asyncio.gather(*(code_step(client, ticket, wrong) for _ in range(50)))
    messages = sorted(a.json()["message"] for a in answers)
    assert messages.count("STAFF_CODE_INVALID") == 5, messages
    assert messages.count("REQUEST_LIMIT") == 45, messages
    assert (await actions(app)).count("auth.login_failed") == 5


async def test_a_right_password_gives_its_reservation_back(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    # An office behind one address: many staff log in, none of it counts as a failure.
    for _ in range(8):
        ann = await add_staff(app)
        ticket = (await password_step(client, ann)).json()["ticket"]
        assert (await code_step(client, ticket, code_now(ann))).status_code == 200
    limiter = app.state.rate_limiter
    assert await limiter.get("login:staff:ip:127.0.0.1") == 0


async def test_an_idle_session_locks_instead_of_ending(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    token = await log_in(client, await add_staff(app))
    for _ in range(3):
        clock.advance(timedelta(minutes=29))
        assert (await client.get(ME, headers=bearer(token))).status_code == 200
    clock.advance(timedelta(minutes=31))
    r = await client.get(ME, headers=bearer(token))
    assert (r.status_code, r.json()) == (423, {"message": "SESSION_LOCKED"})


async def test_a_session_ends_twelve_hours_after_login(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    token = await log_in(client, await add_staff(app))
    for _ in range(35):  # in use every 20 minutes: 11 h 40
        clock.advance(timedelta(minutes=20))
        assert (await client.get(ME, headers=bearer(token))).status_code == 200
    clock.advance(timedelta(minutes=20))
    assert (await client.get(ME, headers=bearer(token))).status_code == 401


async def test_own_sessions_are_listed_and_ended(client: httpx.AsyncClient, app: FastAPI) -> None:
    ann = await add_staff(app)
    bob = await add_staff(app)
    office = await log_in(client, ann)
    next_step()
    async with client_at(app, "192.0.2.7") as phone_client:
        phone = await log_in(phone_client, ann)
    bobs = await log_in(client, bob)

    listed = (await client.get("/api/backoffice/sessions", headers=bearer(office))).json()
    assert [(s["ip"], s["current"]) for s in listed] == [("192.0.2.7", False), ("127.0.0.1", True)]
    phone_id = listed[0]["id"]
    bob_id = (await client.get("/api/backoffice/sessions", headers=bearer(bobs))).json()[0]["id"]

    # Another staff member's session is not Ann's to end.
    other = await client.delete(f"/api/backoffice/sessions/{bob_id}", headers=bearer(office))
    assert (other.status_code, other.json()["message"]) == (404, "STAFF_SESSION_NOT_FOUND")
    assert (await client.get(ME, headers=bearer(bobs))).status_code == 200

    ended = await client.delete(f"/api/backoffice/sessions/{phone_id}", headers=bearer(office))
    assert ended.status_code == 204
    assert (await client.get(ME, headers=bearer(phone))).status_code == 401
    listed = (await client.get("/api/backoffice/sessions", headers=bearer(office))).json()
    assert [s["current"] for s in listed] == [True]
    again = await client.delete(f"/api/backoffice/sessions/{phone_id}", headers=bearer(office))
    assert again.status_code == 404


async def test_logout_ends_the_session(client: httpx.AsyncClient, app: FastAPI) -> None:
    token = await log_in(client, await add_staff(app))
    assert (
        await client.post("/api/backoffice/auth/logout", headers=bearer(token))
    ).status_code == 204
    assert (await client.get(ME, headers=bearer(token))).status_code == 401
    assert (await actions(app))[-1] == "auth.logout"


async def test_member_and_staff_tokens_do_not_cross(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    _, member = await register_and_login(client)
    staff = await log_in(client, await add_staff(app, role=Role.OWNER))
    for path in (ME, "/api/backoffice/staff", "/api/backoffice/audit"):
        r = await client.get(path, headers=bearer(member))
        assert (r.status_code, r.json()) == (401, {"message": "invalid-token"}), path
    for method, path, body in (
        ("GET", "/api/wallet", None),
        ("GET", "/api/account/profile", None),
        ("POST", "/api/statement", {"page": 1, "limit": 10}),
        ("POST", "/api/chat/history", {}),
        ("POST", "/api/logout", None),
    ):
        r = await client.request(method, path, headers=bearer(staff), json=body)
        assert (r.status_code, r.json()) == (401, {"message": "invalid-token"}), path
    assert (await client.get(ME, headers=bearer(staff))).status_code == 200


async def test_tokens_are_stored_as_digests(client: httpx.AsyncClient, app: FastAPI) -> None:
    ann = await add_staff(app)
    token = await log_in(client, ann)
    async with app.state.sessionmaker() as s:
        row = (await s.execute(select(StaffSession))).scalar_one()
        staff = await s.get(Staff, ann.id)
    assert row.token_digest == token_digest(token)
    assert staff is not None
    assert staff.password_hash.startswith("$argon2id$")
    assert staff.last_login_at is not None
