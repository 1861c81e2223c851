"""``GET /metrics``: the Prometheus exposition, for the operator's Prometheus only.

Players reach the same port (through the proxy), so the endpoint is closed unless
``PAO_METRICS_TOKEN`` is set, and then answers only ``Authorization: Bearer <token>``
(Prometheus' ``authorization`` scrape setting); a wrong or missing token is 401, compared in
constant time. The shipped nginx config also refuses ``/metrics`` from outside: Prometheus
scrapes each process on its private address. Why a token and not a second port: ADR 0012.
"""

from __future__ import annotations

import hmac

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response
from prometheus_client import CONTENT_TYPE_LATEST

from pao.core import metrics
from pao.observability import backlog


async def prometheus_metrics(request: Request) -> Response:
    expected: bytes | None = request.app.state.metrics_authorization
    if expected is None:
        return JSONResponse({"message": "NO_DATA"}, status_code=404)
    given = request.headers.get("authorization", "").encode()
    if not hmac.compare_digest(given, expected):
        return JSONResponse(
            {"message": "invalid-token"},
            status_code=401,
            headers={"WWW-Authenticate": "Bearer"},
        )
    body = metrics.exposition() + await backlog.exposition(request.app.state.read_sessionmaker)
    return Response(body, media_type=CONTENT_TYPE_LATEST)


def install_metrics_endpoint(app: FastAPI, token: str | None) -> None:
    # The endpoint reads the expected header from the app's state rather than closing over it
    # (see pao.observability.health.install_probes: closures would keep old apps alive).
    app.state.metrics_authorization = f"Bearer {token}".encode() if token else None
    app.add_api_route("/metrics", prometheus_metrics, methods=["GET"], include_in_schema=False)
