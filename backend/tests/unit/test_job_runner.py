"""The job runner: ticks are counted and timed, a failing tick does not stop its loop,
stopping lets a tick in progress finish (a payout waiting for the bank) within the grace, and
routine ticks are logged at debug (the report summaries every 5 s), failures as errors."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace

import httpx
import pytest
import structlog
from prometheus_client import REGISTRY

from pao.core import metrics
from pao.core.logging import configure_logging
from pao.core.settings import Settings
from pao.kit import jobs
from pao.kit.jobs import JobRunner, PeriodicJob, run_tick


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


class RecordedLog:
    """Stands in for the runner's logger: what it was told, at which level."""

    def __init__(self) -> None:
        self.lines: list[tuple[str, str, dict[str, object]]] = []

    def _at(self, level: str) -> Callable[..., None]:
        def record(event: str, **fields: object) -> None:
            self.lines.append((level, event, fields))

        return record

    def __getattr__(self, level: str) -> Callable[..., None]:
        return self._at(level)


async def _tick_logs(monkeypatch: pytest.MonkeyPatch, job: PeriodicJob) -> list[tuple[str, str]]:
    recorded = RecordedLog()
    monkeypatch.setattr(jobs, "log", recorded)
    await run_tick(object(), job)
    return [(level, event) for level, event, _ in recorded.lines]


async def test_routine_ticks_are_debug_and_the_rest_is_logged_as_before(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async def busy(_app: object) -> int:
        return 3

    async def idle(_app: object) -> int:
        return 0

    async def broken(_app: object) -> int:
        raise RuntimeError("the database is down")

    async def slow(_app: object) -> int:
        await asyncio.sleep(0.05)
        return 0

    # report-summaries under traffic: every 5 s it summarises something; debug, not info.
    assert await _tick_logs(monkeypatch, PeriodicJob("t-r", 5, busy, routine=True)) == [
        ("debug", "job ran")
    ]
    # A reconciler that settled stuck items: info, as before.
    assert await _tick_logs(monkeypatch, PeriodicJob("t-n", 5, busy)) == [("info", "job ran")]
    assert await _tick_logs(monkeypatch, PeriodicJob("t-i", 5, idle, routine=True)) == []
    assert await _tick_logs(monkeypatch, PeriodicJob("t-i", 5, idle)) == []
    # A failure stays an error, routine or not.
    assert await _tick_logs(monkeypatch, PeriodicJob("t-b", 5, broken, routine=True)) == [
        ("exception", "job failed")
    ]
    # A tick longer than the interval is falling behind: info, routine or not.
    assert await _tick_logs(monkeypatch, PeriodicJob("t-s", 0.01, slow, routine=True)) == [
        ("info", "job ran long")
    ]


def test_the_report_summaries_refresh_is_routine() -> None:
    from pao.reports.jobs import register as reports_register

    app = SimpleNamespace(state=SimpleNamespace(jobs=[]))
    reports_register(app)
    assert [(job.name, job.routine) for job in app.state.jobs] == [("report-summaries", True)]


def test_debug_lines_are_written_only_at_the_debug_level(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for level, written in (("info", False), ("debug", True)):
        configure_logging(Settings(env="test", data_dir=tmp_path, log_level=level))
        logger = structlog.get_logger(f"t-level-{level}")  # bound at first use, after configure
        logger.debug("routine tick", job="t")
        logger.info("something happened", job="t")
        err = capsys.readouterr().err
        assert "something happened" in err
        assert ("routine tick" in err) is written
    configure_logging(Settings(env="test", data_dir=tmp_path))
