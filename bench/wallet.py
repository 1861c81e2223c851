"""1. Wallet write path (withdrawals) and 2. read path (GET /api/wallet), against baselines.

* Withdrawals: wrk → ``POST /api/wallet/withdraw`` (fresh Idempotency-Key each, as the app
  sends) vs pgbench running bench/sql/withdraw.sql — the same statements the endpoint sends —
  at the same concurrency, over many wallets and then on one hot wallet.
* The same script run from Python (bench/driver.py) by asyncpg alone and through SQLAlchemy's
  async engine, against pgbench again: the ceilings of a Python client and of the fixed stack,
  which tell where the write path's limit lies.
* Wallet → game transfers: wrk → ``POST /api/wallet/transfer`` (WALLET → JOKER, 1 THB, a fresh
  Idempotency-Key each) over many members, all on one provider whose float they share (its
  shard rows), vs pgbench running bench/sql/transfer.sql (the request's three transactions,
  statement for statement); the provider answers at once, in process (bench.app).
  Its ceiling: the same script by asyncpg alone.
* Game → wallet transfers: the same, JOKER → WALLET, against bench/sql/transfer_out.sql.
* Slip deposits: wrk → ``POST /api/wallet/slip`` (a multipart PNG, a distinct slip each, drawn
  at seed time by bench/slips.py, a fresh Idempotency-Key each) over many members: the image
  decoded and its QR read, the slip accepted, verified by the bank (in process,
  bench.app.InstantBank) and credited — vs pgbench running bench/sql/slip.sql (the upload's
  statements, transaction for transaction). Its ceiling: the same script by asyncpg alone.
* Reads: wrk → ``GET /api/wallet`` vs ``GET /bench/bare-screen`` (the wallet screen's own
  statement, one raw asyncpg query, rows dumped as JSON, no framework) and ``GET /bench/bare``
  (the balance alone), served by the same process (bench/app.py).
"""

from __future__ import annotations

from typing import Any

from bench import driver, slips
from bench.common import (
    Comparison,
    Sample,
    Server,
    analyze,
    interleave,
    rounds,
    seconds,
)
from bench.http import pgbench, wrk

CONCURRENCY = 32


def warm_up(
    server: Server,
    members: int,
    sections: list[str],
    cursor: slips.Cursor | None = None,
) -> None:
    """A few seconds of each request the run measures, not counted: every pooled connection
    prepares its statements and SQLAlchemy compiles its own on first use (the bare screen
    endpoint compiles its statement then), which would otherwise fall on the first round alone."""
    modes = {
        "wallet": ["withdraw"],
        "transfer": ["transfer", "transfer-out"],
        "read": ["wallet", "bare-screen", "bare", "health"],
    }
    for mode in (mode for section in sections for mode in modes.get(section, [])):
        wrk(
            server.url,
            mode,
            lo=1,
            hi=members,
            connections=CONCURRENCY,
            duration=seconds(3),
        )
    if "slip" in sections and cursor is not None:
        slip_wrk(server, members, cursor, seconds(3))
        bare_slip_wrk(server, members, cursor, seconds(3))
    analyze()  # the plans cached while the tables were empty, made again (bench.common)


def _scenarios(members: int) -> list[tuple[str, int, int]]:
    return [("many wallets", 1, members), ("one hot wallet", 1, 1)]


def _pgbench_withdrawals(lo: int, hi: int, duration: float) -> Sample:
    """The baseline of every write-path row: pgbench running withdraw.sql."""
    return pgbench("withdraw.sql", lo=lo, hi=hi, clients=CONCURRENCY, duration=duration)


def withdrawals(server: Server, members: int) -> list[Comparison]:
    duration = seconds(8)
    return [
        interleave(
            f"withdraw, {scenario}",
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
            lambda lo=lo, hi=hi: _pgbench_withdrawals(lo, hi, duration),
        )
        for scenario, lo, hi in _scenarios(members)
    ]


# A transfer's direction: its row's name, pao.lua's mode, its pgbench script.
_TRANSFERS = {
    "in": ("transfer wallet → game", "transfer", "transfer.sql"),
    "out": ("transfer game → wallet", "transfer-out", "transfer_out.sql"),
}


def transfers(server: Server, members: int, direction: str = "in") -> list[Comparison]:
    """Wallet → game (``in``), or game → wallet (``out``: JOKER → WALLET, run after wallet →
    game has put money on the game; the float may go negative all the same, an operator
    account), 1 THB over many members, one provider (its float shared), against pgbench
    running the same script."""
    name, mode, script = _TRANSFERS[direction]
    duration = seconds(8)
    return [
        interleave(
            f"{name}, many members, one provider",
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
            lambda: pgbench(
                script, lo=1, hi=members, clients=CONCURRENCY, duration=duration
            ),
        )
    ]


def slip_wrk(
    server: Server, members: int, cursor: slips.Cursor, duration: float
) -> Sample:
    """One wrk run of slip uploads, each with a slip never sent before."""
    threads = 2
    sample = wrk(
        server.url,
        "slip",
        lo=cursor.next,
        hi=cursor.count,
        connections=CONCURRENCY,
        duration=duration,
        server=server,
        threads=threads,
        extra_args=(str(members), str(slips.SLIP_DIR), str(threads)),
    )
    # Thread t sends slips next + t - 1 + threads·i, i < its request count (pao.lua's counter,
    # which counts the requests still in flight when wrk stops too): the slips up to
    # next - 1 + threads × the most requests one thread made are spent.
    cursor.take(threads * int(sample.extra["max_counter"]))
    return sample


def bare_slip_wrk(
    server: Server, members: int, cursor: slips.Cursor, duration: float
) -> Sample:
    """One wrk run of the same uploads to the bare handler (bench.bare_script), which claims no
    transfer: it sends the drawn slips over and over and spends none."""
    threads = 2
    return wrk(
        server.url,
        "bare-slip",
        lo=1,
        hi=cursor.count,
        connections=CONCURRENCY,
        duration=duration,
        server=server,
        threads=threads,
        extra_args=(str(members), str(slips.SLIP_DIR), str(threads)),
    )


def slip_against_bare(server: Server, members: int, cursor: slips.Cursor) -> Comparison:
    """The slip upload against a bare ASGI handler that parses the same multipart body, decodes
    the image and reads its QR the same way (Pillow, zxing-cpp, in a worker thread), stores it
    and runs slip.sql on raw asyncpg, with no bank call (bench.bare_script): issue 36's CPU per
    request (target ≤ 2×)."""
    duration = seconds(6)
    return interleave(
        "slip deposit credited vs bare ASGI, same SQL",
        rounds(3),
        lambda: slip_wrk(server, members, cursor, duration),
        lambda: bare_slip_wrk(server, members, cursor, duration),
    )


def slip_deposits(
    server: Server, members: int, cursor: slips.Cursor
) -> list[Comparison]:
    """Slip upload → verified → credited over many members, against pgbench (slip.sql)."""
    duration = seconds(8)
    return [
        interleave(
            "slip deposit credited, many members",
            rounds(3),
            lambda: slip_wrk(server, members, cursor, duration),
            lambda: pgbench(
                "slip.sql", lo=1, hi=members, clients=CONCURRENCY, duration=duration
            ),
        )
    ]


def slip_ceiling(members: int) -> list[Comparison]:
    """slip.sql run by asyncpg alone against pgbench: the ceiling of any Python client."""
    duration = seconds(8)
    return [
        interleave(
            "ceiling: asyncpg runs slip.sql, many members",
            rounds(3),
            lambda: driver.run(
                "asyncpg",
                "slip.sql",
                lo=1,
                hi=members,
                clients=CONCURRENCY,
                duration=duration,
            ),
            lambda: pgbench(
                "slip.sql", lo=1, hi=members, clients=CONCURRENCY, duration=duration
            ),
        )
    ]


def transfer_ceiling(members: int) -> list[Comparison]:
    """transfer.sql run by asyncpg alone (2 processes, no HTTP, no application code) against
    pgbench: the ceiling of any Python client for this path. (The SQLAlchemy level runs a
    script as one transaction, so it does not apply to a path of four.)"""
    duration = seconds(8)
    return [
        interleave(
            "ceiling: asyncpg runs transfer.sql, many members",
            rounds(3),
            lambda: driver.run(
                "asyncpg",
                "transfer.sql",
                lo=1,
                hi=members,
                clients=CONCURRENCY,
                duration=duration,
            ),
            lambda: pgbench(
                "transfer.sql", lo=1, hi=members, clients=CONCURRENCY, duration=duration
            ),
        )
    ]


def ceilings(members: int) -> list[Comparison]:
    """withdraw.sql run by asyncpg and through SQLAlchemy (2 processes, as the server has 2
    workers) against pgbench: what Python, and the fixed stack, reach with no HTTP and no
    application code at all."""
    duration = seconds(8)
    return [
        interleave(
            f"ceiling: {level} runs withdraw.sql, {scenario}",
            rounds(3),
            lambda level=level, lo=lo, hi=hi: driver.run(
                level,
                "withdraw.sql",
                lo=lo,
                hi=hi,
                clients=CONCURRENCY,
                duration=duration,
            ),
            lambda lo=lo, hi=hi: _pgbench_withdrawals(lo, hi, duration),
        )
        for scenario, lo, hi in _scenarios(members)
        for level in driver.LEVELS
    ]


def reads(server: Server, members: int) -> list[Comparison]:
    """``GET /api/wallet`` against the bare endpoint running the wallet screen's own statement
    (the same database work, as pgbench runs the withdrawal's SQL: the target's baseline), and
    against the bare balance-only query (the least an authenticated read can do)."""
    return [
        _against_bare(
            "GET /api/wallet vs bare ASGI, same SQL",
            "wallet",
            server,
            members,
            "bare-screen",
        ),
        _against_bare(
            "GET /api/wallet vs bare ASGI, balance only", "wallet", server, members
        ),
    ]


def against_bare_script(server: Server, members: int, path: str) -> Comparison:
    """A money path (``withdraw``, ``transfer`` or ``transfer_out``, many members) against a
    bare ASGI handler running the path's own pgbench script on raw asyncpg
    (bench.bare_script), in the same worker processes: the application's CPU per request
    against the least a Python server spends on the same database work (issue 36, target
    ≤ 2×)."""
    name = {
        "withdraw": "withdraw, many wallets",
        "transfer": "transfer wallet → game",
        "transfer_out": "transfer game → wallet",
    }[path]
    mode = path.replace("_", "-")  # pao.lua's modes
    return _against_bare(
        f"{name} vs bare ASGI, same SQL", mode, server, members, f"bare-{mode}"
    )


def framework_floor(server: Server, members: int) -> Comparison:
    """``GET /healthz`` (the app's middleware and routing, one ``SELECT 1`` on a connection of
    its pool) against a bare ASGI handler sending the same ``SELECT 1`` on raw asyncpg: what
    the stack in front of every route costs (issue 36's floor, target ≤ 1.5× its CPU)."""
    return _against_bare(
        "floor: GET /healthz vs bare ASGI, same SELECT 1",
        "health",
        server,
        members,
        "bare-health",
    )


def _against_bare(
    name: str, mode: str, server: Server, members: int, bare: str = "bare"
) -> Comparison:
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
            bare,
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
