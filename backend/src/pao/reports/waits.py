"""How long something waited (a withdrawal for its payout, a deposit for its credit): the
count, mean, median, 95th percentile and longest of a list of waits, in whole seconds."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from datetime import datetime


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile of sorted ``values`` (0 when empty): the smallest value with
    at least ``share`` of them at or below it, as PostgreSQL's ``percentile_disc``."""
    if not values:
        return 0.0
    rank = max(0, min(len(values) - 1, math.ceil(share * len(values) - 1e-9) - 1))
    return values[rank]


def seconds(pairs: Iterable[Sequence[datetime | None]]) -> list[float]:
    """The sorted waits of (start, end) rows, leaving out those that have not ended."""
    return sorted(
        (end - start).total_seconds()
        for start, end in pairs
        if start is not None and end is not None
    )


def summary(waits: list[float]) -> tuple[int, int, int, int, int]:
    """(count, mean, p50, p95, max) of sorted ``waits``; zeros when there are none."""
    mean = sum(waits) / len(waits) if waits else 0.0
    return (
        len(waits),
        round(mean),
        round(percentile(waits, 0.5)),
        round(percentile(waits, 0.95)),
        round(waits[-1]) if waits else 0,
    )
