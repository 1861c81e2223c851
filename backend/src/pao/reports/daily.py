"""The daily figures: the dashboard's numbers, one row a day (deposits, withdrawals, bonuses,
manual adjustments, registrations, first deposits), from the summaries.

Money by the rule of the dashboard (``pao.backoffice.dashboard.figures``): deposits = money out
of a deposit source, back-office corrections left out (ADR 0010); withdrawals = money into
payout clearing; bonuses = money out of bonus expense; manual credit / debit (goodwill) = the
corrections' money out of / into the manual adjustments account.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from pao.identity.figures import new_members_by_day
from pao.identity.models import Member
from pao.kit.days import as_date, days
from pao.ledger.models import AccountKind
from pao.reports.ledger_days import Flow, flows
from pao.reports.models import MemberFirstDeposit
from pao.reports.sources import CHANNELS, CORRECTION_KINDS, DEPOSIT_SOURCES, channel_of
from pao.reports.tables import Kind, Range, Table, columns

MONEY_KINDS = DEPOSIT_SOURCES | {AccountKind.PAYOUT_CLEARING, AccountKind.BONUS_EXPENSE}


@dataclass
class Tally:
    count: int = 0
    sum: int = 0

    def add(self, count: int, amount: int) -> None:
        self.count += count
        self.sum += amount


@dataclass
class DaySums:
    deposits: Tally = field(default_factory=Tally)
    by_channel: dict[str, Tally] = field(
        default_factory=lambda: {channel: Tally() for channel in CHANNELS}
    )
    withdrawals: Tally = field(default_factory=Tally)
    bonuses: int = 0
    manual_credit: int = 0
    manual_debit: int = 0
    new_members: int = 0
    first_deposits: int = 0

    def add(self, flow: Flow) -> None:
        channel = channel_of(flow.kind, flow.owner, marked=flow.marked, entry_kind=flow.entry_kind)
        if channel is not None and flow.out_count:
            self.deposits.add(flow.out_count, flow.out_sum)
            self.by_channel.setdefault(channel, Tally()).add(flow.out_count, flow.out_sum)
        if flow.kind is AccountKind.MANUAL_ADJUSTMENTS:
            if flow.entry_kind in CORRECTION_KINDS:
                self.manual_credit += flow.out_sum
                self.manual_debit += flow.in_sum
        elif flow.kind is AccountKind.PAYOUT_CLEARING:
            self.withdrawals.add(flow.in_count, flow.in_sum)
        elif flow.kind is AccountKind.BONUS_EXPENSE:
            self.bonuses += flow.out_sum


async def first_deposits_by_day(session: AsyncSession, span: Range) -> dict[date, int]:
    """Members whose first deposit ever fell on each day of ``span``."""
    query = (
        select(MemberFirstDeposit.day, func.count())
        .where(
            MemberFirstDeposit.day >= span.first,
            MemberFirstDeposit.day <= span.last,
            MemberFirstDeposit.currency == span.currency,
        )
        .group_by(MemberFirstDeposit.day)
    )
    return {as_date(day): int(count) for day, count in await session.execute(query)}


async def by_day(session: AsyncSession, span: Range) -> tuple[DaySums, dict[date, DaySums]]:
    """The range's totals and each day's figures (every day of the range present)."""
    total = DaySums()
    series = {day: DaySums() for day in days(span.first, span.last)}
    for flow in await flows(session, span, kinds=MONEY_KINDS):
        total.add(flow)
        series.setdefault(flow.day, DaySums()).add(flow)
    start, end = span.bounds
    registered = await new_members_by_day(
        session, currency=span.currency, start=start, end=end, zone=span.zone
    )
    for day, count in registered.items():
        series.setdefault(day, DaySums()).new_members = count
        total.new_members += count
    for day, count in (await first_deposits_by_day(session, span)).items():
        series.setdefault(day, DaySums()).first_deposits = count
        total.first_deposits += count
    return total, series


DAYS = columns(
    day=Kind.DAY,
    deposits_count=Kind.COUNT,
    deposits=Kind.MONEY,
    withdrawals_count=Kind.COUNT,
    withdrawals=Kind.MONEY,
    net=Kind.MONEY,
    bonuses=Kind.MONEY,
    manual_credit=Kind.MONEY,
    manual_debit=Kind.MONEY,
    new_members=Kind.COUNT,
    first_deposits=Kind.COUNT,
)


async def report(session: AsyncSession, span: Range, *, only: str | None = None) -> list[Table]:
    _, series = await by_day(session, span)
    rows = [
        (
            day,
            sums.deposits.count,
            sums.deposits.sum,
            sums.withdrawals.count,
            sums.withdrawals.sum,
            sums.deposits.sum - sums.withdrawals.sum,
            sums.bonuses,
            sums.manual_credit,
            sums.manual_debit,
            sums.new_members,
            sums.first_deposits,
        )
        for day, sums in sorted(series.items())
        if span.first <= day <= span.last
    ]
    return [Table("days", DAYS, rows)]


async def new_members_deposited(session: AsyncSession, span: Range) -> int:
    """Members registered in ``span`` whose first deposit falls in it (a deposit follows the
    registration, so: credited in the range at all)."""
    start, end = span.bounds
    query = (
        select(func.count())
        .select_from(Member)
        .join(MemberFirstDeposit, MemberFirstDeposit.member_id == Member.id)
        .where(
            Member.currency == span.currency,
            Member.created_at >= start,
            Member.created_at < end,
            MemberFirstDeposit.day <= span.last,
        )
    )
    return int((await session.execute(query)).scalar_one())
