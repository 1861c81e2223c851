"""The job runner: ticks are counted and timed, a failing tick does not stop its loop, and
stopping lets a tick in progress finish (a payout waiting for the bank) within the grace."""

from __future__ import annotations

import asyncio
import time

import httpx
import pytest
from prometheus_client import REGISTRY

from pao.core import metrics
from pao.kit.jobs import JobRunner, PeriodicJob


def sample(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


async def test_ticks_are_counted_and_a_failure_does_not_stop_the_loop() -> None:
    calls = 0
    third = asyncio.Event()

    async def flaky(_app: object) -> int:
        nonlocal calls
        calls += 1
        if calls == 3:
            third.set()
        if calls == 1:
            raise RuntimeError("the bank is down")
        return 1

    errors = sample("pao_job_runs_total", task="t-flaky", outcome="error")
    runner = JobRunner(object(), [PeriodicJob("t-flaky", 0.01, flaky)])
    runner.start()
    await asyncio.wait_for(third.wait(), 5)
    await runner.stop()
    assert sample("pao_job_runs_total", task="t-flaky", outcome="error") == errors + 1
    assert sample("pao_job_runs_total", task="t-flaky", outcome="ok") >= 1
    assert sample("pao_job_last_success_timestamp_seconds", task="t-flaky") == pytest.approx(
        time.time(), abs=5
    )
    assert sample("pao_job_interval_seconds", task="t-flaky") == 0.01


async def test_stop_lets_the_tick_in_progress_finish() -> None:
    started, finished = asyncio.Event(), asyncio.Event()

    async def slow(_app: object) -> int:
        started.set()
        await asyncio.sleep(0.2)  # a third party answering
        finished.set()
        return 1

    runner = JobRunner(object(), [PeriodicJob("t-slow", 60, slow)])
    runner.start()
    await started.wait()
    await runner.stop(grace_seconds=5)
    assert finished.is_set()


async def test_stop_cancels_a_tick_past_the_grace() -> None:
    started = asyncio.Event()
    cancelled = False

    async def stuck(_app: object) -> int:
        nonlocal cancelled
        started.set()
        try:
            await asyncio.sleep(60)
        except asyncio.CancelledError:
            cancelled = True
            raise
        return 0

    runner = JobRunner(object(), [PeriodicJob("t-stuck", 60, stuck)])
    runner.start()
    await started.wait()
    await runner.stop(grace_seconds=0.05)
    assert cancelled


def test_provider_call_counts_outcomes() -> None:
    def count(outcome: str) -> float:
        return sample("pao_provider_calls_total", provider="P", operation="op", outcome=outcome)

    before = {outcome: count(outcome) for outcome in ("ok", "refused", "timeout", "error")}
    with metrics.provider_call("P", "op"):
        pass
    with metrics.provider_call("P", "op") as call:
        call.outcome = "refused"
    with pytest.raises(httpx.ReadTimeout), metrics.provider_call("P", "op"):
        raise httpx.ReadTimeout("slow")
    with pytest.raises(ValueError, match="bad answer"), metrics.provider_call("P", "op"):
        raise ValueError("bad answer")
    assert {outcome: count(outcome) - before[outcome] for outcome in before} == {
        "ok": 1,
        "refused": 1,
        "timeout": 1,
        "error": 1,
    }
    assert sample("pao_provider_call_duration_seconds_count", provider="P", operation="op") >= 4


def test_an_adapter_that_handles_the_failure_still_counts_it() -> None:
    def count(outcome: str) -> float:
        return sample("pao_provider_calls_total", provider="Q", operation="op", outcome=outcome)

    def adapter() -> None:
        with metrics.provider_call("Q", "op") as call:
            call.failed(httpx.ConnectTimeout("slow"))
            raise RuntimeError("unavailable")  # the adapter's own exception, after the timeout

    with pytest.raises(RuntimeError, match="unavailable"):
        adapter()
    with metrics.provider_call("Q", "op") as call:
        call.answered(503)
    with metrics.provider_call("Q", "op") as call:
        call.answered(422)
    assert (count("timeout"), count("error"), count("refused")) == (1, 1, 1)
