"""POST /api/statement: the member's own lines, newest first, paginated in the database."""

from __future__ import annotations

from datetime import timedelta

import httpx
import pytest
from sqlalchemy.ext.asyncio import AsyncSession

from pao.kit.clock import clock
from pao.kit.money import Currency
from pao.wallet.adjustments import credit_manually
from pao.wallet.models import StatementStatus, StatementType, WithdrawalStatus
from pao.wallet.service import find_member_by_phone
from pao.wallet.statements import record_statement
from pao.wallet.withdrawals import lock_withdrawal, mark_withdrawal_failed, reject_withdrawal
from tests.helpers import auth, register_and_login
from tests.withdrawal_helpers import pending_withdrawal, request_withdrawal


async def member_with_lines(
    client: httpx.AsyncClient, session: AsyncSession, amounts: list[int]
) -> tuple[int, str]:
    """A member whose history holds one deposit line per amount, one second apart."""
    phone, token = await register_and_login(client)
    member_id = (await find_member_by_phone(session, phone=phone)).id
    for amount in amounts:
        clock.advance(timedelta(seconds=1))
        await record_statement(
            session,
            member_id=member_id,
            statement_type=StatementType.DEPOSIT,
            status=StatementStatus.SUCCESS,
            amount=amount,
            currency=Currency.THB,
            from_label="BANK",
            to_label="WALLET",
            ref_type="test",
            ref_id=f"{phone}-{amount}",
        )
    await session.commit()
    return member_id, token


async def page(client: httpx.AsyncClient, token: str, page: int, limit: int) -> httpx.Response:
    return await client.post(
        "/api/statement", json={"page": page, "limit": limit}, headers=auth(token)
    )


async def test_statement_needs_a_token(client: httpx.AsyncClient) -> None:
    response = await client.post("/api/statement", json={"page": 1, "limit": 10})
    assert response.status_code == 401


async def test_pages_newest_first(client: httpx.AsyncClient, session: AsyncSession) -> None:
    _, token = await member_with_lines(client, session, [n * 100 for n in range(1, 26)])

    first = (await page(client, token, 1, 10)).json()
    third = (await page(client, token, 3, 10)).json()
    beyond = (await page(client, token, 4, 10)).json()

    assert first["total"] == third["total"] == beyond["total"] == 25
    assert [line["amount"] for line in first["statements"]] == [float(n) for n in range(25, 15, -1)]
    assert [line["amount"] for line in third["statements"]] == [5.0, 4.0, 3.0, 2.0, 1.0]
    assert beyond["statements"] == []
    created = [line["createdAt"] for line in first["statements"]]
    assert created == sorted(created, reverse=True)


async def test_same_instant_lines_keep_insertion_order(
    client: httpx.AsyncClient, session: AsyncSession
) -> None:
    phone, token = await register_and_login(client)
    member_id = (await find_member_by_phone(session, phone=phone)).id
    for amount in (1_00, 2_00, 3_00):  # no clock movement: equal createdAt
        await record_statement(
            session,
            member_id=member_id,
            statement_type=StatementType.BONUS,
            status=StatementStatus.SUCCESS,
            amount=amount,
            currency=Currency.THB,
            from_label="BONUS",
            to_label="WALLET",
            ref_type="test",
            ref_id=f"{phone}-{amount}",
        )
    await session.commit()

    body = (await page(client, token, 1, 2)).json()

    assert [line["amount"] for line in body["statements"]] == [3.0, 2.0]


async def test_a_member_sees_only_their_own_lines(
    client: httpx.AsyncClient, session: AsyncSession
) -> None:
    _, mine = await member_with_lines(client, session, [1_00, 2_00])
    _, theirs = await member_with_lines(client, session, [7_00, 8_00, 9_00])

    my_body = (await page(client, mine, 1, 100)).json()
    their_body = (await page(client, theirs, 1, 100)).json()

    assert my_body["total"] == 2
    assert [line["amount"] for line in my_body["statements"]] == [2.0, 1.0]
    assert their_body["total"] == 3
    assert {line["_id"] for line in my_body["statements"]}.isdisjoint(
        {line["_id"] for line in their_body["statements"]}
    )


async def test_line_shape(client: httpx.AsyncClient, session: AsyncSession) -> None:
    phone, token = await register_and_login(client)
    member = await find_member_by_phone(session, phone=phone)
    member_id = member.id
    credit = await credit_manually(
        session, member=member, amount=1_000_00, note="why", actor="test"
    )
    clock.advance(timedelta(seconds=1))
    bonus = await record_statement(
        session,
        member_id=member_id,
        statement_type=StatementType.BONUS,
        status=StatementStatus.PENDING,
        amount=50_00,
        currency=Currency.THB,
        from_label="BONUS",
        to_label="WALLET",
        ref_type="user_bonus",
        ref_id=7,
        extra={"bonus": {"description": "Welcome 10%"}},
    )
    ids = (str(credit.statement.id), str(bonus.id))
    await session.commit()

    body = (await page(client, token, 1, 10)).json()

    bonus_line, deposit_line = body["statements"]
    created = deposit_line.pop("createdAt")
    assert created.startswith(str(credit.statement.created_at.date()))
    assert deposit_line == {
        "_id": ids[0],
        "statementType": "deposit",
        "status": "SUCCESS",
        "from": "MANUAL",
        "to": "WALLET",
        "amount": 1000.0,
    }
    bonus_line.pop("createdAt")
    assert bonus_line == {
        "_id": ids[1],
        "statementType": "bonus",
        "status": "PENDING",
        "from": "BONUS",
        "to": "WALLET",
        "amount": 50.0,
        "bonus": {"description": "Welcome 10%"},
    }


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"page": 0, "limit": 10}, "KEY_INVALID"),
        ({"page": 1, "limit": 0}, "KEY_INVALID"),
        ({"page": 1, "limit": 101}, "KEY_INVALID"),
        ({"page": "one", "limit": 10}, "KEY_INVALID"),
        ({"page": -1, "limit": 10}, "KEY_INVALID"),
    ],
)
async def test_bad_page_requests_are_422(
    client: httpx.AsyncClient, body: dict[str, object], code: str
) -> None:
    _, token = await register_and_login(client)
    response = await client.post("/api/statement", json=body, headers=auth(token))
    assert response.status_code == 422, response.text
    assert response.json()["message"] == code


async def test_a_withdrawal_not_paid_says_why_and_that_the_money_is_back(
    client: httpx.AsyncClient, session: AsyncSession
) -> None:
    rejected, token = await pending_withdrawal(client, 300)
    failed = await request_withdrawal(client, token, 200)
    await reject_withdrawal(
        session, withdrawal_id=rejected, actor="staff:ann", reason="name does not match"
    )
    # The bank refused an approved payout: the same note, with the bank's reason.
    withdrawal = await lock_withdrawal(session, failed)
    withdrawal.status = WithdrawalStatus.APPROVED
    await mark_withdrawal_failed(
        session, withdrawal_id=failed, actor="payouts", reason="account closed"
    )
    await session.commit()

    response = await client.post(
        "/api/statement?lang=th", json={"page": 1, "limit": 10}, headers=auth(token)
    )
    lines = {line["amount"]: line for line in response.json()["statements"]}
    assert lines[300]["status"] == lines[200]["status"] == "FAILED"
    assert lines[300]["withdraw"] == {
        "code": "withdraw.rejected",
        "params": {"reason": "name does not match"},
        "description": "ไม่อนุมัติ: name does not match เงินคืนเข้ากระเป๋าแล้ว",
    }
    assert lines[200]["withdraw"]["code"] == "withdraw.failed"
    assert lines[200]["withdraw"]["params"] == {"reason": "account closed"}
