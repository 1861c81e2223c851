"""Wallet rules: the member's balance and invite summary, and operator manual credits.

Withdrawals live in :mod:`pao.wallet.withdrawals`, statement lines in
:mod:`pao.wallet.statements`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import ColumnElement, Select, bindparam, select
from sqlalchemy.ext.asyncio import AsyncSession

from pao.core.errors import BadRequest
from pao.identity.models import Member
from pao.kit.events import DepositCredited, publish
from pao.kit.money import Currency
from pao.ledger.models import AccountKind, JournalEntry, LedgerAccount
from pao.ledger.service import get_or_open_account, player_wallet, transfer
from pao.wallet.exceptions import AmountNotPositive, MemberNotFound
from pao.wallet.models import Statement, StatementStatus, StatementType
from pao.wallet.statements import WALLET_LABEL, record_statement

# Statement labels of a manual credit and its reference type.
MANUAL_LABEL = "MANUAL"
MANUAL_DEPOSIT_REF = "manual_deposit"


@dataclass(frozen=True)
class InviteSummary:
    """``amount``: invite income waiting to be collected; ``success`` / ``fail``: invitees who
    earned the inviter income / who have not (yet) made a qualifying deposit
    (docs/domain/promotions.md)."""

    amount: int
    success: int
    fail: int


async def wallet_balance(session: AsyncSession, *, member_id: int, currency: Currency) -> int:
    """The player wallet's balance in minor units, without opening the account (a GET must
    not write); held withdrawals are already out of it."""
    params = {"owner": str(member_id), "currency": currency}
    return int((await session.execute(_BALANCE, params)).scalar_one_or_none() or 0)


def balance_query(owner: ColumnElement[str], currency: ColumnElement[str]) -> Select[Any]:
    """The player wallet's balance of ``owner`` (a member id as text) in ``currency``: bind
    parameters here, or columns of an enclosing query (pao.wallet.screen). On the table, not
    the mapped class: the wallet screen's statement stays a Core one."""
    accounts = LedgerAccount.__table__.c
    return select(accounts.balance).where(
        accounts.kind == AccountKind.PLAYER_WALLET,
        accounts.owner == owner,
        accounts.currency == currency,
    )


_BALANCE = balance_query(bindparam("owner"), bindparam("currency"))


async def invite_summary(session: AsyncSession, *, member_id: int) -> InviteSummary:
    # Invite income is the promotions domain's (imported here, not at the top: promotions
    # builds on the wallet).
    from pao.promotions.invite import summary

    invite = await summary(session, member_id=member_id)
    return InviteSummary(amount=invite.amount, success=invite.success, fail=invite.fail)


async def find_member_by_phone(session: AsyncSession, *, phone: str) -> Member:
    member = (
        await session.execute(select(Member).where(Member.phone == phone.strip()))
    ).scalar_one_or_none()
    if member is None:
        raise MemberNotFound(phone=phone)
    return member


@dataclass(frozen=True)
class ManualCredit:
    entry: JournalEntry
    statement: Statement


async def credit_manually(
    session: AsyncSession, *, member: Member, amount: int, note: str, actor: str
) -> ManualCredit:
    """Credit ``amount`` (minor units) from MANUAL_ADJUSTMENTS to the member's wallet.

    ``actor`` says who (``ops:<os user>``), ``note`` why; both are kept on the journal entry.
    The member sees a SUCCESS deposit line."""
    note = note.strip()
    if not note:
        raise BadRequest("KEY_MISSING", field="note")
    if amount <= 0:
        raise AmountNotPositive()
    currency = Currency(member.currency)
    source = await get_or_open_account(
        session, kind=AccountKind.MANUAL_ADJUSTMENTS, currency=currency
    )
    wallet = await player_wallet(session, member_id=member.id, currency=currency)
    entry = await transfer(
        session,
        source=source,
        destination=wallet,
        amount=amount,
        kind="manual_deposit",
        actor=actor[:80],
        memo=note[:500],
    )
    statement = await record_statement(
        session,
        member_id=member.id,
        statement_type=StatementType.DEPOSIT,
        status=StatementStatus.SUCCESS,
        amount=amount,
        currency=currency,
        from_label=MANUAL_LABEL,
        to_label=WALLET_LABEL,
        ref_type=MANUAL_DEPOSIT_REF,
        ref_id=entry.id,
    )
    await publish(
        session,
        DepositCredited(
            member_id=member.id,
            amount=amount,
            currency=currency,
            channel="manual",
            reference=f"manual:{entry.id}",
        ),
    )
    return ManualCredit(entry=entry, statement=statement)
