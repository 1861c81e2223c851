"""Operator decisions on withdrawals: approve (paid by hand), reject, payout failure.

Each decision moves money at most once: deciding again is refused before anything moves."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from pao.core.errors import BadRequest
from pao.kit.money import Currency
from pao.kit.states import StatusChange, transition
from pao.ledger.models import AccountKind, Hold, HoldStatus, LedgerAccount
from pao.ledger.service import check_books
from pao.wallet.exceptions import WithdrawalNotFound, WithdrawalStatusConflict
from pao.wallet.models import Statement, StatementStatus, Withdrawal, WithdrawalStatus
from pao.wallet.service import wallet_balance
from pao.wallet.withdrawals import (
    WITHDRAWAL_TRANSITIONS,
    approve_withdrawal,
    list_withdrawals,
    mark_withdrawal_failed,
    mark_withdrawal_paid,
    reject_withdrawal,
    request_withdrawal,
)
from tests.withdrawal_helpers import member_with_funds

# Also on SQLite (tests/databases.py): withdrawal decisions: money steps.
pytestmark = pytest.mark.sqlite

OPERATOR = "ops:alice"


async def pending(session: AsyncSession, amount: int = 300_00, funds: int = 1_000_00) -> Withdrawal:
    member = await member_with_funds(session, funds)
    withdrawal = await request_withdrawal(session, member=member, amount=amount)
    await session.commit()
    return withdrawal


async def status_of(session: AsyncSession, withdrawal_id: int) -> WithdrawalStatus:
    return (
        await session.execute(select(Withdrawal.status).where(Withdrawal.id == withdrawal_id))
    ).scalar_one()


async def balances(session: AsyncSession, member_id: int) -> tuple[int, int, int]:
    """(member wallet, withdrawals suspense, payout clearing), fresh from the database
    (column queries bypass the identity map)."""
    wallet = await wallet_balance(session, member_id=member_id, currency=Currency.THB)

    async def system(kind: AccountKind) -> int:
        total = (
            await session.execute(
                select(func.sum(LedgerAccount.balance)).where(LedgerAccount.kind == kind)
            )
        ).scalar_one()
        return int(total or 0)

    return (
        wallet,
        await system(AccountKind.WITHDRAWALS_PENDING),
        await system(AccountKind.PAYOUT_CLEARING),
    )


async def line_of(session: AsyncSession, withdrawal_id: int) -> Statement:
    return (
        await session.execute(
            select(Statement)
            .where(Statement.ref_type == "withdrawal", Statement.ref_id == str(withdrawal_id))
            .execution_options(populate_existing=True)
        )
    ).scalar_one()


async def test_approve_pays_out(session: AsyncSession) -> None:
    withdrawal = await pending(session)
    assert await balances(session, withdrawal.member_id) == (700_00, 300_00, 0)

    await approve_withdrawal(
        session, withdrawal_id=withdrawal.id, actor=OPERATOR, note="KBANK ref 123"
    )
    await session.commit()

    assert withdrawal.status == WithdrawalStatus.PAID
    assert withdrawal.decided_by == OPERATOR
    assert withdrawal.decided_at is not None
    assert await balances(session, withdrawal.member_id) == (700_00, 0, 300_00)
    hold = await session.get(Hold, withdrawal.hold_id)
    assert hold is not None
    assert hold.status == HoldStatus.POSTED
    assert (await line_of(session, withdrawal.id)).status == StatementStatus.SUCCESS
    changes = (
        await session.execute(
            select(
                StatusChange.from_status,
                StatusChange.to_status,
                StatusChange.actor,
                StatusChange.reason,
            )
            .where(StatusChange.entity == "withdrawals", StatusChange.entity_id == withdrawal.id)
            .order_by(StatusChange.id)
        )
    ).all()
    assert [tuple(c) for c in changes] == [
        ("PENDING", "APPROVED", OPERATOR, "KBANK ref 123"),
        ("APPROVED", "PAID", OPERATOR, "KBANK ref 123"),
    ]
    assert (await check_books(session)).balanced


async def test_reject_gives_the_money_back(session: AsyncSession) -> None:
    withdrawal = await pending(session)

    await reject_withdrawal(
        session,
        withdrawal_id=withdrawal.id,
        actor=OPERATOR,
        reason="  account name does not match  ",
    )
    await session.commit()

    assert withdrawal.status == WithdrawalStatus.REJECTED
    assert withdrawal.reason == "account name does not match"
    assert withdrawal.decided_by == OPERATOR
    assert await balances(session, withdrawal.member_id) == (1_000_00, 0, 0)
    hold = await session.get(Hold, withdrawal.hold_id)
    assert hold is not None
    assert hold.status == HoldStatus.VOIDED
    assert (await line_of(session, withdrawal.id)).status == StatementStatus.FAILED
    assert (await check_books(session)).balanced


@pytest.mark.parametrize("first", ["approve", "reject"])
@pytest.mark.parametrize("second", ["approve", "reject"])
async def test_a_decided_withdrawal_cannot_be_decided_again(
    session: AsyncSession, first: str, second: str
) -> None:
    withdrawal = await pending(session)
    withdrawal_id, member_id = withdrawal.id, withdrawal.member_id
    decide = {
        "approve": lambda: approve_withdrawal(session, withdrawal_id=withdrawal_id, actor=OPERATOR),
        "reject": lambda: reject_withdrawal(
            session, withdrawal_id=withdrawal_id, actor=OPERATOR, reason="no"
        ),
    }
    await decide[first]()
    await session.commit()
    before = await balances(session, member_id)
    final = await status_of(session, withdrawal_id)

    with pytest.raises(WithdrawalStatusConflict) as refused:
        await decide[second]()
    await session.rollback()

    assert refused.value.extra["status"] == final
    assert await balances(session, member_id) == before
    assert await status_of(session, withdrawal_id) == final
    assert (await check_books(session)).balanced


async def test_reject_needs_a_reason(session: AsyncSession) -> None:
    withdrawal_id = (await pending(session)).id
    with pytest.raises(BadRequest):
        await reject_withdrawal(session, withdrawal_id=withdrawal_id, actor=OPERATOR, reason=" ")
    await session.rollback()
    assert await status_of(session, withdrawal_id) == WithdrawalStatus.PENDING


async def test_unknown_withdrawal(session: AsyncSession) -> None:
    with pytest.raises(WithdrawalNotFound):
        await approve_withdrawal(session, withdrawal_id=999_999, actor=OPERATOR)


async def test_payout_outcomes_after_approval(session: AsyncSession) -> None:
    """The payments issue's path: APPROVED, then the payout succeeds or fails."""
    paid, failed = await pending(session, 100_00), await pending(session, 200_00)
    for withdrawal in (paid, failed):
        await transition(
            session, withdrawal, WithdrawalStatus.APPROVED, WITHDRAWAL_TRANSITIONS, actor=OPERATOR
        )
    await session.commit()
    (paid_id, paid_member), (failed_id, failed_member) = (
        (w.id, w.member_id) for w in (paid, failed)
    )

    with pytest.raises(WithdrawalStatusConflict):  # already approved
        await approve_withdrawal(session, withdrawal_id=paid_id, actor=OPERATOR)
    await session.rollback()
    await mark_withdrawal_paid(session, withdrawal_id=paid_id, actor="payout:bank")
    await mark_withdrawal_failed(
        session, withdrawal_id=failed_id, actor="payout:bank", reason="bank refused the account"
    )
    await session.commit()

    assert await status_of(session, paid_id) == WithdrawalStatus.PAID
    assert await status_of(session, failed_id) == WithdrawalStatus.FAILED
    # Both withdrawals' system accounts are shared: 100 paid out, nothing left in suspense.
    assert await balances(session, paid_member) == (900_00, 0, 100_00)
    assert (await balances(session, failed_member))[0] == 1_000_00
    assert (await line_of(session, paid_id)).status == StatementStatus.SUCCESS
    assert (await line_of(session, failed_id)).status == StatementStatus.FAILED
    with pytest.raises(WithdrawalStatusConflict):
        await mark_withdrawal_failed(session, withdrawal_id=paid_id, actor="x", reason="late")
    await session.rollback()
    assert (await check_books(session)).balanced


async def test_pending_withdrawal_cannot_be_marked_paid(session: AsyncSession) -> None:
    withdrawal = await pending(session)
    withdrawal_id, member_id = withdrawal.id, withdrawal.member_id
    with pytest.raises(WithdrawalStatusConflict):
        await mark_withdrawal_paid(session, withdrawal_id=withdrawal_id, actor="payout:bank")
    await session.rollback()
    assert await balances(session, member_id) == (700_00, 300_00, 0)


async def test_list_filters_by_status(session: AsyncSession) -> None:
    first, second, third = [await pending(session) for _ in range(3)]
    await reject_withdrawal(session, withdrawal_id=second.id, actor=OPERATOR, reason="no")
    await session.commit()

    queue = await list_withdrawals(session, status=WithdrawalStatus.PENDING)
    everything = await list_withdrawals(session, newest_first=True)

    assert [w.id for w in queue] == [first.id, third.id]
    assert [w.id for w in everything] == [third.id, second.id, first.id]
    assert [w.id for w in await list_withdrawals(session, member_id=second.member_id)] == [
        second.id
    ]
