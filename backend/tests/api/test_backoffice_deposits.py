"""The back office's deposit review: failed slips that need a look (queue, image, approve once,
reject) and payments that matched no member (matched by hand once); SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import func, select

from pao.backoffice.models import AuditEntry
from pao.backoffice.staff.roles import Role
from pao.identity.models import Member
from pao.kit.money import Currency
from pao.ledger.models import JournalEntry
from pao.payments.gateways.base import VerifiedPayment
from pao.payments.qr.models import GatewayPayment
from pao.payments.qr.service import handle_bank_notification, record_gateway_payment
from pao.payments.slips.models import Slip
from tests.api.test_slips import (
    balance,
    bank_transfer,
    books_balanced,
    member,
    open_slips,
    slip_of,
    upload,
)
from tests.helpers import auth, register_and_login
from tests.slip_images import slip_payload, slip_png
from tests.staff_helpers import add_staff, bearer, open_token

# Also on SQLite (tests/databases.py): deposit credits by hand: money steps.
pytestmark = pytest.mark.sqlite

BASE = "/api/backoffice/deposits"


async def staff_token(app: FastAPI, role: Role = Role.CASHIER) -> str:
    return await open_token(app, await add_staff(app, role=role))


async def not_matching_slip(client: httpx.AsyncClient) -> tuple[str, int]:
    """A member's slip of a real transfer from an account that is not theirs (NOT_MATCH)."""
    await open_slips(client)
    token, _ = await member(client)
    transfer = await bank_transfer(client, from_account="9990001112", amount=300)
    response = await upload(client, token, await slip_of(client, transfer))
    assert response.json()["reason"] == "NOT_MATCH", response.text
    return token, int(response.json()["slip"]["_id"])


async def approve(
    client: httpx.AsyncClient, token: str, slip_id: int, amount: float, key: str | None = None
) -> httpx.Response:
    headers = bearer(token) | ({"Idempotency-Key": key} if key else {})
    return await client.post(
        f"{BASE}/slips/{slip_id}/approve", headers=headers, json={"amount": amount}
    )


async def test_queue_holds_needs_a_look_slips_with_the_bank_answer(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    token, slip_id = await not_matching_slip(client)
    # A duplicate is a final refusal: not in the queue. A slip the bank does not know is.
    fake = slip_png(slip_payload("004", "NOSUCHREF123"))
    unknown = await upload(client, token, fake)
    assert unknown.json()["reason"] == "INVALID_SLIP"
    cashier = await staff_token(app)

    page = await client.get(f"{BASE}/slips", headers=bearer(cashier))
    assert page.status_code == 200, page.text
    body = page.json()
    assert body["total"] == 2
    first = body["items"][0]
    assert (first["id"], first["reason"], first["reviewStatus"]) == (slip_id, "NOT_MATCH", "OPEN")
    assert first["bankLookup"]["outcome"] == "FOUND"
    assert first["bankLookup"]["amount"] == 300
    assert first["bankLookup"]["senderAccount"].endswith("1112")
    assert "999000" not in first["bankLookup"]["senderAccount"]
    assert body["items"][1]["bankLookup"]["outcome"] == "NOT_FOUND"

    detail = await client.get(f"{BASE}/slips/{slip_id}", headers=bearer(cashier))
    assert detail.json()["memberPhone"]
    bad = await client.get(f"{BASE}/slips?status=NOPE", headers=bearer(cashier))
    assert bad.status_code == 422


async def test_image_is_audited(client: httpx.AsyncClient, app: FastAPI) -> None:
    _, slip_id = await not_matching_slip(client)
    cashier = await staff_token(app)
    image = await client.get(f"{BASE}/slips/{slip_id}/image", headers=bearer(cashier))
    assert image.status_code == 200
    assert image.headers["content-type"] == "image/png"
    assert image.headers["x-content-type-options"] == "nosniff"
    assert image.content.startswith(b"\x89PNG")
    async with app.state.sessionmaker() as s:
        rows = (
            await s.execute(select(AuditEntry).where(AuditEntry.action == "sensitive.read"))
        ).scalars()
        assert [(r.object_type, r.object_id, r.detail) for r in rows] == [
            ("slip", str(slip_id), "slip_image")
        ]
    support = await staff_token(app, Role.SUPPORT)
    refused = await client.get(f"{BASE}/slips/{slip_id}/image", headers=bearer(support))
    assert refused.status_code == 403


async def test_approve_credits_once_and_replays(client: httpx.AsyncClient, app: FastAPI) -> None:
    token, slip_id = await not_matching_slip(client)
    cashier = await staff_token(app)

    first = await approve(client, cashier, slip_id, 300, key="k1")
    assert first.status_code == 200, first.text
    assert (first.json()["status"], first.json()["reviewStatus"]) == ("SUCCESS", "APPROVED")
    replay = await approve(client, cashier, slip_id, 300, key="k1")
    assert replay.status_code == 200
    assert replay.json() == first.json()
    again = await approve(client, cashier, slip_id, 300, key="k2")
    assert (again.status_code, again.json()["message"]) == (409, "DEPOSIT_ALREADY_SETTLED")
    other_body = await approve(client, cashier, slip_id, 400, key="k1")
    assert other_body.json()["message"] == "IDEMPOTENCY_KEY_REUSED"
    assert await balance(client, token) == 300
    statements = await client.post("/api/statement", headers=auth(token), json={})
    assert [s["amount"] for s in statements.json()["statements"]] == [300]
    slips = await client.post("/api/statement/slip", headers=auth(token), json={"page": 1})
    assert slips.json()["slips"][0]["status"] == "SUCCESS"
    async with app.state.sessionmaker() as s:
        actions = (await s.execute(select(AuditEntry.action))).scalars().all()
        assert actions.count("deposit.slip.approve") == 1
    assert await books_balanced(app)


async def test_eight_concurrent_approvals_credit_once(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    token, slip_id = await not_matching_slip(client)
    tokens = [await staff_token(app) for _ in range(8)]
    answers = await asyncio.gather(
        *(approve(client, t, slip_id, 300, key=f"c{i}") for i, t in enumerate(tokens))
    )
    codes = sorted(a.status_code for a in answers)
    assert codes == [200] + [409] * 7, [a.text for a in answers]
    assert await balance(client, token) == 300
    async with app.state.sessionmaker() as s:
        slip = await s.get(Slip, slip_id)
        assert slip is not None
        assert slip.journal_entry_id is not None
        deposits = await s.scalar(
            select(func.count()).select_from(JournalEntry).where(JournalEntry.kind == "deposit")
        )
        assert deposits == 1


async def test_reject_and_settled_slips(client: httpx.AsyncClient, app: FastAPI) -> None:
    token, slip_id = await not_matching_slip(client)
    cashier = await staff_token(app)
    empty = await client.post(
        f"{BASE}/slips/{slip_id}/reject", headers=bearer(cashier), json={"reason": ""}
    )
    assert empty.status_code == 422
    rejected = await client.post(
        f"{BASE}/slips/{slip_id}/reject", headers=bearer(cashier), json={"reason": "not theirs"}
    )
    assert rejected.status_code == 200, rejected.text
    assert (rejected.json()["reviewStatus"], rejected.json()["reviewNote"]) == (
        "REJECTED",
        "not theirs",
    )
    late = await approve(client, cashier, slip_id, 300)
    assert (late.status_code, late.json()["message"]) == (409, "DEPOSIT_ALREADY_SETTLED")
    assert await balance(client, token) == 0

    # A slip credited automatically is not the queue's: 404; an unknown one too.
    good_token, account = await member(client)
    transfer = await bank_transfer(client, from_account=account, amount=100)
    ok = await upload(client, good_token, await slip_of(client, transfer))
    credited = await approve(client, cashier, int(ok.json()["slip"]["_id"]), 100)
    assert (credited.status_code, credited.json()["message"]) == (404, "DEPOSIT_NOT_FOUND")
    missing = await approve(client, cashier, 999_999, 100)
    assert missing.status_code == 404
    zero = await approve(client, cashier, slip_id, 0)
    assert zero.status_code == 422


async def test_same_transfer_credited_once_across_slips(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    """Two reviewable slips of one transfer: the second approval is refused."""
    await open_slips(client)
    token, _ = await member(client)
    transfer = await bank_transfer(client, from_account="9990001113", amount=200)
    data = await slip_of(client, transfer)
    first = int((await upload(client, token, data)).json()["slip"]["_id"])
    second = (await upload(client, token, data + b"\0")).json()
    cashier = await staff_token(app)
    assert (await approve(client, cashier, first, 200)).status_code == 200
    if second["status"] == "FAILED" and second.get("slip", {}).get("_id"):
        answer = await approve(client, cashier, int(second["slip"]["_id"]), 200)
        assert answer.status_code in (404, 409)
    assert await balance(client, token) == 200


async def unmatched(app: FastAPI) -> tuple[int, int]:
    async with app.state.sessionmaker() as s:
        bank = await handle_bank_notification(
            s,
            transfer_id="T-UNMATCHED-1",
            amount=12_345,
            currency=Currency.THB,
            receiver_proxy="0800000000",
            qr_payload=None,
            paid_at=datetime.now(UTC),
        )
        gateway, _ = await record_gateway_payment(
            s,
            gateway="WW",
            payment=VerifiedPayment(
                txn_id="TX1", order_ref="NOPE", amount=5_000, currency=Currency.THB
            ),
            source="callback",
        )
        await s.commit()
        return bank.notification.id, gateway.id


async def test_unmatched_listed_and_matched_once(client: httpx.AsyncClient, app: FastAPI) -> None:
    bank_id, gateway_id = await unmatched(app)
    phone, token = await register_and_login(client)
    async with app.state.sessionmaker() as s:
        member_id = (await s.execute(select(Member.id).where(Member.phone == phone))).scalar_one()
    cashier = await staff_token(app)
    listed = await client.get(f"{BASE}/unmatched", headers=bearer(cashier))
    assert listed.status_code == 200, listed.text
    assert {(i["kind"], i["id"]) for i in listed.json()["items"]} == {
        ("bank", bank_id),
        ("gateway", gateway_id),
    }
    url = f"{BASE}/unmatched/bank/{bank_id}/match"
    nobody = await client.post(url, headers=bearer(cashier), json={"memberId": 999_999})
    assert (nobody.status_code, nobody.json()["message"]) == (404, "NO_USER")
    answers = await asyncio.gather(
        *(
            client.post(
                url,
                headers=bearer(cashier) | {"Idempotency-Key": f"m{i}"},
                json={"memberId": member_id},
            )
            for i in range(8)
        )
    )
    assert sorted(a.status_code for a in answers) == [200] + [409] * 7
    won = next(a for a in answers if a.status_code == 200).json()
    assert (won["outcome"], won["memberId"]) == ("MATCHED_BY_HAND", member_id)
    assert won["matchedBy"].startswith("staff:cashier")
    replay = await client.post(
        url, headers=bearer(cashier) | {"Idempotency-Key": "m0"}, json={"memberId": member_id}
    )
    assert replay.status_code in (200, 409)
    assert await balance(client, token) == 123.45
    gateway = await client.post(
        f"{BASE}/unmatched/gateway/{gateway_id}/match",
        headers=bearer(cashier),
        json={"memberId": member_id},
    )
    assert gateway.status_code == 200, gateway.text
    assert await balance(client, token) == 173.45
    left = await client.get(f"{BASE}/unmatched", headers=bearer(cashier))
    assert left.json()["total"] == 0
    done = await client.get(f"{BASE}/unmatched?status=MATCHED_BY_HAND", headers=bearer(cashier))
    assert done.json()["total"] == 2
    bad_kind = await client.post(
        f"{BASE}/unmatched/other/1/match", headers=bearer(cashier), json={"memberId": member_id}
    )
    assert bad_kind.status_code == 422
    async with app.state.sessionmaker() as s:
        row = await s.get(GatewayPayment, gateway_id)
        assert row is not None
        assert row.entry_id is not None
    assert await books_balanced(app)
