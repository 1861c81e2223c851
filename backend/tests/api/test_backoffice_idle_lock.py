"""The back office's idle lock: an idle (or hand-locked) staff session is refused by every route
with 423 SESSION_LOCKED until the password alone unlocks it (no TOTP while the 12-hour session
lives); lock and unlock are audited; wrong passwords are counted per session, each try reserved
before the password is checked, and the fifth wrong one ends the session (a full login, TOTP
included, is what remains)."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import select

from pao.backoffice.models import AuditEntry, StaffSession
from pao.backoffice.sessions import service as sessions
from pao.backoffice.sessions.lock import UNLOCK_ATTEMPTS
from pao.backoffice.staff.roles import Role
from pao.kit.clock import clock
from tests.staff_helpers import STAFF_PASSWORD, add_staff, bearer, log_in, next_step

ME = "/api/backoffice/me"
LOCK = "/api/backoffice/auth/lock"
UNLOCK = "/api/backoffice/auth/unlock"
IDLE = timedelta(minutes=30)


async def audited(app: FastAPI, prefix: str = "session.") -> list[tuple[str, str | None]]:
    async with app.state.sessionmaker() as s:
        rows = await s.execute(
            select(AuditEntry.action, AuditEntry.detail)
            .where(AuditEntry.action.startswith(prefix))
            .order_by(AuditEntry.id)
        )
        return [(str(a), d) for a, d in rows]


async def unlock(client: httpx.AsyncClient, token: str, password: str) -> httpx.Response:
    return await client.post(UNLOCK, json={"password": password}, headers=bearer(token))


async def test_idle_locks_every_route_and_the_password_alone_unlocks(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    ann = await add_staff(app, role=Role.CASHIER)
    token = await log_in(client, ann)
    clock.advance(IDLE + timedelta(seconds=1))
    for path in (ME, "/api/backoffice/withdrawals", "/api/backoffice/sessions"):
        r = await client.get(path, headers=bearer(token))
        assert (r.status_code, r.json()) == (423, {"message": "SESSION_LOCKED"}), path
    refused = await client.post("/api/backoffice/withdrawals/claim-next", headers=bearer(token))
    assert refused.status_code == 423
    # Recorded once, however many calls found it locked.
    assert await audited(app) == [("session.lock", "idle")]

    r = await unlock(client, token, STAFF_PASSWORD)
    assert r.status_code == 200, r.text
    assert (r.json()["login"], r.json()["idleLockMinutes"]) == (ann.login, 30)
    assert (await client.get(ME, headers=bearer(token))).status_code == 200
    assert await audited(app) == [("session.lock", "idle"), ("session.unlock", None)]
    # Unlocked, the idle time starts again.
    clock.advance(IDLE - timedelta(minutes=1))
    assert (await client.get(ME, headers=bearer(token))).status_code == 200


async def test_a_staff_member_locks_by_hand_and_the_lock_survives_activity(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    token = await log_in(client, await add_staff(app))
    assert (await client.post(LOCK, headers=bearer(token))).status_code == 204
    assert (await client.get(ME, headers=bearer(token))).status_code == 423
    # Locking a locked session changes nothing; the browser's idle lock says so.
    assert (
        await client.post(LOCK, params={"idle": "true"}, headers=bearer(token))
    ).status_code == 204
    assert await audited(app) == [("session.lock", "by hand")]
    listed = await client.get("/api/backoffice/sessions", headers=bearer(token))
    assert listed.status_code == 423
    assert (await unlock(client, token, STAFF_PASSWORD)).status_code == 200
    assert (
        await client.post(LOCK, params={"idle": "true"}, headers=bearer(token))
    ).status_code == 204
    assert (await audited(app))[-1] == ("session.lock", "idle")


async def test_wrong_passwords_are_counted_and_the_fifth_ends_the_session(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    ann = await add_staff(app)
    token = await log_in(client, ann)
    await client.post(LOCK, headers=bearer(token))
    for left in range(UNLOCK_ATTEMPTS - 1, 0, -1):
        r = await unlock(client, token, "not-my-password")
        assert (r.status_code, r.json()) == (
            401,
            {"message": "WRONG_CREDENTIAL", "attemptsLeft": left},
        )
    last = await unlock(client, token, "not-my-password")
    assert (last.status_code, last.json()) == (401, {"message": "invalid-token"})
    # Ended: even the right password no longer opens it; a full login (TOTP) does.
    assert (await unlock(client, token, STAFF_PASSWORD)).status_code == 401
    assert (await client.get(ME, headers=bearer(token))).status_code == 401
    trail = await audited(app)
    assert [a for a, _ in trail].count("session.unlock_failed") == UNLOCK_ATTEMPTS
    assert trail[-1] == ("session.end", "too many wrong passwords at the lock screen")
    next_step()
    fresh = await log_in(client, ann)
    assert (await client.get(ME, headers=bearer(fresh))).status_code == 200


async def test_a_right_password_clears_the_count(client: httpx.AsyncClient, app: FastAPI) -> None:
    token = await log_in(client, await add_staff(app))
    await client.post(LOCK, headers=bearer(token))
    for _ in range(UNLOCK_ATTEMPTS - 1):
        assert (await unlock(client, token, "wrong")).status_code == 401
    assert (await unlock(client, token, STAFF_PASSWORD)).status_code == 200
    await client.post(LOCK, headers=bearer(token))
    for _ in range(UNLOCK_ATTEMPTS - 1):
        assert (await unlock(client, token, "wrong")).json()["message"] == "WRONG_CREDENTIAL"
    assert (await unlock(client, token, STAFF_PASSWORD)).status_code == 200


# SQLite serialises the tries (BEGIN IMMEDIATE) where PostgreSQL's row lock queues them behind
# the conditional UPDATE: either way no more than UNLOCK_ATTEMPTS are taken.
@pytest.mark.sqlite
async def test_concurrent_guesses_get_no_more_tries_than_allowed(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    token = await log_in(client, await add_staff(app))
    await client.post(LOCK, headers=bearer(token))
    answers = await asyncio.gather(*(unlock(client, token, f"guess-{i}") for i in range(12)))
    assert all(a.status_code == 401 for a in answers)
    messages = [a.json()["message"] for a in answers]
    assert messages.count("WRONG_CREDENTIAL") == UNLOCK_ATTEMPTS - 1
    assert [a for a, _ in await audited(app)].count("session.unlock_failed") == UNLOCK_ATTEMPTS
    assert (await unlock(client, token, STAFF_PASSWORD)).status_code == 401


async def test_the_lock_lasts_no_longer_than_the_session(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    token = await log_in(client, await add_staff(app))
    await client.post(LOCK, headers=bearer(token))
    clock.advance(timedelta(hours=12))
    r = await unlock(client, token, STAFF_PASSWORD)
    assert (r.status_code, r.json()["message"]) == (401, "invalid-token")


async def test_a_locked_session_signs_out_and_opens_no_socket(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    ann = await add_staff(app, role=Role.CASHIER)
    token = await log_in(client, ann)
    clock.advance(IDLE)
    async with app.state.sessionmaker() as s:
        # What the staff socket rooms and the chat agents ask: nothing for a locked session.
        assert await sessions.resolve(s, token, idle=IDLE) is None
        assert await sessions.find(s, token) is not None
    assert (
        await client.post("/api/backoffice/auth/logout", headers=bearer(token))
    ).status_code == 204
    assert (await unlock(client, token, STAFF_PASSWORD)).status_code == 401
    async with app.state.sessionmaker() as s:
        row = (
            (await s.execute(select(StaffSession).where(StaffSession.staff_id == ann.id)))
            .scalars()
            .one()
        )
        assert row.revoked_at is not None


async def test_bad_unlock_bodies_are_refused(client: httpx.AsyncClient, app: FastAPI) -> None:
    token = await log_in(client, await add_staff(app))
    for body in ({}, {"password": ""}, {"password": "x" * 201}):
        r = await client.post(UNLOCK, json=body, headers=bearer(token))
        assert r.status_code == 422, body
    assert (await client.post(UNLOCK, json={"password": "x"})).status_code == 401
