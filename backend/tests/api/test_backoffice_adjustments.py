"""Manual adjustments through the back office: credit and debit with a reason, four eyes above
``manualAdjustmentApprovalAbove`` and past the 24-hour totals posted alone (per staff member,
per member: a limit that cannot be split), idempotent creation, one winner among concurrent
approvals, no overdraft under concurrent debits, and the books balanced after each."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import func, select

from pao.backoffice.models import AuditEntry
from pao.backoffice.staff.roles import Role
from pao.kit.clock import clock
from pao.kit.money import Currency
from pao.ledger.models import JournalEntry
from pao.ledger.service import check_books
from pao.promotions.models import PromoDeposit
from pao.wallet.adjustments import credit_manually
from pao.wallet.models import ManualAdjustment, Statement
from pao.wallet.service import wallet_balance
from tests.helpers import member_id, register_and_login, set_money_setting
from tests.staff_helpers import add_staff, bearer, open_token

# Also on SQLite (tests/databases.py): manual credits and debits: money steps, SQLite's write lock.
pytestmark = pytest.mark.sqlite

PREFIX = "/api/backoffice"
LIMIT = 5_000.0  # the default manualAdjustmentApprovalAbove, in baht


async def staff_token(app: FastAPI, role: Role = Role.MANAGER) -> tuple[int, dict[str, str]]:
    account = await add_staff(app, role=role)
    return account.id, bearer(await open_token(app, account))


async def new_member(client: httpx.AsyncClient, app: FastAPI, funds: int = 0) -> int:
    _, token = await register_and_login(client)
    mid = await member_id(client, token)
    if funds:
        async with app.state.sessionmaker() as s:
            from pao.identity.models import Member

            member = await s.get(Member, mid)
            assert member is not None
            await credit_manually(s, member=member, amount=funds, note="seed", actor="test")
            await s.commit()
    return mid


async def balance(app: FastAPI, mid: int) -> int:
    async with app.state.sessionmaker() as s:
        return await wallet_balance(s, member_id=mid, currency=Currency.THB)


async def create(
    client: httpx.AsyncClient,
    headers: dict[str, str],
    mid: int,
    amount: float,
    direction: str = "credit",
    key: str | None = None,
    reason: str = "ticket 42: goodwill",
) -> httpx.Response:
    extra = {"Idempotency-Key": key} if key else {}
    return await client.post(
        f"{PREFIX}/members/{mid}/adjustments",
        json={"direction": direction, "amount": amount, "reason": reason},
        headers={**headers, **extra},
    )


async def count(app: FastAPI, model: Any, *where: Any) -> int:
    async with app.state.sessionmaker() as s:
        return int(await s.scalar(select(func.count()).select_from(model).where(*where)) or 0)


async def books_balanced(app: FastAPI) -> bool:
    async with app.state.sessionmaker() as s:
        return (await check_books(s)).balanced


async def test_at_or_below_the_limit_posts_at_once(client: httpx.AsyncClient, app: FastAPI) -> None:
    staff_id, headers = await staff_token(app, Role.CASHIER)
    mid = await new_member(client, app)

    r = await create(client, headers, mid, LIMIT, key="k1")

    assert r.status_code == 201, r.text
    body = r.json()
    assert body["status"] == "POSTED"
    assert body["amount"] == LIMIT
    assert body["memberId"] == mid
    assert body["requestedByStaffId"] == staff_id
    assert body["decidedBy"] == body["requestedBy"]
    assert await balance(app, mid) == 5_000_00
    async with app.state.sessionmaker() as s:
        line = (
            await s.execute(select(Statement).where(Statement.ref_id == str(body["id"])))
        ).scalar_one()
        assert (line.statement_type, line.status, line.amount) == ("deposit", "SUCCESS", 5_000_00)
        audit = (
            await s.execute(select(AuditEntry).where(AuditEntry.action == "adjustment.request"))
        ).scalar_one()
        assert audit.after is not None
        assert audit.after["status"] == "POSTED"
        # A staff correction is not a player's deposit: no DepositCredited, no promotions.
        assert await s.scalar(select(func.count()).select_from(PromoDeposit)) == 0
    assert await books_balanced(app)


async def test_above_the_limit_waits_and_the_requester_cannot_decide(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    _, a = await staff_token(app)
    mid = await new_member(client, app)

    r = await create(client, a, mid, LIMIT + 0.01)
    assert r.status_code == 201, r.text
    adjustment = r.json()
    assert adjustment["status"] == "AWAITING_APPROVAL"
    assert adjustment["decidedBy"] is None
    assert await balance(app, mid) == 0

    own = await client.post(f"{PREFIX}/adjustments/{adjustment['id']}/approve", headers=a)
    assert (own.status_code, own.json()["message"]) == (403, "ADJUSTMENT_OWN_APPROVAL")
    own_reject = await client.post(
        f"{PREFIX}/adjustments/{adjustment['id']}/reject", json={"reason": "no"}, headers=a
    )
    assert (own_reject.status_code, own_reject.json()["message"]) == (
        403,
        "ADJUSTMENT_OWN_APPROVAL",
    )
    assert await balance(app, mid) == 0

    listed = await client.get(
        f"{PREFIX}/adjustments", params={"status": "AWAITING_APPROVAL"}, headers=a
    )
    assert listed.status_code == 200
    assert [item["id"] for item in listed.json()["items"]] == [adjustment["id"]]
    assert listed.json()["total"] == 1


async def test_a_second_manager_approves_and_the_money_moves_once(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    _, a = await staff_token(app)
    b_id, b = await staff_token(app)
    mid = await new_member(client, app)
    adjustment = (await create(client, a, mid, 6_000)).json()

    r = await client.post(f"{PREFIX}/adjustments/{adjustment['id']}/approve", headers=b)

    assert r.status_code == 200, r.text
    assert r.json()["status"] == "POSTED"
    assert r.json()["decidedBy"] != adjustment["requestedBy"]
    assert await balance(app, mid) == 6_000_00
    again = await client.post(f"{PREFIX}/adjustments/{adjustment['id']}/approve", headers=b)
    assert (again.status_code, again.json()["message"]) == (409, "ADJUSTMENT_ALREADY_DECIDED")
    assert await balance(app, mid) == 6_000_00
    assert await count(app, Statement, Statement.ref_type == "manual_adjustment") == 1
    async with app.state.sessionmaker() as s:
        row = await s.get(ManualAdjustment, adjustment["id"])
        assert row is not None
        assert row.entry_id is not None
        assert row.decided_by_staff_id == b_id
        entry = await s.get(JournalEntry, row.entry_id)
        assert entry is not None
        assert entry.kind == "manual_credit"
        audit = (
            await s.execute(select(AuditEntry).where(AuditEntry.action == "adjustment.approve"))
        ).scalar_one()
        assert audit.before is not None
        assert audit.before["status"] == "AWAITING_APPROVAL"
        assert audit.after is not None
        assert audit.after["status"] == "POSTED"
    shown = await client.get(f"{PREFIX}/adjustments/{adjustment['id']}", headers=a)
    assert shown.json()["status"] == "POSTED"
    assert await books_balanced(app)


async def test_reject_moves_no_money(client: httpx.AsyncClient, app: FastAPI) -> None:
    _, a = await staff_token(app, Role.CASHIER)
    _, b = await staff_token(app, Role.OWNER)
    mid = await new_member(client, app)
    adjustment = (await create(client, a, mid, 10_000)).json()

    r = await client.post(
        f"{PREFIX}/adjustments/{adjustment['id']}/reject",
        json={"reason": "no ticket for this"},
        headers=b,
    )

    assert r.status_code == 200, r.text
    assert (r.json()["status"], r.json()["decisionReason"]) == ("REJECTED", "no ticket for this")
    assert await balance(app, mid) == 0
    late = await client.post(f"{PREFIX}/adjustments/{adjustment['id']}/approve", headers=b)
    assert (late.status_code, late.json()["message"]) == (409, "ADJUSTMENT_ALREADY_DECIDED")
    assert await count(app, Statement, Statement.ref_type == "manual_adjustment") == 0


async def test_a_cashier_cannot_approve(client: httpx.AsyncClient, app: FastAPI) -> None:
    _, a = await staff_token(app)
    _, cashier = await staff_token(app, Role.CASHIER)
    mid = await new_member(client, app)
    adjustment = (await create(client, a, mid, 10_000)).json()

    r = await client.post(f"{PREFIX}/adjustments/{adjustment['id']}/approve", headers=cashier)

    assert (r.status_code, r.json()["message"]) == (403, "STAFF_FORBIDDEN")


async def test_debits(client: httpx.AsyncClient, app: FastAPI) -> None:
    _, a = await staff_token(app)
    _, b = await staff_token(app)
    mid = await new_member(client, app, funds=8_000_00)

    small = await create(client, a, mid, 100, direction="debit")
    assert small.status_code == 201, small.text
    assert small.json()["status"] == "POSTED"
    assert await balance(app, mid) == 7_900_00
    async with app.state.sessionmaker() as s:
        line = (
            await s.execute(select(Statement).where(Statement.ref_id == str(small.json()["id"])))
        ).scalar_one()
        assert line.statement_type == "withdraw"

    beyond = await create(client, a, mid, 7_900.01, direction="debit")
    assert (beyond.status_code, beyond.json()["message"]) == (400, "MONEY_NOT_ENOUGH")
    assert await count(app, ManualAdjustment, ManualAdjustment.member_id == mid) == 2  # seed+100

    # Covered when asked, not any more when approved: refused, and it keeps waiting.
    waiting = (await create(client, a, mid, 7_000, direction="debit")).json()
    assert waiting["status"] == "AWAITING_APPROVAL"
    assert (await create(client, a, mid, 1_000, direction="debit")).json()["status"] == "POSTED"
    late = await client.post(f"{PREFIX}/adjustments/{waiting['id']}/approve", headers=b)
    assert (late.status_code, late.json()["message"]) == (400, "MONEY_NOT_ENOUGH")
    shown = await client.get(f"{PREFIX}/adjustments/{waiting['id']}", headers=b)
    assert shown.json()["status"] == "AWAITING_APPROVAL"
    assert await balance(app, mid) == 6_900_00
    assert await books_balanced(app)


async def test_bad_input_is_refused(client: httpx.AsyncClient, app: FastAPI) -> None:
    _, a = await staff_token(app)
    mid = await new_member(client, app)

    zero = await create(client, a, mid, 0)
    blank = await create(client, a, mid, 10, reason="   ")
    nobody = await create(client, a, 999_999, 10)
    sideways = await create(client, a, mid, 10, direction="sideways")

    assert (zero.status_code, zero.json()["message"]) == (400, "TRANSFER_MINIMUM")
    assert blank.status_code == 422
    assert (nobody.status_code, nobody.json()["message"]) == (404, "NO_USER")
    assert sideways.status_code == 422
    missing = await client.get(f"{PREFIX}/adjustments/999999", headers=a)
    assert (missing.status_code, missing.json()["message"]) == (404, "ADJUSTMENT_NOT_FOUND")


async def test_the_create_is_idempotent(client: httpx.AsyncClient, app: FastAPI) -> None:
    _, a = await staff_token(app)
    mid = await new_member(client, app)

    # A double click: the same intent twice at once, then a retry.
    first, second = await asyncio.gather(
        create(client, a, mid, 300, key="intent-1"), create(client, a, mid, 300, key="intent-1")
    )
    retry = await create(client, a, mid, 300, key="intent-1")
    other = await create(client, a, mid, 301, key="intent-1")

    assert first.status_code == second.status_code == retry.status_code == 201
    assert first.json() == second.json() == retry.json()
    assert (other.status_code, other.json()["message"]) == (409, "IDEMPOTENCY_KEY_REUSED")
    assert await count(app, ManualAdjustment) == 1
    assert await count(app, AuditEntry, AuditEntry.action == "adjustment.request") == 1
    assert await balance(app, mid) == 300_00


async def test_concurrent_approvals_post_once(client: httpx.AsyncClient, app: FastAPI) -> None:
    _, a = await staff_token(app)
    approvers = [(await staff_token(app))[1] for _ in range(8)]
    mid = await new_member(client, app)
    adjustment = (await create(client, a, mid, 9_000)).json()

    answers = await asyncio.gather(
        *(
            client.post(f"{PREFIX}/adjustments/{adjustment['id']}/approve", headers=h)
            for h in approvers
        )
    )

    outcomes = sorted((r.status_code, r.json().get("message")) for r in answers)
    assert outcomes.count((200, None)) == 1, outcomes
    assert outcomes.count((409, "ADJUSTMENT_ALREADY_DECIDED")) == 7, outcomes
    assert await balance(app, mid) == 9_000_00
    assert await count(app, JournalEntry, JournalEntry.kind == "manual_credit") == 1
    assert await count(app, AuditEntry, AuditEntry.action == "adjustment.approve") == 1
    assert await books_balanced(app)


async def test_concurrent_debits_never_overdraw(client: httpx.AsyncClient, app: FastAPI) -> None:
    _, a = await staff_token(app)
    mid = await new_member(client, app, funds=300_00)

    answers = await asyncio.gather(
        *(create(client, a, mid, 100, direction="debit", key=f"debit-{i}") for i in range(8))
    )

    outcomes = sorted((r.status_code, r.json().get("message")) for r in answers)
    assert outcomes.count((201, None)) == 3, outcomes
    assert outcomes.count((400, "MONEY_NOT_ENOUGH")) == 5, outcomes
    assert await balance(app, mid) == 0
    assert await books_balanced(app)


async def test_the_limit_is_a_site_setting(client: httpx.AsyncClient, app: FastAPI) -> None:

    _, a = await staff_token(app, Role.CASHIER)
    await set_money_setting(app, "manualAdjustmentApprovalAbove", THB=100_00)
    mid = await new_member(client, app)

    policy = await client.get(f"{PREFIX}/adjustments/policy", headers=a)
    waits = await create(client, a, mid, 100.01)

    assert policy.json() == {
        "approvalAbove": {"THB": 100.0, "LAK": 3_000_000.0},
        "staffDaily": {"THB": 20_000.0, "LAK": 12_000_000.0},
        "memberDaily": {"THB": 10_000.0, "LAK": 6_000_000.0},
    }
    assert waits.json()["status"] == "AWAITING_APPROVAL"


# --- totals posted alone: a limit per adjustment cannot be split into many small ones ---------

MEMBER_DAILY = 10_000.0  # the default manualAdjustmentMemberDaily, in baht
STAFF_DAILY = 20_000.0  # the default manualAdjustmentStaffDaily, in baht


async def test_ten_credits_of_5000_to_one_member_cannot_be_split(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    # The probe's finding: a cashier alone posted 10 × 5,000 to one member (+50,000).
    _, cashier = await staff_token(app, Role.CASHIER)
    mid = await new_member(client, app)

    answers = [
        (await create(client, cashier, mid, LIMIT, key=f"split-{i}")).json() for i in range(10)
    ]

    assert [a["status"] for a in answers] == ["POSTED"] * 2 + ["AWAITING_APPROVAL"] * 8
    assert [a["approvalReasons"] for a in answers[1:3]] == [[], ["member_day"]]
    assert await balance(app, mid) == int(MEMBER_DAILY * 100)
    # A retry of a waiting one is that one, not another.
    again = (await create(client, cashier, mid, LIMIT, key="split-9")).json()
    assert again["id"] == answers[9]["id"]
    # Approved by a second person, it does not count as posted alone: the next still waits.
    _, manager = await staff_token(app)
    approved = await client.post(
        f"{PREFIX}/adjustments/{answers[2]['id']}/approve", headers=manager
    )
    assert approved.json()["status"] == "POSTED"
    one_more = (await create(client, cashier, mid, 1)).json()
    assert (one_more["status"], one_more["approvalReasons"]) == (
        "AWAITING_APPROVAL",
        ["member_day"],
    )
    # Debits are a total of their own.
    debit = (await create(client, cashier, mid, LIMIT, direction="debit")).json()
    assert (debit["status"], debit["approvalReasons"]) == ("POSTED", [])
    # A rolling day: 24 hours later the member's total is free again.
    clock.advance(timedelta(hours=24, seconds=1))
    _, next_shift = await staff_token(app, Role.CASHIER)  # the 12-hour session is over
    later = (await create(client, next_shift, mid, LIMIT)).json()
    assert later["status"] == "POSTED"
    assert await books_balanced(app)


async def test_one_staff_members_total_over_many_members(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    _, cashier = await staff_token(app, Role.CASHIER)
    members = [await new_member(client, app) for _ in range(5)]

    answers = [(await create(client, cashier, mid, LIMIT)).json() for mid in members]

    assert [a["status"] for a in answers] == ["POSTED"] * 4 + ["AWAITING_APPROVAL"]
    assert answers[4]["approvalReasons"] == ["staff_day"]
    # Another cashier has a total of their own; above the amount limit, every reason is said.
    _, other = await staff_token(app, Role.CASHIER)
    assert (await create(client, other, members[4], LIMIT)).json()["status"] == "POSTED"
    big = (await create(client, cashier, members[4], LIMIT + 1)).json()
    assert big["approvalReasons"] == ["amount", "staff_day", "member_day"]
    # An operator at the shell is not limited, and not counted.
    async with app.state.sessionmaker() as s:
        from pao.identity.models import Member

        member = await s.get(Member, members[3])
        assert member is not None
        await credit_manually(s, member=member, amount=50_000_00, note="cash", actor="ops:root")
        await s.commit()
    assert (await create(client, other, members[3], LIMIT)).json()["status"] == "POSTED"


async def test_concurrent_credits_never_pass_a_total_alone(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    _, cashier = await staff_token(app, Role.CASHIER)
    mid = await new_member(client, app)

    answers = await asyncio.gather(
        *(create(client, cashier, mid, LIMIT, key=f"burst-{i}") for i in range(8))
    )

    statuses = sorted(r.json()["status"] for r in answers)
    assert statuses == ["AWAITING_APPROVAL"] * 6 + ["POSTED"] * 2, statuses
    assert await balance(app, mid) == int(MEMBER_DAILY * 100)
    assert await books_balanced(app)


async def test_the_totals_are_site_settings(client: httpx.AsyncClient, app: FastAPI) -> None:
    _, cashier = await staff_token(app, Role.CASHIER)
    await set_money_setting(app, "manualAdjustmentMemberDaily", THB=None)
    mid = await new_member(client, app)
    # Unset for a currency: every adjustment in it waits, as for the amount limit.
    assert (await create(client, cashier, mid, 1)).json()["approvalReasons"] == ["member_day"]
