"""Load generators: wrk (HTTP, with bench/lua/pao.lua) and pgbench (the same SQL), each run for a
fixed time at a fixed concurrency, reduced to a :class:`~bench.common.Sample`."""

from __future__ import annotations

import glob
import json
import os
import re
import secrets
import statistics

from bench.common import BENCH_DIR, PG_URL, WORK_DIR, Sample, Server, run

LUA = BENCH_DIR / "lua" / "pao.lua"


def wrk(
    url: str,
    mode: str,
    *,
    lo: int,
    hi: int,
    connections: int,
    duration: float,
    threads: int = 2,
    server: Server | None = None,
    extra_args: tuple[str, ...] = (),
) -> Sample:
    """``server``: also measure the server's CPU milliseconds per answered request.
    ``extra_args``: the script's arguments after the nonce (the slip mode's)."""
    nonce = secrets.token_hex(6)
    cpu_before = server.cpu_seconds() if server else 0.0
    out = run(
        [
            "wrk",
            f"-t{threads}",
            f"-c{connections}",
            f"-d{max(1, round(duration))}s",
            "--timeout",
            "10s",
            "-s",
            str(LUA),
            url,
            "--",
            mode,
            str(lo),
            str(hi),
            nonce,
            *extra_args,
        ],
        timeout=duration + 60,
    )
    cpu = server.cpu_seconds() - cpu_before if server else None
    line = next(text for text in reversed(out.splitlines()) if text.startswith("{"))
    data = json.loads(line)
    seconds = data["duration_us"] / 1e6
    ok = data["requests"] - data["status_errors"]
    extra: dict[str, float] = {
        "requests": data["requests"],
        "max_counter": data.get("max_counter", 0),
    }
    if cpu is not None and data["requests"]:
        extra["cpu_ms_per_request"] = 1000 * cpu / data["requests"]
    return Sample(
        rate=ok / seconds,
        p50_ms=data["p50_us"] / 1000,
        p99_ms=data["p99_us"] / 1000,
        errors=data["errors"] + data["status_errors"],
        extra=extra,
        count=data["requests"],
    )


_TPS = re.compile(r"^tps = ([\d.]+)", re.MULTILINE)
_FAILED = re.compile(r"number of failed transactions: (\d+)")
_PROCESSED = re.compile(r"number of transactions actually processed: (\d+)")


def pgbench(
    script: str, *, lo: int, hi: int, clients: int, duration: float, threads: int = 2
) -> Sample:
    """``pgbench -M prepared`` (the app's asyncpg prepares and caches its statements too);
    latency percentiles from its per-transaction log."""
    prefix = WORK_DIR / f"pgbench-{secrets.token_hex(4)}"
    WORK_DIR.mkdir(parents=True, exist_ok=True)
    out = run(
        [
            "pgbench",
            "-n",
            "-M",
            "prepared",
            "-c",
            str(clients),
            "-j",
            str(threads),
            "-T",
            str(max(1, round(duration))),
            "-D",
            f"lo={lo}",
            "-D",
            f"hi={hi}",
            "-r",
            "-l",
            f"--log-prefix={prefix}",
            "-f",
            str(BENCH_DIR / "sql" / script),
            PG_URL,
        ],
        timeout=duration + 60,
    )
    tps = _TPS.search(out)
    if tps is None:
        raise RuntimeError(f"pgbench printed no tps:\n{out[-2000:]}")
    failed = _FAILED.search(out)
    processed = _PROCESSED.search(out)
    latencies = _statement_latencies(out)
    p50, p99 = _log_percentiles(str(prefix))
    return Sample(
        rate=float(tps.group(1)),
        p50_ms=p50,
        p99_ms=p99,
        errors=int(failed.group(1)) if failed else 0,
        extra={"latency_avg_ms": _avg_latency(out), "statements_ms": latencies},
        count=int(processed.group(1)) if processed else 0,
    )


def _avg_latency(out: str) -> float | None:
    found = re.search(r"latency average = ([\d.]+) ms", out)
    return float(found.group(1)) if found else None


def _statement_latencies(out: str) -> list[tuple[float, str]]:
    """pgbench -r: the mean latency of each statement of the script (ms)."""
    rows = []
    for line in out.splitlines():
        found = re.match(r"\s+([\d.]+)\s+\d+\s+(.*)$", line) or re.match(
            r"\s+([\d.]+)\s+(.*)$", line
        )
        if found and not found.group(2).startswith("\\"):
            rows.append((float(found.group(1)), found.group(2)[:90]))
    return rows


def _log_percentiles(prefix: str) -> tuple[float | None, float | None]:
    """p50/p99 (ms) from pgbench's per-transaction logs (3rd column: latency in µs)."""
    values: list[int] = []
    for path in glob.glob(prefix + ".*"):
        with open(path) as log_file:
            values.extend(int(line.split()[2]) for line in log_file if line.strip())
        os.unlink(path)
    if len(values) < 2:
        return None, None
    cuts = statistics.quantiles(values, n=100, method="inclusive")
    return cuts[49] / 1000, cuts[98] / 1000
