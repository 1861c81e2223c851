"""The back office's members: search by each key, the member's page, its history tabs, the
audited sensitive reads, notes, and the operator's actions with their rules — a suspended
member cannot log in and a reactivated one can, a temporary password works and the old one
does not, a bank correction starts the withdrawal hold like the member's own change — each
with its audit row; bad input answers catalogue codes; two staff acting at once corrupt
nothing."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import select

from pao.backoffice.models import AuditEntry
from pao.backoffice.staff.roles import Role
from pao.identity.models import MemberChange, MemberChangeKind, MemberStatus
from pao.kit.clock import utcnow
from pao.ops.members import logout_line, reset_password_line, status_line
from pao.payments.payouts.service import is_held_for_bank_change
from pao.wallet.models import Withdrawal
from tests.games_support import activate, arm, funded_member, seed, username_of
from tests.helpers import DEFAULT_PASSWORD, auth, member_id, register_and_login
from tests.promotions_helpers import add_bonus, deposit, fake_game_results, new_player
from tests.staff_helpers import add_staff, bearer, open_token

MEMBERS = "/api/backoffice/members"


async def staff_token(app: FastAPI, role: Role) -> dict[str, str]:
    return bearer(await open_token(app, await add_staff(app, role=role)))


@pytest.fixture
async def manager(app: FastAPI) -> dict[str, str]:
    return await staff_token(app, Role.MANAGER)


async def new_member(client: httpx.AsyncClient, **kw: Any) -> tuple[int, str, str]:
    """(id, phone, token) of a freshly registered member."""
    phone, token = await register_and_login(client, **kw)
    return await member_id(client, token), phone, token


async def audit_of(app: FastAPI, action: str, member: int) -> list[AuditEntry]:
    async with app.state.sessionmaker() as s:
        rows = await s.execute(
            select(AuditEntry)
            .where(AuditEntry.action == action, AuditEntry.object_id == str(member))
            .order_by(AuditEntry.id)
        )
        return list(rows.scalars())


async def login_status(client: httpx.AsyncClient, phone: str, password: str) -> tuple[int, Any]:
    r = await client.post("/api/login", json={"username": phone, "password": password})
    return r.status_code, r.json().get("message")


# ----- search ---------------------------------------------------------------------------------


async def test_search_by_id_phone_name_and_bank_number(
    client: httpx.AsyncClient, manager: dict[str, str]
) -> None:
    mid, phone, _ = await new_member(client, name="Somchai Jaidee", bank_account_no="1234500009876")
    other, _, _ = await new_member(client, name="Malee Srisuk")

    async def ids(**query: Any) -> list[int]:
        r = await client.get(MEMBERS, params=query, headers=manager)
        assert r.status_code == 200, r.text
        return [row["id"] for row in r.json()["items"]]

    # Digits also match phones and account numbers containing them: the id is among them.
    assert mid in await ids(q=str(mid))
    assert await ids(q=phone) == [mid]
    assert mid in await ids(q=phone[-6:])
    assert await ids(q="somchai jai") == [mid]
    assert await ids(q="0009876") == [mid]
    assert await ids(q="00098 76") == [mid]  # spaces in a typed number are ignored
    assert await ids(q="nobody at all") == []
    both = await ids(sort="id")
    assert both.index(mid) < both.index(other)
    found = await client.get(MEMBERS, params={"q": "somchai"}, headers=manager)
    [row] = found.json()["items"]
    assert row | {"createdAt": None} == {
        "id": mid,
        "phone": phone,
        "name": "Somchai Jaidee",
        "status": "ACTIVE",
        "currency": "THB",
        "bankCode": "KBANK",
        "accountNoMasked": "xxxxxxxxx9876",
        "balance": 0,
        "createdAt": None,
    }


async def test_search_filters_by_status_and_pages(
    client: httpx.AsyncClient, manager: dict[str, str]
) -> None:
    made = [(await new_member(client))[0] for _ in range(3)]
    await client.post(f"{MEMBERS}/{made[0]}/suspend", json={"reason": "r"}, headers=manager)
    r = await client.get(MEMBERS, params={"status": "INACTIVE"}, headers=manager)
    assert [m["id"] for m in r.json()["items"]] == [made[0]]
    first = (await client.get(MEMBERS, params={"limit": 2, "page": 1}, headers=manager)).json()
    second = (await client.get(MEMBERS, params={"limit": 2, "page": 2}, headers=manager)).json()
    assert first["total"] == second["total"] == 3
    assert [m["id"] for m in first["items"] + second["items"]] == sorted(made, reverse=True)
    bad = await client.get(MEMBERS, params={"sort": "password"}, headers=manager)
    assert bad.status_code == 422
    assert (await client.get(MEMBERS, params={"limit": 101}, headers=manager)).status_code == 422


# ----- the member's page ----------------------------------------------------------------------


async def test_member_page_and_history_tabs(
    client: httpx.AsyncClient, app: FastAPI, manager: dict[str, str]
) -> None:
    mid, phone, _ = await new_member(client, bank_account_no="5550001112223")
    r = await client.get(f"{MEMBERS}/{mid}", headers=manager)
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["phone"] == phone
    assert body["inviteCode"] == f"PR{mid}"
    assert body["bank"] == {
        "bankCode": "KBANK",
        "accountName": body["bank"]["accountName"],
        "accountNoMasked": "xxxxxxxxx2223",
    }
    assert (body["balance"], body["activeBonus"], body["bankChangedRecently"]) == (0, None, False)
    assert len(body["recentLogins"]) == 1
    assert set(body["recentLogins"][0]) == {"at", "ip", "userAgent", "ended"}
    for tab in ("statement", "slips", "withdrawals", "logins", "changes", "notes"):
        page = await client.get(f"{MEMBERS}/{mid}/{tab}", params={"limit": 5}, headers=manager)
        assert page.status_code == 200, (tab, page.text)
        assert set(page.json()) == {"items", "total"}
    assert (await client.get(f"{MEMBERS}/{mid}/logins", headers=manager)).json()["total"] == 1
    missing = await client.get(f"{MEMBERS}/999999", headers=manager)
    assert (missing.status_code, missing.json()) == (404, {"message": "NO_USER"})
    none = await client.get(f"{MEMBERS}/999999/statement", headers=manager)
    assert (none.status_code, none.json()) == (404, {"message": "NO_USER"})
    assert (await client.get(f"{MEMBERS}/0", headers=manager)).status_code == 422


async def test_every_role_reads_the_page_support_adds_notes_viewer_acts_on_nothing(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    mid, _, _ = await new_member(client)
    support = await staff_token(app, Role.SUPPORT)
    viewer = await staff_token(app, Role.VIEWER)
    assert (await client.get(f"{MEMBERS}/{mid}", headers=viewer)).status_code == 200
    note = await client.post(
        f"{MEMBERS}/{mid}/notes", json={"body": "  asked about the bonus  "}, headers=support
    )
    assert note.status_code == 201, note.text
    assert note.json()["body"] == "asked about the bonus"
    [entry] = await audit_of(app, "member.note", mid)
    assert entry.detail == "asked about the bonus"
    listed = (await client.get(f"{MEMBERS}/{mid}/notes", headers=viewer)).json()
    assert [n["body"] for n in listed["items"]] == ["asked about the bonus"]
    empty = await client.post(f"{MEMBERS}/{mid}/notes", json={"body": "  "}, headers=support)
    assert (empty.status_code, empty.json()["message"]) == (422, "KEY_MISSING")
    for who in (support, viewer):
        for action in ("suspend", "logout", "password-reset"):
            r = await client.post(f"{MEMBERS}/{mid}/{action}", json={"reason": "x"}, headers=who)
            assert (r.status_code, r.json()) == (403, {"message": "STAFF_FORBIDDEN"})
        r = await client.get(f"{MEMBERS}/{mid}/bank-account", headers=who)
        assert r.status_code == 403


# ----- sensitive reads ------------------------------------------------------------------------


async def test_full_bank_number_and_game_accounts_are_audited_reads(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    mid, _, _ = await new_member(client, bank_account_no="7778889990001")
    cashier = await staff_token(app, Role.CASHIER)
    r = await client.get(f"{MEMBERS}/{mid}/bank-account", headers=cashier)
    assert r.status_code == 200, r.text
    assert r.json()["accountNo"] == "7778889990001"
    games = await client.get(f"{MEMBERS}/{mid}/game-accounts", headers=cashier)
    assert (games.status_code, games.json()) == (200, [])
    reads = await audit_of(app, "sensitive.read", mid)
    assert [(e.detail, e.staff_role) for e in reads] == [
        ("bank_account_no", "cashier"),
        ("game_credentials", "cashier"),
    ]
    missing = await client.get(f"{MEMBERS}/999999/bank-account", headers=cashier)
    assert missing.status_code == 404


# ----- actions and their rules ----------------------------------------------------------------


async def test_suspended_member_cannot_log_in_and_reactivated_can(
    client: httpx.AsyncClient, app: FastAPI, manager: dict[str, str]
) -> None:
    mid, phone, token = await new_member(client)
    r = await client.post(
        f"{MEMBERS}/{mid}/suspend", json={"reason": "fraud check"}, headers=manager
    )
    assert (r.status_code, r.json()) == (
        200,
        {"id": mid, "status": "INACTIVE", "sessionsEnded": 0},
    )
    # The open session ended with the suspension, and a new login is refused.
    assert (await client.get("/api/account/profile", headers=auth(token))).status_code == 401
    assert await login_status(client, phone, DEFAULT_PASSWORD) == (403, "INACTIVE_USER")
    again = await client.post(f"{MEMBERS}/{mid}/suspend", json={"reason": "x"}, headers=manager)
    assert (again.status_code, again.json()) == (409, {"message": "MEMBER_STATUS_UNCHANGED"})
    [entry] = await audit_of(app, "member.suspend", mid)
    assert (entry.before, entry.after, entry.detail) == (
        {"status": "ACTIVE"},
        {"status": "INACTIVE"},
        "fraud check",
    )
    r = await client.post(
        f"{MEMBERS}/{mid}/reactivate", json={"reason": "cleared"}, headers=manager
    )
    assert r.json()["status"] == "ACTIVE"
    assert (await login_status(client, phone, DEFAULT_PASSWORD))[0] == 200
    [back] = await audit_of(app, "member.reactivate", mid)
    assert back.after == {"status": "ACTIVE"}


@pytest.mark.parametrize("reason", ["", "   "])
@pytest.mark.parametrize("action", ["suspend", "logout", "password-reset"])
async def test_an_action_needs_a_reason(
    client: httpx.AsyncClient, app: FastAPI, manager: dict[str, str], action: str, reason: str
) -> None:
    mid, phone, _ = await new_member(client)
    r = await client.post(f"{MEMBERS}/{mid}/{action}", json={"reason": reason}, headers=manager)
    assert (r.status_code, r.json()) == (422, {"message": "KEY_MISSING", "field": "reason"})
    assert (await login_status(client, phone, DEFAULT_PASSWORD))[0] == 200
    missing = await client.post(f"{MEMBERS}/999999/{action}", json={"reason": "x"}, headers=manager)
    assert (missing.status_code, missing.json()) == (404, {"message": "NO_USER"})


async def test_force_logout_ends_every_session(
    client: httpx.AsyncClient, app: FastAPI, manager: dict[str, str]
) -> None:
    mid, phone, token = await new_member(client)
    second = (
        await client.post("/api/login", json={"username": phone, "password": DEFAULT_PASSWORD})
    ).json()["token"]
    r = await client.post(f"{MEMBERS}/{mid}/logout", json={"reason": "lost phone"}, headers=manager)
    assert r.json() == {"sessionsEnded": 2}
    for t in (token, second):
        assert (await client.get("/api/account/profile", headers=auth(t))).status_code == 401
    [entry] = await audit_of(app, "member.logout", mid)
    assert (entry.after, entry.detail) == ({"sessionsEnded": 2}, "lost phone")


async def test_temporary_password_works_and_the_old_one_does_not(
    client: httpx.AsyncClient, app: FastAPI, manager: dict[str, str]
) -> None:
    mid, phone, token = await new_member(client)
    r = await client.post(
        f"{MEMBERS}/{mid}/password-reset", json={"reason": "forgot it"}, headers=manager
    )
    assert r.status_code == 200, r.text
    temporary = r.json()["temporaryPassword"]
    assert len(temporary) == 10
    assert r.json()["sessionsEnded"] == 1
    assert (await client.get("/api/account/profile", headers=auth(token))).status_code == 401
    assert await login_status(client, phone, DEFAULT_PASSWORD) == (401, "WRONG_CREDENTIAL")
    assert (await login_status(client, phone, temporary))[0] == 200
    [entry] = await audit_of(app, "member.password_reset", mid)
    assert temporary not in str(entry.after) + str(entry.before) + str(entry.detail)
    async with app.state.sessionmaker() as s:
        kinds = (
            (await s.execute(select(MemberChange.kind).where(MemberChange.member_id == mid)))
            .scalars()
            .all()
        )
    assert kinds == [MemberChangeKind.PASSWORD]


async def test_bank_correction_is_a_bank_change_that_holds_withdrawals(
    client: httpx.AsyncClient, app: FastAPI, manager: dict[str, str]
) -> None:
    mid, _, _ = await new_member(client, bank_account_no="1112223334445")
    r = await client.put(
        f"{MEMBERS}/{mid}/bank-account",
        json={
            "bankCode": "SCB",
            "accountName": "somchai  dee",
            "accountNo": "987-654-3210",
            "reason": "typo at registration",
        },
        headers=manager,
    )
    assert r.status_code == 200, r.text
    assert r.json() == {
        "bankCode": "SCB",
        "accountName": "SOMCHAI DEE",
        "accountNoMasked": "xxxxxx3210",
    }
    page = (await client.get(f"{MEMBERS}/{mid}", headers=manager)).json()
    assert page["bankChangedRecently"] is True
    async with app.state.sessionmaker() as s:
        changes = (
            (await s.execute(select(MemberChange).where(MemberChange.member_id == mid)))
            .scalars()
            .all()
        )
        assert {c.kind for c in changes} == {
            MemberChangeKind.BANK_ACCOUNT,
            MemberChangeKind.BANK_ACCOUNT_NAME,
        }
        assert all(c.user_agent and c.user_agent.startswith("back office: ") for c in changes)
        # A withdrawal asked for now waits for a cashier, as after the member's own change.
        asked = Withdrawal(member_id=mid, created_at=utcnow())
        assert await is_held_for_bank_change(s, withdrawal=asked, hold_hours=24)
    [entry] = await audit_of(app, "member.bank_correct", mid)
    assert entry.after == {
        "bankCode": "SCB",
        "accountName": "SOMCHAI DEE",
        "accountNo": "xxxxxx3210",
    }
    assert entry.before is not None
    assert entry.before["accountNo"] == "xxxxxxxxx4445"
    assert entry.detail == "typo at registration"


@pytest.mark.parametrize(
    ("change", "status", "message"),
    [
        ({"bankCode": "NOPE"}, 400, "INVALID_BANK"),
        ({"accountNo": "12"}, 400, "INVALID_BANK"),
        ({"bankCode": "KTB", "accountName": "สมชาย"}, 400, "BANK_ACCOUNT_NAME_ENG"),
        ({"reason": " "}, 422, "KEY_MISSING"),
    ],
)
async def test_bad_bank_corrections_are_refused(
    client: httpx.AsyncClient,
    app: FastAPI,
    manager: dict[str, str],
    change: dict[str, str],
    status: int,
    message: str,
) -> None:
    mid, _, _ = await new_member(client)
    body = {"bankCode": "SCB", "accountName": "A B", "accountNo": "9876543210", "reason": "r"}
    r = await client.put(f"{MEMBERS}/{mid}/bank-account", json=body | change, headers=manager)
    assert (r.status_code, r.json()["message"]) == (status, message)
    assert await audit_of(app, "member.bank_correct", mid) == []


async def test_a_bank_account_of_another_member_is_refused(
    client: httpx.AsyncClient, manager: dict[str, str]
) -> None:
    await new_member(client, bank_account_no="4445556667778")
    mid, _, _ = await new_member(client)
    body = {"bankCode": "KBANK", "accountName": "A B", "accountNo": "4445556667778", "reason": "r"}
    r = await client.put(f"{MEMBERS}/{mid}/bank-account", json=body, headers=manager)
    assert (r.status_code, r.json()) == (409, {"message": "EXISTING_BANK"})


# ----- two staff at once ----------------------------------------------------------------------


async def test_two_staff_suspending_at_once_one_wins(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    mid, phone, _ = await new_member(client)
    a, b = await staff_token(app, Role.MANAGER), await staff_token(app, Role.OWNER)
    answers = await asyncio.gather(
        *(
            client.post(f"{MEMBERS}/{mid}/suspend", json={"reason": "at once"}, headers=h)
            for h in (a, b)
        )
    )
    assert sorted(r.status_code for r in answers) == [200, 409]
    assert len(await audit_of(app, "member.suspend", mid)) == 1
    assert await login_status(client, phone, DEFAULT_PASSWORD) == (403, "INACTIVE_USER")


async def test_two_staff_resetting_a_password_at_once_leave_one_working_password(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    mid, phone, _ = await new_member(client)
    a, b = await staff_token(app, Role.MANAGER), await staff_token(app, Role.OWNER)
    answers = await asyncio.gather(
        *(
            client.post(f"{MEMBERS}/{mid}/password-reset", json={"reason": "r"}, headers=h)
            for h in (a, b)
        )
    )
    assert [r.status_code for r in answers] == [200, 200]
    passwords = [r.json()["temporaryPassword"] for r in answers]
    works = [(await login_status(client, phone, p))[0] == 200 for p in passwords]
    assert sorted(works) == [False, True]
    assert len(await audit_of(app, "member.password_reset", mid)) == 2
    async with app.state.sessionmaker() as s:
        kinds = (
            (await s.execute(select(MemberChange.kind).where(MemberChange.member_id == mid)))
            .scalars()
            .all()
        )
    assert kinds == [MemberChangeKind.PASSWORD, MemberChangeKind.PASSWORD]


# ----- pao ops member: the same functions -----------------------------------------------------


async def test_ops_member_commands_share_the_back_office_actions(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    mid, phone, _ = await new_member(client)
    async with app.state.sessionmaker() as s:
        line = await status_line(s, phone=phone, status=MemberStatus.INACTIVE, reason="ops")
        await s.commit()
    assert line.endswith("is now INACTIVE")
    assert await login_status(client, phone, DEFAULT_PASSWORD) == (403, "INACTIVE_USER")
    async with app.state.sessionmaker() as s:
        await status_line(s, phone=phone, status=MemberStatus.ACTIVE, reason="ops")
        await logout_line(s, phone=phone, reason="ops")
        reset = await reset_password_line(s, phone=phone, reason="ops")
        await s.commit()
    temporary = reset.split("temporary password ")[1].split(" ")[0]
    assert (await login_status(client, phone, temporary))[0] == 200
    for action in ("member.suspend", "member.reactivate", "member.logout", "member.password_reset"):
        [entry] = await audit_of(app, action, mid)
        assert entry.staff_id is None
        assert entry.actor.startswith("ops:")


async def test_game_accounts_show_credentials_and_a_slow_provider_last_known(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    await seed(app)
    app.state.settings.game_balance_timeout_seconds = 2.0
    token, mid = await funded_member(client, 100_00)
    await activate(client, token, "JOKER")
    await activate(client, token, "PG")
    for code, amount in (("JOKER", 30), ("PG", 20)):
        moved = await client.post(
            "/api/wallet/transfer",
            json={"from": "WALLET", "to": code, "amount": amount},
            headers=auth(token),
        )
        assert moved.status_code == 200, moved.text
    await arm(client, "timeout", operation="balance", brand="PG", delay=10.0)
    cashier = await staff_token(app, Role.CASHIER)
    r = await client.get(f"{MEMBERS}/{mid}/game-accounts", headers=cashier)
    assert r.status_code == 200, r.text
    accounts = {a["gameCode"]: a for a in r.json()}
    assert set(accounts) == {"JOKER", "PG"}
    assert (accounts["JOKER"]["balance"], accounts["JOKER"]["stale"]) == (30, False)
    assert (accounts["PG"]["balance"], accounts["PG"]["stale"]) == (20, True)
    assert accounts["PG"]["username"] == await username_of(app, mid, "PG")
    assert accounts["PG"]["password"]
    [read] = await audit_of(app, "sensitive.read", mid)
    assert read.detail == "game_credentials"


async def test_the_page_shows_the_active_bonus_and_its_turnover(
    client: httpx.AsyncClient, app: FastAPI, manager: dict[str, str]
) -> None:
    await add_bonus(app, max_amount=150_00)
    results = fake_game_results(app)
    player = await new_player(client)
    await deposit(app, player.id, 200_00)
    activated = await client.get("/api/bonus/activate/WELCOME", headers=player.headers)
    assert activated.status_code == 200, activated.text
    results.bet(player.id, at=utcnow(), stake=400_00, payout=0)
    page = (await client.get(f"{MEMBERS}/{player.id}", headers=manager)).json()
    assert page["activeBonus"] == {
        "name": "Welcome",
        "turnoverRequired": 1750.0,
        "turnoverDone": 400.0,
    }
    assert page["balance"] == 350.0
