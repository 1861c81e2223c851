"""Payout jobs: auto-approve small withdrawals, and reconcile payouts of unknown outcome."""

from __future__ import annotations

from typing import Any

from pao.kit.jobs import PeriodicJob
from pao.payments.payouts.adapter import PayoutBank
from pao.payments.payouts.service import PayoutContext, auto_approve, reconcile


def payout_context(app: Any) -> PayoutContext:
    return PayoutContext(
        sessionmaker=app.state.sessionmaker, bank=PayoutBank(app.state.http, app.state.settings)
    )


async def auto_approve_tick(app: Any) -> int:
    return await auto_approve(payout_context(app))


async def reconcile_tick(app: Any) -> int:
    return await reconcile(payout_context(app))


def register(app: Any) -> None:
    app.state.jobs.append(PeriodicJob("payouts.auto_approve", 5.0, auto_approve_tick))
    app.state.jobs.append(PeriodicJob("payouts.reconcile", 15.0, reconcile_tick))
