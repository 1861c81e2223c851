"""Deposits and withdrawals: deposits by channel (the ledger's summary), deposit requests by
channel, bank and status and their time to credit (``pao.reports.deposits``), withdrawals
requested in the range by status and bank, and the time from a withdrawal's request to its
payout."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from pao.ledger.models import Hold, HoldStatus
from pao.reports import deposits
from pao.reports.daily import DaySums
from pao.reports.ledger_days import flows
from pao.reports.sources import DEPOSIT_SOURCES
from pao.reports.tables import Kind, Range, Table, columns, wanted
from pao.reports.waits import seconds, summary
from pao.wallet.models import Withdrawal, WithdrawalStatus

CHANNELS = columns(channel=Kind.TEXT, count=Kind.COUNT, sum=Kind.MONEY)
WITHDRAWALS = columns(status=Kind.TEXT, bank=Kind.TEXT, count=Kind.COUNT, sum=Kind.MONEY)
PAYOUT_TIME = columns(
    paid=Kind.COUNT,
    mean=Kind.SECONDS,
    p50=Kind.SECONDS,
    p95=Kind.SECONDS,
    max=Kind.SECONDS,
)


async def report(session: AsyncSession, span: Range, *, only: str | None = None) -> list[Table]:
    tables: list[Table] = []
    if wanted(only, "channels"):
        tables.append(await _channels(session, span))
    if wanted(only, "deposits"):
        tables.append(await deposits.requests(session, span))
    if wanted(only, "deposit_time"):
        tables.append(await deposits.time_to_credit(session, span))
    if wanted(only, "withdrawals"):
        tables.append(await _withdrawals(session, span))
    if wanted(only, "payout_time"):
        tables.append(await _payout_time(session, span))
    return tables


def _requested(span: Range) -> tuple[Any, ...]:
    start, end = span.bounds
    return (
        Withdrawal.created_at >= start,
        Withdrawal.created_at < end,
        Withdrawal.currency == span.currency,
    )


async def _channels(session: AsyncSession, span: Range) -> Table:
    sums = DaySums()
    for flow in await flows(session, span, kinds=DEPOSIT_SOURCES):
        sums.add(flow)
    channels = [(name, tally.count, tally.sum) for name, tally in sums.by_channel.items()]
    return Table("channels", CHANNELS, channels)


async def _withdrawals(session: AsyncSession, span: Range) -> Table:
    withdrawals = [
        (status, bank, int(count), int(amount or 0))
        for status, bank, count, amount in await session.execute(
            select(
                Withdrawal.status, Withdrawal.bank_code, func.count(), func.sum(Withdrawal.amount)
            )
            .where(*_requested(span))
            .group_by(Withdrawal.status, Withdrawal.bank_code)
            .order_by(Withdrawal.status, Withdrawal.bank_code)
        )
    ]
    return Table("withdrawals", WITHDRAWALS, withdrawals)


async def _payout_time(session: AsyncSession, span: Range) -> Table:
    # Paid = the withdrawal's hold posted to payout clearing; the hold says when.
    rows = await session.execute(
        select(Withdrawal.created_at, Hold.resolved_at)
        .join(Hold, Hold.id == Withdrawal.hold_id)
        .where(
            *_requested(span),
            Withdrawal.status == WithdrawalStatus.PAID,
            Hold.status == HoldStatus.POSTED,
        )
    )
    return Table("payout_time", PAYOUT_TIME, [summary(seconds(rows))])
