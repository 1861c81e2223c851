"""Where a money request's CPU goes: N requests of one path driven in process (httpx's ASGI
transport, no socket) under cProfile, on the bench database; each function's own time summed
by the package it lives in. CPU time (``time.process_time``), not wall-clock, so the figures
hold on a loaded machine. ``python -m bench.cpu withdraw|transfer|slip|bare-withdraw [N]``
(seeded database; ``bare-withdraw`` is the withdrawal without the framework, bench.bare_withdraw).

A slip upload decodes its image in a worker thread (``anyio.to_thread``), which cProfile (one
thread) does not see but the process's CPU time does: for ``slip`` the decoding of the same
images is also timed alone, on this thread, and reported as its share of the request's CPU.
"""

from __future__ import annotations

import asyncio
import cProfile
import os
import pstats
import secrets
import sys
import time
import uuid
from collections import defaultdict
from typing import Any

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
    ("/PIL/", "Pillow (slip image)"),
    ("zxingcpp", "zxing-cpp (slip QR)"),
    ("multipart/", "python-multipart (upload body)"),
)


def _package(filename: str) -> str:
    for needle, name in PACKAGES:
        if needle in filename:
            return name
    if filename.startswith(("~", "<")) or "/lib/python" in filename:
        return "other (stdlib, builtins)"
    return "other"


def _slip_images(count: int, members: int) -> list[tuple[int, bytes]]:
    """``count`` distinct slips (member, PNG), drawn before anything is timed."""
    from bench import slips

    # Unique across runs on one database, never one of the run's slips (their S0000…).
    run = secrets.randbelow(9000) + 1000
    return [
        (
            slips.member_for(k, members),
            slips.slip_png(f"BENCH{slips.member_for(k, members):06d}S{k:04d}{run:04d}"),
        )
        for k in range(1, count + 1)
    ]


def decode_cpu_ms(images: list[tuple[int, bytes]]) -> float:
    """CPU ms per slip of the decoder alone (pao.payments.slips.decoder), on this thread."""
    from pao.payments.slips.decoder import decode_slip

    started = time.process_time()
    for _member, data in images:
        decode_slip(data)
    return 1000 * (time.process_time() - started) / len(images)


async def _run(
    path: str, count: int, members: int, images: list[tuple[int, bytes]]
) -> tuple[float, pstats.Stats]:
    os.environ.update(app_env())
    from pao.core.settings import Settings
    from pao.main import create_app

    from bench.app import use_instant_bank, use_instant_providers

    app = create_app(Settings())
    use_instant_providers(app)
    use_instant_bank(app)
    served: Any = app
    if path == "bare-withdraw":
        # The withdrawal's own code without the framework around it.
        from bench.bare_withdraw import PATH, BareWithdraw

        served = BareWithdraw(app)
        url, body = PATH, REQUESTS["withdraw"][1]
    else:
        url, body = REQUESTS.get(path, ("/api/wallet/slip", {}))
    # CPU time, not wall-clock: on a loaded machine a socket send "takes" milliseconds of
    # waiting for a core.
    profile = cProfile.Profile(time.process_time)
    async with LifespanManager(app):
        transport = httpx.ASGITransport(app=served)
        async with httpx.AsyncClient(
            transport=transport, base_url="http://bench"
        ) as client:
            slip_images = iter(images)

            async def one(i: int) -> None:
                member = 1 + i % members
                request: dict[str, object] = {"json": body}
                if path == "slip":
                    # A slip never sent before (a transfer credits once), its member's token.
                    member, data = next(slip_images)
                    request = {"files": {"file": ("slip.png", data, "image/png")}}
                answer = await client.post(
                    url,
                    **request,  # type: ignore[arg-type]
                    headers={
                        "Authorization": f"Bearer bench-token-{member}",
                        "Idempotency-Key": f"cpu-{uuid.uuid4()}",
                    },
                )
                assert answer.status_code == 200, answer.text
                if path == "slip":
                    assert answer.json()["code"] == "SUCCESS", answer.text

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
    images = _slip_images(20 + 2 * count, 1000) if path == "slip" else []
    cpu, stats = asyncio.run(_run(path, count, 1000, images))
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
    if images:
        decode = decode_cpu_ms(images[:count])
        print(
            f"  the image decoded and its QR read (worker thread, not in the shares above): "
            f"{decode:.2f} CPU ms per slip = {100 * decode / (1000 * cpu / count):.1f} % "
            "of the request's CPU"
        )
    stats.sort_stats("cumulative").print_stats("/pao/", 40)


if __name__ == "__main__":
    main()
