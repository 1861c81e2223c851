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
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from pao.ledger.models import JournalEntry
from pao.payments.qr.models import QrDeposit, QrStatus
from pao.payments.slips.models import Slip, SlipStatus
from pao.payments.truemoney.models import RedemptionStatus, VoucherRedemption
from pao.reports.sources import BANK_QR, CHANNELS, SLIP, TRUEMONEY
from pao.reports.tables import Kind, Range, Row, Table, columns
from pao.reports.waits import seconds, summary

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


async def time_to_credit(session: AsyncSession, span: Range) -> Table:
    # Slips: settled when credited (by the bank check or a staff approval on review).
    # QR: paid_at is when the payment was credited. TrueMoney: the credit's journal entry.
    pairs: dict[str, list[Sequence[datetime | None]]] = defaultdict(list)
    slips = select(Slip.created_at, Slip.settled_at).where(
        *_made(Slip.created_at, Slip.currency, span), Slip.status == SlipStatus.SUCCESS
    )
    pairs[SLIP].extend(tuple(row) for row in await session.execute(slips))
    qrs = select(
        QrDeposit.is_gateway, QrDeposit.channel, QrDeposit.created_at, QrDeposit.paid_at
    ).where(
        *_made(QrDeposit.created_at, QrDeposit.currency, span),
        QrDeposit.status.in_(QR_CREDITED),
    )
    for is_gateway, code, created, paid in await session.execute(qrs):
        pairs[_qr_channel(bool(is_gateway), code)[0]].append((created, paid))
    vouchers = (
        select(VoucherRedemption.created_at, JournalEntry.created_at)
        .join(JournalEntry, JournalEntry.id == VoucherRedemption.entry_id)
        .where(
            *_made(VoucherRedemption.created_at, VoucherRedemption.currency, span),
            VoucherRedemption.status == RedemptionStatus.CREDITED,
        )
    )
    pairs[TRUEMONEY].extend(tuple(row) for row in await session.execute(vouchers))
    rows: list[Row] = [
        (channel, *summary(seconds(found)))
        for channel, found in sorted(pairs.items(), key=lambda item: _order(item[0]))
        if found
    ]
    return Table("deposit_time", DEPOSIT_TIME, rows)
