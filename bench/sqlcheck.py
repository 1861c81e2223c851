"""Keeps bench/sql/withdraw.sql honest: one withdrawal through the app in-process, on the bench
database, with every statement recorded, compared with the statements of the pgbench script.
A difference (someone added a query to the withdrawal path) is printed and reported."""

from __future__ import annotations

import asyncio
import os
import re
import uuid
from typing import Any

import httpx
from asgi_lifespan import LifespanManager

from bench.common import BENCH_DIR, app_env, log

_TABLE = re.compile(r"\b(?:FROM|INTO|UPDATE)\s+([a-z_]+)", re.IGNORECASE)


def _shape(statement: str) -> str:
    words = statement.split()
    verb = words[0].rstrip(";").upper() if words else "?"
    if verb in {"SAVEPOINT", "RELEASE", "BEGIN", "COMMIT"}:
        return verb
    table = _TABLE.search(statement)
    return f"{verb} {table.group(1) if table else '?'}"


def script_statements() -> list[str]:
    lines = (BENCH_DIR / "sql" / "withdraw.sql").read_text().splitlines()
    return [
        _shape(line)
        for line in lines
        if line.strip()
        and not line.startswith(("--", "\\"))
        and _shape(line) != "BEGIN"
        and _shape(line) != "COMMIT"
    ]


async def _app_statements() -> list[str]:
    os.environ.update(app_env())
    from pao.core.settings import Settings
    from pao.main import create_app

    app = create_app(Settings())
    from pao.core.executor import recorded

    async with LifespanManager(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(
            transport=transport, base_url="http://bench"
        ) as client:
            # Warm up first: the termination flag is read at most once a second, not per call.
            await client.get(
                "/api/wallet", headers={"Authorization": "Bearer bench-token-1"}
            )
            with recorded(app.state.engine) as sent:
                answer = await client.post(
                    "/api/wallet/withdraw",
                    json={"amount": 1},
                    headers={
                        "Authorization": "Bearer bench-token-1",
                        "Idempotency-Key": f"sqlcheck-{uuid.uuid4()}",
                    },
                )
    if answer.status_code != 200:
        raise RuntimeError(
            f"sqlcheck withdrawal answered {answer.status_code}: {answer.text}"
        )
    return [_shape(statement) for statement in sent]


def check() -> dict[str, Any]:
    app = asyncio.run(_app_statements())
    script = script_statements()
    same = app == script
    if same:
        log(f"withdraw.sql matches the app's withdrawal: {len(app)} statements")
    else:
        log("WARNING: bench/sql/withdraw.sql differs from the app's withdrawal path:")
        log(f"  app:    {app}")
        log(f"  script: {script}")
    return {"same": same, "app": app, "script": script}
