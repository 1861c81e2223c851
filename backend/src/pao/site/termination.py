"""A terminated site answers every /api call with 410 ``gone`` (but ``GET /api/lookup/active``).

The flag is read from the database at most once a second per app instance, so flipping it with
``pao ops site terminate`` (another process) takes effect everywhere within a second without a
query per call. Only the API closes: the SPA (which shows /terminated), ``/healthz``,
``/sandbox`` and ``/socket.io`` keep answering. ``GET /api/lookup/active`` stays open; it
answers from the site settings' own one-second cache (pao.site.settings), read at other moments
than this one, so the two may disagree for up to a second after a change in another process.
The back office's API (``/api/backoffice/…``) stays open too: staff close the site from there
and must be able to reopen it.

The cache lives on the middleware instance (one per app, so tests' apps never share it) and is
tagged with a process-wide generation: :func:`invalidate_termination_cache` bumps the
generation, which makes every instance re-read on its next request. The site service calls it
after a commit that changed the flag; tests may call it directly.
"""

from __future__ import annotations

import asyncio
from time import monotonic

import structlog
from pydantic import TypeAdapter, ValidationError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from starlette.types import ASGIApp, Receive, Scope, Send

from pao.core.errors import Gone, error_response
from pao.site.settings import get_value

log = structlog.get_logger(__name__)

ALWAYS_OPEN: frozenset[tuple[str, str]] = frozenset({("GET", "/api/lookup/active")})
# Staff, not players: the site's closing is theirs to undo.
STAFF_PREFIX = "/api/backoffice/"
CACHE_SECONDS = 1.0
TERMINATED_KEY = "terminated"

_generation = 0
_as_bool: TypeAdapter[bool] = TypeAdapter(bool)


def invalidate_termination_cache() -> None:
    """Make every app in this process re-read the flag on its next /api request."""
    global _generation
    _generation += 1


def is_api_path(path: str) -> bool:
    return path == "/api" or path.startswith("/api/")


def flag_value(raw: object) -> bool:
    """The stored flag as a bool; a malformed value counts as open (and is logged)."""
    if raw is None:
        return False
    try:
        return _as_bool.validate_python(raw)
    except ValidationError:
        log.warning("malformed terminated flag ignored", value=repr(raw))
        return False


class TerminationMiddleware:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        # (monotonic time read, generation read under, value)
        self._cached: tuple[float, int, bool] | None = None
        # When the cache goes stale under load, one request reads; the others wait for it.
        self._refresh = asyncio.Lock()

    def _fresh(self) -> bool | None:
        cached = self._cached
        if cached is None or cached[1] != _generation or monotonic() - cached[0] >= CACHE_SECONDS:
            return None
        return cached[2]

    async def _terminated(self, scope: Scope) -> bool:
        fresh = self._fresh()
        if fresh is not None:
            return fresh
        async with self._refresh:
            fresh = self._fresh()
            if fresh is not None:
                return fresh
            read_at, generation = monotonic(), _generation
            factory: async_sessionmaker[AsyncSession] = scope["app"].state.sessionmaker
            async with factory() as session:
                terminated = flag_value(await get_value(session, TERMINATED_KEY))
            self._cached = (read_at, generation, terminated)
            return terminated

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] == "http"
            and is_api_path(scope["path"])
            and (scope["method"], scope["path"]) not in ALWAYS_OPEN
            and not scope["path"].startswith(STAFF_PREFIX)
            and await self._terminated(scope)
        ):
            response = error_response(Gone.status_code, {"message": Gone.code})
            await response(scope, receive, send)
            return
        await self.app(scope, receive, send)
