"""The owner manages staff: add (with the TOTP enrolment), change role and name, disable and
enable, reset 2FA and password; nobody changes their own role or state; the last active owner
stays, also when two owners act at once; the audit log records it all and is searchable."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import select, text

from pao.backoffice.audit.service import Actor, record_sensitive_read
from pao.backoffice.exceptions import StaffLastOwner
from pao.backoffice.models import AuditEntry, Staff
from pao.backoffice.staff.roles import Role
from pao.backoffice.staff.service import update_staff
from pao.backoffice.staff.totp import code_at
from pao.kit.clock import clock, utcnow
from tests.staff_helpers import (
    StaffAccount,
    add_staff,
    bearer,
    code_now,
    log_in,
    next_step,
    open_token,
    password_step,
)

STAFF = "/api/backoffice/staff"
ME = "/api/backoffice/me"


@pytest.fixture
async def owner(app: FastAPI) -> StaffAccount:
    return await add_staff(app, role=Role.OWNER, login="boss")


@pytest.fixture
async def owner_token(app: FastAPI, owner: StaffAccount) -> str:
    return await open_token(app, owner)


async def audit_rows(app: FastAPI, action: str) -> list[AuditEntry]:
    async with app.state.sessionmaker() as s:
        rows = await s.execute(
            select(AuditEntry).where(AuditEntry.action == action).order_by(AuditEntry.id)
        )
        return list(rows.scalars().all())


async def test_the_owner_adds_staff_who_enrol_at_their_first_login(
    client: httpx.AsyncClient, app: FastAPI, owner: StaffAccount, owner_token: str
) -> None:
    r = await client.post(
        STAFF,
        json={
            "login": "cara",
            "password": "cara-pass-123",
            "role": "cashier",
            "displayName": "Cara",
        },
        headers=bearer(owner_token),
    )
    assert r.status_code == 201, r.text
    body = r.json()
    assert body["staff"] | {"id": 0, "createdAt": None} == {
        "id": 0,
        "login": "cara",
        "displayName": "Cara",
        "role": "cashier",
        "disabled": False,
        "totpEnrolled": False,
        "createdAt": None,
        "lastLoginAt": None,
    }
    secret = body["enrolment"]["secret"]
    cara = StaffAccount(body["staff"]["id"], "cara", Role.CASHIER, "cara-pass-123", secret, "Cara")
    step = (await password_step(client, cara)).json()
    assert (step["step"], step["enrolment"]["secret"]) == ("enrol", secret)
    await log_in(client, cara)
    [created] = [e for e in await audit_rows(app, "staff.create") if e.staff_id == owner.id]
    assert (created.staff_id, created.staff_role, created.actor) == (owner.id, "owner", "boss")
    assert (created.object_type, created.object_id) == ("staff", str(cara.id))
    assert created.after == {
        "login": "cara",
        "displayName": "Cara",
        "role": "cashier",
        "disabled": False,
        "totpEnrolled": False,
    }
    assert created.ip == "127.0.0.1"


GOOD = {"login": "vic", "password": "long-enough-1", "role": "viewer"}


@pytest.mark.parametrize(
    ("change", "status", "expected"),
    [
        ({"login": "boss"}, 409, {"message": "STAFF_LOGIN_TAKEN"}),
        ({"login": "has space"}, 400, {"message": "KEY_INVALID", "field": "login"}),
        ({"password": "short"}, 400, {"message": "KEY_INVALID", "field": "password"}),
        # The back office's 422 names the rule (a form says it beside the field).
        ({"role": "admin"}, 422, {"message": "KEY_INVALID", "field": "role", "rule": "choice"}),
        ({"role": None}, 422, {"message": "KEY_MISSING", "field": "role", "rule": "required"}),
    ],
)
async def test_bad_staff_are_refused(
    client: httpx.AsyncClient,
    owner_token: str,
    change: dict[str, Any],
    status: int,
    expected: dict[str, Any],
) -> None:
    body = {k: v for k, v in (GOOD | change).items() if v is not None}
    r = await client.post(STAFF, json=body, headers=bearer(owner_token))
    assert (r.status_code, r.json()) == (status, expected)
    listed = (await client.get(STAFF, headers=bearer(owner_token))).json()
    assert [s["login"] for s in listed] == ["boss"]


async def test_role_and_name_change_is_audited_with_what_changed(
    client: httpx.AsyncClient, app: FastAPI, owner_token: str
) -> None:
    dan = await add_staff(app, role=Role.SUPPORT, name="Dan")
    r = await client.patch(
        f"{STAFF}/{dan.id}",
        json={"role": "manager", "displayName": "Daniel"},
        headers=bearer(owner_token),
    )
    assert (r.status_code, r.json()["role"], r.json()["displayName"]) == (200, "manager", "Daniel")
    [entry] = await audit_rows(app, "staff.update")
    assert entry.before == {"role": "support", "displayName": "Dan"}
    assert entry.after == {"role": "manager", "displayName": "Daniel"}
    # The new role applies to the next request of a session already open.
    token = await open_token(app, dan)
    assert (
        "members.credit.approve"
        in (await client.get(ME, headers=bearer(token))).json()["permissions"]
    )
    missing = await client.patch(
        f"{STAFF}/9999", json={"role": "viewer"}, headers=bearer(owner_token)
    )
    assert (missing.status_code, missing.json()["message"]) == (404, "STAFF_NOT_FOUND")


async def test_nobody_changes_their_own_role_state_or_second_factor(
    client: httpx.AsyncClient, app: FastAPI, owner: StaffAccount, owner_token: str
) -> None:
    await add_staff(app, role=Role.OWNER)  # not the last owner: only the self rule refuses
    url = f"{STAFF}/{owner.id}"
    for method, path, body in (
        ("PATCH", url, {"role": "manager"}),
        ("PATCH", url, {"disabled": True}),
        ("POST", f"{url}/reset-2fa", None),
        ("POST", f"{url}/reset-password", {"password": "new-password-1"}),
    ):
        r = await client.request(method, path, json=body, headers=bearer(owner_token))
        assert (r.status_code, r.json()["message"]) == (403, "STAFF_SELF_CHANGE"), (path, body)
    # One's own display name is fine, and saying the current role is no change.
    r = await client.patch(
        url, json={"displayName": "The Boss", "role": "owner"}, headers=bearer(owner_token)
    )
    assert (r.status_code, r.json()["displayName"]) == (200, "The Boss")


async def test_disabling_ends_every_session_and_login(
    client: httpx.AsyncClient, app: FastAPI, owner_token: str
) -> None:
    eve = await add_staff(app, role=Role.CASHIER)
    tokens = [await log_in(client, eve), await open_token(app, eve)]
    r = await client.patch(
        f"{STAFF}/{eve.id}", json={"disabled": True}, headers=bearer(owner_token)
    )
    assert (r.status_code, r.json()["disabled"]) == (200, True)
    for token in tokens:
        assert (await client.get(ME, headers=bearer(token))).status_code == 401
    assert (await password_step(client, eve)).json()["message"] == "STAFF_DISABLED"
    r = await client.patch(
        f"{STAFF}/{eve.id}", json={"disabled": False}, headers=bearer(owner_token)
    )
    assert r.json()["disabled"] is False
    next_step()
    await log_in(client, eve)
    # Ended sessions stay ended.
    assert (await client.get(ME, headers=bearer(tokens[0]))).status_code == 401


async def test_reset_2fa_ends_sessions_and_the_next_login_enrols_a_new_secret(
    client: httpx.AsyncClient, app: FastAPI, owner_token: str
) -> None:
    fay = await add_staff(app, role=Role.SUPPORT)
    token = await log_in(client, fay)
    r = await client.post(f"{STAFF}/{fay.id}/reset-2fa", headers=bearer(owner_token))
    assert (r.status_code, r.json()["totpEnrolled"]) == (200, False)
    assert (await client.get(ME, headers=bearer(token))).status_code == 401
    next_step()
    step = (await password_step(client, fay)).json()
    assert step["step"] == "enrol"
    new_secret = step["enrolment"]["secret"]
    assert new_secret != fay.secret
    old = await client.post(
        "/api/backoffice/auth/totp", json={"ticket": step["ticket"], "code": code_now(fay)}
    )
    assert old.json()["message"] == "STAFF_CODE_INVALID"
    new = await client.post(
        "/api/backoffice/auth/totp",
        json={"ticket": step["ticket"], "code": code_at(new_secret, utcnow())},
    )
    assert new.status_code == 200, new.text
    assert new.json()["staff"]["totpEnrolled"] is True


async def test_reset_password(client: httpx.AsyncClient, app: FastAPI, owner_token: str) -> None:
    gus = await add_staff(app, role=Role.VIEWER)
    token = await log_in(client, gus)
    url = f"{STAFF}/{gus.id}/reset-password"
    short = await client.post(url, json={"password": "short"}, headers=bearer(owner_token))
    assert (short.status_code, short.json()) == (
        400,
        {"message": "KEY_INVALID", "field": "password"},
    )
    r = await client.post(url, json={"password": "brand-new-pass"}, headers=bearer(owner_token))
    assert r.status_code == 204
    assert (await client.get(ME, headers=bearer(token))).status_code == 401
    assert (await password_step(client, gus)).json()["message"] == "WRONG_CREDENTIAL"
    assert (await password_step(client, gus, password="brand-new-pass")).status_code == 200
    [entry] = await audit_rows(app, "staff.reset_password")
    # Never the password or its hash.
    assert (entry.before, entry.after) == (None, None)


async def test_the_last_active_owner_stays_an_owner(app: FastAPI, owner: StaffAccount) -> None:
    async with app.state.sessionmaker() as s:
        for change in ({"disabled": True}, {"role": Role.MANAGER}):
            with pytest.raises(StaffLastOwner):
                await update_staff(s, actor=Actor.operator("ops:test"), staff_id=owner.id, **change)
            await s.rollback()
        staff = await s.get(Staff, owner.id)
        assert staff is not None
        assert (staff.role, staff.disabled_at) == ("owner", None)


@pytest.mark.parametrize("change", [{"disabled": True}, {"role": "manager"}])
async def test_two_owners_removing_each_other_at_once_one_wins(
    client: httpx.AsyncClient, app: FastAPI, change: dict[str, Any]
) -> None:
    a = await add_staff(app, role=Role.OWNER)
    b = await add_staff(app, role=Role.OWNER)
    token_a, token_b = await open_token(app, a), await open_token(app, b)
    answers = await asyncio.gather(
        client.patch(f"{STAFF}/{b.id}", json=change, headers=bearer(token_a)),
        client.patch(f"{STAFF}/{a.id}", json=change, headers=bearer(token_b)),
    )
    statuses = sorted(r.status_code for r in answers)
    assert statuses[0] == 200, [r.text for r in answers]
    # The loser is refused: the last owner (409), or its own removal came first (401/403).
    assert statuses[1] in (401, 403, 409), [r.text for r in answers]
    async with app.state.sessionmaker() as s:
        owners = (
            (
                await s.execute(
                    select(Staff).where(Staff.role == "owner", Staff.disabled_at.is_(None))
                )
            )
            .scalars()
            .all()
        )
    assert len(owners) == 1


async def test_audit_log_filters_sorts_and_pages(
    client: httpx.AsyncClient, app: FastAPI, owner: StaffAccount, owner_token: str
) -> None:
    staff = [await add_staff(app, role=Role.VIEWER) for _ in range(3)]
    clock.advance(timedelta(minutes=10))
    since = utcnow()
    for member in staff:
        r = await client.patch(
            f"{STAFF}/{member.id}", json={"displayName": "Renamed"}, headers=bearer(owner_token)
        )
        assert r.status_code == 200, r.text

    async def page(**params: Any) -> dict[str, Any]:
        r = await client.get("/api/backoffice/audit", params=params, headers=bearer(owner_token))
        assert r.status_code == 200, r.text
        body: dict[str, Any] = r.json()
        return body

    everything = await page()
    assert everything["total"] == 7  # 1 + 3 creations (test helper and this test) + 3 updates
    assert [e["action"] for e in everything["items"][:3]] == ["staff.update"] * 3
    assert everything["items"][0]["id"] > everything["items"][1]["id"]  # newest first

    updates = await page(action="staff.update", staffId=owner.id, sort="at", limit=2)
    assert (updates["total"], len(updates["items"])) == (3, 2)
    assert [e["objectId"] for e in updates["items"]] == [str(staff[0].id), str(staff[1].id)]
    second = await page(action="staff.update", staffId=owner.id, sort="at", limit=2, page=2)
    assert [e["objectId"] for e in second["items"]] == [str(staff[2].id)]

    one = await page(objectType="staff", objectId=str(staff[1].id))
    assert [e["action"] for e in one["items"]] == ["staff.update", "staff.create"]
    assert (await page(**{"from": since.isoformat()}))["total"] == 3
    assert (await page(to=since.isoformat()))["total"] == 4
    by_action = await page(sort="action", limit=1)
    assert by_action["items"][0]["action"] == "staff.create"

    for bad in ({"sort": "password"}, {"from": "2026-01-01T00:00:00"}, {"limit": 500}):
        r = await client.get("/api/backoffice/audit", params=bad, headers=bearer(owner_token))
        assert (r.status_code, r.json()["message"]) == (422, "KEY_INVALID"), bad


async def test_the_audit_log_is_append_only(app: FastAPI, owner: StaffAccount) -> None:
    async with app.state.sessionmaker() as s:
        for statement in ("UPDATE audit_log SET action = 'x'", "DELETE FROM audit_log"):
            with pytest.raises(Exception, match="append-only"):
                await s.execute(text(statement))
            await s.rollback()
        assert len((await s.execute(select(AuditEntry))).scalars().all()) == 1


async def test_opening_something_sensitive_is_recorded(
    client: httpx.AsyncClient, app: FastAPI, owner: StaffAccount, owner_token: str
) -> None:
    cashier = await add_staff(app, role=Role.CASHIER)
    async with app.state.sessionmaker() as s:
        staff = await s.get(Staff, cashier.id)
        assert staff is not None
        await record_sensitive_read(
            s,
            actor=Actor.of_staff(staff, "192.0.2.1"),
            object_type="member",
            object_id=42,
            what="bank_account_no",
        )
        await s.commit()
    r = await client.get(
        "/api/backoffice/audit",
        params={"action": "sensitive.read", "objectType": "member", "objectId": "42"},
        headers=bearer(owner_token),
    )
    [entry] = r.json()["items"]
    assert {k: entry[k] for k in ("staffId", "staffRole", "actor", "detail", "ip")} == {
        "staffId": cashier.id,
        "staffRole": "cashier",
        "actor": cashier.login,
        "detail": "bank_account_no",
        "ip": "192.0.2.1",
    }
