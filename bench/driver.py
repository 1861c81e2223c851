"""The same pgbench script run from Python: where the write path's limit lies.

pgbench is a C client; Pao is Python. To tell how much of the gap is Python's own price and how
much is Pao's, the bench runs ``bench/sql/withdraw.sql`` (the statements a withdrawal sends, in
its order) from Python at two levels, with no HTTP and no application code:

* ``asyncpg``: the driver Pao uses, each statement prepared once per connection (as
  ``pgbench -M prepared``) — the ceiling of any Python code on this machine;
* ``sqlalchemy``: the same through SQLAlchemy's async engine (prebuilt ``text()`` statements
  executed on an ``AsyncConnection`` inside ``begin()``) — a lower bound of the fixed stack's
  cost: Pao's statements pay the ORM session on top.

The script is read the way pgbench reads it (``\\set i random(:lo, :hi)``, ``\\gset [prefix]``,
``:name`` variables), so it cannot drift from what pgbench runs. Like Pao's servers, it runs
in two worker processes (``python -m bench.driver`` each), the connections split between them.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.common import BENCH_DIR, PG_URL, REPO, Sample, python_cmd

LEVELS = ("asyncpg", "sqlalchemy")
_VARIABLE = re.compile(r"(?<!:):(\w+)")
_RANDOM = re.compile(r"\\set (\w+) random\(:(\w+), :(\w+)\)")
_END = re.compile(r"(?:;|\\gset(?: (\w+))?)\s*$")
_TEXT_TYPES = {"text", "varchar", "bpchar"}


@dataclass(frozen=True)
class Statement:
    source: str  # as written, with :name variables
    sql: str  # with $1, $2, … in place of :name
    names: tuple[str, ...]  # the variable behind each $n
    gset: bool  # store the first row's columns as variables
    prefix: str

    @property
    def transaction_control(self) -> bool:
        return self.sql.strip().upper() in ("BEGIN", "COMMIT")


Step = tuple[str, str, str] | Statement  # (variable, low, high) for \set … random()


def parse(path: Path) -> list[Step]:
    """The script's steps, as pgbench reads them (a statement ends at ``;`` or ``\\gset``)."""
    return parse_text(path.read_text())


def parse_text(script: str) -> list[Step]:
    """:func:`parse` of a script's text (bench.bare_seamless runs parts of one)."""
    steps: list[Step] = []
    pending: list[str] = []
    for line in script.splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith("--"):
            continue
        if found := _RANDOM.match(stripped):
            steps.append((found[1], found[2], found[3]))
            continue
        pending.append(stripped)
        text = " ".join(pending)
        end = _END.search(text)
        if end is None:
            continue
        names: list[str] = []

        def positional(match: re.Match[str], names: list[str] = names) -> str:
            names.append(match[1])
            return f"${len(names)}"

        steps.append(
            Statement(
                source=text[: end.start()],
                sql=_VARIABLE.sub(positional, text[: end.start()]),
                names=tuple(names),
                gset=end[0].lstrip().startswith("\\gset"),
                prefix=end[1] or "",
            )
        )
        pending = []
    return steps


class _Client:
    """One connection running the script in a loop, one transaction per loop. ``open`` does
    the set-up (connecting, preparing, learning each statement's parameter types) before the
    clock starts, as pgbench reports its rate "without initial connection time"."""

    def __init__(self, steps: list[Step], bounds: dict[str, int]) -> None:
        self.steps, self.bounds = steps, bounds
        self.statements = [step for step in steps if isinstance(step, Statement)]
        # $n parameter types per statement: pgbench substitutes text, so a variable is passed
        # as the type its place expects.
        self.types: dict[str, list[str]] = {}
        self.latencies: list[float] = []

    async def _learn_types(self, connection: Any) -> dict[str, Any]:
        prepared = {s.sql: await connection.prepare(s.sql) for s in self.statements}
        for sql, statement in prepared.items():
            self.types[sql] = [t.name for t in statement.get_parameters()]
        return prepared

    def _args(self, statement: Statement, values: dict[str, Any]) -> list[Any]:
        return [
            str(values[name]) if kind in _TEXT_TYPES else values[name]
            for name, kind in zip(
                statement.names, self.types[statement.sql], strict=True
            )
        ]

    def _draw(self) -> dict[str, Any]:
        values: dict[str, Any] = dict(self.bounds)
        for step in self.steps:
            if isinstance(step, tuple):
                name, low, high = step
                values[name] = random.randint(values[low], values[high])
        return values

    async def loop(self, deadline: float) -> None:
        while time.monotonic() < deadline:
            started = time.perf_counter()
            await self.transaction(self._draw())
            self.latencies.append(time.perf_counter() - started)

    async def transaction(self, values: dict[str, Any]) -> None:
        raise NotImplementedError

    async def close(self) -> None:
        raise NotImplementedError


class _AsyncpgClient(_Client):
    def __init__(
        self, steps: list[Step], bounds: dict[str, int], think: float = 0.0
    ) -> None:
        super().__init__(steps, bounds)
        # CPU seconds burnt after each statement (bench.client_pace): the application code a
        # real client runs between its statements, without any application.
        self.think = think

    async def open(self) -> None:
        import asyncpg

        self.connection = await asyncpg.connect(PG_URL)
        self.prepared = await self._learn_types(self.connection)

    async def transaction(self, values: dict[str, Any]) -> None:
        for statement in self.statements:  # BEGIN and COMMIT are in the script
            row = await self.prepared[statement.sql].fetchrow(
                *self._args(statement, values)
            )
            if statement.gset and row is not None:
                values.update({statement.prefix + k: v for k, v in row.items()})
            if self.think:
                until = time.thread_time() + self.think
                while time.thread_time() < until:
                    pass

    async def close(self) -> None:
        await self.connection.close()


class _SqlalchemyClient(_Client):
    async def open(self, engine: Any) -> None:
        from sqlalchemy import text

        self.connection = await engine.connect()
        raw = (await self.connection.get_raw_connection()).driver_connection
        await self._learn_types(raw)
        # BEGIN and COMMIT are the connection's begin(); the others prebuilt text() statements,
        # as Pao prebuilds its Core ones (SQLAlchemy compiles each once and caches its result
        # metadata; exec_driver_sql would build that anew on every call).
        self.body = [s for s in self.statements if not s.transaction_control]
        self.text = {s.sql: text(s.source) for s in self.body}

    async def transaction(self, values: dict[str, Any]) -> None:
        async with self.connection.begin():
            for statement in self.body:
                params = dict(
                    zip(statement.names, self._args(statement, values), strict=True)
                )
                result = await self.connection.execute(self.text[statement.sql], params)
                row = result.first() if result.returns_rows else None
                if statement.gset and row is not None:
                    values.update(
                        {statement.prefix + k: v for k, v in row._mapping.items()}
                    )

    async def close(self) -> None:
        await self.connection.close()


async def _worker(
    level: str,
    script: Path,
    lo: int,
    hi: int,
    clients: int,
    seconds: float,
    think: float = 0.0,
) -> None:
    steps = parse(script)
    bounds = {"lo": lo, "hi": hi}
    engine = None
    runners: list[_Client]
    if level == "asyncpg":
        direct = [_AsyncpgClient(steps, bounds, think) for _ in range(clients)]
        await asyncio.gather(*(client.open() for client in direct))
        runners = list(direct)
    else:
        from sqlalchemy.ext.asyncio import create_async_engine

        engine = create_async_engine(
            PG_URL.replace("postgresql://", "postgresql+asyncpg://", 1),
            pool_size=clients,
        )
        layered = [_SqlalchemyClient(steps, bounds) for _ in range(clients)]
        await asyncio.gather(*(client.open(engine) for client in layered))
        runners = list(layered)
    deadline = time.monotonic() + seconds
    await asyncio.gather(*(r.loop(deadline) for r in runners))
    await asyncio.gather(*(r.close() for r in runners))
    if engine is not None:
        await engine.dispose()
    latencies = [x for r in runners for x in r.latencies]
    print(json.dumps({"transactions": len(latencies), "latencies": latencies}))


def run(
    level: str,
    script: str,
    *,
    lo: int,
    hi: int,
    clients: int,
    duration: float,
    workers: int = 2,
    think_us: int = 0,
) -> Sample:
    """Run ``bench/sql/<script>`` at ``level`` for ``duration`` seconds; transactions/s and
    per-transaction latency (ms), as pgbench reports them. ``think_us``: CPU microseconds the
    asyncpg client burns after each statement."""
    per_worker = [
        clients // workers + (1 if i < clients % workers else 0) for i in range(workers)
    ]
    procs = [
        subprocess.Popen(
            [
                python_cmd(),
                "-m",
                "bench.driver",
                level,
                script,
                str(lo),
                str(hi),
                str(n),
                str(duration),
                str(think_us),
            ],
            cwd=REPO,
            stdout=subprocess.PIPE,
            text=True,
        )
        for n in per_worker
    ]
    outputs = [proc.communicate(timeout=duration + 60)[0] for proc in procs]
    if any(proc.returncode for proc in procs):
        raise RuntimeError(f"bench.driver {level} failed")
    results = [json.loads(out.strip().splitlines()[-1]) for out in outputs]
    latencies = sorted(ms * 1000 for r in results for ms in r["latencies"])
    total = sum(r["transactions"] for r in results)
    return Sample(
        rate=total / duration,
        p50_ms=statistics.median(latencies) if latencies else None,
        p99_ms=latencies[int(0.99 * (len(latencies) - 1))] if latencies else None,
        count=total,
    )


if __name__ == "__main__":
    level, script, lo, hi, clients, seconds, think_us = sys.argv[1:8]
    if level not in LEVELS:
        raise SystemExit(f"level must be one of {LEVELS}")
    import uvloop

    uvloop.run(
        _worker(
            level,
            BENCH_DIR / "sql" / script,
            int(lo),
            int(hi),
            int(clients),
            float(seconds),
            int(think_us) / 1e6,
        )
    )
