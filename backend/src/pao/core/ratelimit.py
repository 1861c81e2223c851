"""Fixed-window counters for throttles (login failures, OTP sends).

In one process they live in memory; with ``PAO_REDIS_URL`` they live in Redis, so N API
processes share them (ARCHITECTURE.md, scale-out). Keys are namespaced by the caller.
"""

from __future__ import annotations

import asyncio
import time
from typing import Protocol

from redis.asyncio import Redis

from pao.core.settings import Settings


class RateLimiter(Protocol):
    async def incr(self, key: str, window_seconds: int) -> int: ...
    async def get(self, key: str) -> int: ...
    async def decr(self, key: str) -> None: ...
    async def reset(self, key: str) -> None: ...
    async def close(self) -> None: ...


class MemoryRateLimiter:
    def __init__(self) -> None:
        self._counters: dict[str, tuple[int, float]] = {}
        self._lock = asyncio.Lock()

    def _live(self, key: str) -> tuple[int, float] | None:
        entry = self._counters.get(key)
        if entry is not None and entry[1] <= time.monotonic():
            del self._counters[key]
            return None
        return entry

    async def incr(self, key: str, window_seconds: int) -> int:
        async with self._lock:
            entry = self._live(key)
            count, expires = entry or (0, time.monotonic() + window_seconds)
            self._counters[key] = (count + 1, expires)
            return count + 1

    async def get(self, key: str) -> int:
        entry = self._live(key)
        return entry[0] if entry else 0

    async def decr(self, key: str) -> None:
        """Give back one count (a reservation not used); a counter gone stays gone."""
        async with self._lock:
            entry = self._live(key)
            if entry is not None:
                self._counters[key] = (max(0, entry[0] - 1), entry[1])

    async def reset(self, key: str) -> None:
        self._counters.pop(key, None)

    async def close(self) -> None:
        self._counters.clear()


# DECR a counter only while it exists, never below 0 (one round trip, atomic).
_DECR_IF_LIVE = """
if redis.call('EXISTS', KEYS[1]) == 1 and tonumber(redis.call('GET', KEYS[1])) > 0 then
  return redis.call('DECR', KEYS[1])
end
return 0
"""


class RedisRateLimiter:
    def __init__(self, url: str, prefix: str = "pao:rl:") -> None:
        self._redis: Redis = Redis.from_url(url)
        self._prefix = prefix

    async def incr(self, key: str, window_seconds: int) -> int:
        full = self._prefix + key
        async with self._redis.pipeline(transaction=True) as pipe:
            pipe.incr(full)
            pipe.expire(full, window_seconds, nx=True)
            count, _ = await pipe.execute()
        return int(count)

    async def get(self, key: str) -> int:
        value = await self._redis.get(self._prefix + key)
        return int(value) if value is not None else 0

    async def decr(self, key: str) -> None:
        """Give back one count; a counter that expired meanwhile is not revived (a plain DECR
        would create it at -1, with no expiry)."""
        await self._redis.eval(_DECR_IF_LIVE, 1, self._prefix + key)

    async def reset(self, key: str) -> None:
        await self._redis.delete(self._prefix + key)

    async def close(self) -> None:
        await self._redis.aclose()


def create_rate_limiter(settings: Settings) -> RateLimiter:
    if settings.redis_url:
        return RedisRateLimiter(settings.redis_url)
    return MemoryRateLimiter()
