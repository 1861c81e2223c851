"""3. Login: ``POST /api/login`` per second against the bare cost of its argon2id check.

The baseline is argon2id verifications per second at the same parameters (the production
defaults from pao.core.settings), run with one thread per core in this process — the most
logins this machine could ever do. The ratio says how much the rest of a login (HTTP, the
member lookup, Redis throttles, the session insert) costs on top; the absolute figure is the
price of the password hash, which is the point of it.
"""

from __future__ import annotations

import os
import time
from concurrent.futures import ThreadPoolExecutor

from argon2 import PasswordHasher, Type

from bench.common import Comparison, Sample, Server, interleave, rounds, seconds
from bench.http import wrk
from bench.seed import PASSWORD

CONCURRENCY = 8


def hasher() -> PasswordHasher:
    from pao.core.settings import Settings

    s = Settings()
    return PasswordHasher(
        time_cost=s.argon2_time_cost,
        memory_cost=s.argon2_memory_kib,
        parallelism=s.argon2_parallelism,
        type=Type.ID,
    )


def parameters() -> str:
    h = hasher()
    return f"argon2id t={h.time_cost}, m={h.memory_cost // 1024} MiB, p={h.parallelism}"


def argon2_rate(duration: float) -> Sample:
    """Verifications per second, one thread per core (argon2-cffi releases the GIL)."""
    h = hasher()
    stored = h.hash(PASSWORD)
    deadline = time.monotonic() + duration
    threads = os.cpu_count() or 1

    def work() -> int:
        count = 0
        while time.monotonic() < deadline:
            h.verify(stored, PASSWORD)
            count += 1
        return count

    start = time.monotonic()
    with ThreadPoolExecutor(threads) as pool:
        total = sum(pool.map(lambda _: work(), range(threads)))
    elapsed = time.monotonic() - start
    return Sample(rate=total / elapsed, p50_ms=1000 * elapsed * threads / max(total, 1))


def logins(server: Server, members: int) -> Comparison:
    duration = seconds(6)
    return interleave(
        "login (argon2id) vs raw argon2id",
        rounds(3),
        lambda: wrk(
            server.url,
            "login",
            lo=1,
            hi=members,
            connections=CONCURRENCY,
            duration=duration,
            server=server,
        ),
        lambda: argon2_rate(duration),
    )
