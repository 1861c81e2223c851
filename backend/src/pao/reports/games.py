"""Games: money moved to and from each provider in the range (the ledger's summary of the
provider floats), each provider's float in Pao's ledger against what the provider last reported
for Pao's game accounts (the reconciliation), transfers still unresolved; and the seamless
providers' bets, wins and GGR in the range, with each one's clearing against the seamless
transactions (:mod:`pao.reports.seamless`)."""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from pao.games.models import GameAccount, GameTransfer, GameTransferStatus
from pao.ledger.figures import balances
from pao.ledger.models import AccountKind
from pao.reports import seamless
from pao.reports.ledger_days import flows
from pao.reports.tables import Kind, Range, Table, columns, wanted

TRANSFERS = columns(
    provider=Kind.TEXT,
    to_game_count=Kind.COUNT,
    to_game=Kind.MONEY,
    from_game_count=Kind.COUNT,
    from_game=Kind.MONEY,
    net=Kind.MONEY,
)
FLOATS = columns(provider=Kind.TEXT, ledger=Kind.MONEY, reported=Kind.MONEY, difference=Kind.MONEY)
UNRESOLVED = columns(provider=Kind.TEXT, direction=Kind.TEXT, count=Kind.COUNT, sum=Kind.MONEY)
SEAMLESS = columns(
    provider=Kind.TEXT,
    bet_count=Kind.COUNT,
    bets=Kind.MONEY,
    rolled_back=Kind.MONEY,
    win_count=Kind.COUNT,
    wins=Kind.MONEY,
    ggr=Kind.MONEY,
)
SEAMLESS_CLEARING = columns(
    provider=Kind.TEXT, ledger=Kind.MONEY, transactions=Kind.MONEY, difference=Kind.MONEY
)


async def report(session: AsyncSession, span: Range, *, only: str | None = None) -> list[Table]:
    tables: list[Table] = []
    if wanted(only, "transfers"):
        tables.append(await _transfers(session, span))
    if wanted(only, "floats"):
        tables.append(await _floats(session, span))
    if wanted(only, "unresolved"):
        tables.append(await _unresolved(session, span))
    if wanted(only, "seamless"):
        tables.append(await _seamless(session, span))
    if wanted(only, "seamless_clearing"):
        tables.append(await _seamless_clearing(session, span))
    return tables


async def _transfers(session: AsyncSession, span: Range) -> Table:
    moved: dict[str, list[int]] = {}
    for flow in await flows(session, span, kinds={AccountKind.PROVIDER_FLOAT}):
        tally = moved.setdefault(flow.owner, [0, 0, 0, 0])
        tally[0] += flow.in_count
        tally[1] += flow.in_sum
        tally[2] += flow.out_count
        tally[3] += flow.out_sum
    transfers = [
        (provider, n_in, s_in, n_out, s_out, s_in - s_out)
        for provider, (n_in, s_in, n_out, s_out) in sorted(moved.items())
    ]
    return Table("transfers", TRANSFERS, transfers)


async def _floats(session: AsyncSession, span: Range) -> Table:
    ledger = dict(await balances(session, kind=AccountKind.PROVIDER_FLOAT, currency=span.currency))
    # What each provider last said it holds for Pao's accounts (read on every balance check).
    reported = {
        game: int(total or 0)
        for game, total in await session.execute(
            select(GameAccount.game_code, func.sum(GameAccount.last_balance)).group_by(
                GameAccount.game_code
            )
        )
    }
    floats = [
        (
            provider,
            ledger.get(provider, 0),
            reported.get(provider, 0),
            ledger.get(provider, 0) - reported.get(provider, 0),
        )
        for provider in sorted(set(ledger) | set(reported))
    ]
    return Table("floats", FLOATS, floats)


async def _unresolved(session: AsyncSession, span: Range) -> Table:
    unresolved = [
        (game, direction, int(count), int(amount or 0))
        for game, direction, count, amount in await session.execute(
            select(
                GameTransfer.game_code,
                GameTransfer.direction,
                func.count(),
                func.sum(GameTransfer.amount),
            )
            .where(
                GameTransfer.status == GameTransferStatus.PENDING,
                GameTransfer.currency == span.currency,
            )
            .group_by(GameTransfer.game_code, GameTransfer.direction)
            .order_by(GameTransfer.game_code, GameTransfer.direction)
        )
    ]
    return Table("unresolved", UNRESOLVED, unresolved)


async def _seamless(session: AsyncSession, span: Range) -> Table:
    rows = [
        (p.provider, p.bet_count, p.bets, p.rolled_back, p.win_count, p.wins, p.ggr)
        for p in await seamless.by_provider(session, span)
    ]
    return Table("seamless", SEAMLESS, rows)


async def _seamless_clearing(session: AsyncSession, span: Range) -> Table:
    rows = [
        (c.provider, c.ledger, c.transactions, c.difference)
        for c in await seamless.reconciliation(session, currency=span.currency)
    ]
    return Table("seamless_clearing", SEAMLESS_CLEARING, rows)
