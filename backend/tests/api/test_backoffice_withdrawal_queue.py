"""The cashier's queue beyond its status: the filters (amount range, bank, member, age, flags)
and their validation, the flags that make a withdrawal *clean* (no recent bank change, no
linked accounts, no open bonus), approving a clean one straight from its row through the same
rules, and "claim next" (the oldest unclaimed one; two cashiers at once get two)."""

from __future__ import annotations

import asyncio
import itertools
import string
from datetime import timedelta

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import func, select

from pao.backoffice.models import AuditEntry
from pao.backoffice.staff.roles import Role
from pao.identity.changes import Origin, record_change
from pao.identity.models import MemberChangeKind
from pao.kit.clock import clock
from pao.wallet.adjustments import credit_manually
from pao.wallet.models import Withdrawal
from pao.wallet.service import find_member_by_phone
from tests.helpers import app_of, member_id, new_bank_account_no, register_and_login
from tests.promotions_helpers import give_active_bonus
from tests.staff_helpers import add_staff, bearer, open_token
from tests.withdrawal_helpers import PREFIX, request_withdrawal

_names = itertools.count(1)


def _holder() -> str:
    """A bank account holder name no other member of the run has (letters only)."""
    n, letters = next(_names), ""
    while n:
        n, r = divmod(n, 26)
        letters += string.ascii_uppercase[r]
    return f"HOLDER {letters}"


async def cashier(app: FastAPI, role: Role = Role.CASHIER) -> dict[str, str]:
    return bearer(await open_token(app, await add_staff(app, role=role)))


async def withdrawal_of_own(
    client: httpx.AsyncClient, amount: float = 300, *, bank: str = "SCB"
) -> tuple[int, str, int]:
    """(withdrawal id, member phone, member id) of a PENDING withdrawal by a member whose bank
    account is theirs alone: clean unless a test adds a flag."""
    phone, token = await register_and_login(
        client,
        bank_code=bank,
        bank_account_name=_holder(),
        bank_account_no=new_bank_account_no(),
    )
    async with app_of(client).state.sessionmaker() as s:
        member = await find_member_by_phone(s, phone=phone)
        await credit_manually(s, member=member, amount=1_000_00, note="test", actor="test")
        await s.commit()
    return await request_withdrawal(client, token, amount), phone, await member_id(client, token)


async def listed(
    client: httpx.AsyncClient, headers: dict[str, str], **params: str | int
) -> list[int]:
    r = await client.get(PREFIX, params={"limit": 100, **params}, headers=headers)
    assert r.status_code == 200, r.text
    return [i["id"] for i in r.json()["items"]]


async def test_filters_narrow_the_queue_on_the_server(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    small, _, _ = await withdrawal_of_own(client, 100, bank="SCB")
    middle, phone, mid = await withdrawal_of_own(client, 250.5, bank="KBANK")
    large, _, _ = await withdrawal_of_own(client, 900, bank="SCB")
    headers = await cashier(app, Role.VIEWER)

    assert await listed(client, headers, amountMin="200", amountMax="900") == [middle, large]
    assert await listed(client, headers, amountMin="250.50", amountMax="250.5") == [middle]
    assert await listed(client, headers, amountMax="99.99") == []
    assert await listed(client, headers, bank="scb") == [small, large]
    assert await listed(client, headers, member=phone) == [middle]
    assert await listed(client, headers, member=str(mid)) == [middle]
    assert await listed(client, headers, member="0999999999") == []
    # Filters combine, and the total counts what matches.
    r = await client.get(PREFIX, params={"bank": "SCB", "amountMin": 500}, headers=headers)
    assert (r.json()["total"], [i["id"] for i in r.json()["items"]]) == (1, [large])


async def test_age_filter_keeps_the_withdrawals_waiting_longer(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    old, _, _ = await withdrawal_of_own(client)
    clock.advance(timedelta(minutes=20))
    new, _, _ = await withdrawal_of_own(client)
    clock.advance(timedelta(minutes=5))
    headers = await cashier(app, Role.VIEWER)
    assert await listed(client, headers, olderThan=15) == [old]
    assert await listed(client, headers, olderThan=5) == [old, new]
    assert await listed(client, headers, olderThan=30) == []


@pytest.mark.parametrize(
    ("params", "code", "field"),
    [
        ({"amountMin": "abc"}, "KEY_INVALID", "amountMin"),
        ({"amountMin": "1.234"}, "KEY_INVALID", "amountMin"),
        ({"amountMax": "-5"}, "KEY_INVALID", "amountMax"),
        ({"amountMax": "1e400"}, "KEY_INVALID", "amountMax"),
        ({"amountMin": "500", "amountMax": "100"}, "AMOUNT_RANGE", ""),
        ({"bank": "SC B"}, "KEY_INVALID", "bank"),
        ({"bank": "X" * 11}, "KEY_INVALID", "bank"),
        ({"member": "08x"}, "KEY_INVALID", "member"),
        ({"member": "9" * 21}, "KEY_INVALID", "member"),
        ({"olderThan": "0"}, "KEY_INVALID", "olderThan"),
        ({"olderThan": "ten"}, "KEY_INVALID", "olderThan"),
        ({"olderThan": str(10**20)}, "KEY_INVALID", "olderThan"),
        ({"flags": "dirty"}, "KEY_INVALID", "flags"),
    ],
)
async def test_bad_filters_answer_422_with_a_code(
    client: httpx.AsyncClient, app: FastAPI, params: dict[str, str], code: str, field: str
) -> None:
    r = await client.get(PREFIX, params=params, headers=await cashier(app, Role.VIEWER))
    assert r.status_code == 422, r.text
    # The answer may name the rule too (pao.core.errors); the code and the field are the point.
    assert (r.json()["message"], r.json()["field"]) == (code, field)


async def test_a_long_member_number_is_matched_as_a_phone_only(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    # 19 digits cannot be a BIGINT id: it must not reach the database as one (no 500).
    headers = await cashier(app, Role.VIEWER)
    assert await listed(client, headers, member="9" * 19) == []


async def test_flags_and_clean(client: httpx.AsyncClient, app: FastAPI) -> None:
    clean, _, _ = await withdrawal_of_own(client)
    changed, _, changed_member = await withdrawal_of_own(client)
    bonus, _, bonus_member = await withdrawal_of_own(client)
    linked, _, linked_member = await withdrawal_of_own(client)
    async with app.state.sessionmaker() as s:
        # A bank account change an hour before the request (the hold window is 24 h).
        change = record_change(
            s,
            member_id=changed_member,
            kind=MemberChangeKind.BANK_ACCOUNT,
            origin=Origin(ip=None, user_agent=None),
        )
        change.created_at = change.created_at - timedelta(hours=1)
        # Another member on the holder name of the linked one.
        payee = await s.scalar(select(Withdrawal.bank_account_name).where(Withdrawal.id == linked))
        await s.commit()
    await register_and_login(
        client, bank_account_name=str(payee), bank_account_no=new_bank_account_no()
    )
    await give_active_bonus(app, bonus_member)

    headers = await cashier(app, Role.VIEWER)
    rows = {
        i["id"]: i
        for i in (await client.get(PREFIX, params={"limit": 100}, headers=headers)).json()["items"]
    }
    flags = {
        wid: (
            rows[wid]["bankChangedRecently"],
            rows[wid]["linkedAccounts"],
            rows[wid]["openBonus"],
            rows[wid]["clean"],
        )
        for wid in (clean, changed, bonus, linked)
    }
    assert flags == {
        clean: (False, False, False, True),
        changed: (True, False, False, False),
        bonus: (False, False, True, False),
        linked: (False, True, False, False),
    }
    assert await listed(client, headers, flags="clean") == [clean]
    assert await listed(client, headers, flags="flagged") == [changed, bonus, linked]
    # The detail says the same as the row.
    detail = (await client.get(f"{PREFIX}/{linked}", headers=headers)).json()
    assert (detail["withdrawal"]["linkedAccounts"], detail["withdrawal"]["clean"]) == (
        True,
        False,
    )
    assert len(detail["linkedMembers"]) == 1
    assert linked_member not in [m["id"] for m in detail["linkedMembers"]]


async def test_a_clean_row_is_approved_through_the_same_rules(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    wid, _, _ = await withdrawal_of_own(client, 200)
    ann = await cashier(app)
    row = (await client.get(PREFIX, headers=ann)).json()["items"][0]
    assert (row["id"], row["clean"]) == (wid, True)
    # Clean is no shortcut: still claimed first, still a decider's permission.
    unclaimed = await client.post(f"{PREFIX}/{wid}/approve", json={"mode": "payout"}, headers=ann)
    assert (unclaimed.status_code, unclaimed.json()["message"]) == (409, "WITHDRAWAL_NOT_CLAIMED")
    viewer = await cashier(app, Role.VIEWER)
    refused = await client.post(f"{PREFIX}/{wid}/claim", headers=viewer)
    assert (refused.status_code, refused.json()["message"]) == (403, "STAFF_FORBIDDEN")
    assert (await client.post(f"{PREFIX}/{wid}/claim", headers=ann)).status_code == 200
    approved = await client.post(
        f"{PREFIX}/{wid}/approve",
        json={"mode": "payout"},
        headers={**ann, "Idempotency-Key": "row-approve-1"},
    )
    assert approved.status_code == 200, approved.text
    assert approved.json()["status"] == "APPROVED"


async def test_claim_next_takes_the_oldest_unclaimed(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    ann, bob = await cashier(app), await cashier(app)
    empty = await client.post(f"{PREFIX}/claim-next", headers=ann)
    assert (empty.status_code, empty.json()["message"]) == (404, "WITHDRAWAL_QUEUE_EMPTY")
    first, _, _ = await withdrawal_of_own(client)
    second, _, _ = await withdrawal_of_own(client)
    third, _, _ = await withdrawal_of_own(client)
    # Bob holds the oldest: "claim next" passes it over.
    assert (await client.post(f"{PREFIX}/{first}/claim", headers=bob)).status_code == 200
    r = await client.post(f"{PREFIX}/claim-next", headers=ann)
    assert r.status_code == 200, r.text
    assert (r.json()["id"], r.json()["claimedByStaffId"] is not None) == (second, True)
    assert (await client.post(f"{PREFIX}/claim-next", headers=ann)).json()["id"] == third
    empty = await client.post(f"{PREFIX}/claim-next", headers=ann)
    assert empty.status_code == 404
    # A lapsed claim is free again.
    clock.advance(timedelta(minutes=16))
    assert (await client.post(f"{PREFIX}/claim-next", headers=ann)).json()["id"] == first
    viewer = await client.post(f"{PREFIX}/claim-next", headers=await cashier(app, Role.VIEWER))
    assert viewer.status_code == 403
    async with app.state.sessionmaker() as s:
        audited = await s.scalar(
            select(func.count())
            .select_from(AuditEntry)
            .where(AuditEntry.action == "withdrawal.claim", AuditEntry.detail == "claim next")
        )
    assert audited == 3


# SQLite serialises the two transactions (BEGIN IMMEDIATE) where PostgreSQL skips the locked
# row: two mechanisms, one promise.
@pytest.mark.sqlite
async def test_cashiers_pressing_claim_next_at_once_get_different_withdrawals(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    ids = [(await withdrawal_of_own(client))[0] for _ in range(4)]
    cashiers = [await cashier(app) for _ in range(4)]
    answers = await asyncio.gather(
        *(client.post(f"{PREFIX}/claim-next", headers=h) for h in cashiers)
    )
    assert [a.status_code for a in answers] == [200] * 4, [a.text for a in answers]
    assert sorted(a.json()["id"] for a in answers) == ids
    async with app.state.sessionmaker() as s:
        holders = (
            await s.execute(select(Withdrawal.claimed_by_staff_id).where(Withdrawal.id.in_(ids)))
        ).scalars()
        assert len(set(holders)) == 4
