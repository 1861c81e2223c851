"""``/healthz`` (the process is alive and reaches its database) and ``/readyz`` (send it
traffic): the load balancer's and the orchestrator's probes.

``/readyz`` answers 200 only when every dependency a request needs answers: the database, Redis
when configured (rate limits and socket.io fan-out live there), and a schema at the migrations'
head (a process must not serve a schema older than its code; one a newer release
has already migrated is fine, see :func:`migration_state`);
and 503 from the moment the process is told to stop (:mod:`pao.observability.lifecycle`). Its
body names each check, so an operator reading it sees which one failed.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
from typing import Any

from alembic.script import ScriptDirectory
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response
from redis.asyncio import Redis
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine
from starlette.routing import Match, Route
from starlette.types import Scope

from pao import __version__
from pao.core import executor
from pao.core.migrate import alembic_config
from pao.core.settings import Settings
from pao.observability.lifecycle import Drain

# A probe must answer before the balancer's own timeout (typically 2-5 s) even when a
# dependency hangs.
CHECK_TIMEOUT_SECONDS = 1.5
# /healthz's answer while healthy, encoded once: the same bytes on every probe.
_HEALTHY = json.dumps({"status": "ok", "version": __version__}).encode()
# What each check may say of a process that should get traffic.
READY = frozenset({"ok", "ahead"})


@functools.cache
def migration_revisions() -> tuple[frozenset[str], frozenset[str]]:
    """(the heads a fully migrated database is at, every revision this release knows), read
    once per process from the migration files (they do not change while it runs; tests build
    hundreds of apps)."""
    # Alembic narrates every plugin it loads at INFO, in every process that starts.
    logging.getLogger("alembic").setLevel(logging.WARNING)
    scripts = ScriptDirectory.from_config(alembic_config())
    known = frozenset(script.revision for script in scripts.walk_revisions())
    return frozenset(scripts.get_heads()), known


def migration_state(at: frozenset[str], heads: frozenset[str], known: frozenset[str]) -> str:
    """``ok`` at this release's head; ``ahead`` when the database is at a revision this release
    does not know (a newer release migrated it during a rolling upgrade: ready, because
    migrations keep the previous release working, docs/deploy.md); ``behind`` otherwise (this
    code needs tables the database does not have yet: not ready)."""
    if at == heads:
        return "ok"
    if at and not at <= known:
        return "ahead"
    return "behind"


class Readiness:
    def __init__(self, settings: Settings, engine: AsyncEngine, drain: Drain) -> None:
        self.engine = engine
        self.drain = drain
        self.heads, self.known = migration_revisions()
        # Its own small client: a probe must not wait behind the rate limiter's traffic.
        self.redis: Redis | None = (
            Redis.from_url(
                settings.redis_url,
                socket_timeout=CHECK_TIMEOUT_SECONDS,
                socket_connect_timeout=CHECK_TIMEOUT_SECONDS,
            )
            if settings.redis_url
            else None
        )

    async def ping(self) -> None:
        """One round trip to the database over a connection of the app's own pool, raising if
        it fails. On PostgreSQL the driver's simple query, outside a transaction (through
        SQLAlchemy's ``execute`` it was BEGIN, SELECT 1 and ROLLBACK, three round trips and
        two thirds of the probe's CPU: docs/benchmarks.md, "the floor"), on a connection kept
        out of the pool between probes (the pool's checkout and return were half of what was
        left: ADR 0037)."""
        await executor.execute_alone(self.engine, "SELECT 1")

    async def close(self) -> None:
        if self.redis is not None:
            await self.redis.aclose()

    async def checks(self) -> dict[str, str]:
        result: dict[str, str] = {"shutdown": "draining" if self.drain.draining else "ok"}
        result["database"], result["migrations"] = await self._database()
        if self.redis is not None:
            result["redis"] = await self._redis()
        return result

    async def _database(self) -> tuple[str, str]:
        try:
            async with asyncio.timeout(CHECK_TIMEOUT_SECONDS):
                async with self.engine.connect() as connection:
                    await connection.execute(text("SELECT 1"))
                    try:
                        rows = await connection.execute(
                            text("SELECT version_num FROM alembic_version")
                        )
                        at = frozenset(row[0] for row in rows)
                    except Exception:  # no alembic_version table: never migrated
                        return "ok", "not migrated"
        except Exception:  # refused, timed out, authentication: all mean "not ready"
            return "unavailable", "unknown"
        return "ok", migration_state(at, self.heads, self.known)

    async def _redis(self) -> str:
        assert self.redis is not None
        try:
            async with asyncio.timeout(CHECK_TIMEOUT_SECONDS):
                await self.redis.ping()
        except Exception:  # refused, timed out: not ready
            return "unavailable"
        return "ok"


async def healthz(request: Request) -> Response:
    """200 while the process serves and reaches its database (what `make run`, the browser
    tests and the benchmarks' floor wait for); it stays 200 while the process drains."""
    readiness: Readiness = request.app.state.readiness
    try:
        await readiness.ping()
    except Exception:  # any failure means "unavailable", never a crash
        return JSONResponse({"status": "unavailable"}, status_code=503)
    return Response(_HEALTHY, media_type="application/json")


async def readyz(request: Request) -> JSONResponse:
    """200 when this process should get traffic; 503 naming the failed checks otherwise."""
    readiness: Readiness = request.app.state.readiness
    checks = await readiness.checks()
    ready = all(value in READY for value in checks.values())
    body: dict[str, Any] = {"status": "ready" if ready else "unavailable", "checks": checks}
    return JSONResponse(body, status_code=200 if ready else 503)


class _ProbeRoute(Route):
    """A plain Starlette route that names itself in the scope when it matches, as FastAPI's
    routes do: the request metrics label an answer by ``scope["route"]``
    (pao.observability.http), and without it every probe counted as ``unmatched``."""

    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        match, child_scope = super().matches(scope)
        if match != Match.NONE:
            child_scope["route"] = self
        return match, child_scope


def install_probes(app: FastAPI, readiness: Readiness) -> None:
    # Module-level endpoints that read the app's state: a closure over this app would keep
    # every app ever built alive (one per test). Plain Starlette routes: a probe takes no
    # parameters and is not in the contract, so FastAPI's request handling (dependencies,
    # response validation) would be work for nothing on the request a balancer sends every
    # few seconds, and the floor the benchmarks compare with a bare handler.
    app.state.readiness = readiness
    app.router.routes.append(_ProbeRoute("/healthz", healthz, methods=["GET"]))
    app.router.routes.append(_ProbeRoute("/readyz", readyz, methods=["GET"]))
