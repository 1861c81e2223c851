"""Payouts through the sandbox bank: auto-approval (not after a bank account change),
operator approval, failures, unknown outcomes settled once by the reconciler; on SQLite and
PostgreSQL."""

from __future__ import annotations

from datetime import timedelta

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import select

from pao.kit.clock import clock
from pao.ledger.service import check_books
from pao.ops.withdrawals import BANK_CHANGED, approve_for_payout, list_lines
from pao.payments.payouts.jobs import auto_approve_tick, payout_context, reconcile_tick
from pao.payments.payouts.models import Payout, PayoutStatus
from pao.payments.payouts.service import process_payout
from pao.wallet.adjustments import credit_manually
from pao.wallet.models import Statement, StatementStatus, Withdrawal, WithdrawalStatus
from pao.wallet.service import find_member_by_phone
from tests.helpers import (
    DEFAULT_PASSWORD,
    app_of,
    auth,
    new_bank_account_no,
    register_and_login,
    set_money_setting,
    set_site_setting,
)

# Also on SQLite (tests/databases.py): payout settlement: money steps.
pytestmark = pytest.mark.sqlite

FUNDS = 1_000_00


async def funded_member(client: httpx.AsyncClient) -> tuple[str, str]:
    """(token, account no) of a member with 1,000 baht."""
    account = new_bank_account_no()
    phone, token = await register_and_login(client, bank_code="SCB", bank_account_no=account)
    async with app_of(client).state.sessionmaker() as session:
        member = await find_member_by_phone(session, phone=phone)
        await credit_manually(session, member=member, amount=FUNDS, note="test", actor="test")
        await session.commit()
    return token, account


async def withdraw(client: httpx.AsyncClient, token: str, amount: float) -> int:
    response = await client.post(
        "/api/wallet/withdraw", headers=auth(token), json={"amount": amount}
    )
    assert response.status_code == 200, response.text
    withdrawal_id: int = response.json()["withdrawalId"]
    return withdrawal_id


async def balance(client: httpx.AsyncClient, token: str) -> float:
    amount: float = (await client.get("/api/wallet", headers=auth(token))).json()["wallet"][
        "amount"
    ]
    return amount


async def state(app: FastAPI, withdrawal_id: int) -> tuple[str, str | None, str]:
    """(withdrawal status, payout status, statement status)."""
    async with app.state.sessionmaker() as session:
        withdrawal = await session.get(Withdrawal, withdrawal_id)
        assert withdrawal is not None
        payout = (
            await session.execute(select(Payout).where(Payout.withdrawal_id == withdrawal_id))
        ).scalar_one_or_none()
        line = (
            await session.execute(
                select(Statement).where(
                    Statement.ref_type == "withdrawal", Statement.ref_id == str(withdrawal_id)
                )
            )
        ).scalar_one()
        return withdrawal.status, payout.status if payout else None, line.status


async def bank_balance(client: httpx.AsyncClient, payout_id: int) -> dict[str, object]:
    response = await client.get(f"/sandbox/bank/api/payouts/pao-payout-{payout_id}")
    body: dict[str, object] = response.json()
    return body


async def queue_modes(client: httpx.AsyncClient, *modes: str) -> None:
    response = await client.post("/sandbox/bank/api/payouts/controls", json={"modes": list(modes)})
    assert response.status_code == 200


async def books(app: FastAPI) -> bool:
    async with app.state.sessionmaker() as session:
        return (await check_books(session)).balanced


async def payout_id_of(app: FastAPI, withdrawal_id: int) -> int:
    async with app.state.sessionmaker() as session:
        payout_id: int = (
            await session.execute(select(Payout.id).where(Payout.withdrawal_id == withdrawal_id))
        ).scalar_one()
        return payout_id


async def test_auto_approve_pays_small_withdrawals(client: httpx.AsyncClient) -> None:
    app = app_of(client)
    await set_money_setting(client, "withdrawAutoApproveMax", THB=500_00)
    token, _ = await funded_member(client)
    small = await withdraw(client, token, 300)
    large = await withdraw(client, token, 600.5)  # above the limit: waits for an operator
    assert await balance(client, token) == 99.5

    assert await auto_approve_tick(app) == 1
    assert await auto_approve_tick(app) == 0

    assert await state(app, small) == (WithdrawalStatus.PAID, PayoutStatus.SUCCEEDED, "SUCCESS")
    assert await state(app, large) == (WithdrawalStatus.PENDING, None, StatementStatus.PENDING)
    paid = await bank_balance(client, await payout_id_of(app, small))
    assert (paid["status"], paid["amount"]) == ("SUCCESS", 300.0)
    assert await balance(client, token) == 99.5
    assert await books(app)


async def test_auto_approve_off_by_default(client: httpx.AsyncClient) -> None:
    token, _ = await funded_member(client)
    withdrawal = await withdraw(client, token, 100)
    assert await auto_approve_tick(app_of(client)) == 0
    assert (await state(app_of(client), withdrawal))[0] == WithdrawalStatus.PENDING


async def test_operator_approval_pays_through_the_bank(client: httpx.AsyncClient) -> None:
    app = app_of(client)
    token, _ = await funded_member(client)
    withdrawal = await withdraw(client, token, 250)
    async with app.state.sessionmaker() as session:
        payout_id, line = await approve_for_payout(
            session, withdrawal_id=withdrawal, note=None, actor="ops:alice"
        )
        await session.commit()
    assert line == f"approved, sending payout #{payout_id} to the bank"
    assert await state(app, withdrawal) == (
        WithdrawalStatus.APPROVED,
        PayoutStatus.PENDING,
        "PENDING",
    )

    await process_payout(payout_context(app), payout_id=payout_id)

    assert await state(app, withdrawal) == (
        WithdrawalStatus.PAID,
        PayoutStatus.SUCCEEDED,
        "SUCCESS",
    )
    assert await balance(client, token) == 750
    assert await books(app)


async def test_payout_failure_returns_the_money(client: httpx.AsyncClient) -> None:
    app = app_of(client)
    await set_money_setting(client, "withdrawAutoApproveMax", THB=500_00)
    token, _ = await funded_member(client)
    await queue_modes(client, "fail")
    withdrawal = await withdraw(client, token, 400)
    assert await balance(client, token) == 600

    assert await auto_approve_tick(app) == 1

    assert await state(app, withdrawal) == (WithdrawalStatus.FAILED, PayoutStatus.FAILED, "FAILED")
    assert await balance(client, token) == 1000
    assert await reconcile_tick(app) == 0
    assert await books(app)


async def test_timeout_stays_pending_until_the_reconciler_settles_it_once(
    client: httpx.AsyncClient,
) -> None:
    app = app_of(client)
    await set_money_setting(client, "withdrawAutoApproveMax", THB=500_00)
    token, _ = await funded_member(client)
    await queue_modes(client, "timeout")  # the bank pays, but its answer is lost
    withdrawal = await withdraw(client, token, 200)

    assert await auto_approve_tick(app) == 1
    assert await state(app, withdrawal) == (
        WithdrawalStatus.APPROVED,
        PayoutStatus.PENDING,
        "PENDING",
    )
    assert await balance(client, token) == 800
    assert await reconcile_tick(app) == 0  # not due yet: leased for the backoff

    clock.advance(timedelta(seconds=31))
    assert await reconcile_tick(app) == 1
    assert await state(app, withdrawal) == (
        WithdrawalStatus.PAID,
        PayoutStatus.SUCCEEDED,
        "SUCCESS",
    )
    clock.advance(timedelta(minutes=30))
    assert await reconcile_tick(app) == 0
    async with app.state.sessionmaker() as session:
        payout = (await session.execute(select(Payout))).scalar_one()
        assert payout.attempts == 2
    # The bank paid exactly once (the reconciler asked, it did not send again).
    paid = await bank_balance(client, await payout_id_of(app, withdrawal))
    assert paid["status"] == "SUCCESS"
    assert await balance(client, token) == 800
    assert await books(app)


async def test_lost_request_is_sent_again_with_the_same_id(client: httpx.AsyncClient) -> None:
    app = app_of(client)
    await set_money_setting(client, "withdrawAutoApproveMax", THB=500_00)
    token, _ = await funded_member(client)
    await queue_modes(client, "error")  # a 500: the bank did nothing
    withdrawal = await withdraw(client, token, 100)

    await auto_approve_tick(app)
    assert (await state(app, withdrawal))[1] == PayoutStatus.PENDING
    clock.advance(timedelta(seconds=31))
    assert await reconcile_tick(app) == 1

    assert await state(app, withdrawal) == (
        WithdrawalStatus.PAID,
        PayoutStatus.SUCCEEDED,
        "SUCCESS",
    )
    assert await books(app)


async def test_late_payout_settles_when_the_bank_confirms(client: httpx.AsyncClient) -> None:
    app = app_of(client)
    await set_money_setting(client, "withdrawAutoApproveMax", THB=500_00)
    token, _ = await funded_member(client)
    await queue_modes(client, "late")
    withdrawal = await withdraw(client, token, 100)

    await auto_approve_tick(app)
    assert (await state(app, withdrawal))[:2] == (WithdrawalStatus.APPROVED, PayoutStatus.PENDING)
    clock.advance(timedelta(seconds=31))
    assert await reconcile_tick(app) == 1
    assert (await state(app, withdrawal))[:2] == (WithdrawalStatus.PAID, PayoutStatus.SUCCEEDED)


async def test_processing_twice_pays_once(client: httpx.AsyncClient) -> None:
    app = app_of(client)
    token, _ = await funded_member(client)
    withdrawal = await withdraw(client, token, 100)
    async with app.state.sessionmaker() as session:
        payout_id, _ = await approve_for_payout(
            session, withdrawal_id=withdrawal, note="ok", actor="ops:bob"
        )
        await session.commit()
    ctx = payout_context(app)
    first = await process_payout(ctx, payout_id=payout_id)
    second = await process_payout(ctx, payout_id=payout_id)
    assert first is not None
    assert first.status == PayoutStatus.SUCCEEDED
    assert second is None
    assert await balance(client, token) == 900
    assert await books(app)


# --- withdrawals after a bank account change wait for a cashier ------------------------------


async def change_bank(client: httpx.AsyncClient, token: str) -> None:
    body = {
        "name": "Test Member",
        "bankCode": "KTB",
        "bankAccountName": "SOMEONE ELSE",
        "bankAccountNo": new_bank_account_no(),
        "password": DEFAULT_PASSWORD,
    }
    response = await client.put("/api/account/profile", json=body, headers=auth(token))
    assert response.status_code == 200, response.text


async def marked(app: FastAPI) -> list[int]:
    """The withdrawals `pao ops withdrawals list` marks as after a bank change."""
    async with app.state.sessionmaker() as session:
        lines = await list_lines(session, status=None, limit=100)
    return sorted(int(line.split()[0][1:]) for line in lines if BANK_CHANGED[:20] in line)


async def test_a_withdrawal_after_a_bank_change_is_not_auto_approved(
    client: httpx.AsyncClient,
) -> None:
    app = app_of(client)
    await set_money_setting(client, "withdrawAutoApproveMax", THB=500_00)
    changed, _ = await funded_member(client)
    await change_bank(client, changed)
    held = await withdraw(client, changed, 300)
    unchanged, _ = await funded_member(client)
    paid = await withdraw(client, unchanged, 300)

    assert await auto_approve_tick(app) == 1
    assert await state(app, held) == (WithdrawalStatus.PENDING, None, StatementStatus.PENDING)
    assert await state(app, paid) == (WithdrawalStatus.PAID, PayoutStatus.SUCCEEDED, "SUCCESS")
    # The operator sees why it waits.
    assert await marked(app) == [held]

    # It waits for a cashier however long that takes: it was asked for right after the change.
    clock.advance(timedelta(hours=25))
    assert await auto_approve_tick(app) == 0
    assert (await state(app, held))[0] == WithdrawalStatus.PENDING
    # A withdrawal asked for once the hold window has passed is the member's usual business.
    later = await withdraw(client, changed, 100)
    assert await auto_approve_tick(app) == 1
    assert (await state(app, later))[0] == WithdrawalStatus.PAID
    assert await marked(app) == [held]
    assert await books(app)


async def test_a_bank_change_after_the_request_holds_it_too(client: httpx.AsyncClient) -> None:
    app = app_of(client)
    await set_money_setting(client, "withdrawAutoApproveMax", THB=500_00)
    token, _ = await funded_member(client)
    withdrawal = await withdraw(client, token, 200)
    clock.advance(timedelta(hours=30))
    await change_bank(client, token)
    assert await auto_approve_tick(app) == 0
    assert (await state(app, withdrawal))[0] == WithdrawalStatus.PENDING
    assert await marked(app) == [withdrawal]


async def test_the_hold_follows_the_setting(client: httpx.AsyncClient) -> None:
    app = app_of(client)
    await set_money_setting(client, "withdrawAutoApproveMax", THB=500_00)
    await set_site_setting(client, "bankChangeHoldHours", 2)
    token, _ = await funded_member(client)
    await change_bank(client, token)
    clock.advance(timedelta(hours=1))
    held = await withdraw(client, token, 100)
    clock.advance(timedelta(hours=2))
    free = await withdraw(client, token, 100)
    assert await auto_approve_tick(app) == 1
    assert [(await state(app, w))[0] for w in (held, free)] == [
        WithdrawalStatus.PENDING,
        WithdrawalStatus.PAID,
    ]
    assert await marked(app) == [held]

    await set_site_setting(client, "bankChangeHoldHours", 0)  # no hold at all
    assert await auto_approve_tick(app) == 1
    assert (await state(app, held))[0] == WithdrawalStatus.PAID
    assert await marked(app) == []
