"""Puts observability into the app: probes, ``/metrics``, request metrics, draining.

``install`` runs while the app is built (before the SPA's catch-all route, so that ``/readyz``
and ``/metrics`` are matched first); ``start``/``stop`` run in the app's lifespan.
"""

from __future__ import annotations

import os

from fastapi import FastAPI

from pao.core import metrics
from pao.core.settings import Settings
from pao.observability.endpoint import install_metrics_endpoint
from pao.observability.health import Readiness, install_probes
from pao.observability.http import HttpMetricsMiddleware
from pao.observability.lifecycle import Drain, DrainMiddleware, watch_signals
from pao.observability.pool import unwatch_pool, watch_pool


def install_routes(app: FastAPI, settings: Settings) -> None:
    app.state.drain = Drain()
    install_probes(app, Readiness(settings, app.state.engine, app.state.drain))
    install_metrics_endpoint(app, settings.metrics_token)


def install_middleware(app: FastAPI) -> None:
    """Call last: the outermost middleware sees every answer, the edge's refusals included.
    Draining refusals are counted too (the metrics wrap the drain)."""
    app.add_middleware(DrainMiddleware, drain=app.state.drain)
    app.add_middleware(HttpMetricsMiddleware)


def start(app: FastAPI, settings: Settings) -> None:
    watch_pool(app.state.engine, settings)
    app.state.undo_signal_watch = watch_signals(app.state.drain)


async def stop(app: FastAPI, settings: Settings) -> None:
    app.state.drain.begin("shutdown")
    app.state.undo_signal_watch()
    unwatch_pool(app.state.engine, settings)
    await app.state.readiness.close()
    metrics.forget_process(os.getpid())
