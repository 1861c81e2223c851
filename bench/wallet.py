"""1. Wallet write path (withdrawals) and 2. read path (GET /api/wallet), against baselines.

* Withdrawals: wrk → ``POST /api/wallet/withdraw`` (fresh Idempotency-Key each, as the app
  sends) vs pgbench running bench/sql/withdraw.sql — the same statements the endpoint sends —
  at the same concurrency, over many wallets and then on one hot wallet.
* Reads: wrk → ``GET /api/wallet`` vs ``GET /bench/bare`` (one raw asyncpg query, no framework)
  served by the same process (bench/app.py).
"""

from __future__ import annotations

from typing import Any

from bench.common import Comparison, Server, interleave, rounds, seconds
from bench.http import pgbench, wrk

CONCURRENCY = 32


def withdrawals(server: Server, members: int) -> list[Comparison]:
    results = []
    duration = seconds(8)
    for name, lo, hi in (
        ("withdraw, many wallets", 1, members),
        ("withdraw, one hot wallet", 1, 1),
    ):
        results.append(
            interleave(
                name,
                rounds(3),
                lambda lo=lo, hi=hi: wrk(
                    server.url,
                    "withdraw",
                    lo=lo,
                    hi=hi,
                    connections=CONCURRENCY,
                    duration=duration,
                    server=server,
                ),
                lambda lo=lo, hi=hi: pgbench(
                    "withdraw.sql", lo=lo, hi=hi, clients=CONCURRENCY, duration=duration
                ),
            )
        )
    return results


def reads(server: Server, members: int) -> Comparison:
    return _against_bare("GET /api/wallet vs bare ASGI", "wallet", server, members)


def framework_floor(server: Server, members: int) -> Comparison:
    """``GET /healthz`` (FastAPI, the middleware and one SQLAlchemy ``SELECT 1``) against the
    same bare endpoint: what the framework alone costs, the ceiling of any API read."""
    return _against_bare("floor: GET /healthz vs bare ASGI", "health", server, members)


def _against_bare(name: str, mode: str, server: Server, members: int) -> Comparison:
    duration = seconds(6)
    return interleave(
        name,
        rounds(3),
        lambda: wrk(
            server.url,
            mode,
            lo=1,
            hi=members,
            connections=CONCURRENCY,
            duration=duration,
            server=server,
        ),
        lambda: wrk(
            server.url,
            "bare",
            lo=1,
            hi=members,
            connections=CONCURRENCY,
            duration=duration,
            server=server,
        ),
    )


def pgbench_profile(comparison: Comparison) -> list[Any]:
    """The per-statement latencies pgbench measured (the last baseline round)."""
    return (
        comparison.baseline[-1].extra.get("statements_ms", [])
        if comparison.baseline
        else []
    )
