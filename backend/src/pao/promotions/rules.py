"""The arithmetic of promotions, as pure functions (docs/domain/promotions.md).

Nothing here touches the database, so every rule is unit-tested on its own: period windows in
the operator's time zone, bonus amounts, the turnover and percentFail conditions, invite
income, refunds, coins and the weighted choice of a wheel slice.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta
from fractions import Fraction
from typing import Literal
from zoneinfo import ZoneInfo

Period = Literal["limit", "day", "week"]
BASIS_POINTS = 10_000


def period_start(now: datetime, *, period: Period, timezone: str) -> datetime | None:
    """The UTC instant the current ``period`` began in the operator's time zone.

    ``day``: local midnight today; ``week``: local midnight of this week's Monday (ISO
    weeks); ``limit``: ``None`` (all time)."""
    if period == "limit":
        return None
    local = now.astimezone(ZoneInfo(timezone))
    start_day = local.date()
    if period == "week":
        start_day -= timedelta(days=local.weekday())
    start = datetime.combine(start_day, time(0), tzinfo=ZoneInfo(timezone))
    return start.astimezone(UTC)


def count_in_period(
    received: Sequence[datetime], *, now: datetime, period: Period, timezone: str
) -> int:
    """How many receipts count towards ``max_received`` now (spec §4)."""
    start = period_start(now, period=period, timezone=timezone)
    return sum(1 for at in received if start is None or at >= start)


def bonus_amount(*, deposit: int, percent: int, fixed_amount: int, max_amount: int) -> int:
    """``percent`` % of the deposit (rounded down to the satang), or the fixed amount when
    percent is 0; capped at ``max_amount``."""
    raw = deposit * percent // 100 if percent > 0 else fixed_amount
    return max(0, min(raw, max_amount))


def turnover_required(*, deposit: int, bonus: int, multiplier: int) -> int:
    return multiplier * (deposit + bonus)


def turnover_met(*, turnover: int, required: int) -> bool:
    return turnover >= required


def percent_fail_reached(*, balance: int, deposit: int, bonus: int, percent_fail: int) -> bool:
    """The balance fell *below* ``percent_fail`` % of the bonus base (deposit + bonus)."""
    return balance * 100 < percent_fail * (deposit + bonus)


def invite_income(
    *, deposit: int, rate_bp: int, min_deposit: int, cap_per_invitee: int, earned_so_far: int
) -> int:
    """The inviter's share of one invitee deposit, within the per-invitee cap."""
    if deposit < max(min_deposit, 1):
        return 0
    share = deposit * rate_bp // BASIS_POINTS
    return max(0, min(share, cap_per_invitee - earned_so_far))


def refund_receivable(
    *, net_loss: int, rate_bp: int, max_per_period: int, received_in_period: int
) -> int:
    """What the member may receive now for the period: ``rate`` of the period's net loss,
    capped per period, minus what was already received for it."""
    if net_loss <= 0:
        return 0
    total = min(net_loss * rate_bp // BASIS_POINTS, max_per_period)
    return max(0, total - received_in_period)


def refund_over_cap(*, net_loss: int, rate_bp: int, max_per_period: int) -> int:
    """The part of the period's refund the cap cut off (``refundFail``)."""
    return max(0, net_loss * rate_bp // BASIS_POINTS - max_per_period)


def coins_for_deposit(*, amount: int, per_coin: int) -> int:
    """One coin for each full ``per_coin`` of a single deposit (0 when per_coin is 0)."""
    return amount // per_coin if per_coin > 0 else 0


@dataclass(frozen=True)
class Weighted:
    key: int
    weight: int


def choose(
    items: Sequence[Weighted], *, randbelow: Callable[[int], int] = secrets.randbelow
) -> int:
    """Pick one item's key with probability weight / total weight.

    ``randbelow(n)`` must return a uniform integer in ``[0, n)``; the default is the
    operating system's cryptographic generator. Weight-0 items are never chosen."""
    total = sum(item.weight for item in items if item.weight > 0)
    if total <= 0:
        raise ValueError("no item has a positive weight")
    draw = randbelow(total)
    for item in items:
        if item.weight <= 0:
            continue
        if draw < item.weight:
            return item.key
        draw -= item.weight
    raise AssertionError("unreachable: draw < total")  # pragma: no cover


def odds(items: Sequence[Weighted]) -> dict[int, Fraction]:
    """The exact probability of each item (what the player is shown)."""
    total = sum(max(0, item.weight) for item in items)
    if total <= 0:
        return {item.key: Fraction(0) for item in items}
    return {item.key: Fraction(max(0, item.weight), total) for item in items}
