"""The slip reconciler job: settles slips left PENDING (bank unreachable, crash)."""

from __future__ import annotations

from typing import Any

from pao.kit.jobs import PeriodicJob
from pao.payments.slips.service import SlipContext, reconcile_pending_slips
from pao.payments.slips.verifier import SlipVerifier


async def reconcile_tick(app: Any) -> int:
    state = app.state
    ctx = SlipContext(
        sessionmaker=state.sessionmaker,
        verifier=SlipVerifier(state.http, state.settings),
        file_store=state.file_store,
    )
    return await reconcile_pending_slips(ctx)


def register(app: Any) -> None:
    app.state.jobs.append(PeriodicJob("slips.reconcile", 30.0, reconcile_tick))
