"""Every back-office route, read from the app itself, against every principal: allowed or
refused exactly as the permission map declares; and every mutating route writes an audit row.

Both tests walk the routes the app serves under ``/api/backoffice``, so a route added later is
covered without touching this file, except that a mutating route needs an example request
below (the audit test fails until it has one).
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from fastapi.routing import APIRoute
from sqlalchemy import func, select

from pao.backoffice.deps import BackofficeRoute, Public, Require
from pao.backoffice.models import AuditEntry, StaffSession
from pao.backoffice.staff.roles import Permission, Role, may
from pao.games.catalogue import seed_games
from pao.identity.models import Member
from pao.support.models import ChatConversation
from tests.chat_media import PNG
from tests.helpers import member_id, register_and_login, set_site_setting
from tests.staff_helpers import StaffAccount, add_staff, bearer, code_now, log_in, open_token
from tests.withdrawal_helpers import pending_withdrawal

PREFIX = "/api/backoffice"
MUTATING = {"POST", "PUT", "PATCH", "DELETE"}
PATH_PARAM = re.compile(r"\{[^}]+\}")


def _api_routes(routes: Any) -> Iterator[APIRoute]:
    for route in routes:
        if isinstance(route, APIRoute):
            yield route
        elif hasattr(route, "original_router"):  # an included router (FastAPI ≥ 0.120)
            yield from _api_routes(route.original_router.routes)


def backoffice_routes(app: FastAPI) -> list[tuple[str, str, BackofficeRoute]]:
    found = []
    for route in _api_routes(app.routes):
        if route.path.startswith(PREFIX):
            assert isinstance(route, BackofficeRoute), f"{route.path} is not a BackofficeRoute"
            found += [(method, route.path, route) for method in sorted(route.methods or ())]
    assert found, "no back-office routes found"
    return found


def test_every_route_declares_one_access(app: FastAPI) -> None:
    for _, path, route in backoffice_routes(app):
        assert isinstance(route.access, Require | Public), path


def test_the_contract_shows_each_permission(app: FastAPI) -> None:
    paths = app.openapi()["paths"]
    for method, path, route in backoffice_routes(app):
        permission = route.access.permission
        shown = paths[path][method.lower()]["x-permission"]
        assert shown == (permission.value if permission is not None else "public"), path


# The expectation the permission map must meet, written independently of it: the matrix test
# below checks the app against the map, so a wrong grant in the map (the viewer writing member
# notes) passed it. The viewer reads; the only writing it may do is to its own account.
VIEWER_MAY_WRITE = {Permission.OWN_ACCOUNT}


def test_the_viewer_changes_nothing(app: FastAPI) -> None:
    for method, path, route in backoffice_routes(app):
        permission = route.access.permission
        if method in MUTATING and permission is not None and permission not in VIEWER_MAY_WRITE:
            assert not may(Role.VIEWER, permission), f"the viewer may {method} {path}"


@dataclass(frozen=True)
class Principal:
    name: str
    role: Role | None  # None: a member's token, or no token


async def _headers(
    client: httpx.AsyncClient, app: FastAPI, who: Principal, staff: dict[Role, StaffAccount]
) -> dict[str, str]:
    if who.role is not None:
        return bearer(await open_token(app, staff[who.role]))  # fresh: a logout ends it
    if who.name == "member":
        _, token = await register_and_login(client)
        return bearer(token)
    return {}


PRINCIPALS = [Principal(role.value, role) for role in Role] + [
    Principal("member", None),
    Principal("nobody", None),
]


async def test_authorization_matrix(client: httpx.AsyncClient, app: FastAPI) -> None:
    staff = {role: await add_staff(app, role=role) for role in Role}
    checked = 0
    for method, path, route in backoffice_routes(app):
        url = PATH_PARAM.sub("999999", path)
        permission = route.access.permission
        for who in PRINCIPALS:
            headers = await _headers(client, app, who, staff)
            body: dict[str, object] | None = {} if method in MUTATING else None
            r = await client.request(method, url, headers=headers, json=body)
            data = r.json() if r.content else None
            answer = (r.status_code, data.get("message") if isinstance(data, dict) else None)
            where = f"{method} {path} as {who.name}: {answer}"
            if permission is None:
                # Public (the login steps): never asks for a token or a role.
                assert answer[0] not in (401, 403) or answer[1] not in (
                    "invalid-token",
                    "STAFF_FORBIDDEN",
                ), where
            elif who.role is None:
                assert answer == (401, "invalid-token"), where
            elif may(who.role, permission):
                assert answer[0] != 401, where
                assert answer[1] != "STAFF_FORBIDDEN", where
            else:
                assert answer == (403, "STAFF_FORBIDDEN"), where
            checked += 1
    assert checked >= 12 * len(PRINCIPALS)


# ----- every mutation is audited -------------------------------------------------------------


@dataclass
class World:
    client: httpx.AsyncClient
    app: FastAPI
    owner: StaffAccount
    owner_token: str
    other: StaffAccount


Example = Callable[[World], Awaitable[httpx.Response]]


async def _login(w: World) -> httpx.Response:
    return await w.client.post(
        f"{PREFIX}/auth/login", json={"login": w.other.login, "password": w.other.password}
    )


async def _totp(w: World) -> httpx.Response:
    ticket = (await _login(w)).json()["ticket"]
    return await w.client.post(
        f"{PREFIX}/auth/totp", json={"ticket": ticket, "code": code_now(w.other)}
    )


async def _logout(w: World) -> httpx.Response:
    return await w.client.post(f"{PREFIX}/auth/logout", headers=bearer(w.owner_token))


async def _end_session(w: World) -> httpx.Response:
    other = await open_token(w.app, w.owner)
    async with w.app.state.sessionmaker() as s:
        newest = await s.scalar(select(func.max(StaffSession.id)))
    response = await w.client.delete(f"{PREFIX}/sessions/{newest}", headers=bearer(w.owner_token))
    assert (await w.client.get(f"{PREFIX}/me", headers=bearer(other))).status_code == 401
    return response


async def _create(w: World) -> httpx.Response:
    return await w.client.post(
        f"{PREFIX}/staff",
        json={"login": "newbie", "password": "newbie-pass-1", "role": "viewer"},
        headers=bearer(w.owner_token),
    )


async def _update(w: World) -> httpx.Response:
    return await w.client.patch(
        f"{PREFIX}/staff/{w.other.id}", json={"role": "manager"}, headers=bearer(w.owner_token)
    )


async def _reset_2fa(w: World) -> httpx.Response:
    return await w.client.post(
        f"{PREFIX}/staff/{w.other.id}/reset-2fa", headers=bearer(w.owner_token)
    )


async def _reset_password(w: World) -> httpx.Response:
    return await w.client.post(
        f"{PREFIX}/staff/{w.other.id}/reset-password",
        json={"password": "another-pass-1"},
        headers=bearer(w.owner_token),
    )


async def _member(w: World) -> int:
    _, token = await register_and_login(w.client)
    return await member_id(w.client, token)


async def _adjust(w: World, amount: float = 10) -> httpx.Response:
    return await w.client.post(
        f"{PREFIX}/members/{await _member(w)}/adjustments",
        json={"direction": "credit", "amount": amount, "reason": "goodwill"},
        headers={**bearer(w.owner_token), "Idempotency-Key": "audit-example"},
    )


async def _awaiting(w: World) -> tuple[int, dict[str, str]]:
    """An adjustment above the limit, asked by another staff member than the owner."""
    requester = await add_staff(w.app, role=Role.MANAGER)
    r = await w.client.post(
        f"{PREFIX}/members/{await _member(w)}/adjustments",
        json={"direction": "credit", "amount": 1_000_000, "reason": "big goodwill"},
        headers=bearer(await open_token(w.app, requester)),
    )
    return r.json()["id"], bearer(w.owner_token)


async def _approve(w: World) -> httpx.Response:
    adjustment_id, headers = await _awaiting(w)
    return await w.client.post(f"{PREFIX}/adjustments/{adjustment_id}/approve", headers=headers)


async def _reject(w: World) -> httpx.Response:
    adjustment_id, headers = await _awaiting(w)
    return await w.client.post(
        f"{PREFIX}/adjustments/{adjustment_id}/reject", json={"reason": "no"}, headers=headers
    )


async def _slip_approve(w: World) -> httpx.Response:
    from tests.api.test_backoffice_deposits import not_matching_slip

    _, slip_id = await not_matching_slip(w.client)
    return await w.client.post(
        f"{PREFIX}/deposits/slips/{slip_id}/approve",
        json={"amount": 300},
        headers=bearer(w.owner_token) | {"Idempotency-Key": "audit-example"},
    )


async def _slip_reject(w: World) -> httpx.Response:
    from tests.api.test_backoffice_deposits import not_matching_slip

    _, slip_id = await not_matching_slip(w.client)
    return await w.client.post(
        f"{PREFIX}/deposits/slips/{slip_id}/reject",
        json={"reason": "not the member's transfer"},
        headers=bearer(w.owner_token),
    )


async def _payment_match(w: World) -> httpx.Response:
    from tests.api.test_backoffice_deposits import unmatched

    bank_id, _ = await unmatched(w.app)
    phone, _ = await register_and_login(w.client)
    async with w.app.state.sessionmaker() as s:
        member_id = await s.scalar(select(Member.id).where(Member.phone == phone))
    return await w.client.post(
        f"{PREFIX}/deposits/unmatched/bank/{bank_id}/match",
        json={"memberId": member_id, "note": "paid from a friend's account"},
        headers=bearer(w.owner_token),
    )


async def _account_create(w: World) -> httpx.Response:
    return await w.client.post(
        f"{PREFIX}/accounts",
        json={"kind": "BANK", "code": "SCB", "mode": "MANUAL", "accountNo": "4071234567"},
        headers=bearer(w.owner_token),
    )


async def _account_update(w: World) -> httpx.Response:
    account = (await _account_create(w)).json()
    return await w.client.patch(
        f"{PREFIX}/accounts/{account['id']}", json={"active": False}, headers=bearer(w.owner_token)
    )


async def _maintenance_on(w: World) -> httpx.Response:
    async with w.app.state.sessionmaker() as session:
        await seed_games(session)
        await session.commit()
    return await w.client.put(
        f"{PREFIX}/providers/JOKER/maintenance",
        json={"reason": "provider upgrade"},
        headers=bearer(w.owner_token),
    )


async def _maintenance_off(w: World) -> httpx.Response:
    assert (await _maintenance_on(w)).status_code == 200
    return await w.client.delete(
        f"{PREFIX}/providers/JOKER/maintenance", headers=bearer(w.owner_token)
    )


def _settings_save(path: str, values: dict[str, object]) -> Example:
    async def act(w: World) -> httpx.Response:
        url = f"{PREFIX}{path}"
        return await w.client.put(url, json={"values": values}, headers=bearer(w.owner_token))

    return act


def _settings_revert(path: str, values: dict[str, object]) -> Example:
    async def act(w: World) -> httpx.Response:
        saved = await _settings_save(path, values)(w)
        url = f"{PREFIX}{path}/history/{saved.json()['changeSet']}/revert"
        return await w.client.post(url, headers=bearer(w.owner_token))

    return act


async def _promotion_create(w: World) -> httpx.Response:
    return await w.client.post(
        f"{PREFIX}/promotions",
        json={
            "code": "ACCESS50",
            "kind": "promotion",
            "name": {"en": "Access"},
            "fixedAmount": 50,
            "maxAmount": 50,
        },
        headers=bearer(w.owner_token),
    )


def _promotion_action(action: str) -> Example:
    async def act(w: World) -> httpx.Response:
        bonus_id = (await _promotion_create(w)).json()["id"]
        url = f"{PREFIX}/promotions/{bonus_id}"
        if action == "update":
            return await w.client.patch(
                url, json={"maxAmount": 60, "fixedAmount": 60}, headers=bearer(w.owner_token)
            )
        if action == "reactivate":
            await w.client.post(f"{url}/retire", headers=bearer(w.owner_token))
        return await w.client.post(f"{url}/{action}", headers=bearer(w.owner_token))

    return act


async def _image_upload(w: World) -> httpx.Response:
    return await w.client.post(
        f"{PREFIX}/images",
        files={"file": ("banner.png", PNG, "image/png")},
        headers=bearer(w.owner_token),
    )


async def _wheel_save(w: World) -> httpx.Response:
    text = {"th": "ก", "la": "ກ", "en": "a"}
    one = {"label": text, "bgColor": "#000", "textColor": "#fff", "prizeType": "none"}
    return await w.client.put(
        f"{PREFIX}/wheel",
        json={"name": text, "slices": [{**one, "weight": 1}, {**one, "weight": 2}]},
        headers=bearer(w.owner_token),
    )


def _member_action(action: str, body: dict[str, object] | None = None) -> Example:
    async def act(w: World) -> httpx.Response:
        member_id = await _member(w)
        if action == "reactivate":
            await w.client.post(
                f"{PREFIX}/members/{member_id}/suspend",
                json={"reason": "first"},
                headers=bearer(w.owner_token),
            )
        method = "PUT" if action == "bank-account" else "POST"
        return await w.client.request(
            method,
            f"{PREFIX}/members/{member_id}/{action}",
            json=body if body is not None else {"reason": "asked by phone"},
            headers=bearer(w.owner_token),
        )

    return act


async def _claimed(w: World) -> int:
    withdrawal_id, _ = await pending_withdrawal(w.client)
    r = await w.client.post(
        f"{PREFIX}/withdrawals/{withdrawal_id}/claim", headers=bearer(w.owner_token)
    )
    assert r.status_code == 200, r.text
    return withdrawal_id


async def _withdrawal_claim(w: World) -> httpx.Response:
    withdrawal_id, _ = await pending_withdrawal(w.client)
    return await w.client.post(
        f"{PREFIX}/withdrawals/{withdrawal_id}/claim", headers=bearer(w.owner_token)
    )


async def _withdrawal_release(w: World) -> httpx.Response:
    withdrawal_id = await _claimed(w)
    return await w.client.post(
        f"{PREFIX}/withdrawals/{withdrawal_id}/release", headers=bearer(w.owner_token)
    )


async def _withdrawal_approve(w: World) -> httpx.Response:
    withdrawal_id = await _claimed(w)
    return await w.client.post(
        f"{PREFIX}/withdrawals/{withdrawal_id}/approve",
        json={"mode": "manual", "reference": "REF-1"},
        headers=bearer(w.owner_token),
    )


async def _withdrawal_reject(w: World) -> httpx.Response:
    withdrawal_id = await _claimed(w)
    return await w.client.post(
        f"{PREFIX}/withdrawals/{withdrawal_id}/reject",
        json={"reason": "test"},
        headers=bearer(w.owner_token),
    )


async def _withdrawal_claim_next(w: World) -> httpx.Response:
    await pending_withdrawal(w.client)
    return await w.client.post(f"{PREFIX}/withdrawals/claim-next", headers=bearer(w.owner_token))


async def _lock(w: World) -> httpx.Response:
    return await w.client.post(f"{PREFIX}/auth/lock", headers=bearer(w.owner_token))


async def _unlock(w: World) -> httpx.Response:
    await _lock(w)
    return await w.client.post(
        f"{PREFIX}/auth/unlock",
        json={"password": w.owner.password},
        headers=bearer(w.owner_token),
    )


async def _conversation(w: World) -> int:
    await set_site_setting(w.client, "enableChatWidget", True)
    guest = "0b6f4bd2-8f1e-4d6e-9a43-5d2f3b8c1a70"
    r = await w.client.post(
        "/api/chat/send-message",
        json={"message": {"message_type": "text", "payload": "hi"}},
        headers={"X-Guest-Id": guest},
    )
    assert r.status_code == 200, r.text
    async with w.app.state.sessionmaker() as s:
        return int(await s.scalar(select(func.max(ChatConversation.id))))


async def _chat_assign(w: World) -> httpx.Response:
    cid = await _conversation(w)
    return await w.client.post(
        f"{PREFIX}/chat/conversations/{cid}/assign",
        json={"staffId": w.owner.id},
        headers=bearer(w.owner_token),
    )


async def _chat_unassign(w: World) -> httpx.Response:
    cid = await _conversation(w)
    return await w.client.post(
        f"{PREFIX}/chat/conversations/{cid}/unassign", headers=bearer(w.owner_token)
    )


# A valid request of each mutating route, and the audit action it must write.
EXAMPLES: dict[tuple[str, str], tuple[Example, str]] = {
    ("POST", f"{PREFIX}/auth/login"): (_login, "auth.password_accepted"),
    ("POST", f"{PREFIX}/auth/totp"): (_totp, "auth.login"),
    ("POST", f"{PREFIX}/auth/logout"): (_logout, "auth.logout"),
    ("POST", f"{PREFIX}/auth/lock"): (_lock, "session.lock"),
    ("POST", f"{PREFIX}/auth/unlock"): (_unlock, "session.unlock"),
    ("DELETE", f"{PREFIX}/sessions/{{session_id}}"): (_end_session, "session.end"),
    ("POST", f"{PREFIX}/staff"): (_create, "staff.create"),
    ("PATCH", f"{PREFIX}/staff/{{staff_id}}"): (_update, "staff.update"),
    ("POST", f"{PREFIX}/staff/{{staff_id}}/reset-2fa"): (_reset_2fa, "staff.reset_2fa"),
    ("POST", f"{PREFIX}/staff/{{staff_id}}/reset-password"): (
        _reset_password,
        "staff.reset_password",
    ),
    ("POST", f"{PREFIX}/members/{{member_id}}/adjustments"): (_adjust, "adjustment.request"),
    ("POST", f"{PREFIX}/adjustments/{{adjustment_id}}/approve"): (_approve, "adjustment.approve"),
    ("POST", f"{PREFIX}/adjustments/{{adjustment_id}}/reject"): (_reject, "adjustment.reject"),
    ("POST", f"{PREFIX}/deposits/slips/{{slip_id}}/approve"): (
        _slip_approve,
        "deposit.slip.approve",
    ),
    ("POST", f"{PREFIX}/deposits/slips/{{slip_id}}/reject"): (_slip_reject, "deposit.slip.reject"),
    ("POST", f"{PREFIX}/deposits/unmatched/{{kind}}/{{payment_id}}/match"): (
        _payment_match,
        "deposit.payment.match",
    ),
    ("POST", f"{PREFIX}/accounts"): (_account_create, "account.create"),
    ("PATCH", f"{PREFIX}/accounts/{{account_id}}"): (_account_update, "account.update"),
    ("PUT", f"{PREFIX}/providers/{{code}}/maintenance"): (
        _maintenance_on,
        "provider.maintenance.on",
    ),
    ("DELETE", f"{PREFIX}/providers/{{code}}/maintenance"): (
        _maintenance_off,
        "provider.maintenance.off",
    ),
    ("PUT", f"{PREFIX}/wheel"): (_wheel_save, "wheel.update"),
    ("POST", f"{PREFIX}/promotions"): (_promotion_create, "promotion.create"),
    ("PATCH", f"{PREFIX}/promotions/{{bonus_id}}"): (
        _promotion_action("update"),
        "promotion.update",
    ),
    ("POST", f"{PREFIX}/promotions/{{bonus_id}}/retire"): (
        _promotion_action("retire"),
        "promotion.retire",
    ),
    ("POST", f"{PREFIX}/promotions/{{bonus_id}}/reactivate"): (
        _promotion_action("reactivate"),
        "promotion.reactivate",
    ),
    ("POST", f"{PREFIX}/images"): (_image_upload, "image.upload"),
    ("POST", f"{PREFIX}/members/{{member_id}}/suspend"): (
        _member_action("suspend"),
        "member.suspend",
    ),
    ("POST", f"{PREFIX}/members/{{member_id}}/reactivate"): (
        _member_action("reactivate"),
        "member.reactivate",
    ),
    ("POST", f"{PREFIX}/members/{{member_id}}/logout"): (_member_action("logout"), "member.logout"),
    ("POST", f"{PREFIX}/members/{{member_id}}/password-reset"): (
        _member_action("password-reset"),
        "member.password_reset",
    ),
    ("PUT", f"{PREFIX}/members/{{member_id}}/bank-account"): (
        _member_action(
            "bank-account",
            {
                "bankCode": "SCB",
                "accountName": "SOMCHAI DEE",
                "accountNo": "9876543210",
                "reason": "typo at registration",
            },
        ),
        "member.bank_correct",
    ),
    ("POST", f"{PREFIX}/members/{{member_id}}/notes"): (
        _member_action("notes", {"body": "called about a payout"}),
        "member.note",
    ),
    ("POST", f"{PREFIX}/withdrawals/{{withdrawal_id}}/claim"): (
        _withdrawal_claim,
        "withdrawal.claim",
    ),
    ("POST", f"{PREFIX}/withdrawals/claim-next"): (_withdrawal_claim_next, "withdrawal.claim"),
    ("POST", f"{PREFIX}/withdrawals/{{withdrawal_id}}/release"): (
        _withdrawal_release,
        "withdrawal.release",
    ),
    ("POST", f"{PREFIX}/withdrawals/{{withdrawal_id}}/approve"): (
        _withdrawal_approve,
        "withdrawal.approve",
    ),
    ("POST", f"{PREFIX}/withdrawals/{{withdrawal_id}}/reject"): (
        _withdrawal_reject,
        "withdrawal.reject",
    ),
    ("POST", f"{PREFIX}/chat/conversations/{{conversation_id}}/assign"): (
        _chat_assign,
        "chat.assign",
    ),
    ("POST", f"{PREFIX}/chat/conversations/{{conversation_id}}/unassign"): (
        _chat_unassign,
        "chat.unassign",
    ),
    ("PUT", f"{PREFIX}/content"): (
        _settings_save("/content", {"lineName": "@pao"}),
        "settings.save",
    ),
    ("POST", f"{PREFIX}/content/history/{{change_set}}/revert"): (
        _settings_revert("/content", {"lineName": "@pao"}),
        "settings.revert",
    ),
    ("PUT", f"{PREFIX}/content/rules"): (
        _settings_save("/content/rules", {"refundEnabled": False}),
        "settings.save",
    ),
    ("POST", f"{PREFIX}/content/rules/history/{{change_set}}/revert"): (
        _settings_revert("/content/rules", {"refundEnabled": False}),
        "settings.revert",
    ),
    ("PUT", f"{PREFIX}/settings"): (
        _settings_save("/settings", {"withdrawMin": {"THB": 50}}),
        "settings.save",
    ),
    ("POST", f"{PREFIX}/settings/history/{{change_set}}/revert"): (
        _settings_revert("/settings", {"withdrawMin": {"THB": 50}}),
        "settings.revert",
    ),
}
# The actions that move (or decide on) money: each records its amount with its currency.
MONEY_ACTIONS = {
    "withdrawal.approve",
    "withdrawal.reject",
    "deposit.slip.approve",
    "deposit.payment.match",
    "adjustment.request",
    "adjustment.approve",
    "adjustment.reject",
}


def _tagged_amounts(values: dict[str, Any] | None) -> list[dict[str, Any]]:
    return [v["$minor"] for v in (values or {}).values() if isinstance(v, dict) and "$minor" in v]


# POST routes that change nothing (a computation too large for a query string).
READ_ONLY = {("POST", f"{PREFIX}/content/preview")}


def mutating_routes(app: FastAPI) -> list[tuple[str, str]]:
    return [
        (m, p) for m, p, _ in backoffice_routes(app) if m in MUTATING and (m, p) not in READ_ONLY
    ]


def test_every_mutating_route_has_an_audit_example(app: FastAPI) -> None:
    assert set(mutating_routes(app)) == set(EXAMPLES), "add an example for each new route"


@pytest.mark.parametrize("route", sorted(EXAMPLES), ids=lambda r: f"{r[0]} {r[1]}")
async def test_every_mutating_route_writes_an_audit_row(
    client: httpx.AsyncClient, app: FastAPI, route: tuple[str, str]
) -> None:
    owner = await add_staff(app, role=Role.OWNER)
    world = World(
        client=client,
        app=app,
        owner=owner,
        owner_token=await log_in(client, owner),
        other=await add_staff(app, role=Role.CASHIER),
    )
    async with app.state.sessionmaker() as s:
        last = int(await s.scalar(select(func.max(AuditEntry.id))) or 0)
    example, action = EXAMPLES[route]
    response = await example(world)
    assert 200 <= response.status_code < 300, response.text
    async with app.state.sessionmaker() as s:
        written = (await s.execute(select(AuditEntry).where(AuditEntry.id > last))).scalars().all()
    assert action in [e.action for e in written], [e.action for e in written]
    entry = next(e for e in written if e.action == action)
    assert entry.ip == "127.0.0.1"
    if action in MONEY_ACTIONS:
        amounts = _tagged_amounts(entry.after)
        assert amounts, f"{action} records no amount: {entry.after}"
        assert all(set(a) <= {"THB", "LAK"} and all(v > 0 for v in a.values()) for a in amounts)
    if action.startswith(("staff.", "session.", "auth.logout")):
        assert (entry.staff_id, entry.staff_role) == (owner.id, "owner")
