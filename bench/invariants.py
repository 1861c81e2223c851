"""The money invariants, checked (and printed) after every benchmark: the books balance (every
currency sums to zero, cached balances match their postings) and no player wallet is negative."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass

from pao.core.db import create_sessionmaker
from pao.ledger.models import AccountKind, JournalEntry, LedgerAccount
from pao.ledger.service import check_books
from sqlalchemy import func, select
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import create_async_engine

from bench.common import APP_DB_URL, log


@dataclass(frozen=True)
class Invariants:
    after: str
    balanced: bool
    totals: dict[str, int]
    mismatched: int
    negative_wallets: int
    entries: int

    @property
    def ok(self) -> bool:
        return self.balanced and self.negative_wallets == 0


async def _check(after: str) -> Invariants:
    engine = create_async_engine(APP_DB_URL)
    async with create_sessionmaker(engine)() as session:
        report = await check_books(session)
        negative = (
            await session.execute(
                select(func.count())
                .select_from(LedgerAccount)
                .where(
                    LedgerAccount.kind == AccountKind.PLAYER_WALLET,
                    LedgerAccount.balance < 0,
                )
            )
        ).scalar_one()
        entries = (
            await session.execute(select(func.count()).select_from(JournalEntry))
        ).scalar_one()
    await engine.dispose()
    return Invariants(
        after=after,
        balanced=report.balanced,
        totals=report.totals,
        mismatched=len(report.mismatched_accounts),
        negative_wallets=int(negative),
        entries=int(entries),
    )


def check(after: str) -> Invariants:
    for attempt in range(20):
        try:
            result = asyncio.run(_check(after))
            break
        except DBAPIError:
            # "too many clients": the servers' pools are still closing; a check must not fail
            # the run for that.
            if attempt == 19:
                raise
            time.sleep(1.0)
    verdict = "OK" if result.ok else "BROKEN"
    log(
        f"invariants after {after}: {verdict} — books balanced={result.balanced} "
        f"totals={result.totals} mismatched={result.mismatched} "
        f"negative wallets={result.negative_wallets} entries={result.entries}"
    )
    return result
