"""The slip reconciler job: settles slips left PENDING (bank unreachable, crash)."""

from __future__ import annotations

from typing import Any

from pao.kit.jobs import PeriodicJob
from pao.payments.slips.providers.select import build_verifier
from pao.payments.slips.service import SlipContext, reconcile_pending_slips


async def reconcile_tick(app: Any) -> int:
    state = app.state
    ctx = SlipContext(
        sessionmaker=state.sessionmaker,
        verifier=build_verifier(state),
        file_store=state.file_store,
    )
    return await reconcile_pending_slips(ctx)


def register(app: Any) -> None:
    app.state.jobs.append(PeriodicJob("slips.reconcile", 30.0, reconcile_tick))
