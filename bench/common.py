"""Shared plumbing: configuration, subprocesses, the bench server, interleaved rounds."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench import cpu_share

REPO = Path(__file__).resolve().parents[1]
VENV_BIN = REPO / ".venv" / "bin"
BENCH_DIR = REPO / "bench"
WORK_DIR = Path(os.environ.get("PAO_BENCH_WORK_DIR", "/tmp/pao-bench"))

# libpq URL of the bench database (dropped and re-created by every run: never point it at data
# you care about). The app reaches the same database through asyncpg.
PG_URL = os.environ.get(
    "PAO_BENCH_PG_URL", "postgresql://postgres@127.0.0.1:5432/pao_bench"
)
APP_DB_URL = PG_URL.replace("postgresql://", "postgresql+asyncpg://", 1)
REDIS_URL = os.environ.get("PAO_BENCH_REDIS_URL", "redis://127.0.0.1:6379/12")
HOST = "127.0.0.1"
# A worker imports the whole app before it answers: tens of seconds on a loaded 2-core machine.
START_SECONDS = 180
# QUICK=1 shortens every phase (a smoke run of the harness, figures not meant to be quoted).
QUICK = os.environ.get("PAO_BENCH_QUICK") == "1"
# Hub88's published demo key pair (the sandbox's): the bench signs callbacks as Hub88 with it.
HUB88_KEYS = REPO / "backend" / "src" / "pao" / "sandbox" / "hub88"
HUB88_PUBLIC_KEY = HUB88_KEYS / "demo_public.pem"
HUB88_PRIVATE_KEY = HUB88_KEYS / "demo_private.pem"


def seconds(full: float) -> float:
    return max(2.0, full / 4) if QUICK else full


def rounds(full: int) -> int:
    return 1 if QUICK else full


def log(message: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] {message}", flush=True)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def app_env(**extra: str) -> dict[str, str]:
    """The environment of a production Pao process on the bench database."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith("PAO_") or key.startswith("PAO_BENCH")
    }
    env.update(
        PAO_ENV="production",
        PAO_DATABASE_URL=APP_DB_URL,
        PAO_REDIS_URL=REDIS_URL,
        PAO_SANDBOX="0",
        PAO_RUN_JOBS="0",
        PAO_DATA_DIR=str(WORK_DIR / "data"),
        PAO_STATIC_DIR=str(WORK_DIR / "no-spa"),
        # Sized to the load (32 clients over 2 workers) so that no connection is opened and
        # closed per request, and bounded (the machine's PostgreSQL allows 100 connections,
        # shared with pgbench and anyone else): the deployment's tuning, not a code default.
        PAO_DB_POOL_SIZE="16",
        PAO_DB_MAX_OVERFLOW="0",
        # The bank's slip verification, answered in process by bench.app.InstantBank.
        PAO_SLIP_VERIFY_URL="http://bank.bench.invalid/slips",
        # Hub88 on (the seamless bench's callbacks), with its published demo key pair: the
        # bench signs as Hub88 with the private half (bench.seamless). Never a real key.
        PAO_HUB88_OPERATOR_ID="1",
        PAO_HUB88_PUBLIC_KEY=str(HUB88_PUBLIC_KEY),
        PAO_HUB88_PRIVATE_KEY=str(HUB88_PRIVATE_KEY),
    )
    # Production refuses to start without its third parties' secrets: give it bench-only ones
    # (nothing in the bench calls a third party).
    from pao.core.settings import THIRD_PARTY_SECRETS

    for name in THIRD_PARTY_SECRETS:
        env.setdefault(f"PAO_{name.upper()}", "bench-only-not-a-secret")
    env.update(extra)
    return env


@dataclass
class Server:
    """A uvicorn process serving the bench app (``bench.app:create_bench_app``)."""

    workers: int = 2
    port: int = field(default_factory=free_port)
    extra_env: dict[str, str] = field(default_factory=dict)
    # An ASGI factory ("module:function") or, when it has no "()", a plain ASGI app attribute.
    app: str = "bench.app:create_bench_app"
    proc: subprocess.Popen[bytes] | None = None

    @property
    def health(self) -> str:
        return (
            "/healthz"
            if "create_bench_app" in self.app
            else "/socket.io/?EIO=4&transport=polling"
        )

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}"

    def start(self) -> Server:
        WORK_DIR.mkdir(parents=True, exist_ok=True)
        log_file = (WORK_DIR / f"server-{self.port}.log").open("wb")
        # Production shape: no access log, logs to a file (not the console), uvloop + httptools.
        self.proc = subprocess.Popen(
            [
                str(VENV_BIN / "python"),
                "-m",
                "uvicorn",
                *self._target(),
                "--host",
                HOST,
                "--port",
                str(self.port),
                "--workers",
                str(self.workers),
                "--no-access-log",
                "--log-level",
                "warning",
                "--loop",
                "uvloop",
                "--http",
                "httptools",
            ],
            cwd=REPO,
            env=app_env(**self.extra_env),
            stdout=log_file,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"bench server exited; see {log_file.name}")
            with (
                contextlib.suppress(OSError),
                urllib.request.urlopen(self.url + self.health, timeout=2) as answer,
            ):
                if answer.status == 200:
                    # Every worker must be up: give the others a moment after the first.
                    time.sleep(1.0 if self.workers > 1 else 0.2)
                    return self
            time.sleep(0.2)
        raise RuntimeError(f"bench server did not start in {START_SECONDS} s")

    def _target(self) -> list[str]:
        return (
            [self.app, "--factory"]
            if self.app.endswith("create_bench_app")
            else [self.app]
        )

    def worker_pids(self) -> list[int]:
        assert self.proc is not None
        out = subprocess.run(
            ["pgrep", "-P", str(self.proc.pid)],
            capture_output=True,
            text=True,
            check=False,
        ).stdout.split()
        children = [int(pid) for pid in out]
        # uvicorn --workers N: a supervisor plus N workers (and a resource tracker); 1: itself.
        return children if self.workers > 1 else [self.proc.pid]

    def cpu_seconds(self) -> float:
        """User + system CPU time used so far by the worker processes (robust to noise: other
        load on the machine slows a request down but does not make it cost more CPU)."""
        ticks = os.sysconf("SC_CLK_TCK")
        total = 0.0
        for pid in self.worker_pids():
            with contextlib.suppress(OSError):
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
                total += (int(fields[11]) + int(fields[12])) / ticks
        return total

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        os.killpg(self.proc.pid, signal.SIGTERM)
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()

    def __enter__(self) -> Server:
        return self.start()

    def __exit__(self, *_: object) -> None:
        self.stop()


def run(
    cmd: list[str],
    *,
    timeout: float,
    env: dict[str, str] | None = None,
    cwd: Path = REPO,
) -> str:
    """Run a load generator or tool; its stdout (it must end by itself within ``timeout``)."""
    done = subprocess.run(
        cmd,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
        cwd=cwd,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(
            f"{cmd[0]} failed ({done.returncode}): {done.stderr[-2000:]}"
        )
    return done.stdout


@dataclass
class Sample:
    """One measurement of one side: throughput and latency percentiles (ms)."""

    rate: float
    p50_ms: float | None = None
    p99_ms: float | None = None
    errors: int = 0
    extra: dict[str, Any] = field(default_factory=dict)
    count: int = 0  # transactions or requests answered (for per-transaction CPU)


@dataclass
class Comparison:
    """A measured side and its baseline over interleaved rounds (A B, A B, …)."""

    name: str
    subject: list[Sample]
    baseline: list[Sample]

    @property
    def ratios(self) -> list[float]:
        return [
            a.rate / b.rate
            for a, b in zip(self.subject, self.baseline, strict=True)
            if b.rate
        ]

    @property
    def ratio(self) -> float:
        return statistics.median(self.ratios) if self.ratios else 0.0

    @staticmethod
    def _median(values: list[float | None]) -> float | None:
        present = [v for v in values if v is not None]
        return statistics.median(present) if present else None

    def summary(self, side: str) -> dict[str, Any]:
        samples = self.subject if side == "subject" else self.baseline
        return {
            "rate": self._median([s.rate for s in samples]),
            "p50_ms": self._median([s.p50_ms for s in samples]),
            "p99_ms": self._median([s.p99_ms for s in samples]),
            "errors": sum(s.errors for s in samples),
            "cpu_ms": self._median(
                [s.extra.get("cpu_ms_per_request") for s in samples]
            ),
            **{
                side: self._median([s.extra.get(side) for s in samples])
                for side in ("db_ms", "redis_ms", "load_ms")
            },
        }


def interleave(
    name: str,
    n_rounds: int,
    subject: Callable[[], Sample],
    baseline: Callable[[], Sample],
) -> Comparison:
    """Alternate the two sides, starting with a different one each round, so that drift (other
    load on the machine, a growing table, a warming cache) falls on both alike."""
    comparison = Comparison(name, [], [])
    for index in range(n_rounds):
        order = [(subject, comparison.subject), (baseline, comparison.baseline)]
        if index % 2:
            order.reverse()
        for measure, into in order:
            before = cpu_share.read()
            sample = measure()
            sample.extra.update(
                cpu_share.per_transaction(cpu_share.read() - before, sample.count)
            )
            into.append(sample)
        log(
            f"{name} round {index + 1}/{n_rounds}: "
            f"{comparison.subject[-1].rate:.0f}/s vs {comparison.baseline[-1].rate:.0f}/s"
        )
    return comparison


@contextlib.contextmanager
def timed(label: str) -> Iterator[None]:
    start = time.monotonic()
    yield
    log(f"{label} took {time.monotonic() - start:.0f} s")


def dump(path: Path, data: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2, default=str) + "\n")


def python_cmd() -> str:
    return (
        str(VENV_BIN / "python") if (VENV_BIN / "python").exists() else sys.executable
    )


def analyze() -> None:
    """``ANALYZE`` the bench database, as autovacuum would have in production by the time its
    tables hold a warm-up's rows (the warm-ups end with it: bench.wallet, bench.seamless).

    Where autovacuum is off (this machine's PostgreSQL: ``autovacuum = off``), the tables the
    run fills (the seamless transactions and rounds, the journal, the postings) keep for the
    whole run the statistics they had before it (none: never analysed), and the plans a
    long-lived connection cached while they were near empty — the pooled connections of Pao and
    of the bare handler, not pgbench's, which connect anew each round — are never made again:
    a look-up planned for a near-empty table scans the table the run has since grown. Measured
    on 7 December 2026 (autovacuum off), in the seamless section: after the first round of
    pairs, Pao's and the bare handler's database work per pair went from 4 to 21–38 ms and
    stayed there, pgbench's 1.7 ms (new backends plan against the tables as they are).
    ANALYZE invalidates those cached plans; the next are made against tables of thousands of
    rows, where every look-up is an index scan whatever they grow to."""
    import asyncio

    import asyncpg

    async def run() -> None:
        connection = await asyncpg.connect(PG_URL)
        try:
            await connection.execute("ANALYZE")
        finally:
            await connection.close()

    asyncio.run(run())
