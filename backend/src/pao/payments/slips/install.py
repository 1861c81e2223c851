"""Wires slip deposits and payouts into the app: routes and background jobs."""

from __future__ import annotations

from fastapi import FastAPI

from pao.payments.payouts import jobs as payout_jobs
from pao.payments.slips import jobs as slip_jobs
from pao.payments.slips.router import router


def install_slips_and_payouts(app: FastAPI) -> None:
    app.include_router(router)
    slip_jobs.register(app)
    payout_jobs.register(app)
