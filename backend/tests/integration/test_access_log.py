"""Secrets in URLs never reach a log line (pao.core.logging): the spec's auto-login paths carry
the game password, the sandbox game page its session token.

The first test runs ``pao serve`` as a deployment does and reads uvicorn's own access log; the
others check the redaction and the error log in process.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy.ext.asyncio import create_async_engine

from pao.core.logging import redact_path, register_secret_routes
from pao.core.settings import Settings
from pao.main import create_app

from ..conftest import build_schema
from .serving import PAO, serve_environment, serving

PASSWORD = "hunter2-Gam3pw"
TOKEN = "sess-9f8e7d6c5b4a"


def test_the_access_log_of_pao_serve_never_shows_a_password(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'pao.db'}"

    async def prepare() -> None:
        engine = create_async_engine(url)
        await build_schema(engine)
        await engine.dispose()

    asyncio.run(prepare())
    log_file = tmp_path / "serve.log"
    env = serve_environment(url, tmp_path)
    # Stopped gracefully, not killed: its output is flushed as it exits.
    with serving([PAO, "serve"], env, log_file, stop_seconds=30) as (base, _proc):
        paths = [
            f"/api/autoLogin/imi/alice/{PASSWORD}",
            f"/api/autoLogin/pgslot/bob/{PASSWORD}?token={TOKEN}&lang=th",
            f"/sandbox/games/play/{TOKEN}",
            "/api/autoLogin/pg/carol",
        ]
        statuses = [httpx.get(base + path).status_code for path in paths]
        assert statuses == [401, 401, 401, 401]
    log = log_file.read_text()
    assert '"GET /api/autoLogin/imi/alice/*** HTTP/1.1" 401' in log
    assert '"GET /api/autoLogin/pgslot/bob/***?token=***&lang=th HTTP/1.1" 401' in log
    assert '"GET /sandbox/games/play/*** HTTP/1.1" 401' in log
    # A path without a secret is logged as it is.
    assert '"GET /api/autoLogin/pg/carol HTTP/1.1" 401' in log
    assert PASSWORD not in log
    assert TOKEN not in log


def test_redact_path() -> None:
    register_secret_routes(
        ["/api/autoLogin/imi/{username}/{password}", "/x/{token}/y/{newPassword:path}"]
    )
    assert redact_path("/api/autoLogin/imi/u1/p%40ss") == "/api/autoLogin/imi/u1/***"
    assert redact_path("/x/abc/y/d/e") == "/x/***/y/***"
    assert redact_path("/api/wallet?page=2") == "/api/wallet?page=2"
    assert redact_path("/api/a?password=x&access_token=y&n=1") == (
        "/api/a?password=***&access_token=***&n=1"
    )
    # What staff search for (a member's phone, account, name) is personal: masked too.
    assert redact_path("/api/backoffice/members?q=0812345678&page=1&phone=0899") == (
        "/api/backoffice/members?q=***&page=1&phone=***"
    )
    assert redact_path("/api/backoffice/withdrawals?status=PENDING&member=0812&account=123") == (
        "/api/backoffice/withdrawals?status=PENDING&member=***&account=***"
    )
    # Not the route's shape (one segment short): nothing to redact.
    assert redact_path("/api/autoLogin/imi/u1") == "/api/autoLogin/imi/u1"


async def test_the_error_log_shows_the_redacted_path(
    settings: Settings, capsys: pytest.CaptureFixture[str]
) -> None:
    app: FastAPI = create_app(settings)

    @app.get("/api/test-broken/{password}")
    async def broken(password: str) -> None:
        raise RuntimeError("the handler failed")

    register_secret_routes(["/api/test-broken/{password}"])
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
        response = await client.get(f"/api/test-broken/{PASSWORD}")
    assert response.status_code == 500
    assert response.json() == {"message": "INTERNAL_SERVER_ERROR"}
    logged = capsys.readouterr().err
    assert "unhandled error" in logged
    assert "/api/test-broken/***" in logged
    assert PASSWORD not in logged
