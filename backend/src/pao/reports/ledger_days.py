"""Reads of the ledger's daily summary (:class:`pao.reports.models.LedgerDay`) over a range.

The refresh (:mod:`pao.reports.refresh`) keeps the summary equal to the journal; these functions
only add up its rows, a few per day, so a range of days costs the same whatever the volume.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import date

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from pao.kit.days import as_date
from pao.ledger.models import AccountKind
from pao.reports.models import LedgerDay
from pao.reports.tables import Range


@dataclass(frozen=True)
class Flow:
    """Movements of the accounts of one kind and owner on one day, for one entry kind."""

    day: date
    kind: AccountKind
    owner: str
    entry_kind: str
    marked: bool
    out_count: int
    out_sum: int
    in_count: int
    in_sum: int


async def flows(
    session: AsyncSession, span: Range, *, kinds: Collection[AccountKind]
) -> list[Flow]:
    """The summary rows of ``kinds`` in ``span`` (player wallets are one owner, '')."""
    query = (
        select(
            LedgerDay.day,
            LedgerDay.account_kind,
            LedgerDay.owner,
            LedgerDay.entry_kind,
            LedgerDay.marked,
            func.sum(LedgerDay.out_count),
            func.sum(LedgerDay.out_sum),
            func.sum(LedgerDay.in_count),
            func.sum(LedgerDay.in_sum),
        )
        .where(
            LedgerDay.day >= span.first,
            LedgerDay.day <= span.last,
            LedgerDay.currency == span.currency,
            LedgerDay.account_kind.in_([kind.value for kind in kinds]),
        )
        .group_by(
            LedgerDay.day,
            LedgerDay.account_kind,
            LedgerDay.owner,
            LedgerDay.entry_kind,
            LedgerDay.marked,
        )
    )
    return [
        Flow(
            day=as_date(row[0]),
            kind=AccountKind(row[1]),
            owner=row[2],
            entry_kind=row[3],
            marked=bool(row[4]),
            out_count=int(row[5] or 0),
            out_sum=int(row[6] or 0),
            in_count=int(row[7] or 0),
            in_sum=int(row[8] or 0),
        )
        for row in await session.execute(query)
    ]
