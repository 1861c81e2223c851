"""The fast lane: the requests Pao serves most, answered in front of FastAPI's routing.

(It was ``pao.core.callback_lane`` while it served only the aggregators' callbacks: ADR 0038.)

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

The same holds for the member's busiest requests, given to the lane with a lean endpoint each
(``lean``, by method and path): ``GET /api/wallet``, which every page load sends (FastAPI's
request handling and the route's session were 30 % of its CPU once its statement ran alone,
ADR 0037), the withdrawal and the transfer (FastAPI's dependency solving and the response's
checks were about a third of each: ADR 0038), the slip upload, and a chat message (half of
its CPU was FastAPI's routing and request handling: the routing alone tried some hundred routes
before the chat's). A lean endpoint and its documented route share their implementation (the
wallet read is one function; any other lean endpoint runs its route's own body,
:func:`lean_post` for a JSON body, :func:`lean_answer` for the slip's form). It answers the
requests it is sure of and returns ``None`` for the others (a body that is not the JSON its
model takes, another content type, a form without its file): the lane then passes the
request on to FastAPI, its body replayed, and the refusal is FastAPI's own
(``tests/api/test_fast_lane.py`` holds the answers through the lane equal to the router's,
refusals included).

It is installed innermost of the app's middleware (``pao.main``), so every guarantee of the
stack still holds for a request it answers: the request metrics and the shutdown drain, the
security headers, the edge's body limits and scan, the database-outage answer, the site's
termination flag; an unexpected error reaches the app's catch-all handler (logged, a 500
answer: a provider retries, and its transaction id makes the retry safe; a member's retry has
its Idempotency-Key). What it skips is FastAPI's: a callback raises nothing that FastAPI's
exception handlers would answer, and a lean endpoint answers an ``AppError`` as the app's
handler does and leaves a body FastAPI would refuse to FastAPI.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any, TypeVar

from fastapi.routing import APIRoute
from pydantic import BaseModel, ValidationError
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.background import BackgroundTasks
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from pao.core.errors import AppError, error_response
from pao.core.uow import unit_of_work

# A lean endpoint: the route's answer, or None to leave the request to FastAPI.
LeanEndpoint = Callable[[Request], Awaitable[Response | None]]
ModelT = TypeVar("ModelT", bound=BaseModel)


class FastLane:
    def __init__(
        self,
        app: ASGIApp,
        routes: Iterable[APIRoute],
        lean: Iterable[tuple[APIRoute, LeanEndpoint]] = (),
    ) -> None:
        self.app = app
        # Routes answered here by a lean endpoint of their own, by method and path, which takes
        # the request and answers what the route would (the lean_endpoints of pao.wallet.router
        # and pao.games.router).
        self._lean = {
            (method, route.path): (route, endpoint)
            for route, endpoint in lean
            for method in route.methods or ()
        }
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
                    scope["route"] = route
                    scope["path_params"] = params
                    request = Request(scope, receive)
                    response = await route.endpoint(**params, request=request)
                    await response(scope, receive, send)
                    return
            lean = self._lean.get((method, scope["path"]))
            if lean is not None:
                await self._lean_answer(*lean, scope, receive, send)
                return
        await self.app(scope, receive, send)

    async def _lean_answer(
        self,
        route: APIRoute,
        endpoint: LeanEndpoint,
        scope: Scope,
        receive: Receive,
        send: Send,
    ) -> None:
        scope["route"] = route
        scope["path_params"] = {}
        request = Request(scope, receive)
        response = await endpoint(request)
        if response is not None:
            await response(scope, receive, send)
            return
        # Not the endpoint's to answer: FastAPI's, with the body the endpoint may have read.
        del scope["route"], scope["path_params"]
        body = await request.body()
        await self.app(scope, _replaying(body, receive), send)


def _replaying(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that gives ``body`` whole first, then waits on the client's (a
    disconnect)."""
    given = False

    async def replay() -> Message:
        nonlocal given
        if given:
            return await receive()
        given = True
        return {"type": "http.request", "body": body, "more_body": False}

    return replay


def declared_route(routes: Iterable[BaseRoute], path: str) -> APIRoute:
    """The documented route of ``path`` among ``routes``: a lean endpoint is given to the lane
    with it (the request metrics label by it, the contract is its)."""
    return next(r for r in routes if isinstance(r, APIRoute) and r.path == path)


async def json_body(request: Request, model: type[ModelT]) -> ModelT | None:
    """The body as ``model``, taken as FastAPI takes a JSON body (``json.loads``, then the
    model in Python mode); ``None`` for anything else (another or no content type, a body
    that is not JSON or not the model's), which a lean endpoint leaves to FastAPI."""
    media_type = request.headers.get("content-type", "").partition(";")[0]
    if media_type.strip().lower() != "application/json":  # FastAPI reads any charset so too
        return None
    try:
        return model.model_validate(json.loads(await request.body()))
    except (ValueError, ValidationError):  # a JSONDecodeError or UnicodeDecodeError too
        return None


async def lean_post(
    request: Request,
    body_model: type[ModelT],
    answer_model: type[BaseModel],
    act: Callable[[AsyncSession, ModelT], Awaitable[Any]],
    *,
    background: BackgroundTasks | None = None,
    headers: Mapping[str, str] | None = None,
) -> Response | None:
    """A JSON ``POST`` answered as its FastAPI route answers it: the body taken as FastAPI
    takes it (:func:`json_body`; ``None`` otherwise, and the lane leaves the request to
    FastAPI), then :func:`lean_answer`."""
    asked = await json_body(request, body_model)
    if asked is None:
        return None
    return await lean_answer(
        request,
        answer_model,
        lambda session: act(session, asked),
        background=background,
        headers=headers,
    )


async def lean_answer(
    request: Request,
    answer_model: type[BaseModel],
    act: Callable[[AsyncSession], Awaitable[Any]],
    *,
    background: BackgroundTasks | None = None,
    headers: Mapping[str, str] | None = None,
) -> Response:
    """``act`` run in the request's unit of work (as ``UnitOfWorkRoute`` runs the route), a
    refusal answered as the app's handler answers it, the answer checked by the route's
    response model and written as FastAPI writes it. An answer carries what the route's own
    would: the ``headers`` its dependencies set, and its ``background`` tasks (run after it is
    sent), neither of which a refusal has."""
    try:
        async with unit_of_work(request) as session:
            answer = await act(session)
    except AppError as refused:
        return error_response(refused.status_code, refused.body(), refused.headers)
    checked = answer_model.model_validate(answer)
    return JSONResponse(
        checked.model_dump(mode="json", by_alias=True), headers=headers, background=background
    )
