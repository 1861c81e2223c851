"""The operator's figures for a range of days, read from the report summaries (ADR 0015).

Money figures come from the ledger, not from the channels' own tables: a journal entry is what
moved the money, so the figures cannot disagree with the books. The summaries
(:mod:`pao.reports.refresh`) add the journal up per local day, account kind and owner; the
route brings them up to the last entry first (``catch_up``), so these figures are current to the
second without summing the journal per request. Which account is which deposit channel, and the
other figures' rules, are in :mod:`pao.reports.sources` and :mod:`pao.reports.daily`:

* deposits = money out of a deposit source (bank clearing: slip when a slip row points at the
  entry, else bank QR; each gateway's clearing; TrueMoney's; manual adjustments);
* withdrawals = money into payout clearing; bonuses = money out of bonus expense;
* manual adjustments = manual adjustments out (credit) and in (debit);
* provider floats = the PROVIDER_FLOAT balances now. A reversal is not a deposit.

Days are the operator's (``SiteSettings.timezone``, Asia/Bangkok): ``pao.kit.days``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from zoneinfo import ZoneInfo

from sqlalchemy.ext.asyncio import AsyncSession

from pao.identity.figures import count_members
from pao.kit.money import Currency
from pao.ledger.figures import balances
from pao.ledger.models import AccountKind
from pao.payments.figures import count_slips_to_review, count_unmatched_payments
from pao.reports.daily import DaySums, Tally, by_day, new_members_deposited
from pao.reports.sources import CHANNELS
from pao.reports.tables import Range
from pao.wallet.figures import count_adjustments_awaiting, count_pending_withdrawals

__all__ = ["CHANNELS", "Day", "Figures", "Queues", "Tally", "compute", "queues"]


@dataclass
class Day:
    deposits: int = 0
    withdrawals: int = 0
    new_members: int = 0


@dataclass
class Queues:
    withdrawals_pending: int
    slips_to_review: int
    unmatched_payments: int
    adjustments_awaiting: int


@dataclass
class Figures:
    first: date
    last: date
    currency: Currency
    members_total: int = 0
    members_new: int = 0
    members_new_deposited: int = 0
    deposits: Tally = field(default_factory=Tally)
    by_channel: dict[str, Tally] = field(
        default_factory=lambda: {channel: Tally() for channel in CHANNELS}
    )
    withdrawals: Tally = field(default_factory=Tally)
    bonuses_paid: int = 0
    manual_credit: int = 0
    manual_debit: int = 0
    provider_floats: list[tuple[str, int]] = field(default_factory=list)
    series: dict[date, Day] = field(default_factory=dict)

    @property
    def net(self) -> int:
        return self.deposits.sum - self.withdrawals.sum


async def compute(
    session: AsyncSession, *, first: date, last: date, currency: Currency, zone: ZoneInfo
) -> Figures:
    """The figures of the local days ``first`` … ``last`` (inclusive) in ``currency``."""
    span = Range(first=first, last=last, currency=currency, zone=zone)
    total, series = await by_day(session, span)
    figures = Figures(first=first, last=last, currency=currency)
    figures.deposits = total.deposits
    figures.by_channel = total.by_channel
    figures.withdrawals = total.withdrawals
    figures.bonuses_paid = total.bonuses
    figures.manual_credit = total.manual_credit
    figures.manual_debit = total.manual_debit
    figures.series = {day: _day(sums) for day, sums in series.items()}
    _start, end = span.bounds
    figures.members_total = await count_members(session, currency=currency, before=end)
    figures.members_new = total.new_members
    figures.members_new_deposited = await new_members_deposited(session, span)
    figures.provider_floats = await balances(
        session, kind=AccountKind.PROVIDER_FLOAT, currency=currency
    )
    return figures


def _day(sums: DaySums) -> Day:
    return Day(
        deposits=sums.deposits.sum,
        withdrawals=sums.withdrawals.sum,
        new_members=sums.new_members,
    )


async def queues(session: AsyncSession) -> Queues:
    """The live counts of the queues that wait for staff."""
    return Queues(
        withdrawals_pending=await count_pending_withdrawals(session),
        slips_to_review=await count_slips_to_review(session),
        unmatched_payments=await count_unmatched_payments(session),
        adjustments_awaiting=await count_adjustments_awaiting(session),
    )
