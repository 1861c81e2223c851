"""Read-only sums over the journal for the operator's figures (the back-office dashboard).

Nothing here writes. :func:`balances` reads the cached balances of one kind of account, each
account summed over its shard rows. Flows by day come from the report summaries
(:mod:`pao.reports`), never from a scan of the journal per request.
"""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from pao.kit.money import Currency
from pao.ledger.models import AccountKind, LedgerAccount


async def balances(
    session: AsyncSession, *, kind: AccountKind, currency: Currency
) -> list[tuple[str, int]]:
    """``(owner, balance)`` of every account of ``kind`` in ``currency``, by owner: a shared
    account's shard rows summed (as :func:`pao.ledger.service.account_balance` does for one)."""
    rows = await session.execute(
        select(LedgerAccount.owner, func.sum(LedgerAccount.balance))
        .where(LedgerAccount.kind == kind, LedgerAccount.currency == currency)
        .group_by(LedgerAccount.owner)
        .order_by(LedgerAccount.owner)
    )
    return [(owner, int(balance)) for owner, balance in rows]
