"""The money invariants, checked (and printed) after every benchmark: the books balance (every
currency sums to zero, cached balances match their postings), no player wallet is negative, every
wallet → game transfer's hold is resolved (the bench's provider confirms at once: a PENDING
one is a transfer left half done) and every slip uploaded was credited (the bench's slips are
all good: a PENDING or FAILED one is a slip lost or refused)."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass

from pao.core.db import create_sessionmaker
from pao.ledger.models import AccountKind, Hold, JournalEntry, LedgerAccount
from pao.ledger.service import check_books
from pao.payments.slips.models import Slip, SlipStatus
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
    open_game_holds: int = 0
    slips_not_credited: int = 0

    @property
    def ok(self) -> bool:
        return (
            self.balanced
            and self.negative_wallets == 0
            and self.open_game_holds == 0
            and self.slips_not_credited == 0
        )


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
        open_holds = (
            await session.execute(
                select(func.count())
                .select_from(Hold)
                .where(Hold.purpose == "game", Hold.status == "PENDING")
            )
        ).scalar_one()
        not_credited = (
            await session.execute(
                select(func.count())
                .select_from(Slip)
                .where(Slip.status != SlipStatus.SUCCESS)
            )
        ).scalar_one()
    await engine.dispose()
    return Invariants(
        after=after,
        balanced=report.balanced,
        totals=report.totals,
        mismatched=len(report.mismatched_accounts),
        negative_wallets=int(negative),
        entries=int(entries),
        open_game_holds=int(open_holds),
        slips_not_credited=int(not_credited),
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
        f"negative wallets={result.negative_wallets} entries={result.entries} "
        f"open game holds={result.open_game_holds} "
        f"slips not credited={result.slips_not_credited}"
    )
    return result
