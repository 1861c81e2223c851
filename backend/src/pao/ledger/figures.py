"""Read-only sums over the journal for the operator's figures (the back-office dashboard).

Nothing here writes. :func:`daily_flows` adds up, per local day and per account, the postings
that took money out of an account and those that put money in; :func:`credited_owners` is the
subquery of members whose wallet was credited from given accounts; :func:`balances` reads the
cached balances of one kind of account, each account summed over its shard rows. Other domains
pass in their own subqueries (entry ids) to split an account's flows, so the ledger still
imports no domain.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import Select, case, false, func, literal_column, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from pao.kit.days import as_date, local_day
from pao.kit.money import Currency
from pao.ledger.models import AccountKind, JournalEntry, LedgerAccount, Posting


@dataclass(frozen=True)
class DailyFlow:
    """One account's movements on one local day (amounts positive, minor units)."""

    day: date
    kind: AccountKind
    owner: str
    marked: bool  # the entry is in the caller's ``marked`` subquery
    out_count: int  # postings that took money out of the account
    out_sum: int
    in_count: int  # postings that put money in
    in_sum: int


async def daily_flows(
    session: AsyncSession,
    *,
    kinds: Collection[AccountKind],
    currency: Currency,
    start: datetime,
    end: datetime,
    zone: ZoneInfo,
    marked: Select[Any] | None = None,
) -> list[DailyFlow]:
    """Flows of the accounts of ``kinds`` in entries made in ``[start, end)``, by local day.

    ``marked`` is a one-column select of entry ids (labelled ``entry_id``); each flow says
    whether its entries are among them (an account shared by two channels is split so)."""
    day = local_day(
        JournalEntry.created_at, zone, dialect=session.get_bind().dialect.name, at=start
    ).label("f_day")
    query = (
        select(
            day,
            LedgerAccount.kind,
            LedgerAccount.owner,
            func.sum(case((Posting.amount < 0, 1), else_=0)),
            func.sum(case((Posting.amount < 0, -Posting.amount), else_=0)),
            func.sum(case((Posting.amount > 0, 1), else_=0)),
            func.sum(case((Posting.amount > 0, Posting.amount), else_=0)),
        )
        .select_from(Posting)
        .join(JournalEntry, JournalEntry.id == Posting.entry_id)
        .join(LedgerAccount, LedgerAccount.id == Posting.account_id)
        .where(
            LedgerAccount.kind.in_(list(kinds)),
            LedgerAccount.currency == currency,
            JournalEntry.created_at >= start,
            JournalEntry.created_at < end,
        )
    )
    if marked is not None:
        subquery = marked.subquery()
        query = query.outerjoin(subquery, subquery.c.entry_id == Posting.entry_id).add_columns(
            subquery.c.entry_id.is_not(None).label("f_marked")
        )
        # Grouped by the output names: the expressions repeated would not compare equal.
        groups: tuple[str, ...] = ("f_day", "f_marked")
    else:
        query = query.add_columns(false().label("f_marked"))
        groups = ("f_day",)
    query = query.group_by(
        *(literal_column(name) for name in groups), LedgerAccount.kind, LedgerAccount.owner
    )
    return [
        DailyFlow(
            day=as_date(row[0]),
            kind=AccountKind(row[1]),
            owner=row[2],
            out_count=int(row[3] or 0),
            out_sum=int(row[4] or 0),
            in_count=int(row[5] or 0),
            in_sum=int(row[6] or 0),
            marked=bool(row[7]),
        )
        for row in await session.execute(query)
    ]


def credited_owners(
    *,
    sources: Collection[AccountKind],
    currency: Currency,
    start: datetime,
    end: datetime,
) -> Select[Any]:
    """The owners (member ids, as text) of player wallets credited in ``[start, end)`` by an
    entry that took money out of an account of ``sources``: a subquery for another domain."""
    source_posting = aliased(Posting)
    source_account = aliased(LedgerAccount)
    from_sources = (
        select(source_posting.entry_id)
        .join(source_account, source_account.id == source_posting.account_id)
        .where(source_account.kind.in_(list(sources)), source_posting.amount < 0)
    )
    return (
        select(LedgerAccount.owner)
        .distinct()
        .select_from(Posting)
        .join(LedgerAccount, LedgerAccount.id == Posting.account_id)
        .join(JournalEntry, JournalEntry.id == Posting.entry_id)
        .where(
            LedgerAccount.kind == AccountKind.PLAYER_WALLET,
            LedgerAccount.currency == currency,
            Posting.amount > 0,
            JournalEntry.created_at >= start,
            JournalEntry.created_at < end,
            Posting.entry_id.in_(from_sources),
        )
    )


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
