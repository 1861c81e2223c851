"""Throttle counters behave the same in memory and in Redis (shared across processes)."""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator

import pytest

from pao.core.ratelimit import MemoryRateLimiter, RateLimiter, RedisRateLimiter

REDIS_URL = os.environ.get("PAO_TEST_REDIS_URL")
BACKENDS = ["memory", *(["redis"] if REDIS_URL else [])]


@pytest.fixture(params=BACKENDS)
async def limiter(request: pytest.FixtureRequest) -> AsyncIterator[RateLimiter]:
    if request.param == "memory":
        memory = MemoryRateLimiter()
        yield memory
        await memory.close()
        return
    assert REDIS_URL
    redis = RedisRateLimiter(REDIS_URL, prefix=f"pao:test:{uuid.uuid4().hex}:")
    yield redis
    await redis.close()


async def test_counts_within_a_window_and_resets(limiter: RateLimiter) -> None:
    assert await limiter.get("login:0812345678") == 0
    assert [await limiter.incr("login:0812345678", 60) for _ in range(3)] == [1, 2, 3]
    assert await limiter.get("login:0812345678") == 3
    assert await limiter.get("login:0899999999") == 0
    await limiter.reset("login:0812345678")
    assert await limiter.get("login:0812345678") == 0


async def test_a_count_given_back_never_goes_below_zero_nor_revives(
    limiter: RateLimiter,
) -> None:
    await limiter.incr("login:pair", 60)
    await limiter.incr("login:pair", 60)
    await limiter.decr("login:pair")
    assert await limiter.get("login:pair") == 1
    await limiter.decr("login:pair")
    await limiter.decr("login:pair")
    assert await limiter.get("login:pair") == 0
    # A counter that is not there stays not there (no count of -1 that never expires).
    await limiter.decr("login:gone")
    assert await limiter.get("login:gone") == 0
    assert await limiter.incr("login:gone", 60) == 1


async def test_a_window_expires(limiter: RateLimiter) -> None:
    import asyncio

    await limiter.incr("otp:x", 1)
    await asyncio.sleep(1.2)
    assert await limiter.get("otp:x") == 0


async def test_two_clients_share_redis_counters() -> None:
    if not REDIS_URL:
        pytest.skip("needs PAO_TEST_REDIS_URL")
    prefix = f"pao:test:{uuid.uuid4().hex}:"
    first, second = RedisRateLimiter(REDIS_URL, prefix), RedisRateLimiter(REDIS_URL, prefix)
    await first.incr("ip:1.2.3.4", 60)
    assert await second.incr("ip:1.2.3.4", 60) == 2
    await first.close()
    await second.close()
