"""The reports by name, in the order the back office lists them."""

from __future__ import annotations

from enum import StrEnum

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from pao.reports import daily, games, members, payments, promotions
from pao.reports.tables import Range, Table


class ReportName(StrEnum):
    DAILY = "daily"
    PAYMENTS = "payments"
    PROMOTIONS = "promotions"
    GAMES = "games"
    MEMBERS = "members"
    STAFF = "staff"  # served by the back office: the audit log is its own table
    # Members who hit a limit or an exclusion (refused, or credited over it and flagged):
    # served by the back office from pao.protection's records.
    PROTECTION = "protection"


async def run(
    name: ReportName,
    session: AsyncSession,
    span: Range,
    *,
    only: str | None = None,
    sessionmaker: async_sessionmaker[AsyncSession] | None = None,
) -> list[Table]:
    """The tables of report ``name`` (all but ``staff``) over ``span``; ``only`` one of them
    (a CSV export), which for a large table streams through ``sessionmaker``'s sessions."""
    match name:
        case ReportName.DAILY:
            return await daily.report(session, span, only=only)
        case ReportName.PAYMENTS:
            return await payments.report(session, span, only=only)
        case ReportName.PROMOTIONS:
            return await promotions.report(session, span, only=only)
        case ReportName.GAMES:
            return await games.report(session, span, only=only)
        case ReportName.MEMBERS:
            return await members.report(session, span, only=only, sessionmaker=sessionmaker)
    raise ValueError(name)


# The tables of each report, in order (the CSV export's path names one).
TABLES: dict[ReportName, tuple[str, ...]] = {
    ReportName.DAILY: ("days",),
    ReportName.PAYMENTS: (
        "channels",
        "deposits",
        "deposit_time",
        "withdrawals",
        "payout_time",
    ),
    ReportName.PROMOTIONS: ("bonuses", "payouts"),
    ReportName.GAMES: (
        "transfers",
        "floats",
        "unresolved",
        "seamless",
        "seamless_clearing",
    ),
    ReportName.MEMBERS: ("registrations", "sources", "depositors"),
    ReportName.STAFF: ("actions",),
    ReportName.PROTECTION: ("hits",),
}
