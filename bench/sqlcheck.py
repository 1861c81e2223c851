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
    "transfer_out": (
        "/api/wallet/transfer",
        {"from": "JOKER", "to": "WALLET", "amount": 1},
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
    elif path == "seamless":
        return await _seamless_statements(app)
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


async def _seamless_statements(app: Any) -> list[str]:
    """A signed Hub88 bet and its win (member 1), as bench.seamless sends them."""
    from pao.core.executor import recorded
    from pao.games.seamless.hub88.signature import load_private

    from bench import seamless
    from bench.common import HUB88_PRIVATE_KEY

    key = load_private(str(HUB88_PRIVATE_KEY))
    n = 900_000_000_000_000 + uuid.uuid4().int % 10**14  # never a run's pair number
    sent: list[str] = []
    async with LifespanManager(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(
            transport=transport, base_url="http://bench"
        ) as client:
            # The first pair warms up (the termination flag is read at most once a second, not
            # per call); the second is recorded.
            for kind, body in (
                ("bet", seamless.bet_body(1, n)),
                ("win", seamless.win_body(1, n)),
                ("bet", seamless.bet_body(1, n + 1)),
                ("win", seamless.win_body(1, n + 1)),
            ):
                raw = seamless._signed("", kind, body, key)
                head, _, content = raw.partition(b"\r\n\r\n")
                signature = next(
                    line.split(b": ", 1)[1].decode()
                    for line in head.split(b"\r\n")
                    if line.startswith(b"X-Hub88-Signature")
                )
                warm = body["transaction_uuid"][1:] == str(n)
                with recorded(app.state.engine) as statements:
                    answer = await client.post(
                        f"{seamless.PAO_PREFIX}/{kind}",
                        content=content,
                        headers={"X-Hub88-Signature": signature},
                    )
                if answer.json().get("status") != "RS_OK":
                    raise RuntimeError(
                        f"sqlcheck seamless {kind} answered {answer.text}"
                    )
                if not warm:
                    sent += statements
    if os.environ.get("PAO_BENCH_SQLCHECK_PRINT"):
        for statement in sent:
            print(statement)
    return _collapsed([_shape(statement) for statement in sent])


def _collapsed(shapes: list[str]) -> list[str]:
    """Repeats in a row as one: the app sends a statement over several rows as one
    executemany (the balances, the postings), the script as one statement per row."""
    return [shape for k, shape in enumerate(shapes) if k == 0 or shapes[k - 1] != shape]


def check(path: str = "withdraw") -> dict[str, Any]:
    app = asyncio.run(_app_statements(path))
    script = script_statements(path)
    if path == "seamless":
        script = _collapsed(script)
    same = app == script
    if same:
        log(f"{path}.sql matches the app's {path}: {len(app)} statements")
    else:
        log(f"WARNING: bench/sql/{path}.sql differs from the app's {path} path:")
        log(f"  app:    {app}")
        log(f"  script: {script}")
    return {"same": same, "app": app, "script": script}
