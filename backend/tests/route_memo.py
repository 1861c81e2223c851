"""One build of each included route per test process, instead of one per test.

FastAPI builds an included route's request handling (its dependency tree, and a pydantic
adapter for each parameter, body and documented response) per app, when the app first routes a
request through that router. Every test builds its own app, so every test paid again for the
routes of each router it touched: ≈ 45 % of the backend suite's CPU in a profile (5,091 route
builds, 25 s of 55 s, for 48 tests of two files).

What a build computes depends only on the route's declaration (path, endpoint, parameters,
responses, the inclusion's prefix and dependencies), which is the same for every app of the
process. The one per-app input, the app that provides ``dependency_overrides``, is left out of
the memo and set on each context, so a test's overrides still apply to its own app only, and a
context never keeps an earlier test's app alive. The request handler itself (a closure over
that app) is still made per app by FastAPI.

Tests only: a production process builds each route once anyway. FastAPI is pinned
(backend/uv.lock); ``test_route_memo`` fails if an upgrade changes what this relies on.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from fastapi import routing

_PER_APP = ("dependency_overrides_provider", "original_route", "app")
_built: dict[tuple[Any, ...], dict[str, Any]] = {}
_original = routing._populate_api_route_state


def _hashable(value: Any) -> Any:
    try:
        hash(value)
    except TypeError:
        return repr(value)  # lists and dicts of declarations: stable for the process
    return value


def _memo_populate(route: Any, path: str, endpoint: Callable[..., Any], **kwargs: Any) -> None:
    if not isinstance(route, routing._EffectiveRouteContext):
        _original(route, path, endpoint, **kwargs)
        return
    route = cast(Any, route)  # FastAPI's own call passes it as its _APIRouteLike protocol
    provider = kwargs.pop("dependency_overrides_provider", None)
    key = (path, endpoint, *sorted((name, _hashable(value)) for name, value in kwargs.items()))
    built = _built.get(key)
    if built is None:
        _original(route, path, endpoint, dependency_overrides_provider=None, **kwargs)
        built = _built[key] = {k: v for k, v in vars(route).items() if k not in _PER_APP}
    else:
        vars(route).update(built)
    route.dependency_overrides_provider = provider


def install() -> None:
    routing._populate_api_route_state = _memo_populate


def builds() -> int:
    """How many distinct route builds the process made (for the test of this module)."""
    return len(_built)
