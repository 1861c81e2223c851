"""The operator's figures for a range of days, read only through the domains' query functions.

Money figures come from the ledger, not from the channels' own tables: a journal entry is what
moved the money, so the figures cannot disagree with the books. Each deposit channel credits
the member's wallet *from its own clearing account* (``pao.ledger.models.AccountKind``), so the
account on the other side of the credit names the channel:

=========================  =====================================================  =============
account that paid out      who posts it                                           channel
=========================  =====================================================  =============
GATEWAY_CLEARING (owner)   payments/qr ``record_gateway_payment``                 WW / PAYTIMZ /
                                                                                  PAYONEX
WALLET_PROVIDER_CLEARING   payments/truemoney (gift vouchers)                     truemoney
MANUAL_ADJUSTMENTS         wallet ``credit_manually`` (``pao ops deposit``) and   manual
                           the back office's manual credits
BANK_CLEARING              payments/slips ``_credit`` **and** payments/qr         slip /
                           ``record_bank_notification`` (KBANK, Lao QR)           bank_qr
=========================  =====================================================  =============

Only the bank clearing account is shared; there the entries that a slip row points at
(``slips.journal_entry_id``, written in the same transaction as the credit) are the slips, the
rest are bank QR payments. Entry kinds and memos were not used: ``kind`` is "deposit" for every
channel and a memo is free text, while the account is part of the money itself.

The other figures, by the same rule: withdrawals = money that reached PAYOUT_CLEARING (a
withdrawal posted as paid, by payout or by hand); bonuses = money out of BONUS_EXPENSE (bonuses,
invite bonuses, wheel prizes, refunds); manual adjustments = MANUAL_ADJUSTMENTS out (credit to a
member) and in (debit from a member), so a manual credit shows both as the "manual" deposit
channel and as an adjustment; provider floats = the PROVIDER_FLOAT balances now (member money
sitting at each game provider, whatever the range). A reversal moves money back into an
account: it is not counted as a deposit (money in), and is left out of the deposit figures.

Days are the operator's (``SiteSettings.timezone``, Asia/Bangkok): ``pao.kit.days``.

These sums scan the range's postings (indexed by entry and time); a summary table kept in step
with the ledger would replace :func:`compute` when ranges or volumes make it slow.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from zoneinfo import ZoneInfo

from sqlalchemy.ext.asyncio import AsyncSession

from pao.identity.figures import count_members, new_members_by_day
from pao.kit.days import day_bounds, days
from pao.kit.money import Currency
from pao.ledger.figures import DailyFlow, balances, credited_owners, daily_flows
from pao.ledger.models import AccountKind
from pao.payments.figures import count_slips_to_review, count_unmatched_payments, slip_entries
from pao.payments.gateways.registry import GATEWAY_CODES
from pao.wallet.figures import count_adjustments_awaiting, count_pending_withdrawals

SLIP, BANK_QR, TRUEMONEY, MANUAL = "slip", "bank_qr", "truemoney", "manual"
# In the order the dashboard lists them.
CHANNELS: tuple[str, ...] = (SLIP, *GATEWAY_CODES, BANK_QR, TRUEMONEY, MANUAL)

DEPOSIT_SOURCES = frozenset(
    {
        AccountKind.BANK_CLEARING,
        AccountKind.GATEWAY_CLEARING,
        AccountKind.WALLET_PROVIDER_CLEARING,
        AccountKind.MANUAL_ADJUSTMENTS,
    }
)
_READ = DEPOSIT_SOURCES | {AccountKind.PAYOUT_CLEARING, AccountKind.BONUS_EXPENSE}


@dataclass
class Tally:
    count: int = 0
    sum: int = 0

    def add(self, count: int, amount: int) -> None:
        self.count += count
        self.sum += amount


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


def channel_of(flow: DailyFlow) -> str | None:
    """The deposit channel of money leaving ``flow``'s account, if it is a deposit source."""
    match flow.kind:
        case AccountKind.BANK_CLEARING:
            return SLIP if flow.marked else BANK_QR
        case AccountKind.GATEWAY_CLEARING:
            return flow.owner
        case AccountKind.WALLET_PROVIDER_CLEARING:
            return TRUEMONEY
        case AccountKind.MANUAL_ADJUSTMENTS:
            return MANUAL
    return None


async def compute(
    session: AsyncSession, *, first: date, last: date, currency: Currency, zone: ZoneInfo
) -> Figures:
    """The figures of the local days ``first`` … ``last`` (inclusive) in ``currency``."""
    start, end = day_bounds(first, last, zone)
    figures = Figures(first=first, last=last, currency=currency)
    figures.series = {day: Day() for day in days(first, last)}
    flows = await daily_flows(
        session,
        kinds=_READ,
        currency=currency,
        start=start,
        end=end,
        zone=zone,
        marked=slip_entries(),
    )
    for flow in flows:
        # A row on a day outside the range can only come from SQLite's fixed-offset days.
        day = figures.series.setdefault(flow.day, Day())
        channel = channel_of(flow)
        if channel is not None and flow.out_count:
            figures.deposits.add(flow.out_count, flow.out_sum)
            figures.by_channel.setdefault(channel, Tally()).add(flow.out_count, flow.out_sum)
            day.deposits += flow.out_sum
        if flow.kind is AccountKind.MANUAL_ADJUSTMENTS:
            figures.manual_credit += flow.out_sum
            figures.manual_debit += flow.in_sum
        elif flow.kind is AccountKind.PAYOUT_CLEARING:
            figures.withdrawals.add(flow.in_count, flow.in_sum)
            day.withdrawals += flow.in_sum
        elif flow.kind is AccountKind.BONUS_EXPENSE:
            figures.bonuses_paid += flow.out_sum
    for day_, count in (
        await new_members_by_day(session, currency=currency, start=start, end=end, zone=zone)
    ).items():
        figures.series.setdefault(day_, Day()).new_members = count
    figures.members_total = await count_members(session, currency=currency, before=end)
    figures.members_new = await count_members(session, currency=currency, before=end, since=start)
    figures.members_new_deposited = await count_members(
        session,
        currency=currency,
        before=end,
        since=start,
        among=credited_owners(sources=DEPOSIT_SOURCES, currency=currency, start=start, end=end),
    )
    figures.provider_floats = await balances(
        session, kind=AccountKind.PROVIDER_FLOAT, currency=currency
    )
    return figures


async def queues(session: AsyncSession) -> Queues:
    """The live counts of the queues that wait for staff."""
    return Queues(
        withdrawals_pending=await count_pending_withdrawals(session),
        slips_to_review=await count_slips_to_review(session),
        unmatched_payments=await count_unmatched_payments(session),
        adjustments_awaiting=await count_adjustments_awaiting(session),
    )
