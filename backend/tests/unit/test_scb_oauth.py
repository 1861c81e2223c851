"""SCB's OAuth token client: cached, renewed before its end, one renewal at a time within a
process and (with Redis) across processes; refusals carry no credential."""

from __future__ import annotations

import asyncio
import os
from datetime import timedelta
from typing import Any

import httpx
import pytest

from pao.core.settings import Settings
from pao.kit.clock import clock
from pao.payments.scb.oauth import (
    RENEW_BEFORE,
    MemoryTokenCache,
    RedisTokenCache,
    ScbOAuth,
    ScbUnavailable,
    TokenCache,
)

SETTINGS = Settings(
    env="test", sandbox=False, scb_api_key="l7xx-key", scb_api_secret="top-secret-value"
)


class FakeScb:
    """Gives out numbered tokens, slowly (so that renewals would overlap if allowed)."""

    def __init__(self, answer: dict[str, Any] | None = None, status: int = 200) -> None:
        self.issued = 0
        self.answer = answer
        self.status = status

    async def handler(self, request: httpx.Request) -> httpx.Response:
        await asyncio.sleep(0.05)
        self.issued += 1
        body = self.answer or {
            "status": {"code": 1000, "description": "Success"},
            "data": {
                "accessToken": f"token-{self.issued}",
                "tokenType": "Bearer",
                "expiresIn": 1800,
            },
        }
        return httpx.Response(self.status, json=body)


def oauth(scb: FakeScb, cache: TokenCache) -> tuple[ScbOAuth, httpx.AsyncClient]:
    http = httpx.AsyncClient(transport=httpx.MockTransport(scb.handler))
    return ScbOAuth(http, SETTINGS, cache), http


async def test_cached_and_renewed_before_its_end() -> None:
    scb, cache = FakeScb(), MemoryTokenCache()
    client, http = oauth(scb, cache)
    async with http:
        assert await client.access_token() == "token-1"
        assert await client.access_token() == "token-1"
        clock.advance(timedelta(seconds=1800 - RENEW_BEFORE - 5))
        assert await client.access_token() == "token-1"
        clock.advance(timedelta(seconds=10))  # within RENEW_BEFORE of its end
        assert await client.access_token() == "token-2"
    clock.reset()
    assert scb.issued == 2


async def test_one_renewal_for_many_callers_of_a_process() -> None:
    scb, cache = FakeScb(), MemoryTokenCache()
    # Each request builds its own ScbOAuth; the cache (one per process) holds the lock.
    clients = [oauth(scb, cache) for _ in range(8)]
    tokens = await asyncio.gather(*(c.access_token() for c, _ in clients))
    for _, http in clients:
        await http.aclose()
    assert set(tokens) == {"token-1"}
    assert scb.issued == 1


async def test_invalidate_drops_only_that_token() -> None:
    scb, cache = FakeScb(), MemoryTokenCache()
    client, http = oauth(scb, cache)
    async with http:
        first = await client.access_token()
        await client.invalidate("some-older-token")
        assert await client.access_token() == first
        await client.invalidate(first)
        assert await client.access_token() == "token-2"


@pytest.mark.parametrize(
    ("status", "answer"),
    [
        (401, {"status": {"code": 4011, "description": "Unauthorized"}}),
        (200, {"status": {"code": 9999, "description": "?"}, "data": {"accessToken": "x"}}),
        (200, {"status": {"code": 1000}, "data": {}}),
    ],
)
async def test_refusals_are_unavailable_and_name_no_secret(
    status: int, answer: dict[str, Any]
) -> None:
    client, http = oauth(FakeScb(answer, status), MemoryTokenCache())
    async with http:
        with pytest.raises(ScbUnavailable) as refused:
            await client.access_token()
    assert "top-secret-value" not in str(refused.value)
    assert "l7xx-key" not in str(refused.value)


REDIS_URL = os.environ.get("PAO_TEST_REDIS_URL")


@pytest.mark.skipif(REDIS_URL is None, reason="needs PAO_TEST_REDIS_URL")
async def test_one_renewal_across_processes_with_redis() -> None:
    assert REDIS_URL is not None
    prefix = f"pao:test:scb:{os.getpid()}:{id(object())}:"
    scb = FakeScb()
    # Two "processes": each its own cache object (its own asyncio lock), one Redis.
    caches = [RedisTokenCache(REDIS_URL, prefix=prefix) for _ in range(2)]
    clients = [oauth(scb, caches[i % 2]) for i in range(6)]
    try:
        tokens = await asyncio.gather(*(c.access_token() for c, _ in clients))
        assert set(tokens) == {"token-1"}
        assert scb.issued == 1
        await clients[0][0].invalidate("token-1")
        assert await clients[1][0].access_token() == "token-2"
    finally:
        for _, http in clients:
            await http.aclose()
        for cache in caches:
            await cache.close()
