"""SIGTERM to a serving process: the request in flight finishes, new ones are refused, and
/readyz stops answering 200 — over real sockets, with uvicorn's own signal handling."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from pao.core.migrate import upgrade
from pao.core.settings import Settings
from tests.integration.serving import serve_environment, serving


def _wait_for(path: Path, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not path.exists():
        assert time.monotonic() < deadline, f"{path.name} never appeared"
        time.sleep(0.02)


@pytest.fixture
def slow_server(tmp_path: Path) -> Iterator[tuple[str, subprocess.Popen[bytes], Path, Path]]:
    """(url, process, gate dir, log) of tests.integration.slow_app served by uvicorn."""
    db = f"sqlite+aiosqlite:///{tmp_path / 'pao.db'}"
    asyncio.run(upgrade(Settings(database_url=db, data_dir=tmp_path / "data")))
    gate = tmp_path / "gate"
    gate.mkdir()
    env = serve_environment(db, tmp_path, PAO_TEST_GATE_DIR=str(gate))
    del env["PAO_RUN_JOBS"]  # the jobs run, and are stopped with the rest
    log = tmp_path / "server.log"
    uvicorn = [
        sys.executable, "-m", "uvicorn", "tests.integration.slow_app:create_slow_app",
        "--factory", "--timeout-graceful-shutdown", "20", "--log-level", "warning",
    ]  # fmt: skip
    # The test stops it (SIGTERM); killed at the end if it did not.
    with serving(uvicorn, env, log, probe="/readyz", stop_seconds=0) as (url, proc):
        yield url, proc, gate, log


async def test_sigterm_finishes_in_flight_request_and_refuses_new_ones(
    slow_server: tuple[str, subprocess.Popen[bytes], Path, Path],
) -> None:
    url, proc, gate, log = slow_server
    async with httpx.AsyncClient(base_url=url, timeout=30) as client:
        in_flight = asyncio.create_task(client.post("/api/test/slow"))
        await asyncio.to_thread(_wait_for, gate / "entered")
        proc.send_signal(signal.SIGTERM)
        # Nothing new gets in while the slow request is still running: a new connection
        # is refused (the listener is closed) or answered 503.
        await asyncio.sleep(0.5)
        assert proc.poll() is None, "the process must wait for the request in flight"
        async with httpx.AsyncClient(base_url=url, timeout=5) as newcomer:
            for path in ("/readyz", "/api/site/lookups"):
                try:
                    answer = await newcomer.get(path)
                except httpx.TransportError:
                    continue
                assert answer.status_code == 503, (path, answer.status_code)
        await asyncio.to_thread((gate / "release").touch)
        response = await in_flight
    assert response.status_code == 200
    # It finished after the signal had flipped the process to draining.
    assert response.json() == {"finished": True, "drainingWhenFinished": True}
    # uvicorn re-raises the signal once it has shut down gracefully: ended by SIGTERM.
    code = await asyncio.to_thread(proc.wait, 20)
    assert code in (0, -signal.SIGTERM), log.read_text()
    assert "Cancel" not in log.read_text()
