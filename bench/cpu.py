"""Where a money request's CPU goes: N requests of one path driven in process (httpx's ASGI
transport, no socket) under cProfile, on the bench database; each function's own time summed
by the package it lives in. CPU time (``time.process_time``), not wall-clock, so the figures
hold on a loaded machine. ``python -m bench.cpu withdraw|transfer [N]`` (seeded database).
"""

from __future__ import annotations

import asyncio
import cProfile
import os
import pstats
import sys
import time
import uuid
from collections import defaultdict

import httpx
from asgi_lifespan import LifespanManager

from bench.common import app_env
from bench.sqlcheck import REQUESTS

# The package a function's file belongs to, first match wins (site-packages or Pao's source).
PACKAGES = (
    ("pao/core/executor", "pao executor"),
    ("/pao/", "pao (domain code)"),
    ("/asyncpg/", "asyncpg"),
    ("/sqlalchemy/", "sqlalchemy"),
    ("/fastapi/", "fastapi"),
    ("/starlette/", "starlette"),
    ("/pydantic", "pydantic"),
    ("/httpx/", "httpx client (the bench's, not Pao's)"),
    ("/httpcore/", "httpx client (the bench's, not Pao's)"),
    ("/structlog/", "structlog"),
    ("/redis/", "redis"),
    ("/asyncio/", "asyncio"),
    ("/uvloop/", "asyncio"),
)


def _package(filename: str) -> str:
    for needle, name in PACKAGES:
        if needle in filename:
            return name
    if filename.startswith(("~", "<")) or "/lib/python" in filename:
        return "other (stdlib, builtins)"
    return "other"


async def _run(path: str, count: int, members: int) -> tuple[float, pstats.Stats]:
    os.environ.update(app_env())
    from pao.core.settings import Settings
    from pao.main import create_app

    from bench.app import use_instant_providers

    app = create_app(Settings())
    use_instant_providers(app)
    url, body = REQUESTS[path]
    # CPU time, not wall-clock: on a loaded machine a socket send "takes" milliseconds of
    # waiting for a core.
    profile = cProfile.Profile(time.process_time)
    async with LifespanManager(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(
            transport=transport, base_url="http://bench"
        ) as client:

            async def one(i: int) -> None:
                answer = await client.post(
                    url,
                    json=body,
                    headers={
                        "Authorization": f"Bearer bench-token-{1 + i % members}",
                        "Idempotency-Key": f"cpu-{uuid.uuid4()}",
                    },
                )
                assert answer.status_code == 200, answer.text

            for i in range(20):  # warm-up: statements prepared, caches filled
                await one(i)
            started = time.process_time()
            for i in range(count):
                await one(i)
            cpu = time.process_time() - started
            profile.enable()
            for i in range(count):
                await one(i)
            profile.disable()
    return cpu, pstats.Stats(profile)


def main() -> None:
    path = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 300
    cpu, stats = asyncio.run(_run(path, count, 1000))
    shares: dict[str, float] = defaultdict(float)
    for (filename, _line, _name), row in stats.stats.items():  # type: ignore[attr-defined]
        shares[_package(filename)] += row[2]  # own time
    total = sum(shares.values())
    print(
        f"{path}: {count} requests, {1000 * cpu / count:.2f} CPU ms per request "
        "(not profiled; this process: the app and the bench's client)"
    )
    for name, own in sorted(shares.items(), key=lambda item: -item[1]):
        print(f"  {name:40s} {100 * own / total:5.1f} %")
    stats.sort_stats("cumulative").print_stats("/pao/", 40)


if __name__ == "__main__":
    main()
