"""Wallet rules: the member's balance, and finding a member by phone.

Withdrawals live in :mod:`pao.wallet.withdrawals`, statement lines in
:mod:`pao.wallet.statements`, manual credits and debits in :mod:`pao.wallet.adjustments`
(which reads the balance from here; this module imports nothing of it).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import ColumnElement, Select, bindparam, select
from sqlalchemy.ext.asyncio import AsyncSession

from pao.identity.models import Member
from pao.kit.money import Currency
from pao.ledger.models import AccountKind, LedgerAccount
from pao.wallet.exceptions import MemberNotFound


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


async def find_member_by_phone(session: AsyncSession, *, phone: str) -> Member:
    member = (
        await session.execute(select(Member).where(Member.phone == phone.strip()))
    ).scalar_one_or_none()
    if member is None:
        raise MemberNotFound(phone=phone)
    return member
