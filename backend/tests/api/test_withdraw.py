"""POST /api/wallet/withdraw and /withdrawAll: limits, refusals that change nothing, the hold,
idempotent retries, and many concurrent requests on one wallet."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from pao.kit.money import Currency
from pao.ledger.models import AccountKind, Hold, HoldStatus, LedgerAccount
from pao.ledger.service import check_books
from pao.wallet.adjustments import credit_manually
from pao.wallet.models import Statement, StatementStatus, Withdrawal, WithdrawalStatus
from pao.wallet.service import find_member_by_phone, wallet_balance
from tests.helpers import auth, register_and_login, set_money_setting

# Also on SQLite (tests/databases.py): withdrawal requests, in steps there.
pytestmark = pytest.mark.sqlite

WITHDRAW_PATHS = ["/api/wallet/withdraw", "/api/wallet/withdrawAll"]


async def funded_member(
    client: httpx.AsyncClient, session: AsyncSession, amount: int
) -> tuple[int, str]:
    """A registered, logged-in member whose wallet holds ``amount`` minor units."""
    phone, token = await register_and_login(client)
    member = await find_member_by_phone(session, phone=phone)
    if amount:
        await credit_manually(session, member=member, amount=amount, note="test", actor="test")
    await session.commit()
    return member.id, token


# On SQLite every transaction takes the write lock (BEGIN IMMEDIATE), so the helpers that
# read for assertions end their transaction before the test calls the app again.


async def balance(session: AsyncSession, member_id: int) -> int:
    value = await wallet_balance(session, member_id=member_id, currency=Currency.THB)
    await session.rollback()
    return value


async def count(session: AsyncSession, model: Any) -> int:
    value = (await session.execute(select(func.count()).select_from(model))).scalar_one()
    await session.rollback()
    return int(value)


async def assert_untouched(session: AsyncSession, member_id: int, expected: int) -> None:
    assert await balance(session, member_id) == expected
    assert await count(session, Withdrawal) == 0
    assert await count(session, Hold) == 0
    assert (await check_books(session)).balanced
    await session.rollback()


async def test_withdraw_needs_a_token(client: httpx.AsyncClient) -> None:
    response = await client.post("/api/wallet/withdraw", json={"amount": 100})
    assert response.status_code == 401
    assert response.json() == {"message": "invalid-token"}


@pytest.mark.parametrize("path", WITHDRAW_PATHS)
async def test_withdraw_holds_the_money(
    client: httpx.AsyncClient, session: AsyncSession, path: str
) -> None:
    member_id, token = await funded_member(client, session, 1_000_00)

    response = await client.post(path, json={"amount": 300.5}, headers=auth(token))

    assert response.status_code == 200, response.text
    body = response.json()
    assert body["code"] == "OK"
    assert body["status"] == "PENDING"
    assert await balance(session, member_id) == 699_50
    withdrawal = await session.get(Withdrawal, body["withdrawalId"])
    assert withdrawal is not None
    assert (withdrawal.member_id, withdrawal.amount, withdrawal.status) == (
        member_id,
        300_50,
        WithdrawalStatus.PENDING,
    )
    assert withdrawal.bank_code == "KBANK"
    hold = await session.get(Hold, withdrawal.hold_id)
    assert hold is not None
    assert (hold.status, hold.amount, hold.purpose) == (HoldStatus.PENDING, 300_50, "withdrawal")
    suspense = (
        await session.execute(
            select(LedgerAccount).where(LedgerAccount.kind == AccountKind.WITHDRAWALS_PENDING)
        )
    ).scalar_one()
    # The member's own suspense account: holds of different members never share a row.
    assert (suspense.owner, suspense.balance) == (str(withdrawal.member_id), 300_50)
    line = (
        await session.execute(select(Statement).where(Statement.ref_type == "withdrawal"))
    ).scalar_one()
    assert (line.member_id, line.statement_type, line.status, line.amount) == (
        member_id,
        "withdraw",
        StatementStatus.PENDING,
        300_50,
    )
    assert (await check_books(session)).balanced
    await session.rollback()
    wallet = await client.get("/api/wallet", headers=auth(token))
    assert wallet.json()["wallet"]["amount"] == 699.5


@pytest.mark.parametrize(
    ("amount", "minimum", "maximum", "code"),
    [
        (0, 100_00, 50_000_00, "TRANSFER_MINIMUM"),
        (0, 0, 50_000_00, "TRANSFER_MINIMUM"),
        (99.99, 100_00, 50_000_00, "WITHDRAW_MINIMUM"),
        (500.01, 1_00, 500_00, "WITHDRAW_MAXIMUM"),
        (800, 1_00, 50_000_00, "MONEY_NOT_ENOUGH"),
    ],
)
async def test_refused_withdrawals_change_nothing(
    client: httpx.AsyncClient,
    session: AsyncSession,
    amount: float,
    minimum: int,
    maximum: int,
    code: str,
) -> None:
    member_id, token = await funded_member(client, session, 700_00)
    await set_money_setting(client, "withdrawMin", THB=minimum)
    await set_money_setting(client, "withdrawMax", THB=maximum)

    response = await client.post(
        "/api/wallet/withdrawAll", json={"amount": amount}, headers=auth(token)
    )

    assert response.status_code == 400, response.text
    assert response.json()["message"] == code
    await assert_untouched(session, member_id, 700_00)


async def test_limits_are_inclusive(client: httpx.AsyncClient, session: AsyncSession) -> None:
    member_id, token = await funded_member(client, session, 1_000_00)
    await set_money_setting(client, "withdrawMin", THB=100_00)
    await set_money_setting(client, "withdrawMax", THB=200_00)
    for amount in (100, 200):
        response = await client.post(
            "/api/wallet/withdraw", json={"amount": amount}, headers=auth(token)
        )
        assert response.status_code == 200, response.text
    assert await balance(session, member_id) == 700_00


@pytest.mark.parametrize(
    ("body", "code"),
    [
        (b'{"amount": -100}', "KEY_INVALID"),
        (b'{"amount": 100.001}', "KEY_INVALID"),
        (b'{"amount": "100"}', "KEY_INVALID"),
        (b'{"amount": NaN}', "KEY_INVALID"),
        (b'{"amount": Infinity}', "KEY_INVALID"),
        (b'{"amount": true}', "KEY_INVALID"),
        (b'{"amount": null}', "KEY_INVALID"),
        (b'{"amount": 1e400}', "KEY_INVALID"),
        (b"{}", "KEY_MISSING"),
    ],
)
async def test_invalid_amounts_are_422(
    client: httpx.AsyncClient, session: AsyncSession, body: bytes, code: str
) -> None:
    member_id, token = await funded_member(client, session, 1_000_00)

    response = await client.post(
        "/api/wallet/withdraw",
        content=body,
        headers={**auth(token), "Content-Type": "application/json"},
    )

    assert response.status_code == 422, response.text
    assert response.json()["message"] == code
    await assert_untouched(session, member_id, 1_000_00)


async def test_same_key_twice_holds_once(client: httpx.AsyncClient, session: AsyncSession) -> None:
    member_id, token = await funded_member(client, session, 1_000_00)
    headers = {**auth(token), "Idempotency-Key": str(uuid.uuid4())}

    first = await client.post("/api/wallet/withdrawAll", json={"amount": 150}, headers=headers)
    again = await client.post("/api/wallet/withdrawAll", json={"amount": 150}, headers=headers)

    assert first.status_code == again.status_code == 200
    assert again.json() == first.json()
    assert await count(session, Hold) == 1
    assert await balance(session, member_id) == 850_00

    other = await client.post("/api/wallet/withdrawAll", json={"amount": 151}, headers=headers)
    assert other.status_code == 409
    assert other.json()["message"] == "IDEMPOTENCY_KEY_REUSED"
    assert await count(session, Hold) == 1
    assert await balance(session, member_id) == 850_00


async def test_a_replay_is_answered_from_its_record_whatever_changed_since(
    client: httpx.AsyncClient, session: AsyncSession
) -> None:
    """The key is claimed before anything is checked, and a replay answered from its record:
    since the first request the limits moved past its amount and the wallet emptied, and the
    retry still answers what the first did, moving nothing (issue 36: whoever folds the claim
    into the withdrawal's function keeps this order)."""
    member_id, token = await funded_member(client, session, 1_000_00)
    headers = {**auth(token), "Idempotency-Key": "before-the-limits-moved"}
    first = await client.post("/api/wallet/withdraw", json={"amount": 150}, headers=headers)
    assert first.status_code == 200, first.text
    rest = await client.post("/api/wallet/withdraw", json={"amount": 850}, headers=auth(token))
    assert rest.status_code == 200, rest.text
    await set_money_setting(client, "withdrawMin", THB=200_00)
    await set_money_setting(client, "withdrawMax", THB=100_00)
    fresh = await client.post("/api/wallet/withdraw", json={"amount": 150}, headers=auth(token))
    assert fresh.status_code == 400  # what the same request is answered when it is new

    for path in WITHDRAW_PATHS:
        again = await client.post(path, json={"amount": 150}, headers=headers)
        assert (again.status_code, again.json()) == (200, first.json())
    assert await count(session, Hold) == 2
    assert await balance(session, member_id) == 0


async def test_a_refused_request_does_not_burn_its_key(
    client: httpx.AsyncClient, session: AsyncSession
) -> None:
    phone, token = await register_and_login(client)
    member = await find_member_by_phone(session, phone=phone)
    await credit_manually(session, member=member, amount=100_00, note="test", actor="test")
    await session.commit()
    headers = {**auth(token), "Idempotency-Key": "retry-after-top-up"}
    refused = await client.post("/api/wallet/withdraw", json={"amount": 150}, headers=headers)
    assert refused.json()["message"] == "MONEY_NOT_ENOUGH"

    await credit_manually(session, member=member, amount=100_00, note="top-up", actor="test")
    await session.commit()
    retried = await client.post("/api/wallet/withdraw", json={"amount": 150}, headers=headers)

    assert retried.status_code == 200, retried.text
    assert await balance(session, member.id) == 50_00


async def test_keys_belong_to_their_member(
    client: httpx.AsyncClient, session: AsyncSession
) -> None:
    first_id, first_token = await funded_member(client, session, 500_00)
    second_id, second_token = await funded_member(client, session, 500_00)
    key = {"Idempotency-Key": "shared-key"}

    a = await client.post(
        "/api/wallet/withdraw", json={"amount": 100}, headers={**auth(first_token), **key}
    )
    b = await client.post(
        "/api/wallet/withdraw", json={"amount": 100}, headers={**auth(second_token), **key}
    )

    assert a.status_code == b.status_code == 200
    assert a.json()["withdrawalId"] != b.json()["withdrawalId"]
    assert await balance(session, first_id) == 400_00
    assert await balance(session, second_id) == 400_00


async def test_concurrent_withdrawals_cannot_overdraw(
    client: httpx.AsyncClient, session: AsyncSession
) -> None:
    member_id, token = await funded_member(client, session, 10_00)
    await set_money_setting(client, "withdrawMin", THB=1_00)

    responses = await asyncio.gather(
        *(
            client.post(
                "/api/wallet/withdraw",
                json={"amount": 9},
                headers={**auth(token), "Idempotency-Key": f"intent-{i}"},
            )
            for i in range(50)
        )
    )

    statuses = sorted((r.status_code, r.json().get("message")) for r in responses)
    assert statuses.count((200, None)) == 1, statuses
    assert statuses.count((400, "MONEY_NOT_ENOUGH")) == 49, statuses
    assert await balance(session, member_id) == 1_00
    assert await count(session, Withdrawal) == 1
    assert await count(session, Hold) == 1
    report = await check_books(session)
    assert report.balanced, report


async def test_concurrent_retries_of_one_intent_hold_once(
    client: httpx.AsyncClient, session: AsyncSession
) -> None:
    member_id, token = await funded_member(client, session, 10_00)
    await set_money_setting(client, "withdrawMin", THB=1_00)
    headers = {**auth(token), "Idempotency-Key": "one-intent"}

    responses = await asyncio.gather(
        *(
            client.post("/api/wallet/withdrawAll", json={"amount": 9}, headers=headers)
            for _ in range(20)
        )
    )

    assert {r.status_code for r in responses} == {200}, [r.text for r in responses]
    assert len({r.json()["withdrawalId"] for r in responses}) == 1
    assert await count(session, Hold) == 1
    assert await balance(session, member_id) == 1_00
    assert (await check_books(session)).balanced
