"""The service answers health checks and unknown paths with catalogue errors."""

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy.ext.asyncio import create_async_engine

from tests.conftest import is_postgres

pytestmark = pytest.mark.sqlite


async def test_healthz(client: httpx.AsyncClient) -> None:
    response = await client.get("/healthz")
    assert response.status_code == 200
    assert response.json()["status"] == "ok"


async def test_healthz_is_unavailable_while_the_database_is_out_of_reach(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    readiness = app.state.readiness
    unreachable = create_async_engine("postgresql+asyncpg://postgres@127.0.0.1:1/none")
    reachable, readiness.engine = readiness.engine, unreachable
    try:
        response = await client.get("/healthz")
    finally:
        readiness.engine = reachable
        await unreachable.dispose()
    assert response.status_code == 503
    assert response.json() == {"status": "unavailable"}
    assert (await client.get("/healthz")).status_code == 200


async def test_probes_keep_one_connection_out_of_the_pool(
    app: FastAPI, client: httpx.AsyncClient, database_url: str
) -> None:
    """ADR 0037: a balancer's probe every few seconds does not go through the pool each time."""
    if not is_postgres(database_url):
        pytest.skip("SQLite's connections are not pooled")
    pool = app.state.engine.sync_engine.pool
    for _ in range(3):
        assert (await client.get("/healthz")).status_code == 200
    assert pool.checkedout() == 1


async def test_unknown_api_path_is_a_catalogue_error(client: httpx.AsyncClient) -> None:
    response = await client.get("/api/nope")
    assert response.status_code == 404
    assert response.json() == {"message": "NO_DATA"}
