"""The cashiers' withdrawal queue (``/api/backoffice/withdrawals``): the queue and its
context, claims (conflicts, expiry, only the claimer decides), approval through the sandbox
bank or by hand, rejection, idempotent retries and concurrent cashiers; on SQLite and
PostgreSQL."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from datetime import timedelta

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import func, select

from pao.backoffice.models import AuditEntry
from pao.backoffice.staff.roles import Role
from pao.kit.clock import clock
from pao.kit.states import StatusChange
from pao.ledger.service import check_books
from pao.ops.withdrawals import approve as ops_approve
from pao.payments.payouts.models import Payout, PayoutStatus
from pao.wallet.models import Withdrawal, WithdrawalStatus
from tests.helpers import auth
from tests.staff_helpers import add_staff, bearer, open_token
from tests.withdrawal_helpers import (
    PREFIX,
    funded_member,
    pending_withdrawal,
    request_withdrawal,
)

# Also on SQLite (tests/databases.py): withdrawal decisions, payouts, concurrent cashiers.
pytestmark = pytest.mark.sqlite


async def cashier(app: FastAPI, role: Role = Role.CASHIER) -> dict[str, str]:
    return bearer(await open_token(app, await add_staff(app, role=role)))


async def balance(client: httpx.AsyncClient, token: str) -> float:
    amount: float = (await client.get("/api/wallet", headers=auth(token))).json()["wallet"][
        "amount"
    ]
    return amount


async def statement_status(client: httpx.AsyncClient, token: str) -> str:
    r = await client.post("/api/statement", json={"page": 1, "limit": 10}, headers=auth(token))
    lines = [s for s in r.json()["statements"] if s["statementType"] == "withdraw"]
    assert len(lines) == 1, lines
    status: str = lines[0]["status"]
    return status


async def status_of(app: FastAPI, withdrawal_id: int) -> str:
    async with app.state.sessionmaker() as s:
        return str(await s.scalar(select(Withdrawal.status).where(Withdrawal.id == withdrawal_id)))


async def claim(client: httpx.AsyncClient, headers: dict[str, str], wid: int) -> httpx.Response:
    return await client.post(f"{PREFIX}/{wid}/claim", headers=headers)


async def decide(
    client: httpx.AsyncClient,
    headers: dict[str, str],
    wid: int,
    what: str,
    body: Mapping[str, object],
    key: str | None = None,
) -> httpx.Response:
    extra = {"Idempotency-Key": key} if key else {}
    return await client.post(f"{PREFIX}/{wid}/{what}", json=body, headers={**headers, **extra})


MANUAL: Mapping[str, object] = {"mode": "manual", "reference": "KB-0001"}
PAYOUT: Mapping[str, object] = {"mode": "payout"}
REJECT: Mapping[str, object] = {"reason": "name does not match"}


async def test_queue_lists_oldest_first_with_the_member_and_a_masked_account(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    first, _ = await pending_withdrawal(client, 100)
    second, _ = await pending_withdrawal(client, 200)
    headers = await cashier(app, Role.VIEWER)
    r = await client.get(PREFIX, params={"status": "PENDING"}, headers=headers)
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["total"] == 2
    assert [i["id"] for i in body["items"]] == [first, second]
    row = body["items"][0]
    assert row["memberPhone"]
    assert row["memberName"] == "Test Member"
    assert row["amount"] == 100
    assert row["accountNoMasked"].startswith("xxxxxx")
    assert len(row["accountNoMasked"]) == 10
    assert (row["claimedBy"], row["claimExpiresAt"], row["bankChangedRecently"]) == (
        None,
        None,
        False,
    )
    newest = await client.get(PREFIX, params={"sort": "-createdAt", "limit": 1}, headers=headers)
    assert [i["id"] for i in newest.json()["items"]] == [second]
    assert (await client.get(PREFIX, params={"status": "PAID"}, headers=headers)).json()[
        "total"
    ] == 0
    bad = await client.get(PREFIX, params={"sort": "phone"}, headers=headers)
    assert (bad.status_code, bad.json()["message"]) == (422, "KEY_INVALID")


async def test_detail_shows_the_context_and_audits_the_account_number(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    wid, _ = await pending_withdrawal(client, 300)
    headers = await cashier(app)
    r = await client.get(f"{PREFIX}/{wid}", headers=headers)
    assert r.status_code == 200, r.text
    body = r.json()
    assert len(body["accountNo"]) == 10
    assert body["accountNo"].isdigit()
    assert body["member"]["accountAgeDays"] == 0
    assert body["member"]["status"] == "ACTIVE"
    deposits = body["deposits"]
    assert (deposits["days"], deposits["count"], deposits["total"]) == (7, 1, 1000)
    assert [(d["amount"], d["channel"]) for d in deposits["last"]] == [(1000, "manual")]
    assert body["activeBonus"] is None
    assert body["payout"] is None
    assert body["bankChangedRecently"] is False
    async with app.state.sessionmaker() as s:
        reads = await s.scalar(
            select(func.count())
            .select_from(AuditEntry)
            .where(AuditEntry.action == "sensitive.read", AuditEntry.object_id == str(wid))
        )
    assert reads == 1
    # A viewer reads the queue but not the full number (and nothing is recorded for it).
    viewed = await client.get(f"{PREFIX}/{wid}", headers=await cashier(app, Role.VIEWER))
    assert viewed.json()["accountNo"] is None
    missing = await client.get(f"{PREFIX}/999999", headers=headers)
    assert (missing.status_code, missing.json()["message"]) == (404, "NO_DATA")


async def test_members_on_the_same_account_holder_are_shown(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    wid, _ = await pending_withdrawal(client)
    await funded_member(client)  # the helpers register every member as "TEST MEMBER"
    body = (await client.get(f"{PREFIX}/{wid}", headers=await cashier(app))).json()
    assert len(body["linkedMembers"]) == 1
    assert body["linkedMembers"][0]["bankAccountName"] == "TEST MEMBER"
    assert body["linkedMembers"][0]["reasons"] == ["holder_name"]


async def test_claim_conflicts_and_release(client: httpx.AsyncClient, app: FastAPI) -> None:
    wid, _ = await pending_withdrawal(client)
    ann, bob = await cashier(app), await cashier(app)
    first = await claim(client, ann, wid)
    assert first.status_code == 200, first.text
    assert first.json()["claimedBy"].startswith("cashier")
    taken = await claim(client, bob, wid)
    assert (taken.status_code, taken.json()["message"]) == (409, "WITHDRAWAL_CLAIMED")
    clock.advance(timedelta(minutes=5))
    again = await claim(client, ann, wid)  # the same cashier extends the claim
    assert again.json()["claimExpiresAt"] > first.json()["claimExpiresAt"]
    not_yours = await client.post(f"{PREFIX}/{wid}/release", headers=bob)
    assert (not_yours.status_code, not_yours.json()["message"]) == (409, "WITHDRAWAL_CLAIMED")
    released = await client.post(f"{PREFIX}/{wid}/release", headers=ann)
    assert released.status_code == 200
    assert released.json()["claimedBy"] is None
    assert (await claim(client, bob, wid)).status_code == 200


async def test_claim_expires_after_fifteen_minutes(client: httpx.AsyncClient, app: FastAPI) -> None:
    wid, _ = await pending_withdrawal(client)
    ann, bob = await cashier(app), await cashier(app)
    assert (await claim(client, ann, wid)).status_code == 200
    clock.advance(timedelta(minutes=14))
    assert (await claim(client, bob, wid)).status_code == 409
    clock.advance(timedelta(minutes=2))
    listed = (await client.get(PREFIX, headers=bob)).json()["items"][0]
    assert listed["claimedBy"] is None
    # The lapsed claimer may no longer decide; the new one may.
    late = await decide(client, ann, wid, "approve", MANUAL)
    assert (late.status_code, late.json()["message"]) == (409, "WITHDRAWAL_NOT_CLAIMED")
    assert (await claim(client, bob, wid)).status_code == 200
    refused = await decide(client, ann, wid, "approve", MANUAL)
    assert (refused.status_code, refused.json()["message"]) == (409, "WITHDRAWAL_CLAIMED")
    assert (await decide(client, bob, wid, "approve", MANUAL)).status_code == 200


async def test_decisions_by_anyone_but_the_claimer_are_refused(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    wid, token = await pending_withdrawal(client)
    ann, bob = await cashier(app), await cashier(app)
    for what, body in (("approve", MANUAL), ("approve", PAYOUT), ("reject", REJECT)):
        r = await decide(client, ann, wid, what, body)
        assert (r.status_code, r.json()["message"]) == (409, "WITHDRAWAL_NOT_CLAIMED")
    await claim(client, ann, wid)
    for what, body in (("approve", MANUAL), ("approve", PAYOUT), ("reject", REJECT)):
        r = await decide(client, bob, wid, what, body)
        assert (r.status_code, r.json()["message"]) == (409, "WITHDRAWAL_CLAIMED")
    viewer = await decide(client, await cashier(app, Role.VIEWER), wid, "reject", REJECT)
    assert (viewer.status_code, viewer.json()["message"]) == (403, "STAFF_FORBIDDEN")
    assert await status_of(app, wid) == WithdrawalStatus.PENDING
    assert await balance(client, token) == 700
    async with app.state.sessionmaker() as s:
        assert await s.scalar(select(func.count()).select_from(Payout)) == 0


async def test_approve_via_the_sandbox_bank_pays_and_the_statement_says_success(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    wid, token = await pending_withdrawal(client, 300)
    ann = await cashier(app)
    await claim(client, ann, wid)
    r = await decide(client, ann, wid, "approve", PAYOUT, key="k-1")
    assert r.status_code == 200, r.text
    # The answer is the committed approval; the bank was called after it (a background task).
    assert r.json()["status"] == WithdrawalStatus.APPROVED
    assert await status_of(app, wid) == WithdrawalStatus.PAID
    assert await statement_status(client, token) == "SUCCESS"
    detail = (await client.get(f"{PREFIX}/{wid}", headers=ann)).json()
    assert detail["payout"]["status"] == PayoutStatus.SUCCEEDED
    assert detail["withdrawal"]["decidedBy"].startswith("staff:cashier")
    assert await balance(client, token) == 700
    async with app.state.sessionmaker() as s:
        assert (await check_books(s)).balanced


async def test_paid_by_hand_needs_a_reference(client: httpx.AsyncClient, app: FastAPI) -> None:
    wid, token = await pending_withdrawal(client, 250)
    ann = await cashier(app)
    await claim(client, ann, wid)
    for body in ({"mode": "manual"}, {"mode": "manual", "reference": "  "}):
        r = await decide(client, ann, wid, "approve", body)
        assert (r.status_code, r.json()["message"]) == (422, "KEY_MISSING"), r.text
    r = await decide(client, ann, wid, "approve", MANUAL)
    assert r.status_code == 200, r.text
    assert r.json()["status"] == WithdrawalStatus.PAID
    async with app.state.sessionmaker() as s:
        reasons = (
            await s.execute(select(StatusChange.reason).where(StatusChange.entity_id == wid))
        ).scalars()
        assert "paid by hand, ref KB-0001" in list(reasons)
    assert await statement_status(client, token) == "SUCCESS"
    async with app.state.sessionmaker() as s:
        assert await s.scalar(select(func.count()).select_from(Payout)) == 0


async def test_reject_gives_the_money_back(client: httpx.AsyncClient, app: FastAPI) -> None:
    wid, token = await pending_withdrawal(client, 400)
    ann = await cashier(app)
    await claim(client, ann, wid)
    assert await balance(client, token) == 600
    empty = await decide(client, ann, wid, "reject", {"reason": "   "})
    assert empty.status_code == 422
    r = await decide(client, ann, wid, "reject", REJECT)
    assert r.status_code == 200, r.text
    assert (r.json()["status"], r.json()["reason"]) == ("REJECTED", "name does not match")
    assert await balance(client, token) == 1000
    assert await statement_status(client, token) == "FAILED"
    again = await decide(client, ann, wid, "approve", MANUAL)
    assert (again.status_code, again.json()["message"]) == (409, "WITHDRAWAL_ALREADY_DECIDED")


async def test_a_retried_approval_decides_and_pays_once(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    wid, token = await pending_withdrawal(client, 300)
    ann = await cashier(app)
    await claim(client, ann, wid)
    first = await decide(client, ann, wid, "approve", PAYOUT, key="double-click")
    second = await decide(client, ann, wid, "approve", PAYOUT, key="double-click")
    assert (first.status_code, second.status_code) == (200, 200)
    assert first.json() == second.json()
    other = await decide(client, ann, wid, "approve", MANUAL, key="double-click")
    assert (other.status_code, other.json()["message"]) == (409, "IDEMPOTENCY_KEY_REUSED")
    async with app.state.sessionmaker() as s:
        payouts = (await s.execute(select(Payout))).scalars().all()
        approvals = await s.scalar(
            select(func.count())
            .select_from(AuditEntry)
            .where(AuditEntry.action == "withdrawal.approve")
        )
    assert [(p.status, p.attempts) for p in payouts] == [(PayoutStatus.SUCCEEDED, 1)]
    assert approvals == 1
    assert await balance(client, token) == 700


async def test_two_cashiers_claiming_at_once_one_wins(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    wid, _ = await pending_withdrawal(client)
    cashiers = [await cashier(app) for _ in range(2)]
    answers = await asyncio.gather(*(claim(client, h, wid) for h in cashiers))
    codes = sorted((r.status_code, r.json().get("message")) for r in answers)
    assert codes == [(200, None), (409, "WITHDRAWAL_CLAIMED")], codes


async def test_concurrent_decisions_decide_once(client: httpx.AsyncClient, app: FastAPI) -> None:
    wid, token = await pending_withdrawal(client, 300)
    ann = await cashier(app)
    await claim(client, ann, wid)
    calls = [
        decide(client, ann, wid, "approve", MANUAL if i % 3 else PAYOUT, key=f"a-{i}")
        if i % 2
        else decide(client, ann, wid, "reject", REJECT, key=f"r-{i}")
        for i in range(8)
    ]
    answers = await asyncio.gather(*calls)
    codes = sorted((r.status_code, r.json().get("message")) for r in answers)
    assert codes.count((200, None)) == 1, codes
    assert codes.count((409, "WITHDRAWAL_ALREADY_DECIDED")) == 7, codes
    final = await status_of(app, wid)
    assert final in (WithdrawalStatus.PAID, WithdrawalStatus.REJECTED)
    assert await balance(client, token) == (700 if final == WithdrawalStatus.PAID else 1000)
    async with app.state.sessionmaker() as s:
        assert (await check_books(s)).balanced
        assert await s.scalar(select(func.count()).select_from(Payout)) <= 1


async def test_the_shell_bypasses_claims(client: httpx.AsyncClient, app: FastAPI) -> None:
    """``pao ops withdrawals approve`` calls the same function without a claimant."""
    wid, _ = await pending_withdrawal(client)
    await claim(client, await cashier(app), wid)
    async with app.state.sessionmaker() as s:
        line = await ops_approve(s, withdrawal_id=wid, note="paid at the counter", actor="ops:t")
        await s.commit()
    assert line.startswith("paid:")
    assert await status_of(app, wid) == WithdrawalStatus.PAID


async def test_a_new_withdrawal_shows_in_the_queue(client: httpx.AsyncClient, app: FastAPI) -> None:
    _, token = await funded_member(client)
    headers = await cashier(app)
    assert (await client.get(PREFIX, headers=headers)).json()["total"] == 0
    wid = await request_withdrawal(client, token, 150)
    items = (await client.get(PREFIX, headers=headers)).json()["items"]
    assert [(i["id"], i["amount"], i["status"]) for i in items] == [(wid, 150, "PENDING")]
