"""The service answers health checks and unknown paths with catalogue errors."""

import httpx


async def test_healthz(client: httpx.AsyncClient) -> None:
    response = await client.get("/healthz")
    assert response.status_code == 200
    assert response.json()["status"] == "ok"


async def test_unknown_api_path_is_a_catalogue_error(client: httpx.AsyncClient) -> None:
    response = await client.get("/api/nope")
    assert response.status_code == 404
    assert response.json() == {"message": "NO_DATA"}
