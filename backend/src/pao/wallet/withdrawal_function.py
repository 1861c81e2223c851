"""A withdrawal's hold, row and statement line in one round trip on PostgreSQL (ADR 0018).

:func:`place` calls ``pao_request_withdrawal`` (:mod:`pao.wallet.ddl`) through the executor,
with every value the step-by-step path would write, and hands back the withdrawal as an ORM
object in the session, as if the steps had inserted it. ``None`` means "take the steps": the
member's first withdrawal, whose accounts the steps open. SQLite always takes the steps.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import BigInteger, String, bindparam, text
from sqlalchemy.ext.asyncio import AsyncSession

from pao.core import executor
from pao.core.db import UtcDateTime
from pao.identity.models import Member
from pao.kit.money import Currency
from pao.ledger.exceptions import InsufficientFunds
from pao.ledger.models import AccountKind, HoldStatus
from pao.ledger.service import show_new_balances
from pao.wallet.models import StatementStatus, StatementType, Withdrawal, WithdrawalStatus

# The ledger hold's purpose (its entry's kind is "hold:withdrawal"); the suspense account it
# holds into is the member's WITHDRAWALS_PENDING (pao.ledger.service._suspense_kind).
HOLD_PURPOSE = "withdrawal"

_CALL = (
    text(
        "SELECT outcome, withdrawal_id, hold_id, wallet_id, wallet_balance, suspense_id,"
        " suspense_balance FROM pao_request_withdrawal("
        ":member_id, :currency, :amount, :wallet_kind, :suspense_kind, :entry_kind, :actor,"
        " :memo, :purpose, :hold_status, :status, :bank_code, :bank_account_name,"
        " :bank_account_no, :statement_type, :statement_status, :from_label, :ref_type, :now)"
    )
    .bindparams(bindparam("now", type_=UtcDateTime()))
    .columns(
        outcome=String(),
        withdrawal_id=BigInteger(),
        hold_id=BigInteger(),
        wallet_id=BigInteger(),
        wallet_balance=BigInteger(),
        suspense_id=BigInteger(),
        suspense_balance=BigInteger(),
    )
)


# The seam a test patches to run the steps on PostgreSQL too (against which it holds the
# function).
on_postgres = executor.on_postgres


async def place(
    session: AsyncSession,
    *,
    member: Member,
    amount: int,
    currency: Currency,
    actor: str,
    memo: str,
    from_label: str,
    ref_type: str,
    now: datetime,
) -> Withdrawal | None:
    """The withdrawal, written in one statement; ``None`` when its accounts are still to be
    opened. MONEY_NOT_ENOUGH when the wallet is short (nothing written)."""
    outcome, withdrawal_id, hold_id, wallet_id, wallet_balance, suspense_id, suspense_balance = (
        await executor.fetch(
            session,
            _CALL,
            {
                "member_id": member.id,
                "currency": currency,
                "amount": amount,
                "wallet_kind": AccountKind.PLAYER_WALLET.value,
                "suspense_kind": AccountKind.WITHDRAWALS_PENDING.value,
                "entry_kind": f"hold:{HOLD_PURPOSE}",
                "actor": actor,
                "memo": memo,
                "purpose": HOLD_PURPOSE,
                "hold_status": HoldStatus.PENDING.value,
                "status": WithdrawalStatus.PENDING.value,
                "bank_code": member.bank_code,
                "bank_account_name": member.bank_account_name,
                "bank_account_no": member.bank_account_no,
                "statement_type": StatementType.WITHDRAW.value,
                "statement_status": StatementStatus.PENDING.value,
                "from_label": from_label,
                "ref_type": ref_type,
                "now": now,
            },
        )
    )[0]
    if outcome == "ACCOUNTS_MISSING":
        return None
    if outcome == "MONEY_NOT_ENOUGH":
        raise InsufficientFunds()
    show_new_balances(session, [(wallet_id, wallet_balance), (suspense_id, suspense_balance)])
    withdrawal = Withdrawal(
        id=withdrawal_id,
        member_id=member.id,
        amount=amount,
        currency=currency,
        status=WithdrawalStatus.PENDING,
        hold_id=hold_id,
        bank_code=member.bank_code,
        bank_account_name=member.bank_account_name,
        bank_account_no=member.bank_account_no,
        reason=None,
        created_at=now,
        decided_at=None,
        decided_by=None,
        claimed_by_staff_id=None,
        claimed_by=None,
        claim_expires_at=None,
    )
    executor.persist_written(session, withdrawal)
    return withdrawal
