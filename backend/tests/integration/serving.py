"""A server in a process of its own, for the integration tests that need a real socket: ``pao
serve`` (or uvicorn with another factory) on a free port, with a test server's settings,
waited for until it answers and stopped at the end, its output in a log the failures show."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

# ``pao serve``, from the environment the tests run in.
PAO = str(Path(sys.executable).with_name("pao"))

# A cold start imports the whole app and runs migrations; on a loaded 2-core CI machine that
# has taken more than 10 s, so the wait is as long as the app's own startup allowance.
SERVER_START_SECONDS = 60.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def serve_environment(database_url: str, tmp_path: Path, **settings: str) -> dict[str, str]:
    """This process's environment with a test server's settings: the sandbox on, the jobs
    off, no Redis, its data in ``tmp_path`` and no SPA; ``settings`` (``PAO_…``) on top."""
    env = {
        **os.environ,
        "PAO_ENV": "test",
        "PAO_SANDBOX": "1",
        "PAO_DATABASE_URL": database_url,
        "PAO_DATA_DIR": str(tmp_path / "data"),
        "PAO_STATIC_DIR": str(tmp_path / "no-spa"),
        "PAO_RUN_JOBS": "0",
    }
    env.pop("PAO_REDIS_URL", None)
    env.update(settings)
    return env


def wait_until_serving(
    url: str,
    proc: subprocess.Popen[bytes],
    log: Path | None = None,
    probe: str = "/healthz",
    *,
    seconds: float = SERVER_START_SECONDS,
) -> None:
    """Poll ``probe`` until it answers 200; fail early if the server died, with its ``log``
    (when the caller does not show it itself: the fuzz prints it after any failure)."""

    def shown() -> str:
        return f":\n{log.read_text()}" if log is not None else ""

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"{url} exited with {proc.returncode}{shown()}")
        try:
            if httpx.get(f"{url}{probe}", timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    raise AssertionError(f"{url} did not start in {seconds:.0f} s{shown()}")


@contextmanager
def serving(
    command: list[str],
    env: dict[str, str],
    log: Path,
    *,
    probe: str = "/healthz",
    stop_seconds: float = 10.0,
) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """The URL and process of ``command`` given ``--host 127.0.0.1 --port <free>``, once
    ``probe`` answers; terminated at the end (killed after ``stop_seconds``), its output
    (both streams) in ``log``."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [*command, "--host", "127.0.0.1", "--port", str(port)],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        wait_until_serving(url, proc, log, probe)
        yield url, proc
    finally:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=stop_seconds)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
