"""The app's routes as declared (path, pattern, methods), read without building them.

FastAPI builds an included route's request handling (its dependency tree, a pydantic adapter
per parameter and response) lazily, per app: when its router first handles a request, or when
something walks ``fastapi.routing.iter_route_contexts``. The start-up needs only what each
route declares: the edge's body limits and path patterns (:mod:`pao.core.edge`), the access
log's secret path templates (:mod:`pao.core.logging`), the methods a path takes for a 405. Read
through ``iter_route_contexts``, those built all of the app's two hundred-odd routes in every
``create_app``: ≈ 0.3 s of CPU each time, half of a typical API test's cost, since every test
builds its app. A route's declared shape does not depend on the app, so it is read here from
the included routers themselves, and a router is built when it first serves.

The walk knows one detail of FastAPI's inclusion: an included router is kept as an entry with
``original_router`` and ``include_context.prefix``. ``tests/unit/test_route_table.py`` checks
it against ``iter_route_contexts`` on the real app, so an upgrade that changes it fails there.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from starlette.routing import BaseRoute, Mount, Route, compile_path


@dataclass(frozen=True)
class DeclaredRoute:
    """One route of the app with the prefixes of the routers it was included through."""

    route: BaseRoute
    path: str
    path_regex: re.Pattern[str]
    methods: frozenset[str]

    @property
    def operation_id(self) -> str | None:
        return getattr(self.route, "operation_id", None)


def declared_routes(routes: Sequence[BaseRoute]) -> list[DeclaredRoute]:
    """Every route of ``routes`` (an app's or a router's), included routers walked into, in
    the order they match."""
    return list(_walk(routes, prefix=""))


def _walk(routes: Sequence[BaseRoute], *, prefix: str) -> Iterator[DeclaredRoute]:
    for route in routes:
        included: Any = getattr(route, "original_router", None)
        if included is not None:
            yield from _walk(included.routes, prefix=prefix + route.include_context.prefix)  # type: ignore[attr-defined]
        elif isinstance(route, Route | Mount):
            yield _declared(route, prefix)


def _declared(route: Route | Mount, prefix: str) -> DeclaredRoute:
    methods = frozenset(route.methods or ()) if isinstance(route, Route) else frozenset()
    if not prefix:
        return DeclaredRoute(route, route.path, route.path_regex, methods)
    path = prefix + route.path
    if isinstance(route, Mount):
        # A mount's pattern takes the rest of the path as its own parameter (Starlette's Mount).
        return DeclaredRoute(route, path, _pattern(path.rstrip("/") + "/{path:path}"), methods)
    return DeclaredRoute(route, path, _pattern(path), methods)


# A path's pattern depends on the path alone; compiled once per process rather than for each of
# the two hundred-odd routes in every app built (each test builds one: ≈ 17 ms a time).
@cache
def _pattern(path: str) -> re.Pattern[str]:
    regex, _format, _convertors = compile_path(path)
    return regex
