"""The back office's deposit review: failed slips that need a look (queue, image, approve once,
reject) and payments that matched no member (matched by hand once); SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Any

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
from pao.payments.qr.models import BankNotification, GatewayPayment
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
from tests.helpers import auth, new_bank_account_no, register_and_login
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
    nobody = await client.post(
        url, headers=bearer(cashier), json={"memberId": 999_999, "note": "phoned in"}
    )
    assert (nobody.status_code, nobody.json()["message"]) == (404, "NO_USER")
    answers = await asyncio.gather(
        *(
            client.post(
                url,
                headers=bearer(cashier) | {"Idempotency-Key": f"m{i}"},
                json={"memberId": member_id, "note": "phoned in"},
            )
            for i in range(8)
        )
    )
    assert sorted(a.status_code for a in answers) == [200] + [409] * 7
    won = next(a for a in answers if a.status_code == 200).json()
    assert (won["outcome"], won["memberId"]) == ("MATCHED_BY_HAND", member_id)
    assert won["matchedBy"].startswith("staff:cashier")
    replay = await client.post(
        url,
        headers=bearer(cashier) | {"Idempotency-Key": "m0"},
        json={"memberId": member_id, "note": "phoned in"},
    )
    assert replay.status_code in (200, 409)
    assert await balance(client, token) == 123.45
    gateway = await client.post(
        f"{BASE}/unmatched/gateway/{gateway_id}/match",
        headers=bearer(cashier),
        json={"memberId": member_id, "note": "gateway order lost"},
    )
    assert gateway.status_code == 200, gateway.text
    assert await balance(client, token) == 173.45
    left = await client.get(f"{BASE}/unmatched", headers=bearer(cashier))
    assert left.json()["total"] == 0
    done = await client.get(f"{BASE}/unmatched?status=MATCHED_BY_HAND", headers=bearer(cashier))
    assert done.json()["total"] == 2
    bad_kind = await client.post(
        f"{BASE}/unmatched/other/1/match",
        headers=bearer(cashier),
        json={"memberId": member_id, "note": "x"},
    )
    assert bad_kind.status_code == 422
    async with app.state.sessionmaker() as s:
        row = await s.get(GatewayPayment, gateway_id)
        assert row is not None
        assert row.entry_id is not None
    assert await books_balanced(app)


# ----- the payer: shown, suggested, and no blind match ---------------------------------------


async def new_member(
    client: httpx.AsyncClient, app: FastAPI, account: str | None = None, bank: str = "KBANK"
) -> tuple[int, str, str]:
    """(id, token, account no) of a new member with that registered account."""
    account = account or new_bank_account_no()
    phone, token = await register_and_login(client, bank_code=bank, bank_account_no=account)
    async with app.state.sessionmaker() as s:
        member_id = (await s.execute(select(Member.id).where(Member.phone == phone))).scalar_one()
    return member_id, token, account


_transfers = iter(range(1, 1_000_000))


async def paid_by(
    app: FastAPI, *, bank: str | None, account: str | None, name: str | None = "SOMCHAI J"
) -> int:
    """An UNMATCHED bank transfer of 123.45 from that payer; its id."""
    async with app.state.sessionmaker() as s:
        result = await handle_bank_notification(
            s,
            transfer_id=f"T-PAYER-{next(_transfers)}-{new_bank_account_no()}",
            amount=12_345,
            currency=Currency.THB,
            receiver_proxy="0800000000",
            qr_payload=None,
            paid_at=datetime.now(UTC),
            payer_bank=bank,
            payer_account=account,
            payer_name=name,
        )
        await s.commit()
        return result.notification.id


async def detail(
    client: httpx.AsyncClient, token: str, kind: str, payment_id: int
) -> dict[str, Any]:
    answer = await client.get(f"{BASE}/unmatched/{kind}/{payment_id}", headers=bearer(token))
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    return found


async def match(
    client: httpx.AsyncClient,
    token: str,
    payment_id: int,
    body: dict[str, Any],
    key: str | None = None,
) -> httpx.Response:
    headers = bearer(token) | ({"Idempotency-Key": key} if key else {})
    return await client.post(
        f"{BASE}/unmatched/bank/{payment_id}/match", headers=headers, json=body
    )


async def outcome_of(app: FastAPI, payment_id: int) -> str:
    async with app.state.sessionmaker() as s:
        row = await s.get(BankNotification, payment_id)
        assert row is not None
        return str(row.outcome)


async def test_payer_shown_and_its_owner_suggested(client: httpx.AsyncClient, app: FastAPI) -> None:
    owner, _, account = await new_member(client, app)
    # SCB sends the payer's bank as a clearing code: 004 is KBANK.
    payment = await paid_by(app, bank="004", account=account, name="SOMCHAI JAIDEE")
    stranger = await paid_by(app, bank="KBANK", account=new_bank_account_no(), name=None)
    no_payer = await paid_by(app, bank=None, account=None, name=None)
    _, gateway_id = await unmatched(app)
    cashier = await staff_token(app)

    listed = await client.get(f"{BASE}/unmatched?limit=100", headers=bearer(cashier))
    rows = {(i["kind"], i["id"]): i for i in listed.json()["items"]}
    row = rows[("bank", payment)]
    # Shown as the bank Pao knows (the lists name banks by Pao's code), not the clearing code.
    assert (row["payerBank"], row["payerAccount"], row["payerName"]) == (
        "KBANK",
        "xxxxxx" + account[-4:],
        "SOMCHAI JAIDEE",
    )
    assert rows[("gateway", gateway_id)]["payerAccount"] is None

    one = await detail(client, cashier, "bank", payment)
    assert one["payment"]["payerName"] == "SOMCHAI JAIDEE"
    assert (one["ownerStatus"], one["ownerIds"]) == ("ONE", [owner])
    suggestion = one["suggestion"]
    assert (suggestion["id"], suggestion["bankCode"]) == (owner, "KBANK")
    assert suggestion["accountNoMasked"] == "xxxxxx" + account[-4:]
    assert suggestion["phone"]
    assert suggestion["name"]
    # A masked account that shows enough digits to fit one member only.
    masked = await paid_by(app, bank="KBANK", account="xx" + account[2:])
    assert (await detail(client, cashier, "bank", masked))["suggestion"]["id"] == owner
    # The same number at another bank is not this member's account.
    elsewhere = await paid_by(app, bank="SCB", account=account)
    assert (await detail(client, cashier, "bank", elsewhere))["ownerStatus"] == "NONE"
    assert (await detail(client, cashier, "bank", stranger))["ownerStatus"] == "NONE"
    unknown = await detail(client, cashier, "bank", no_payer)
    assert (unknown["ownerStatus"], unknown["suggestion"]) == ("UNKNOWN", None)
    assert (await detail(client, cashier, "gateway", gateway_id))["ownerStatus"] == "UNKNOWN"
    missing = await client.get(f"{BASE}/unmatched/bank/999999", headers=bearer(cashier))
    assert (missing.status_code, missing.json()["message"]) == (404, "DEPOSIT_NOT_FOUND")


async def test_masked_account_of_several_members_is_ambiguous(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    first, first_token, account = await new_member(client, app)
    # Another member's account shows the same last four digits and has the same length.
    second, _, _ = await new_member(client, app, new_bank_account_no()[:6] + account[6:])
    other, _, _ = await new_member(client, app)
    payment = await paid_by(app, bank="KBANK", account="xxx-xxx-" + account[6:])
    cashier = await staff_token(app)

    found = await detail(client, cashier, "bank", payment)
    assert found["payment"]["payerAccount"] == "xxx-xxx-" + account[6:]
    assert (found["ownerStatus"], found["suggestion"]) == ("AMBIGUOUS", None)
    assert {first, second} <= set(found["ownerIds"])
    assert other not in found["ownerIds"]
    # Someone none of the candidates: the payer account is someone else's.
    blind = await match(client, cashier, payment, {"memberId": other, "note": "asked"})
    assert (blind.status_code, blind.json()["message"]) == (409, "PAYER_IS_ANOTHER_MEMBER")
    # One of the candidates, with a note: credited.
    chosen = await match(client, cashier, payment, {"memberId": first, "note": "slip sent in chat"})
    assert chosen.status_code == 200, chosen.text
    assert await balance(client, first_token) == 123.45


async def test_match_refused_without_a_note(client: httpx.AsyncClient, app: FastAPI) -> None:
    owner, token, account = await new_member(client, app)
    payment = await paid_by(app, bank="KBANK", account=account)
    cashier = await staff_token(app)
    for body in ({"memberId": owner}, {"memberId": owner, "note": "   "}):
        refused = await match(client, cashier, payment, body)
        assert refused.status_code == 422, refused.text
        assert refused.json() == {"message": "DEPOSIT_NOTE_REQUIRED", "field": "note"}
    assert await outcome_of(app, payment) == "UNMATCHED"
    assert await balance(client, token) == 0


async def test_blind_match_to_another_member_needs_a_confirmation(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    owner, owner_token, account = await new_member(client, app)
    other, other_token, _ = await new_member(client, app)
    payment = await paid_by(app, bank="KBANK", account=account)
    cashier = await staff_token(app)
    note = "member 2 says he used his brother's account"

    blind = await match(client, cashier, payment, {"memberId": other, "note": note})
    assert blind.status_code == 409, blind.text
    assert blind.json() == {"message": "PAYER_IS_ANOTHER_MEMBER", "ownerIds": [owner]}
    unconfirmed = {"memberId": other, "note": note, "confirmOtherOwner": False}
    assert (await match(client, cashier, payment, unconfirmed)).status_code == 409
    assert await outcome_of(app, payment) == "UNMATCHED"

    body = {"memberId": other, "note": note, "confirmOtherOwner": True}
    confirmed = await match(client, cashier, payment, body, key="confirm-1")
    assert confirmed.status_code == 200, confirmed.text
    assert (confirmed.json()["memberId"], confirmed.json()["outcome"]) == (other, "MATCHED_BY_HAND")
    # A retry with the same key replays the answer and credits nothing more.
    retry = await match(client, cashier, payment, body, key="confirm-1")
    assert (retry.status_code, retry.json()) == (200, confirmed.json())
    reused = await match(client, cashier, payment, {**body, "note": "other"}, key="confirm-1")
    assert (reused.status_code, reused.json()["message"]) == (409, "IDEMPOTENCY_KEY_REUSED")
    assert await balance(client, other_token) == 123.45
    assert await balance(client, owner_token) == 0

    async with app.state.sessionmaker() as s:
        audits = (
            (
                await s.execute(
                    select(AuditEntry).where(
                        AuditEntry.action == "deposit.payment.match",
                        AuditEntry.object_id == str(payment),
                    )
                )
            )
            .scalars()
            .all()
        )
    assert len(audits) == 1
    (audit,) = audits
    assert audit.detail == note
    assert audit.after is not None
    assert audit.after["amount"] == {"$minor": {"THB": 123_45}}
    assert audit.after["memberId"] == other
    assert audit.after["payerOwnerIds"] == [owner]
    assert audit.after["confirmOtherOwner"] is True
    assert audit.after["payerAccount"] == "xxxxxx" + account[-4:]
    assert await books_balanced(app)


async def test_concurrent_matches_with_a_payer_credit_once(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    owner, owner_token, account = await new_member(client, app)
    other, other_token, _ = await new_member(client, app)
    payment = await paid_by(app, bank="KBANK", account=account)
    cashier = await staff_token(app)
    bodies = [
        {"memberId": owner, "note": "owner"}
        if i % 2 == 0
        else {"memberId": other, "note": "other", "confirmOtherOwner": True}
        for i in range(8)
    ]
    answers = await asyncio.gather(
        *(match(client, cashier, payment, body, key=f"c{i}") for i, body in enumerate(bodies))
    )
    assert sorted(a.status_code for a in answers) == [200] + [409] * 7
    assert {a.json()["message"] for a in answers if a.status_code == 409} == {
        "DEPOSIT_ALREADY_SETTLED"
    }
    assert sorted([await balance(client, owner_token), await balance(client, other_token)]) == [
        0,
        123.45,
    ]
    async with app.state.sessionmaker() as s:
        row = await s.get(BankNotification, payment)
        assert row is not None
        entries = await s.scalar(
            select(func.count())
            .select_from(JournalEntry)
            .where(JournalEntry.memo.like(f"bank transfer {row.transfer_id} matched by %"))
        )
    assert entries == 1
    assert await books_balanced(app)
