"""What waits in the database, read when Prometheus scrapes: the queues money sits in.

* pending withdrawals (a cashier must decide), and the oldest one's age;
* unresolved game transfers and payouts: the reconcilers' backlog (an unknown outcome waits
  for the reconciler to ask the party), and the oldest item's age;
* slips still waiting for the bank's verification.

Counted from the tables, not in a process: every worker answers the same numbers, a restart
loses nothing, and a backlog the jobs fail to drain shows as growing age. Each is one indexed
query (``status`` leads an index on every table here). When the database does not answer,
``pao_backlog_up`` is 0 and the other series are left out (an alert on them must not fire on
a stale zero).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from pao.games.models import GameTransfer, GameTransferStatus
from pao.kit.clock import utcnow
from pao.payments.payouts.models import Payout, PayoutStatus
from pao.payments.slips.models import Slip, SlipStatus
from pao.wallet.models import Withdrawal, WithdrawalStatus

# metric name stem → (table's model, the unresolved status, help text)
QUEUES: dict[str, tuple[Any, str, str]] = {
    "pao_withdrawals_pending": (
        Withdrawal,
        WithdrawalStatus.PENDING,
        "withdrawals waiting for a cashier's decision",
    ),
    "pao_game_transfers_unresolved": (
        GameTransfer,
        GameTransferStatus.PENDING,
        "game transfers whose outcome is not known yet (the game reconciler's backlog)",
    ),
    "pao_payouts_unresolved": (
        Payout,
        PayoutStatus.PENDING,
        "approved withdrawals whose bank payout is not settled (the payout job's backlog)",
    ),
    "pao_slips_unverified": (
        Slip,
        SlipStatus.PENDING,
        "deposit slips waiting for the bank's verification (the slip reconciler's backlog)",
    ),
}
AGE_SUFFIX = "_oldest_age_seconds"


@dataclass(frozen=True)
class Queue:
    name: str
    count: int
    oldest: datetime | None


async def read_queues(session: AsyncSession) -> list[Queue]:
    queues = []
    for name, (model, status, _help) in QUEUES.items():
        query = select(func.count(), func.min(model.created_at)).where(model.status == status)
        count, oldest = (await session.execute(query)).one()
        queues.append(Queue(name, int(count), oldest))
    return queues


class _Snapshot(Collector):
    def __init__(self, queues: list[Queue] | None) -> None:
        self.queues = queues

    def collect(self) -> Iterable[GaugeMetricFamily]:
        yield GaugeMetricFamily(
            "pao_backlog_up",
            "1 when the backlog gauges below could be read from the database",
            value=0 if self.queues is None else 1,
        )
        now = utcnow()
        for queue in self.queues or ():
            help_text = QUEUES[queue.name][2]
            yield GaugeMetricFamily(queue.name, f"How many {help_text}", value=queue.count)
            age = 0.0 if queue.oldest is None else max((now - queue.oldest).total_seconds(), 0)
            yield GaugeMetricFamily(
                queue.name + AGE_SUFFIX, f"Age of the oldest of the {help_text}", value=age
            )


async def exposition(sessionmaker: async_sessionmaker[AsyncSession]) -> bytes:
    try:
        async with sessionmaker() as session:
            queues: list[Queue] | None = await read_queues(session)
    except Exception:  # a scrape must still answer (pao_backlog_up 0) when the database fails
        queues = None
    registry = CollectorRegistry(auto_describe=False)
    registry.register(_Snapshot(queues))
    return generate_latest(registry)
