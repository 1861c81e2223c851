"""/metrics (closed, token, route templates, backlog), /readyz and draining."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
from asgi_lifespan import LifespanManager
from fastapi import FastAPI
from prometheus_client.parser import text_string_to_metric_families

from pao.core.migrate import upgrade
from pao.core.settings import Settings
from pao.main import create_app
from pao.observability.health import migration_revisions, migration_state
from tests.helpers import auth
from tests.withdrawal_helpers import pending_withdrawal

TOKEN = "scrape-token-0123456789"
BEARER = {"Authorization": f"Bearer {TOKEN}"}


@pytest.fixture
async def scraped(settings: Settings) -> AsyncIterator[httpx.AsyncClient]:
    """A client of an app whose /metrics is open to TOKEN."""
    application = create_app(settings.model_copy(update={"metrics_token": TOKEN}))
    application.state.http_transport = httpx.ASGITransport(app=application)
    async with LifespanManager(application, startup_timeout=60, shutdown_timeout=60):
        transport = httpx.ASGITransport(app=application)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            yield client


def samples(text: str) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


async def test_metrics_are_closed_without_a_token(client: httpx.AsyncClient) -> None:
    response = await client.get("/metrics")
    assert response.status_code == 404
    assert response.json() == {"message": "NO_DATA"}


async def test_metrics_need_the_bearer_token(scraped: httpx.AsyncClient) -> None:
    assert (await scraped.get("/metrics")).status_code == 401
    wrong = await scraped.get("/metrics", headers={"Authorization": "Bearer not-the-token-xx"})
    assert wrong.status_code == 401
    assert wrong.json() == {"message": "invalid-token"}
    assert (await scraped.get("/metrics", headers=BEARER)).status_code == 200


async def test_the_probes_count_under_their_own_paths(scraped: httpx.AsyncClient) -> None:
    # They are plain Starlette routes (pao.observability.health), which do not name themselves
    # in the scope as FastAPI's do: without that they counted as "unmatched".
    probe = frozenset({("method", "GET"), ("route", "/healthz"), ("status", "200")})

    async def probes_counted() -> float:
        return samples((await scraped.get("/metrics", headers=BEARER)).text).get(
            ("pao_http_requests_total", probe), 0.0
        )

    before = await probes_counted()
    assert (await scraped.get("/healthz")).status_code == 200
    assert await probes_counted() == before + 1


async def test_requests_count_by_route_template_and_backlog_by_age(
    scraped: httpx.AsyncClient,
) -> None:
    withdrawal_id, token = await pending_withdrawal(scraped)
    # A templated route with an id in the path, and a path no route matches.
    status = await scraped.get(f"/api/wallet/withdraw/{withdrawal_id}", headers=auth(token))
    await scraped.get("/api/no/such/route/12345")
    seen = samples((await scraped.get("/metrics", headers=BEARER)).text)

    routes = {dict(labels)["route"] for name, labels in seen if name == "pao_http_requests_total"}
    assert "/api/wallet/withdraw" in routes
    assert "unmatched" in routes
    # The registry is the process's: other tests' routes are in it too, so look for these
    # two requests' raw paths rather than for their digits.
    assert f"/api/wallet/withdraw/{withdrawal_id}" not in routes
    assert not any("/no/such/route" in route for route in routes)
    unmatched = frozenset({("method", "GET"), ("route", "unmatched"), ("status", "404")})
    assert seen[("pao_http_requests_total", unmatched)] >= 1
    assert status.status_code in (200, 404)  # whichever: it was counted under its template

    assert seen[("pao_backlog_up", frozenset())] == 1
    assert seen[("pao_withdrawals_pending", frozenset())] == 1
    assert seen[("pao_withdrawals_pending_oldest_age_seconds", frozenset())] >= 0
    assert seen[("pao_game_transfers_unresolved", frozenset())] == 0
    assert seen[("pao_db_pool_connections_max", frozenset())] > 0


async def test_readyz_wants_the_migrations_at_head(
    client: httpx.AsyncClient, settings: Settings, tmp_path: Path
) -> None:
    # The test database is built from the models, not migrated: not ready.
    response = await client.get("/readyz")
    assert response.status_code == 503
    assert response.json()["checks"]["migrations"] == "not migrated"

    migrated = settings.model_copy(
        update={"database_url": f"sqlite+aiosqlite:///{tmp_path / 'migrated.db'}"}
    )
    await upgrade(migrated)
    application = create_app(migrated)
    async with LifespanManager(application, startup_timeout=60, shutdown_timeout=60):
        transport = httpx.ASGITransport(app=application)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as ready:
            response = await ready.get("/readyz")
            assert response.status_code == 200, response.text
            assert response.json()["checks"] == {
                "shutdown": "ok",
                "database": "ok",
                "migrations": "ok",
            }


async def test_draining_refuses_new_requests_but_answers_probes(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    app.state.drain.begin("test")
    readyz = await client.get("/readyz")
    assert readyz.status_code == 503
    assert readyz.json()["checks"]["shutdown"] == "draining"
    assert (await client.get("/healthz")).status_code == 200
    refused = await client.post("/api/login", json={"phone": "0812345678", "password": "x"})
    assert refused.status_code == 503
    assert refused.json() == {"message": "SERVICE_UNAVAILABLE"}
    assert refused.headers["connection"] == "close"


def test_migration_state_behind_at_head_and_ahead() -> None:
    heads, known = migration_revisions()
    older = next(iter(known - heads))
    assert migration_state(heads, heads, known) == "ok"
    # This code needs a newer schema: not ready.
    assert migration_state(frozenset({older}), heads, known) == "behind"
    assert migration_state(frozenset(), heads, known) == "behind"
    # A newer release migrated first (rolling upgrade): still ready.
    assert migration_state(frozenset({"9999_next_release"}), heads, known) == "ahead"
