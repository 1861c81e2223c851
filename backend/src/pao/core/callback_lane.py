"""The callback lane: server-to-server callbacks answered in front of FastAPI's routing.

An aggregator's wallet callback (a spin is a bet and a win: ADR 0033, step 2) is the request
Pao serves most, and its endpoints need nothing of FastAPI's request handling: each reads its
raw body, verifies the signature over it before parsing, and returns its own ``Response``. A
profile of a Hub88 spin in process put Starlette's route matching and FastAPI's endpoint
handling (dependency solving, the body's second reading, the response's checks) at about 40 %
of the app's CPU per callback, against about a third for the endpoint itself.

So the lane matches the callback routes it is given (their ``POST`` only) by path, first as a
dictionary of exact paths, then by the few templates with a path parameter (AMB's product
prefix), sets the matched route in the scope as Starlette's router does (the request metrics
label by it, the access log redacts by it), and calls the route's endpoint with its path
parameters and the request. Anything else goes on to FastAPI.

The same holds for the one read every page load sends, ``GET /api/wallet``: FastAPI's request
handling and the route's session were 30 % of its CPU once its statement ran alone (ADR 0037),
so it is given to the lane with a lean endpoint (``reads``: ``pao.wallet.router.wallet_read``,
which the documented route calls too; ``tests/api/test_callback_lane.py`` holds the answers
through the lane equal to the router's).

It is installed innermost of the app's middleware (``pao.main``), so every guarantee of the
stack still holds for a callback: the request metrics and the shutdown drain, the security
headers, the edge's body limits and scan, the database-outage answer, the site's termination
flag; an unexpected error reaches the app's catch-all handler (logged, a 500 answer: the
provider retries, and its transaction id makes the retry safe). What it skips is FastAPI's:
those endpoints raise nothing that FastAPI's exception handlers would answer (``tests/api/
test_callback_lane.py`` holds the lane's answers to the router's).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from fastapi.routing import APIRoute
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Receive, Scope, Send

Endpoint = Callable[..., Awaitable[Response]]


class CallbackLane:
    def __init__(
        self,
        app: ASGIApp,
        routes: Iterable[APIRoute],
        reads: Iterable[tuple[APIRoute, Endpoint]] = (),
    ) -> None:
        self.app = app
        # GET routes answered here by a lean endpoint of their own, which takes the request
        # and answers what the route would (GET /api/wallet: pao.wallet.router.wallet_read).
        self._reads = {route.path: (route, endpoint) for route, endpoint in reads}
        self._exact: dict[str, APIRoute] = {}
        # By the literal start of their path ("/api/amb/"): another POST (a withdrawal) is told
        # apart by one startswith, not by trying each template's pattern.
        self._templated: dict[str, list[APIRoute]] = {}
        for route in routes:
            if "POST" not in (route.methods or ()):
                raise ValueError(f"the lane serves POST callbacks, not {route.path}")
            if route.param_convertors:
                start = route.path.split("{", 1)[0]
                self._templated.setdefault(start, []).append(route)
            else:
                self._exact[route.path] = route

    def _match(self, path: str) -> tuple[APIRoute, dict[str, Any]] | None:
        route = self._exact.get(path)
        if route is not None:
            return route, {}
        for start, routes in self._templated.items():
            if not path.startswith(start):
                continue
            for route in routes:
                found = route.path_regex.match(path)
                if found is not None:
                    convert = route.param_convertors
                    params = {k: convert[k].convert(v) for k, v in found.groupdict().items()}
                    return route, params
        return None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            method = scope["method"]
            if method == "POST":
                matched = self._match(scope["path"])
                if matched is not None:
                    route, params = matched
                    await self._answer(route, route.endpoint, params, scope, receive, send)
                    return
            elif method == "GET":
                read = self._reads.get(scope["path"])
                if read is not None:
                    await self._answer(*read, {}, scope, receive, send)
                    return
        await self.app(scope, receive, send)

    @staticmethod
    async def _answer(
        route: APIRoute,
        endpoint: Endpoint,
        params: dict[str, Any],
        scope: Scope,
        receive: Receive,
        send: Send,
    ) -> None:
        scope["route"] = route
        scope["path_params"] = params
        response = await endpoint(**params, request=Request(scope, receive))
        await response(scope, receive, send)
