"""The reports on both databases: money moved by the real services (manual deposits, a paid
withdrawal and a pending one, a bonus), then each report says so, agrees with the dashboard, and
exports as CSV (streamed in chunks for the depositors); who may read them; bad requests."""

from __future__ import annotations

import csv
import io
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from pao.backoffice.staff.roles import Role
from pao.identity.models import Member
from pao.reports import members as members_report
from pao.wallet.withdrawals import approve_withdrawal, request_withdrawal
from tests.api.test_backoffice_dashboard import dashboard, manual
from tests.helpers import member_id, register_and_login
from tests.promotions_helpers import add_bonus, deposit, new_player
from tests.staff_helpers import add_staff, bearer, open_token

REPORTS = "/api/backoffice/reports"


async def staff(app: FastAPI, role: Role) -> dict[str, str]:
    return bearer(await open_token(app, await add_staff(app, role=role)))


async def report(
    client: httpx.AsyncClient, headers: dict[str, str], name: str
) -> dict[str, list[dict[str, Any]]]:
    response = await client.get(f"{REPORTS}/{name}", headers=headers)
    assert response.status_code == 200, response.text
    return {
        table["name"]: [
            dict(zip([c["key"] for c in table["columns"]], row, strict=True))
            for row in table["rows"]
        ]
        for table in response.json()["tables"]
    }


async def export(client: httpx.AsyncClient, headers: dict[str, str], path: str) -> list[list[str]]:
    response = await client.get(f"{REPORTS}/{path}", headers=headers)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/csv")
    assert "attachment" in response.headers["content-disposition"]
    return list(csv.reader(io.StringIO(response.text)))


async def test_reports_show_what_moved_and_agree_with_the_dashboard(
    client: httpx.AsyncClient, app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    manager = bearer(
        await open_token(app, await add_staff(app, role=Role.MANAGER, login="manager1"))
    )
    ids = []
    for amount in (1000_00, 250_50, 40_00):
        _, token = await register_and_login(client)
        ids.append(await member_id(client, token))
        await manual(app, ids[-1], amount)
    _, idle = await register_and_login(client)  # registered, never deposited
    async with app.state.sessionmaker() as session:
        member = await session.get(Member, ids[0])
        assert member is not None
        paid = await request_withdrawal(session, member=member, amount=300_00)
        await request_withdrawal(session, member=member, amount=100_00)
        await approve_withdrawal(session, withdrawal_id=paid.id, actor="test")
        await session.commit()
    await add_bonus(app, max_amount=150_00)
    player = await new_player(client)
    await deposit(app, player.id, 200_00)
    assert (await client.get("/api/bonus/activate/WELCOME", headers=player.headers)).is_success

    board = await dashboard(client, manager)
    daily = await report(client, manager, "daily")
    (today,) = daily["days"]
    assert today["day"] == board["to"]
    assert today["deposits"] == board["deposits"]["sum"] == 1000 + 250.5 + 40 + 200
    assert today["deposits_count"] == 4
    assert today["withdrawals"] == board["withdrawals"]["sum"] == 300
    assert today["net"] == pytest.approx(board["net"])
    assert today["bonuses"] == board["bonusesPaid"] == 150
    assert (today["new_members"], today["first_deposits"]) == (5, 4)

    payments = await report(client, manager, "payments")
    channels = {row["channel"]: (row["count"], row["sum"]) for row in payments["channels"]}
    assert channels["manual"] == (4, 1490.5)
    assert {(r["status"], r["count"], r["sum"]) for r in payments["withdrawals"]} == {
        ("PAID", 1, 300),
        ("PENDING", 1, 100),
    }
    assert payments["payout_time"][0]["paid"] == 1

    promotions = await report(client, manager, "promotions")
    (welcome,) = promotions["bonuses"]
    assert (welcome["code"], welcome["granted"], welcome["granted_sum"]) == ("WELCOME", 1, 150)
    assert {r["kind"]: r["sum"] for r in promotions["payouts"]}["bonus"] == 150

    members = await report(client, manager, "members")
    assert members["registrations"] == [
        {"day": board["to"], "registered": 5, "converted": 4, "conversion": 80.0}
    ]
    assert [r["member"] for r in members["depositors"]] == [ids[0], ids[1], player.id, ids[2]]

    games = await report(client, manager, "games")
    assert games == {
        "transfers": [],
        "floats": [],
        "unresolved": [],
        "seamless": [],
        "seamless_clearing": [],
    }

    # The CSV of the days is the table; its totals are the dashboard's.
    rows = await export(client, manager, "daily/days.csv")
    assert rows[0][:3] == ["day", "deposits_count", "deposits"]
    assert rows[1][:3] == [board["to"], "4", "1490.50"]
    # Every depositor, streamed a chunk (here: one member) at a time, in member order.
    monkeypatch.setattr(members_report, "CHUNK", 1)
    depositors = await export(client, manager, "members/depositors.csv")
    assert depositors[0] == ["member", "name", "deposits_count", "deposits"]
    assert [int(r[0]) for r in depositors[1:]] == sorted([*ids, player.id])
    assert sum(float(r[3]) for r in depositors[1:]) == pytest.approx(board["deposits"]["sum"])

    # Staff: the audit log, per staff member and action.
    credit = await client.post(
        f"/api/backoffice/members/{ids[1]}/adjustments",
        json={"direction": "credit", "amount": 5, "reason": "goodwill"},
        headers={**manager, "Idempotency-Key": "reports-credit"},
    )
    assert credit.status_code == 201, credit.text
    actions = (await report(client, manager, "staff"))["actions"]
    assert {
        "staff": "manager1",
        "login": "manager1",
        "role": "manager",
        "action": "adjustment.request",
        "count": 1,
    } in actions
    # Current to the second: the credit just made is in the next read, as a goodwill credit
    # by staff, not a deposit (ADR 0010).
    (after,) = (await report(client, manager, "daily"))["days"]
    assert (after["deposits"], after["manual_credit"]) == (1490.5, 5)
    assert idle


async def test_who_may_read_and_bad_requests(client: httpx.AsyncClient, app: FastAPI) -> None:
    viewer = await staff(app, Role.VIEWER)
    assert (await client.get(f"{REPORTS}/daily", headers=viewer)).status_code == 200
    for role in (Role.CASHIER, Role.SUPPORT):
        refused = await client.get(f"{REPORTS}/daily", headers=await staff(app, role))
        assert (refused.status_code, refused.json()) == (403, {"message": "STAFF_FORBIDDEN"})
        refused = await client.get(f"{REPORTS}/daily/days.csv", headers=await staff(app, role))
        assert refused.status_code == 403
    missing = await client.get(f"{REPORTS}/daily/depositors.csv", headers=viewer)
    assert (missing.status_code, missing.json()) == (404, {"message": "NO_DATA"})
    unknown = await client.get(f"{REPORTS}/nothing", headers=viewer)
    assert unknown.status_code == 422
    backwards = await client.get(
        f"{REPORTS}/daily", params={"from": "2026-02-02", "to": "2026-02-01"}, headers=viewer
    )
    assert (backwards.status_code, backwards.json()["message"]) == (400, "KEY_INVALID")
    too_long = await client.get(
        f"{REPORTS}/members/registrations.csv",
        params={"from": "2025-01-01", "to": "2026-02-01"},
        headers=viewer,
    )
    assert too_long.status_code == 400
