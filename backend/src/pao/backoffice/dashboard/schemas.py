"""Wire shapes of the dashboard (camelCase; amounts in major units)."""

from __future__ import annotations

import re
from datetime import date
from typing import Annotated, Any

from pydantic import BeforeValidator, Field
from pydantic_core import PydanticCustomError

from pao.backoffice.dashboard.figures import Figures, Period, Queues
from pao.backoffice.schemas import _Wire, _WireIn
from pao.kit.money import Currency, MajorAmount

# A year and a day: "the last 365 days" and leap years fit, a scan of years does not.
MAX_RANGE_DAYS = 366
_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


def _plain_day(value: Any) -> Any:
    # pydantic would also take a date-time at midnight or a number of seconds: a day is a day.
    if not isinstance(value, str) or not _DAY.fullmatch(value):
        raise PydanticCustomError("KEY_INVALID", "a day is YYYY-MM-DD")
    return value


Day = Annotated[date, BeforeValidator(_plain_day)]


class DashboardQuery(_WireIn):
    first: Day | None = Field(
        default=None, alias="from", description="First day (YYYY-MM-DD, operator's time zone)."
    )
    last: Day | None = Field(
        default=None, alias="to", description="Last day, inclusive; default today."
    )
    currency: Currency | None = Field(
        default=None, description="Default: the operator's currency (LAK in Lao mode)."
    )


class TallyOut(_Wire):
    count: int
    sum: MajorAmount


class ChannelOut(_Wire):
    channel: str = Field(
        description="slip, WW, PAYTIMZ, PAYONEX, bank_qr, truemoney or manual (money received "
        "by hand, pao ops deposit; never a back-office correction)."
    )
    count: int
    sum: MajorAmount


class DepositsOut(TallyOut):
    by_channel: list[ChannelOut]


class MembersOut(_Wire):
    total: int = Field(description="Registered by the end of the range.")
    new: int = Field(description="Registered in the range.")
    new_deposited: int = Field(description="Registered in the range and credited in it.")


class ManualAdjustmentsOut(_Wire):
    credit: MajorAmount = Field(
        description="Goodwill credits: back-office corrections in members' favour (not deposits)."
    )
    debit: MajorAmount = Field(description="Back-office corrections taken from members.")


class PreviousOut(_Wire):
    """The same figures for as many days just before the range (the day before a day, the week
    before a week): what the screen compares each figure with."""

    first: date = Field(alias="from")
    last: date = Field(alias="to")
    deposits: TallyOut
    withdrawals: TallyOut
    net: MajorAmount
    bonuses_paid: MajorAmount
    manual_adjustments: ManualAdjustmentsOut
    members_new: int
    members_new_deposited: int

    @classmethod
    def of(cls, period: Period) -> PreviousOut:
        return cls(
            first=period.first,
            last=period.last,
            deposits=TallyOut(count=period.deposits.count, sum=period.deposits.sum),
            withdrawals=TallyOut(count=period.withdrawals.count, sum=period.withdrawals.sum),
            net=period.net,
            bonuses_paid=period.bonuses_paid,
            manual_adjustments=ManualAdjustmentsOut(
                credit=period.manual_credit, debit=period.manual_debit
            ),
            members_new=period.members_new,
            members_new_deposited=period.members_new_deposited,
        )


class ProviderFloatOut(_Wire):
    provider: str
    balance: MajorAmount = Field(description="What the ledger says sits at the provider now.")


class SeamlessPlayOut(_Wire):
    provider: str
    bet_count: int
    bets: MajorAmount = Field(description="Stakes taken in the range, less those rolled back.")
    wins: MajorAmount
    ggr: MajorAmount = Field(description="bets − wins: the operator's gross gaming revenue.")


class DayOut(_Wire):
    date: date
    deposits: MajorAmount
    withdrawals: MajorAmount
    new_members: int


class QueuesOut(_Wire):
    withdrawals_pending: int
    slips_to_review: int = Field(description="FAILED slips whose reason needs a cashier's look.")
    unmatched_payments: int
    adjustments_awaiting: int = Field(
        description="Manual adjustments above the limit waiting for a second staff member."
    )

    @classmethod
    def of(cls, queues: Queues) -> QueuesOut:
        return cls(
            withdrawals_pending=queues.withdrawals_pending,
            slips_to_review=queues.slips_to_review,
            unmatched_payments=queues.unmatched_payments,
            adjustments_awaiting=queues.adjustments_awaiting,
        )


class DashboardOut(_Wire):
    first: date = Field(alias="from")
    last: date = Field(alias="to")
    currency: Currency
    currencies: list[Currency] = Field(
        description="The currencies the site has wallets in (each one's figures: ?currency=)."
    )
    members: MembersOut
    deposits: DepositsOut = Field(description="Money players brought in; goodwill credits not.")
    withdrawals: TallyOut = Field(description="Paid withdrawals.")
    net: MajorAmount = Field(description="Deposits − paid withdrawals (goodwill left out).")
    bonuses_paid: MajorAmount
    manual_adjustments: ManualAdjustmentsOut
    previous: PreviousOut
    provider_floats: list[ProviderFloatOut]
    seamless: list[SeamlessPlayOut] = Field(
        description="Each seamless provider's play in the range (none played: no row)."
    )
    series: list[DayOut] = Field(description="One row per day of the range.")
    queues: QueuesOut

    @classmethod
    def of(cls, figures: Figures, queues: Queues) -> DashboardOut:
        return cls(
            first=figures.first,
            last=figures.last,
            currency=figures.currency,
            currencies=figures.currencies,
            members=MembersOut(
                total=figures.members_total,
                new=figures.members_new,
                new_deposited=figures.members_new_deposited,
            ),
            deposits=DepositsOut(
                count=figures.deposits.count,
                sum=figures.deposits.sum,
                by_channel=[
                    ChannelOut(channel=channel, count=tally.count, sum=tally.sum)
                    for channel, tally in figures.by_channel.items()
                ],
            ),
            withdrawals=TallyOut(count=figures.withdrawals.count, sum=figures.withdrawals.sum),
            net=figures.net,
            bonuses_paid=figures.bonuses_paid,
            manual_adjustments=ManualAdjustmentsOut(
                credit=figures.manual_credit, debit=figures.manual_debit
            ),
            previous=PreviousOut.of(figures.previous or Period(figures.first, figures.last)),
            provider_floats=[
                ProviderFloatOut(provider=provider, balance=balance)
                for provider, balance in figures.provider_floats
            ],
            seamless=[
                SeamlessPlayOut(
                    provider=p.provider, bet_count=p.bet_count, bets=p.bets, wins=p.wins, ggr=p.ggr
                )
                for p in figures.seamless
            ],
            series=[
                DayOut(
                    date=day,
                    deposits=row.deposits,
                    withdrawals=row.withdrawals,
                    new_members=row.new_members,
                )
                for day, row in sorted(figures.series.items())
                if figures.first <= day <= figures.last
            ],
            queues=QueuesOut.of(queues),
        )
