"""The rules of player protection.

* **Deposit limits** per day, 7 days and 30 days (rolling windows; the lowest remaining
  applies). A decrease is in force at once; an increase or a removal 24 hours after it was asked
  (a player in a bad moment cannot undo a limit on the spot). Deposits counted are the member's
  own credited deposits (statement lines of type deposit), not the operator's goodwill credits.
* **Loss limits** over the same periods and with the same rules for changes: the loss is the
  member's deposits less their withdrawals (asked or paid, not refused) over the period. Once
  reached, deposits, transfers to games and seamless bets are refused; a deposit that would pass
  it is refused before any money moves.
* **Time-out** (1 to 30 days) and **self-exclusion** (6 months, 1 year, 5 years or indefinite):
  no deposit, play or bonus until it ends; withdrawals stay open. Neither can be shortened, by
  the member or by staff. A time-out ends by itself; a self-exclusion whose period is over ends
  24 hours after the member asks (an indefinite one does not end through the app).

The member's ``excluded_until`` is what every money path checks (one column of a row it has
loaded anyway); this module keeps it in step with the exclusions it records.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal

from sqlalchemy import case, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from pao.core.errors import BadRequest
from pao.core.inserts import insert_now, update_now
from pao.identity.models import DepositLimit, ExclusionKind, Member, PlayExclusion
from pao.kit.clock import utcnow
from pao.protection import hits
from pao.protection.exceptions import (
    DepositLimitReached,
    LossLimitReached,
    PlayExcluded,
    ProtectionChangeRefused,
)
from pao.protection.models import HitKind
from pao.wallet.models import Statement, StatementStatus, StatementType

Period = Literal["day", "week", "month"]
Kind = Literal["deposit", "loss"]
PERIODS: dict[Period, timedelta] = {
    "day": timedelta(days=1),
    "week": timedelta(days=7),
    "month": timedelta(days=30),
}
COOLING_OFF = timedelta(hours=24)
# 6 months, 1 year, 5 years; None: indefinite.
SELF_EXCLUSION_DAYS: frozenset[int | None] = frozenset({182, 365, 1825, None})
TIMEOUT_DAYS = range(1, 31)
# "Indefinite" as a time every comparison understands.
FOREVER = datetime(9999, 12, 31, tzinfo=utcnow().tzinfo)


def is_excluded(member: Member, now: datetime | None = None) -> bool:
    until = member.excluded_until
    return until is not None and until > (now or utcnow())


def _excluded(member: Member, *, keeps_changes: bool = False) -> PlayExcluded:
    assert member.excluded_until is not None
    until = None if member.excluded_until >= FOREVER else member.excluded_until.isoformat()
    return PlayExcluded(until=until, keeps_changes=keeps_changes)


def ensure_may_play(member: Member) -> None:
    """Refuse a bonus (or anything else of play) of an excluded member (not recorded: the
    report counts money refused, :func:`ensure_may_deposit` and :func:`ensure_may_stake`)."""
    if is_excluded(member):
        raise _excluded(member)


async def _refuse_excluded(
    session: AsyncSession, member: Member, channel: str, amount: int | None
) -> None:
    """An excluded member's deposit or stake: recorded (the report of members who hit limits)
    and refused; the refusal keeps the record (nothing else was written before it)."""
    if is_excluded(member):
        await hits.record(session, member, HitKind.EXCLUSION, channel=channel, amount=amount)
        raise _excluded(member, keeps_changes=True)


@dataclass(frozen=True)
class LimitState:
    period: Period
    amount: int | None  # in force now (minor units); None: no limit
    pending: int | None  # asked, in force from pending_from
    pending_from: datetime | None
    deposited: int  # over the period, up to now

    @property
    def remaining(self) -> int | None:
        return None if self.amount is None else max(0, self.amount - self.deposited)


async def _limit_rows(session: AsyncSession, member_id: int, kind: Kind) -> list[DepositLimit]:
    rows = await session.execute(
        select(DepositLimit)
        .where(DepositLimit.member_id == member_id, DepositLimit.kind == kind)
        .order_by(DepositLimit.id)
    )
    return list(rows.scalars())


# The member's own money in (credited deposits) and out (withdrawals asked or paid); the
# operator's manual adjustments are neither.
_OWN = Statement.ref_type != "manual_adjustment"
_IN = (Statement.statement_type == StatementType.DEPOSIT) & (
    Statement.status == StatementStatus.SUCCESS
)
_OUT = (Statement.statement_type == StatementType.WITHDRAW) & (
    Statement.status != StatementStatus.FAILED
)


async def deposited_since(session: AsyncSession, member_id: int, since: datetime) -> int:
    total = await session.scalar(
        select(func.coalesce(func.sum(Statement.amount), 0)).where(
            Statement.member_id == member_id, Statement.created_at >= since, _OWN, _IN
        )
    )
    return int(total or 0)


async def lost_since(session: AsyncSession, member_id: int, since: datetime) -> int:
    """Deposits less withdrawals since ``since`` (minor units; negative when they won)."""
    signed = case((_IN, Statement.amount), (_OUT, -Statement.amount), else_=0)
    total = await session.scalar(
        select(func.coalesce(func.sum(signed), 0)).where(
            Statement.member_id == member_id, Statement.created_at >= since, _OWN
        )
    )
    return int(total or 0)


async def limits(session: AsyncSession, member_id: int, kind: Kind = "deposit") -> list[LimitState]:
    """Each period's limit of ``kind``; ``deposited`` is what counts against it (for a loss
    limit, the loss so far)."""
    now = utcnow()
    rows = await _limit_rows(session, member_id, kind)
    if kind == "loss" and not rows:
        # No loss limit ever set: nothing to count (the common case, on the bet path).
        return [LimitState(period, None, None, None, 0) for period in PERIODS]
    counted = deposited_since if kind == "deposit" else lost_since
    states = []
    for period, span in PERIODS.items():
        mine = [row for row in rows if row.period == period]
        in_force = [row for row in mine if row.effective_from <= now]
        # A later ask in force at once (a lower limit) replaces a raise still waiting.
        newest = in_force[-1].id if in_force else 0
        waiting = [row for row in mine if row.effective_from > now and row.id > newest]
        current = in_force[-1].amount if in_force else None
        pending = waiting[-1] if waiting else None
        states.append(
            LimitState(
                period=period,
                amount=current,
                pending=pending.amount if pending else None,
                pending_from=pending.effective_from if pending else None,
                deposited=await counted(session, member_id, now - span),
            )
        )
    return states


async def remaining_deposit(
    session: AsyncSession, member_id: int, kind: Kind = "deposit"
) -> int | None:
    """What the member may still deposit (or lose) now, minor units; None: no limit set."""
    states = await limits(session, member_id, kind)
    left = [s.remaining for s in states if s.remaining is not None]
    return min(left) if left else None


async def ensure_may_deposit(
    session: AsyncSession, member: Member, amount: int | None, *, channel: str = "deposit"
) -> None:
    """Before a deposit is started: not excluded, and within the deposit and loss limits.
    ``amount`` None: not known yet (a slip, a gift link): refused only when nothing remains.
    Each refusal is recorded (``channel``: qr, slip, truemoney)."""
    await _refuse_excluded(session, member, channel, amount)
    if not member.limits_set:
        return
    checks: tuple[tuple[Kind, HitKind, type[BadRequest]], ...] = (
        ("deposit", HitKind.DEPOSIT_LIMIT, DepositLimitReached),
        ("loss", HitKind.LOSS_LIMIT, LossLimitReached),
    )
    for kind, hit, refusal in checks:
        remaining = await remaining_deposit(session, member.id, kind)
        if remaining is None:
            continue
        if remaining == 0 or (amount is not None and amount > remaining):
            await hits.record(session, member, hit, channel=channel, amount=amount)
            raise refusal(remaining=remaining / 100, keeps_changes=True)


async def loss_limit_reached(session: AsyncSession, member: Member) -> bool:
    if not member.limits_set:
        return False
    return await remaining_deposit(session, member.id, "loss") == 0


async def ensure_may_stake(session: AsyncSession, member: Member, amount: int | None) -> None:
    """Before money goes to play (a transfer to a game): not excluded, loss limit not reached.
    Each refusal is recorded (channel ``game``)."""
    await _refuse_excluded(session, member, "game", amount)
    if await loss_limit_reached(session, member):
        await hits.record(session, member, HitKind.LOSS_LIMIT, channel="game", amount=amount)
        raise LossLimitReached(remaining=0, keeps_changes=True)


async def set_limit(
    session: AsyncSession,
    member: Member,
    period: Period,
    amount: int | None,
    kind: Kind = "deposit",
) -> None:
    """A new limit: in force at once when it is lower, else after the cooling-off."""
    if amount is not None and amount <= 0:
        raise ProtectionChangeRefused(field=period)
    now = utcnow()
    current = next(s for s in await limits(session, member.id, kind) if s.period == period)
    # Not looser than the limit in force (going back to it cancels a raise waiting): at once.
    tighter = amount is not None and (current.amount is None or amount <= current.amount)
    # The same as the member's latest ask (a raise waiting, else the limit in force) changes
    # nothing: the app sends every period on each save, and a raise already waiting keeps its
    # time instead of starting its 24 hours again.
    latest = current.pending if current.pending_from is not None else current.amount
    if amount == latest:
        return
    await insert_now(
        session,
        DepositLimit(
            member_id=member.id,
            period=period,
            kind=kind,
            amount=amount,
            currency=member.currency,
            effective_from=now if tighter else now + COOLING_OFF,
            created_at=now,
        ),
    )
    if not member.limits_set:
        await update_now(session, member, {"limits_set": True})


async def current_exclusion(session: AsyncSession, member_id: int) -> PlayExclusion | None:
    latest = await session.scalar(
        select(PlayExclusion)
        .where(PlayExclusion.member_id == member_id)
        .order_by(PlayExclusion.id.desc())
        .limit(1)
    )
    return latest


def _until(exclusion: PlayExclusion) -> datetime:
    if exclusion.kind == ExclusionKind.TIMEOUT:
        assert exclusion.ends_at is not None
        return exclusion.ends_at
    if exclusion.end_requested_at is None or exclusion.ends_at is None:
        return FOREVER
    return max(exclusion.ends_at, exclusion.end_requested_at + COOLING_OFF)


async def exclude(
    session: AsyncSession, member: Member, kind: ExclusionKind, days: int | None
) -> PlayExclusion:
    """Start a time-out or self-exclusion; one already running may only be lengthened."""
    valid = days in TIMEOUT_DAYS if kind is ExclusionKind.TIMEOUT else days in SELF_EXCLUSION_DAYS
    if not valid:
        raise ProtectionChangeRefused(field="days")
    now = utcnow()
    ends_at = None if days is None else now + timedelta(days=days)
    exclusion = PlayExclusion(member_id=member.id, kind=kind, starts_at=now, ends_at=ends_at)
    until = _until(exclusion)
    running = member.excluded_until if is_excluded(member, now) else None
    if running is not None and until < running:
        raise ProtectionChangeRefused(field="days")  # never shorter than what runs
    exclusion = await insert_now(session, exclusion)
    await update_now(session, member, {"excluded_until": until})
    return exclusion


async def request_end(session: AsyncSession, member: Member) -> datetime:
    """A self-exclusion whose period is over: it ends 24 hours from now. Returns when."""
    exclusion = await current_exclusion(session, member.id)
    now = utcnow()
    if (
        exclusion is None
        or exclusion.kind != ExclusionKind.SELF_EXCLUSION
        or not is_excluded(member, now)
        or exclusion.ends_at is None
        or exclusion.ends_at > now
    ):
        raise ProtectionChangeRefused()
    if exclusion.end_requested_at is None:
        await update_now(session, exclusion, {"end_requested_at": now})
    until = _until(exclusion)
    await update_now(session, member, {"excluded_until": until})
    return until
