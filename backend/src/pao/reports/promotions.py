"""Promotions: bonuses granted in the range per promotion (its code), with what became of them
(cleared, ended early, still active) and what they cost, and every promotion payout by kind
(bonus, invite, refund, wheel) from the ledger's summary of bonus expense."""

from __future__ import annotations

from typing import Any

from sqlalchemy import ColumnElement, case, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from pao.kit.i18n import default_locale, pick_text
from pao.kit.money import Currency
from pao.ledger.models import AccountKind
from pao.promotions.models import Bonus, MemberBonus, MemberBonusStatus
from pao.reports.ledger_days import flows
from pao.reports.tables import Kind, Range, Table, columns, wanted

BONUSES = columns(
    code=Kind.TEXT,
    name=Kind.TEXT,
    granted=Kind.COUNT,
    granted_sum=Kind.MONEY,
    cleared=Kind.COUNT,
    forfeited=Kind.COUNT,
    forfeited_sum=Kind.MONEY,
    active=Kind.COUNT,
)
PAYOUTS = columns(kind=Kind.TEXT, count=Kind.COUNT, sum=Kind.MONEY)
# Entry kinds that pay out of bonus expense, as the promotions domain posts them.
PAYOUT_KINDS = {
    "bonus": "bonus",
    "invite_bonus": "invite",
    "refund": "refund",
    "luckydraw": "wheel",
}


def _count(status: MemberBonusStatus) -> ColumnElement[Any]:
    return func.sum(case((MemberBonus.status == status, 1), else_=0))


async def report(session: AsyncSession, span: Range, *, only: str | None = None) -> list[Table]:
    tables: list[Table] = []
    if wanted(only, "bonuses"):
        tables.append(await _bonuses(session, span))
    if wanted(only, "payouts"):
        tables.append(await _payouts(session, span))
    return tables


async def _bonuses(session: AsyncSession, span: Range) -> Table:
    start, end = span.bounds
    query = (
        select(
            Bonus.id,
            Bonus.code,
            func.count(),
            func.sum(MemberBonus.bonus_amount),
            _count(MemberBonusStatus.CLEARED),
            _count(MemberBonusStatus.ENDED),
            func.sum(
                case(
                    (MemberBonus.status == MemberBonusStatus.ENDED, MemberBonus.bonus_amount),
                    else_=0,
                )
            ),
            _count(MemberBonusStatus.ACTIVE),
        )
        .join(Bonus, Bonus.id == MemberBonus.bonus_id)
        .where(
            MemberBonus.received_at >= start,
            MemberBonus.received_at < end,
            MemberBonus.currency == span.currency,
        )
        # Not by name: it is per-language JSON, which PostgreSQL cannot compare.
        .group_by(Bonus.id, Bonus.code)
        .order_by(func.sum(MemberBonus.bonus_amount).desc(), Bonus.code)
    )
    rows = (await session.execute(query)).all()
    names = dict(
        (
            await session.execute(
                select(Bonus.id, Bonus.name).where(Bonus.id.in_([r[0] for r in rows]))
            )
        ).all()
    )
    # The operator's own language: Lao on a kip site, else Thai (as the cashier's screens).
    locale = default_locale(lao_mode=span.currency is Currency.LAK)
    bonuses = [
        (
            code,
            pick_text(names.get(bonus_id), locale, fallback=locale),
            *(int(v or 0) for v in rest),
        )
        for bonus_id, code, *rest in rows
    ]
    return Table("bonuses", BONUSES, bonuses)


async def _payouts(session: AsyncSession, span: Range) -> Table:
    payouts: dict[str, list[int]] = {label: [0, 0] for label in PAYOUT_KINDS.values()}
    for flow in await flows(session, span, kinds={AccountKind.BONUS_EXPENSE}):
        label = PAYOUT_KINDS.get(flow.entry_kind, flow.entry_kind)
        tally = payouts.setdefault(label, [0, 0])
        # Net of reversals: money back into bonus expense lowers the cost.
        tally[0] += flow.out_count
        tally[1] += flow.out_sum - flow.in_sum
    rows = [(kind, count, amount) for kind, (count, amount) in payouts.items()]
    return Table("payouts", PAYOUTS, rows)
