"""Wires the QR half of payments into the app: deposit lookup, QR deposits, gateway callbacks,
TrueMoney gift links, and their background jobs (called once by ``create_app``)."""

from __future__ import annotations

from fastapi import FastAPI

from pao.payments.lookup import router as lookup_router
from pao.payments.qr import jobs as qr_jobs
from pao.payments.qr.router import router as qr_router
from pao.payments.qr.scb_router import router as scb_router
from pao.payments.truemoney.router import router as truemoney_router


def install_qr_payments(app: FastAPI) -> None:
    for router in (lookup_router, qr_router, scb_router, truemoney_router):
        app.include_router(router)
    qr_jobs.register(app)
