"""An app that has served and shut down can be garbage-collected.

Nothing process-wide may keep an app alive: FastAPI caches facts about every endpoint and
dependency function for the life of the process, so an endpoint that closes over its app (or
over what the app owns) would keep each app ever built, one per test, and the suite's workers
grew to gigabytes that way. The probes, ``/metrics`` and the SPA's catch-all are the routes
built per app; each is requested here before the app is dropped.
"""

from __future__ import annotations

import gc
import weakref
from pathlib import Path

import httpx
from asgi_lifespan import LifespanManager

from pao.core.settings import Settings
from pao.main import create_app


async def _serve_and_drop(settings: Settings) -> weakref.ref[object]:
    app = create_app(settings)
    app.state.http_transport = httpx.ASGITransport(app=app)
    async with LifespanManager(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            assert (await client.get("/healthz")).status_code == 200
            assert (await client.get("/readyz")).status_code in (200, 503)
            metrics = await client.get("/metrics", headers={"Authorization": "Bearer t"})
            assert metrics.status_code == 200
            assert (await client.get("/login")).status_code == 200
            assert (await client.get("/api/lookup/active")).status_code == 200
    return weakref.ref(app)


async def test_an_app_that_served_is_collected(settings: Settings, tmp_path: Path) -> None:
    static = tmp_path / "spa"
    static.mkdir()
    (static / "index.html").write_text("<!doctype html><title>Pao</title>")
    settings = settings.model_copy(update={"static_dir": static, "metrics_token": "t"})
    gone = await _serve_and_drop(settings)
    gc.collect()
    assert gone() is None, [type(r).__name__ for r in gc.get_referrers(gone())][:10]
