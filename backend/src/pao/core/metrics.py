"""Prometheus metrics: every signal Pao's processes count, declared in one place.

Domains import this module and touch a metric where the thing happens, e.g.::

    from pao.core import metrics

    metrics.SLIP_VERIFICATIONS.labels(outcome="SUCCESS", reason="").inc()
    with metrics.provider_call("JOKER", "transfer") as call:
        answer = await client.transfer(...)
        if answer.refused:
            call.outcome = "refused"

Label values must come from a small fixed set (an enum, a provider code, a route *template*),
never from user input: each distinct value is a new series in Prometheus.

Several worker processes (``pao serve --workers N``) share one exposition through
prometheus-client's multi-process mode: ``pao serve`` sets ``PROMETHEUS_MULTIPROC_DIR`` before
the workers start, each worker writes its values to files there, and whichever worker answers
``/metrics`` reads them all (:func:`exposition`). Gauges say how they add up across processes
(``multiprocess_mode``): ``livesum`` for "how many now" (connections, pool use), ``max`` for
timestamps. What the database knows (pending withdrawals, reconcilers' backlog) is not counted
here but read when Prometheus scrapes (:mod:`pao.observability.backlog`), so every process
reports the same truth.

ADR 0012 says why these signals and how ``/metrics`` is protected.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import httpx
from prometheus_client import (
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"

# Request latency: the API answers in milliseconds; a slip upload or a payout may take seconds.
_LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
# Third parties: a provider's transfer times out after 8 s, a payout after 10 s (settings).
_PROVIDER_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 15.0, 30.0)

# ----- HTTP (pao.observability.http) ----------------------------------------------------------
HTTP_REQUESTS = Counter(
    "pao_http_requests_total",
    "HTTP requests answered, by method, route template and status code.",
    ["method", "route", "status"],
)
HTTP_REQUEST_SECONDS = Histogram(
    "pao_http_request_duration_seconds",
    "Time from the request's arrival to the end of its answer, by method and route template.",
    ["method", "route"],
    buckets=_LATENCY_BUCKETS,
)
HTTP_IN_FLIGHT = Gauge(
    "pao_http_requests_in_flight",
    "HTTP requests being answered now.",
    multiprocess_mode="livesum",
)

# ----- database pool (pao.observability.pool) -------------------------------------------------
DB_POOL_IN_USE = Gauge(
    "pao_db_pool_connections_in_use",
    "Database connections checked out of the pool now.",
    multiprocess_mode="livesum",
)
DB_POOL_CAPACITY = Gauge(
    "pao_db_pool_connections_max",
    "Connections the pool may hand out at once (PAO_DB_POOL_SIZE + PAO_DB_MAX_OVERFLOW).",
    multiprocess_mode="livesum",
)

# ----- third parties (game providers, banks, gateways, SMS) -----------------------------------
PROVIDER_CALLS = Counter(
    "pao_provider_calls_total",
    "Calls to a third party, by provider, operation and outcome (ok, error, timeout, refused).",
    ["provider", "operation", "outcome"],
)
PROVIDER_CALL_SECONDS = Histogram(
    "pao_provider_call_duration_seconds",
    "Time a third party took to answer, by provider and operation.",
    ["provider", "operation"],
    buckets=_PROVIDER_BUCKETS,
)

# ----- deposits -------------------------------------------------------------------------------
SLIP_VERIFICATIONS = Counter(
    "pao_slip_verifications_total",
    "Slip verifications finished, by outcome (SUCCESS, FAILED, UNREACHABLE) and reason code.",
    ["outcome", "reason"],
)

# ----- chat (socket.io) -----------------------------------------------------------------------
SOCKETIO_CONNECTIONS = Gauge(
    "pao_socketio_connections",
    "socket.io connections open now, by kind (member, guest, agent, staff).",
    ["kind"],
    multiprocess_mode="livesum",
)

# ----- background jobs (pao.kit.jobs) ---------------------------------------------------------
# Labelled ``task``, not ``job``: Prometheus gives every scraped series its own ``job`` label
# (the scrape job's name) and would rename ours to ``exported_job``.
JOB_RUNS = Counter(
    "pao_job_runs_total",
    "Background job ticks, by job and outcome (ok, error).",
    ["task", "outcome"],
)
JOB_SECONDS = Histogram(
    "pao_job_duration_seconds",
    "Time one tick of a background job took.",
    ["task"],
    buckets=_LATENCY_BUCKETS,
)
JOB_LAST_SUCCESS = Gauge(
    "pao_job_last_success_timestamp_seconds",
    "Unix time of a job's last tick that did not fail (its lag is time() minus this).",
    ["task"],
    multiprocess_mode="max",
)
JOB_INTERVAL = Gauge(
    "pao_job_interval_seconds",
    "How often a job is meant to tick.",
    ["task"],
    multiprocess_mode="max",
)


@dataclass
class ProviderCall:
    """One call in progress; set ``outcome`` when the party answered with a refusal."""

    outcome: str = "ok"

    def failed(self, exc: BaseException) -> None:
        """The call raised and the caller handles it (an adapter returning "unknown")."""
        self.outcome = "timeout" if isinstance(exc, httpx.TimeoutException) else "error"

    def answered(self, status: int) -> None:
        """The party answered with this HTTP status: 5xx is an error, 4xx a refusal."""
        self.outcome = "error" if status >= 500 else "refused" if status >= 400 else "ok"


@contextmanager
def provider_call(provider: str, operation: str) -> Iterator[ProviderCall]:
    """Times a third-party call and counts its outcome: ``ok`` unless the body sets another
    one (:meth:`ProviderCall.answered`, :meth:`ProviderCall.failed`) or raises (``timeout`` for
    an httpx timeout, ``error`` for anything else)."""
    call = ProviderCall()
    started = time.perf_counter()
    try:
        yield call
    except Exception as exc:
        if call.outcome == "ok":  # unless the body already said what went wrong
            call.failed(exc)
        raise
    finally:
        PROVIDER_CALL_SECONDS.labels(provider, operation).observe(time.perf_counter() - started)
        PROVIDER_CALLS.labels(provider, operation, call.outcome).inc()


def count_provider_call(provider: str, operation: str, outcome: str, seconds: float) -> None:
    """A third-party call timed by its caller (the game providers' health tracker does)."""
    PROVIDER_CALL_SECONDS.labels(provider, operation).observe(seconds)
    PROVIDER_CALLS.labels(provider, operation, outcome).inc()


def multiprocess_dir() -> str | None:
    return os.environ.get(MULTIPROC_ENV) or None


def exposition() -> bytes:
    """This process's metrics (or, in multi-process mode, every live worker's) as text."""
    if multiprocess_dir() is None:
        return generate_latest(REGISTRY)
    registry = CollectorRegistry()
    multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
    return generate_latest(registry)


def forget_process(pid: int) -> None:
    """A worker stops: its ``livesum`` gauges (connections, pool use) no longer count."""
    if multiprocess_dir() is not None:
        multiprocess.mark_process_dead(pid)  # type: ignore[no-untyped-call]
