"""The operator's figures for a range of days, read from the report summaries (ADR 0015).

Money figures come from the ledger, not from the channels' own tables: a journal entry is what
moved the money, so the figures cannot disagree with the books. The summaries
(:mod:`pao.reports.refresh`) add the journal up per local day, account kind and owner; the
route brings them up to the last entry first (``catch_up``), so these figures are current to the
second without summing the journal per request. Which account is which deposit channel, and the
other figures' rules, are in :mod:`pao.reports.sources` and :mod:`pao.reports.daily`:

* deposits = money out of a deposit source (bank clearing: slip when a slip row points at the
  entry, else bank QR; each gateway's clearing; TrueMoney's; money received by hand,
  ``pao ops deposit``);
* withdrawals = money into payout clearing; bonuses = money out of bonus expense;
* goodwill credits and debits = back-office corrections (manual adjustments) out of and into
  the manual adjustments account: not deposits (ADR 0010), so apart, and not in the net;
* provider floats = the PROVIDER_FLOAT balances now. A reversal is not a deposit;
* seamless play = each seamless provider's bets (stakes less rollbacks), wins and GGR
  (bets − wins), from its clearing's movements (:mod:`pao.reports.seamless`).

Each figure comes with the same figure of the period before (as many days, just before), for
the manager's "compared with yesterday / last week": one more read of the same summaries.

Days are the operator's (``SiteSettings.timezone``, Asia/Bangkok): ``pao.kit.days``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, timedelta
from zoneinfo import ZoneInfo

from sqlalchemy.ext.asyncio import AsyncSession

from pao.identity.figures import count_members, wallet_currencies
from pao.kit.money import Currency
from pao.ledger.figures import balances
from pao.ledger.models import AccountKind
from pao.payments.figures import count_slips_to_review, count_unmatched_payments
from pao.reports import seamless
from pao.reports.daily import DaySums, Tally, by_day, new_members_deposited
from pao.reports.sources import CHANNELS
from pao.reports.tables import Range
from pao.wallet.figures import count_adjustments_awaiting, count_pending_withdrawals

__all__ = [
    "CHANNELS",
    "Day",
    "Figures",
    "Period",
    "Queues",
    "Tally",
    "compute",
    "previous_days",
    "queues",
]


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
class Period:
    """The money and member figures of a range of days (the range shown, or the one before)."""

    first: date
    last: date
    members_new: int = 0
    members_new_deposited: int = 0
    deposits: Tally = field(default_factory=Tally)
    withdrawals: Tally = field(default_factory=Tally)
    bonuses_paid: int = 0
    # Goodwill: back-office corrections, credit and debit (not deposits, ADR 0010).
    manual_credit: int = 0
    manual_debit: int = 0

    @property
    def net(self) -> int:
        """Money players brought in less what was paid out to them (goodwill left out)."""
        return self.deposits.sum - self.withdrawals.sum


@dataclass
class Figures(Period):
    currency: Currency = Currency.THB
    # The currencies the site has wallets in (what the screen can switch between).
    currencies: list[Currency] = field(default_factory=list)
    members_total: int = 0
    by_channel: dict[str, Tally] = field(
        default_factory=lambda: {channel: Tally() for channel in CHANNELS}
    )
    provider_floats: list[tuple[str, int]] = field(default_factory=list)
    seamless: list[seamless.ProviderPlay] = field(default_factory=list)
    series: dict[date, Day] = field(default_factory=dict)
    previous: Period | None = None


def previous_days(first: date, last: date) -> tuple[date, date]:
    """The range of as many days just before ``first`` … ``last``: the day before a day, the
    week before a week, the 30 days before 30 days."""
    length = last - first
    before = first - timedelta(days=1)
    return before - length, before


async def _period(
    session: AsyncSession, period: Period, span: Range
) -> tuple[DaySums, dict[date, DaySums]]:
    """Fill ``period`` from the summaries; its totals and days, for the caller's own use."""
    total, series = await by_day(session, span)
    period.deposits = total.deposits
    period.withdrawals = total.withdrawals
    period.bonuses_paid = total.bonuses
    period.manual_credit = total.manual_credit
    period.manual_debit = total.manual_debit
    period.members_new = total.new_members
    period.members_new_deposited = await new_members_deposited(session, span)
    return total, series


async def compute(
    session: AsyncSession, *, first: date, last: date, currency: Currency, zone: ZoneInfo
) -> Figures:
    """The figures of the local days ``first`` … ``last`` (inclusive) in ``currency``, with
    those of the period before."""
    span = Range(first=first, last=last, currency=currency, zone=zone)
    figures = Figures(first=first, last=last, currency=currency)
    total, series = await _period(session, figures, span)
    figures.by_channel = total.by_channel
    figures.series = {day: _day(sums) for day, sums in series.items()}
    _start, end = span.bounds
    figures.members_total = await count_members(session, currency=currency, before=end)
    figures.provider_floats = await balances(
        session, kind=AccountKind.PROVIDER_FLOAT, currency=currency
    )
    figures.seamless = await seamless.by_provider(session, span)
    before_first, before_last = previous_days(first, last)
    figures.previous = Period(first=before_first, last=before_last)
    await _period(
        session,
        figures.previous,
        Range(first=before_first, last=before_last, currency=currency, zone=zone),
    )
    figures.currencies = sorted({*await wallet_currencies(session), currency})
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
