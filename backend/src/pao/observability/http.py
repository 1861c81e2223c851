"""Request rate, latency and errors by route: the signals an on-call engineer pages on.

Labelled by the route *template* (``/api/backoffice/members/{member_id}``), never the raw path:
a path carries ids (and a prober's junk), and every distinct label value would be a new series.
Starlette records the matched route in the scope (``scope["route"]``) as it routes; a request
no route matched (a 404 from the edge or the router) is ``unmatched``. socket.io's long-polls
count under ``/socket.io``; its websockets are not HTTP requests and count as connections
(:data:`pao.core.metrics.SOCKETIO_CONNECTIONS`).
"""

from __future__ import annotations

import time

from prometheus_client import Counter, Histogram
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from pao.core import metrics

UNMATCHED = "unmatched"


def route_template(scope: Scope) -> str:
    route = scope.get("route")
    path = getattr(route, "path", None)
    return path if isinstance(path, str) and path else UNMATCHED


class HttpMetricsMiddleware:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        # Each labelled series, looked up once per app: prometheus-client's ``labels()`` takes
        # a lock and checks its label values on every call, a third of this layer's cost. The
        # keys are bounded as the series are (route templates, not paths).
        self._counted: dict[tuple[str, str, str], Counter] = {}
        self._timed: dict[tuple[str, str], Histogram] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        status = 500  # what the client gets when the app raises before answering
        started = time.perf_counter()

        async def send_and_note(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        metrics.HTTP_IN_FLIGHT.inc()
        try:
            await self.app(scope, receive, send_and_note)
        finally:
            metrics.HTTP_IN_FLIGHT.dec()
            method, route = scope.get("method", ""), route_template(scope)
            self._counter(method, route, status).inc()
            self._timer(method, route).observe(time.perf_counter() - started)

    def _counter(self, method: str, route: str, status: int) -> Counter:
        key = (method, route, str(status))
        counter = self._counted.get(key)
        if counter is None:
            counter = self._counted[key] = metrics.HTTP_REQUESTS.labels(*key)
        return counter

    def _timer(self, method: str, route: str) -> Histogram:
        key = (method, route)
        timer = self._timed.get(key)
        if timer is None:
            timer = self._timed[key] = metrics.HTTP_REQUEST_SECONDS.labels(*key)
        return timer
