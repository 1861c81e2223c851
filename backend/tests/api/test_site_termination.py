"""A terminated site: every /api call answers 410 gone except GET /api/lookup/active and the
back office's."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
from asgi_lifespan import LifespanManager
from fastapi import FastAPI
from sqlalchemy.ext.asyncio import AsyncSession

from pao.core.settings import Settings
from pao.main import create_app
from pao.site import settings as settings_module
from pao.site import termination
from pao.site.models import SiteSetting
from pao.site.service import reopen_site, set_setting, terminate_site
from pao.site.settings import set_value

GONE = {"message": "gone"}


def api_calls(app: FastAPI) -> list[tuple[str, str]]:
    """(method, path) of every /api operation the app documents, path parameters filled in."""
    calls = {("GET", "/api/openapi.json"), ("GET", "/api/docs")}
    for path, operations in app.openapi()["paths"].items():
        if not termination.is_api_path(path):
            continue
        for method in operations:
            calls.add((method.upper(), re.sub(r"\{[^}]+\}", "x", path)))
    return sorted(calls)


async def test_terminate_closes_every_api_call_and_reopen_restores(
    app: FastAPI, client: httpx.AsyncClient, session: AsyncSession
) -> None:
    calls = api_calls(app)
    assert ("GET", "/api/lookup/conditions") in calls
    assert ("GET", "/api/openapi.json") in calls
    # Warm the cache with "open" so the test also proves the cache is dropped on commit.
    assert (await client.get("/api/lookup/info")).status_code == 200

    await terminate_site(session, actor="ops:alice")
    await session.commit()

    for method, path in [*calls, ("GET", "/api/nope"), ("GET", "/api")]:
        response = await client.request(method, path)
        if (method, path) == ("GET", "/api/lookup/active"):
            assert response.status_code == 200
            assert response.json() == {"terminated": True}
        elif path.startswith(termination.STAFF_PREFIX):
            # Staff keep their API, to reopen the site (here: no token, so 401).
            assert response.status_code != 410, (method, path)
        else:
            assert response.status_code == 410, (method, path)
            assert response.json() == GONE, (method, path)
    # Only GET is exempt; other methods on the same path are closed too.
    assert (await client.post("/api/lookup/active")).status_code == 410
    row = await session.get(SiteSetting, "terminated")
    assert row is not None
    assert row.value is True
    assert row.updated_by == "ops:alice"

    await reopen_site(session, actor="ops:bob")
    await session.commit()
    assert (await client.get("/api/lookup/active")).json() == {"terminated": False}
    assert (await client.get("/api/lookup/info")).status_code == 200
    response = await client.get("/api/nope")
    assert response.status_code == 404
    assert response.json() == {"message": "NO_DATA"}


def test_every_operation_it_closes_documents_the_410() -> None:
    """A terminated site answers 410 before any route runs, so each closed operation must
    declare it (the fuzz run found the payment callbacks answering an undeclared 410)."""
    document = create_app(Settings(sandbox=False, data_dir=Path("/nonexistent-pao"))).openapi()
    undeclared = [
        f"{method.upper()} {path}"
        for path, operations in document["paths"].items()
        for method, operation in operations.items()
        if termination.is_api_path(path)
        and (method.upper(), path) not in termination.ALWAYS_OPEN
        and "410" not in operation["responses"]
    ]
    assert undeclared == []


async def test_non_api_paths_keep_working_when_terminated(
    client: httpx.AsyncClient, session: AsyncSession
) -> None:
    await terminate_site(session, actor="ops")
    await session.commit()
    assert (await client.get("/healthz")).status_code == 200
    sandbox = await client.get("/sandbox/sms", params={"phone": "0812345678"})
    assert sandbox.status_code == 200
    assert sandbox.json() == []
    # A path that merely starts with "api" is not the API.
    assert (await client.get("/apiary")).status_code == 404


@pytest.fixture
async def spa_client(settings: Settings, tmp_path: Path) -> AsyncIterator[httpx.AsyncClient]:
    static = tmp_path / "spa"
    static.mkdir()
    (static / "index.html").write_text("<!doctype html><title>Pao</title>")
    app = create_app(settings.model_copy(update={"static_dir": static}))
    async with LifespanManager(app, startup_timeout=60, shutdown_timeout=60):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            yield client


async def test_the_spa_still_serves_terminated_page(spa_client: httpx.AsyncClient) -> None:
    assert (await spa_client.get("/api/lookup/info")).status_code == 200
    transport = spa_client._transport
    assert isinstance(transport, httpx.ASGITransport)
    app = transport.app
    async with app.state.sessionmaker() as session:  # type: ignore[attr-defined]
        await terminate_site(session, actor="ops")
        await session.commit()
    for path in ("/", "/terminated", "/login"):
        response = await spa_client.get(path)
        assert response.status_code == 200, path
        assert "<title>Pao</title>" in response.text
    assert (await spa_client.get("/api/lookup/info")).status_code == 410


async def test_another_process_flag_change_is_seen_within_the_cache_time(
    client: httpx.AsyncClient, session: AsyncSession, monkeypatch: pytest.MonkeyPatch
) -> None:
    now = [1000.0]
    # Only the middleware's clock: the event loop keeps the real one.
    monkeypatch.setattr(termination, "monotonic", lambda: now[0])
    assert (await client.get("/api/lookup/info")).status_code == 200

    # Written as `pao ops site terminate` in another process would: no local invalidation.
    await set_value(session, "terminated", True, actor="cli")
    await session.commit()
    now[0] += 0.5
    assert (await client.get("/api/lookup/info")).status_code == 200  # cached for 1 s
    # lookup/active reads the database itself, so it is right at once.
    assert (await client.get("/api/lookup/active")).json() == {"terminated": True}
    now[0] += termination.CACHE_SECONDS
    assert (await client.get("/api/lookup/info")).status_code == 410

    await set_value(session, "terminated", False, actor="cli")
    await session.commit()
    termination.invalidate_termination_cache()  # the test hook: no waiting
    assert (await client.get("/api/lookup/info")).status_code == 200


async def test_set_setting_terminated_also_closes(
    client: httpx.AsyncClient, session: AsyncSession
) -> None:
    assert (await client.get("/api/lookup/info")).status_code == 200
    assert await set_setting(session, key="terminated", raw_value="true", actor="ops") is True
    await session.commit()
    assert (await client.get("/api/lookup/info")).json() == GONE


async def test_uncommitted_termination_changes_nothing(
    client: httpx.AsyncClient, session: AsyncSession
) -> None:
    await terminate_site(session, actor="ops")
    await session.rollback()
    termination.invalidate_termination_cache()
    assert (await client.get("/api/lookup/info")).status_code == 200
    assert (await client.get("/api/lookup/active")).json() == {"terminated": False}


@pytest.mark.parametrize(
    ("raw", "closed"), [(True, True), ("true", True), (1, True), (False, False), ("junk", False)]
)
def test_flag_value(raw: object, closed: bool) -> None:
    assert termination.flag_value(raw) is closed


async def test_a_burst_of_requests_reads_the_flag_once(
    client: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    reads: list[str] = []
    original = settings_module.get_value

    async def counting(session: AsyncSession, key: str, default: object = None) -> object:
        reads.append(key)
        return await original(session, key, default)

    monkeypatch.setattr(termination, "get_value", counting)
    # The cache's clock stands still: what is tested is that the burst waits for one read, and
    # on a loaded machine the burst once outlasted the cache's second (a second read).
    now = time.monotonic()
    monkeypatch.setattr(termination, "monotonic", lambda: now)
    termination.invalidate_termination_cache()
    responses = await asyncio.gather(*(client.get("/api/lookup/info") for _ in range(20)))
    assert [r.status_code for r in responses] == [200] * 20
    assert reads == ["terminated"]
