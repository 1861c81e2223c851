"""Game results for promotions (wagering, refunds): turnover and payout of a member over a
period, read from the providers' bet records through the adapters, and for seamless providers
from Pao's own record of their calls (:mod:`pao.games.seamless`): a bet counts as it settles,
no provider is asked, and a rolled-back bet never counts.

The providers are asked concurrently; callers should not hold a write transaction open on
SQLite while this runs (the providers may be slow). A provider that does not answer raises
:class:`~pao.games.providers.base.ProviderUnavailable`: a partial sum would understate
turnover, so the caller decides (typically: try again later).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import case, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from pao.games.models import GameAccount
from pao.games.providers import provider_for
from pao.games.providers.base import BetRecord
from pao.games.seamless.models import SeamlessTransaction, TxnKind


@dataclass(frozen=True)
class GameTotals:
    turnover: int  # minor units staked
    payout: int  # minor units won back
    bets: int


@dataclass(frozen=True)
class GameResults:
    turnover: int
    payout: int
    bets: int
    by_game: dict[str, GameTotals] = field(default_factory=dict)

    @property
    def net_loss(self) -> int:
        """What the member lost over the period (negative when they won)."""
        return self.turnover - self.payout


def _totals(records: list[BetRecord]) -> GameTotals:
    return GameTotals(
        turnover=sum(r.bet for r in records),
        payout=sum(r.payout for r in records),
        bets=len(records),
    )


async def game_results(
    app: Any, session: AsyncSession, *, member_id: int, since: datetime, until: datetime
) -> GameResults:
    """Turnover and payout (minor units) of ``member_id`` with ``since <= bet time < until``."""
    accounts = [
        (a.game_code, a.username)
        for a in (
            await session.execute(select(GameAccount).where(GameAccount.member_id == member_id))
        ).scalars()
    ]
    records = await asyncio.gather(
        *(
            provider_for(app, game_code=code).bets(username=username, since=since, until=until)
            for code, username in accounts
        )
    )
    by_game = {code: _totals(rows) for (code, _), rows in zip(accounts, records, strict=True)}
    by_game.update(await _seamless_totals(session, member_id=member_id, since=since, until=until))
    return GameResults(
        turnover=sum(t.turnover for t in by_game.values()),
        payout=sum(t.payout for t in by_game.values()),
        bets=sum(t.bets for t in by_game.values()),
        by_game=by_game,
    )


async def _seamless_totals(
    session: AsyncSession, *, member_id: int, since: datetime, until: datetime
) -> dict[str, GameTotals]:
    """Per seamless provider (its lobby card's code): stakes taken and not rolled back, wins
    paid, and the number of bets (one indexed range of the member's transactions)."""
    txn = SeamlessTransaction
    is_bet = txn.kind == TxnKind.BET
    counted_bet = is_bet & txn.rolled_back.is_(False)
    rows = await session.execute(
        select(
            txn.provider,
            func.coalesce(func.sum(case((counted_bet, txn.amount), else_=0)), 0),
            func.coalesce(func.sum(case((txn.kind == TxnKind.WIN, txn.amount), else_=0)), 0),
            func.count().filter(counted_bet),
        )
        .where(txn.member_id == member_id, txn.created_at >= since, txn.created_at < until)
        .group_by(txn.provider)
    )
    return {
        provider.upper(): GameTotals(turnover=int(bets), payout=int(wins), bets=int(count))
        for provider, bets, wins, count in rows
    }
