"""Deposit requests made in the range, whatever became of them: slips uploaded (with their staff
review), QR codes offered (bank QR and gateway orders) and TrueMoney vouchers sent, by channel,
receiving bank and status; and the time from each credited request to its credit, per channel.

The ledger's summary (deposits by channel) counts the money that came in; this counts what
members *asked* for, including the slips still being checked or refused and the QR codes never
paid, so the two differ by what was refused, abandoned or is still open. Each is a range query
on its table's own time index (``created_at``, migration 0017); a request is counted on the day it
was made and in the range's currency.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from sqlalchemy import ColumnElement, Float, case, cast, func, literal, select
from sqlalchemy.dialects import postgresql
from sqlalchemy.ext.asyncio import AsyncSession

from pao.ledger.models import JournalEntry
from pao.payments.qr.models import QrDeposit, QrStatus
from pao.payments.slips.models import Slip, SlipStatus
from pao.payments.truemoney.models import RedemptionStatus, VoucherRedemption
from pao.reports.sources import BANK_QR, CHANNELS, SLIP, TRUEMONEY
from pao.reports.tables import Kind, Range, Row, Table, columns
from pao.reports.waits import summary

DEPOSITS = columns(
    channel=Kind.TEXT,
    bank=Kind.TEXT,
    status=Kind.TEXT,
    review=Kind.TEXT,
    count=Kind.COUNT,
    sum=Kind.MONEY,
)
DEPOSIT_TIME = columns(
    channel=Kind.TEXT,
    credited=Kind.COUNT,
    mean=Kind.SECONDS,
    p50=Kind.SECONDS,
    p95=Kind.SECONDS,
    max=Kind.SECONDS,
)
# A QR is credited once paid, on time or late (money is never dropped).
QR_CREDITED = (QrStatus.PAID, QrStatus.PAID_LATE)


def _made(created_at: Any, currency: Any, span: Range) -> tuple[Any, ...]:
    start, end = span.bounds
    return (created_at >= start, created_at < end, currency == span.currency)


def _qr_channel(is_gateway: bool, channel: str) -> tuple[str, str]:
    """(channel, receiving bank) of a QR: a gateway order is the gateway's channel and has no
    bank of ours; a bank QR is paid into the bank the QR names (KBANK, or Lao mode's bank)."""
    return (channel, "") if is_gateway else (BANK_QR, channel)


def _order(channel: str) -> int:
    return CHANNELS.index(channel) if channel in CHANNELS else len(CHANNELS)


async def requests(session: AsyncSession, span: Range) -> Table:
    rows: list[Row] = []
    slips = (
        select(
            Slip.receiver_bank, Slip.status, Slip.review_status, func.count(), func.sum(Slip.amount)
        )
        .where(*_made(Slip.created_at, Slip.currency, span))
        .group_by(Slip.receiver_bank, Slip.status, Slip.review_status)
    )
    for bank, status, review, count, amount in await session.execute(slips):
        # The bank is known once the slip was read; "" while it is checked or if unreadable.
        rows.append((SLIP, bank or "", status, review or "", int(count), int(amount or 0)))
    qrs = (
        select(
            QrDeposit.is_gateway,
            QrDeposit.channel,
            QrDeposit.status,
            func.count(),
            func.sum(QrDeposit.amount),
        )
        .where(*_made(QrDeposit.created_at, QrDeposit.currency, span))
        .group_by(QrDeposit.is_gateway, QrDeposit.channel, QrDeposit.status)
    )
    for is_gateway, code, qr_status, qr_count, qr_sum in await session.execute(qrs):
        channel, qr_bank = _qr_channel(bool(is_gateway), code)
        rows.append((channel, qr_bank, qr_status, "", int(qr_count), int(qr_sum or 0)))
    vouchers = (
        select(VoucherRedemption.status, func.count(), func.sum(VoucherRedemption.amount))
        .where(*_made(VoucherRedemption.created_at, VoucherRedemption.currency, span))
        .group_by(VoucherRedemption.status)
    )
    for voucher_status, voucher_count, voucher_sum in await session.execute(vouchers):
        # A refused voucher may have no amount (TrueMoney did not say): it adds 0.
        rows.append((TRUEMONEY, "", voucher_status, "", int(voucher_count), int(voucher_sum or 0)))
    rows.sort(key=lambda row: (_order(row[0]), *row[:4]))
    return Table("deposits", DEPOSITS, rows)


def _wait(session: AsyncSession, start: Any, end: Any) -> ColumnElement[float]:
    """Seconds from ``start`` to ``end``, computed by the database (not row by row here)."""
    if session.get_bind().dialect.name == "postgresql":
        return cast(func.extract("epoch", end - start), Float)
    # SQLite keeps the UTC times as text, which julianday() reads (days, fractional).
    return (func.julianday(end) - func.julianday(start)) * 86400.0


async def _waits(
    session: AsyncSession, channel: ColumnElement[str], wait: ColumnElement[float], *where: Any
) -> list[Row]:
    """(channel, credited, mean, p50, p95, max) of ``wait`` per channel. PostgreSQL sums up a
    month of deposits itself (a row a channel); SQLite, a small operator's, hands the waits over
    and they are summed up here, the same way (nearest rank)."""
    if session.get_bind().dialect.name == "postgresql":
        query = (
            select(
                channel,
                func.count(),
                func.avg(wait),
                # Both percentiles from one sort of the waits.
                func.percentile_disc(postgresql.array([0.5, 0.95])).within_group(wait),
                func.max(wait),
            )
            .where(*where)
            .group_by(channel)
        )
        return [
            (name, int(count), *(round(float(v or 0)) for v in (mean, *p50_p95, longest)))
            for name, count, mean, p50_p95, longest in await session.execute(query)
        ]
    found: dict[str, list[float]] = defaultdict(list)
    for name, seconds in await session.execute(select(channel, wait).where(*where)):
        found[name].append(float(seconds))
    return [(name, *summary(sorted(waits))) for name, waits in found.items()]


async def time_to_credit(session: AsyncSession, span: Range) -> Table:
    # Slips: settled when credited (by the bank check or a staff approval on review).
    # QR: paid_at is when the payment was credited. TrueMoney: the credit's journal entry.
    rows = await _waits(
        session,
        literal(SLIP),
        _wait(session, Slip.created_at, Slip.settled_at),
        *_made(Slip.created_at, Slip.currency, span),
        Slip.status == SlipStatus.SUCCESS,
        Slip.settled_at.is_not(None),
    )
    rows += await _waits(
        session,
        case((QrDeposit.is_gateway, QrDeposit.channel), else_=literal(BANK_QR)),
        _wait(session, QrDeposit.created_at, QrDeposit.paid_at),
        *_made(QrDeposit.created_at, QrDeposit.currency, span),
        QrDeposit.status.in_(QR_CREDITED),
        QrDeposit.paid_at.is_not(None),
    )
    rows += await _waits(
        session,
        literal(TRUEMONEY),
        _wait(session, VoucherRedemption.created_at, JournalEntry.created_at),
        *_made(VoucherRedemption.created_at, VoucherRedemption.currency, span),
        VoucherRedemption.status == RedemptionStatus.CREDITED,
        JournalEntry.id == VoucherRedemption.entry_id,
    )
    rows.sort(key=lambda row: _order(row[0]))
    return Table("deposit_time", DEPOSIT_TIME, rows)
