"""The declared route table (pao.core.route_table) agrees with FastAPI's own view of the app,
and reading it builds no route's request handling (what it exists for)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.routing import iter_route_contexts

from pao.core.route_table import declared_routes
from pao.core.settings import Settings
from pao.main import create_app


def _app_with_sandbox() -> FastAPI:
    nowhere = Path("/nonexistent-pao-routes")
    # The sandbox's router is included through a prefixed router: the case the walk must add.
    return create_app(Settings(sandbox=True, data_dir=nowhere, static_dir=nowhere))


def test_declared_routes_are_the_routes_fastapi_serves() -> None:
    app = _app_with_sandbox()
    declared = [
        (r.path, r.path_regex.pattern, sorted(r.methods)) for r in app.state.declared_routes
    ]
    served = [
        (c.path, c.path_regex.pattern, sorted(c.methods or ()))
        for c in iter_route_contexts(app.routes)
    ]
    assert declared == served
    assert any(path.startswith("/sandbox/") for path, _, _ in declared)


def test_building_an_app_leaves_its_routes_unbuilt() -> None:
    app = _app_with_sandbox()
    # FastAPI keeps an included router's built routes with the version they were built at.
    included: list[Any] = [route for route in app.routes if hasattr(route, "original_router")]
    assert included
    assert all(route._effective_candidates_version is None for route in included)
    assert declared_routes(app.routes) == app.state.declared_routes
