"""SCB Open API OAuth: one access token per app, cached, renewed before it expires.

``POST {scb_url}/v1/oauth/token`` with headers ``resourceOwnerId: <API key>``,
``requestUId: <unique>``, ``accept-language: EN`` and body ``{applicationKey,
applicationSecret}`` answers ``{status{code: 1000}, data{accessToken, tokenType, expiresIn,
expiresAt}}`` (providers.md §6 [B1]); a token lives 30 minutes [B2].

Who renews, and when (ADR 0026):

* a token is used until :data:`RENEW_BEFORE` before its end, then renewed, so a call never
  leaves with a token that dies on the way;
* one renewal at a time: within a process an :class:`asyncio.Lock`; across processes, when
  ``PAO_REDIS_URL`` is set, the token lives in Redis and a renewal holds ``SET NX PX`` on a
  lock key: the other processes wait for the token to appear instead of asking SCB too;
* an SCB call answered 401 drops the token (:meth:`ScbOAuth.invalidate`) so the next call
  renews it.

Errors are :class:`ScbUnavailable` and never carry a credential or a token.
"""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from dataclasses import dataclass
from typing import Protocol

import httpx
import structlog
from redis.asyncio import Redis

from pao.core import metrics
from pao.core.settings import SCB_PUBLIC_URL, Settings
from pao.kit.clock import utcnow

log = structlog.get_logger(__name__)

# Renew this long before the token's end (a token lives 30 min).
RENEW_BEFORE = 5 * 60.0
# A token whose lifetime SCB does not state is kept this long (the documented 30 min).
DEFAULT_LIFETIME = 30 * 60.0
# How long a renewal may hold the cross-process lock, and how long the others wait for it.
LOCK_SECONDS = 20.0
PROVIDER = "scb"


class ScbUnavailable(Exception):
    """SCB did not give a token (down, refused the credentials, an answer not understood)."""


@dataclass(frozen=True)
class Token:
    value: str
    expires_at: float  # _now() seconds

    def fresh(self, now: float) -> bool:
        return now < self.expires_at - RENEW_BEFORE


class TokenCache(Protocol):
    """Where the token is kept: this process's memory, or Redis shared by every process.
    One per process (``app.state.scb_tokens``); its ``process_lock`` lets one coroutine of
    the process renew at a time, ``try_lock`` one process of the deployment."""

    process_lock: asyncio.Lock

    async def get(self) -> Token | None: ...
    async def put(self, token: Token) -> None: ...
    async def drop(self, value: str) -> None: ...
    async def try_lock(self) -> bool: ...
    async def unlock(self) -> None: ...
    async def close(self) -> None: ...


class MemoryTokenCache:
    """One process (the default: ``make run`` is one process); the asyncio lock is enough."""

    def __init__(self) -> None:
        self._token: Token | None = None
        self.process_lock = asyncio.Lock()

    async def get(self) -> Token | None:
        return self._token

    async def put(self, token: Token) -> None:
        self._token = token

    async def drop(self, value: str) -> None:
        if self._token is not None and self._token.value == value:
            self._token = None

    async def try_lock(self) -> bool:
        return True

    async def unlock(self) -> None:
        return None

    async def close(self) -> None:
        return None


# Drop the token only if it is still the one that was refused (a fresh one stays).
_DROP_IF_SAME = """
local held = redis.call('GET', KEYS[1])
if held and cjson.decode(held)['value'] == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


_DELETE_IF_HELD = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


class RedisTokenCache:
    """Shared by every process of the deployment: one renewal for all of them."""

    def __init__(self, url: str, prefix: str = "pao:scb:oauth:") -> None:
        self._redis: Redis = Redis.from_url(url)
        self._token_key = prefix + "token"
        self._lock_key = prefix + "lock"
        self._lock_id = uuid.uuid4().hex
        self.process_lock = asyncio.Lock()

    async def get(self) -> Token | None:
        raw = await self._redis.get(self._token_key)
        if raw is None:
            return None
        data = json.loads(raw)
        return Token(value=str(data["value"]), expires_at=float(data["expiresAt"]))

    async def put(self, token: Token) -> None:
        ttl = max(int(token.expires_at - _now()), 1)
        body = json.dumps({"value": token.value, "expiresAt": token.expires_at})
        await self._redis.set(self._token_key, body, ex=ttl)

    async def drop(self, value: str) -> None:
        await self._redis.eval(_DROP_IF_SAME, 1, self._token_key, value)

    async def try_lock(self) -> bool:
        return bool(
            await self._redis.set(
                self._lock_key, self._lock_id, nx=True, px=int(LOCK_SECONDS * 1000)
            )
        )

    async def unlock(self) -> None:
        # Only this process's lock: one that expired and was taken by another stays.
        await self._redis.eval(_DELETE_IF_HELD, 1, self._lock_key, self._lock_id)

    async def close(self) -> None:
        await self._redis.aclose()


def _now() -> float:
    # Pao's clock (pao.kit.clock), so that tests can move a token towards its end.
    return utcnow().timestamp()


def create_token_cache(settings: Settings) -> TokenCache:
    if settings.redis_url:
        return RedisTokenCache(settings.redis_url)
    return MemoryTokenCache()


def scb_base_url(settings: Settings) -> str:
    return settings.provider_url(settings.scb_url, SCB_PUBLIC_URL, "/sandbox/scb/partners")


def request_uid() -> str:
    """A unique ``requestUId``: 32 alphanumerics (the v2 QR create page's rule, [B3])."""
    return uuid.uuid4().hex


class ScbOAuth:
    """The access token of Pao's SCB app. Cheap to build per call: the token and the locks
    live in ``cache`` (one per process)."""

    def __init__(self, http: httpx.AsyncClient, settings: Settings, cache: TokenCache) -> None:
        self._http = http
        self._base = scb_base_url(settings)
        self._key = settings.scb_api_key.get_secret_value()
        self._secret = settings.scb_api_secret.get_secret_value()
        self._timeout = settings.slip_verify_timeout_seconds
        self._cache = cache

    @property
    def api_key(self) -> str:
        """Sent as ``resourceOwnerId`` with every SCB call."""
        return self._key

    async def access_token(self) -> str:
        token = await self._cache.get()
        if token is not None and token.fresh(_now()):
            return token.value
        async with self._cache.process_lock:
            return await self._renew()

    async def invalidate(self, value: str) -> None:
        await self._cache.drop(value)

    async def _renew(self) -> str:
        deadline = time.monotonic() + LOCK_SECONDS
        while True:
            # Another coroutine or process may have renewed it while this one waited.
            token = await self._cache.get()
            if token is not None and token.fresh(_now()):
                return token.value
            if await self._cache.try_lock():
                try:
                    token = await self._fetch()
                    await self._cache.put(token)
                    return token.value
                finally:
                    await self._cache.unlock()
            if time.monotonic() > deadline:
                raise ScbUnavailable("another process's token renewal did not finish")
            await asyncio.sleep(0.2)

    async def _fetch(self) -> Token:
        headers = {
            "Content-Type": "application/json",
            "resourceOwnerId": self._key,
            "requestUId": request_uid(),
            "accept-language": "EN",
        }
        body = {"applicationKey": self._key, "applicationSecret": self._secret}
        with metrics.provider_call(PROVIDER, "oauth-token") as call:
            try:
                response = await self._http.post(
                    f"{self._base}/v1/oauth/token",
                    json=body,
                    headers=headers,
                    timeout=self._timeout,
                )
            except httpx.HTTPError as exc:
                call.failed(exc)
                # The exception's text names the URL only; no header or body is in it.
                log.warning("scb oauth unreachable", error=type(exc).__name__)
                raise ScbUnavailable("SCB OAuth unreachable") from exc
            call.answered(response.status_code)
        return parse_token(response, now=_now())


def parse_token(response: httpx.Response, *, now: float) -> Token:
    """The token of an OAuth answer; anything but status 1000 with a token is refused."""
    try:
        body = response.json()
        status = body.get("status") or {}
        data = body.get("data") or {}
        code = status.get("code")
        value = data.get("accessToken")
    except (ValueError, AttributeError):
        raise ScbUnavailable(f"SCB OAuth answered HTTP {response.status_code}, not JSON") from None
    if response.status_code != 200 or code != 1000 or not isinstance(value, str) or not value:
        log.warning("scb oauth refused", http=response.status_code, code=code)
        raise ScbUnavailable(f"SCB OAuth refused: HTTP {response.status_code}, code {code}")
    lifetime = DEFAULT_LIFETIME
    expires_in = data.get("expiresIn")
    if isinstance(expires_in, int | float) and not isinstance(expires_in, bool) and expires_in > 0:
        lifetime = float(expires_in)
    return Token(value=value, expires_at=now + lifetime)
