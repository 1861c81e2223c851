"""SIGTERM to a serving process: the request in flight finishes, new ones are refused, and
/readyz stops answering 200 — over real sockets, with uvicorn's own signal handling."""

from __future__ import annotations

import asyncio
import os
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
from tests.integration.test_chat_socket import SERVER_START_SECONDS, free_port


def _wait_ready(url: str, proc: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + SERVER_START_SECONDS
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"exited with {proc.returncode}:\n{log.read_text()}")
        try:
            if httpx.get(f"{url}/readyz", timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    raise AssertionError(f"not ready in {SERVER_START_SECONDS:.0f} s:\n{log.read_text()}")


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
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = {
        **os.environ,
        "PAO_DATABASE_URL": db,
        "PAO_DATA_DIR": str(tmp_path / "data"),
        "PAO_SANDBOX": "1",
        "PAO_ENV": "test",
        "PAO_STATIC_DIR": str(tmp_path / "no-spa"),
        "PAO_TEST_GATE_DIR": str(gate),
    }
    env.pop("PAO_REDIS_URL", None)
    log = tmp_path / "server.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [
                sys.executable, "-m", "uvicorn", "tests.integration.slow_app:create_slow_app",
                "--factory", "--host", "127.0.0.1", "--port", str(port),
                "--timeout-graceful-shutdown", "20", "--log-level", "warning",
            ],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )  # fmt: skip
    try:
        _wait_ready(url, proc, log)
        yield url, proc, gate, log
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


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
