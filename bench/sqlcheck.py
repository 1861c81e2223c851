"""Keeps the pgbench scripts honest: one request of each benched money path through the app
in-process, on the bench database, with every statement recorded, compared with the statements
of its pgbench script (``bench/sql/<path>.sql``). A difference (someone added a query to the
path) is printed and reported."""

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


# Each benched path: its script, and the request that drives it (member 1's token).
REQUESTS: dict[str, tuple[str, dict[str, Any]]] = {
    "withdraw": ("/api/wallet/withdraw", {"amount": 1}),
    "transfer": (
        "/api/wallet/transfer",
        {"from": "WALLET", "to": "JOKER", "amount": 1},
    ),
}


def script_statements(path: str = "withdraw") -> list[str]:
    lines = (BENCH_DIR / "sql" / f"{path}.sql").read_text().splitlines()
    return [
        _shape(line)
        for line in lines
        if line.strip()
        and not line.startswith(("--", "\\"))
        # Transaction control is the driver's (SQLAlchemy's asyncpg dialect sends it without an
        # event): a session closed unused ends with a ROLLBACK.
        and _shape(line) not in ("BEGIN", "COMMIT", "ROLLBACK ?")
    ]


async def _app_statements(path: str) -> list[str]:
    os.environ.update(app_env())
    from pao.core.settings import Settings
    from pao.main import create_app

    from bench.app import use_instant_bank, use_instant_providers

    app = create_app(Settings())
    use_instant_providers(app)
    use_instant_bank(app)
    from pao.core.executor import recorded

    key = f"sqlcheck-{uuid.uuid4()}"
    if path == "slip":
        from bench import slips

        # A slip of its own, which no run sends (theirs are S0000…, this one S1…).
        reference = slips.reference_of(10_000_000 + uuid.uuid4().int % 90_000_000, 1)
        url = "/api/wallet/slip"
        request: dict[str, Any] = {
            "files": {"file": ("slip.png", slips.slip_png(reference), "image/png")}
        }
    else:
        url, body = REQUESTS[path]
        request = {"json": body}

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
                    url,
                    **request,
                    headers={
                        "Authorization": "Bearer bench-token-1",
                        "Idempotency-Key": key,
                    },
                )
            if os.environ.get("PAO_BENCH_SQLCHECK_PRINT"):
                # The full statements, to write or update a script from.
                for statement in sent:
                    print(statement)
    if answer.status_code != 200 or (
        path == "slip" and answer.json()["code"] != "SUCCESS"
    ):
        raise RuntimeError(
            f"sqlcheck {path} answered {answer.status_code}: {answer.text}"
        )
    return [_shape(statement) for statement in sent]


def check(path: str = "withdraw") -> dict[str, Any]:
    app = asyncio.run(_app_statements(path))
    script = script_statements(path)
    same = app == script
    if same:
        log(f"{path}.sql matches the app's {path}: {len(app)} statements")
    else:
        log(f"WARNING: bench/sql/{path}.sql differs from the app's {path} path:")
        log(f"  app:    {app}")
        log(f"  script: {script}")
    return {"same": same, "app": app, "script": script}
