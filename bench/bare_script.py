"""A money path's database work served bare (bench only, never in production): ``POST
/bench/bare-script/withdraw`` and ``/transfer`` run **the path's own pgbench script**
(``bench/sql/withdraw.sql``, ``transfer.sql``: the statements the app sends, in its order and
transactions, which ``bench.sqlcheck`` holds equal to the app's) on raw asyncpg, in front of the
app, in the same worker processes.

What the handler does is what any server must for the request: read the body and parse its
JSON, take the member from ``Authorization: Bearer bench-token-<i>`` (the script finds the
session by the token's digest, as the app does), require an ``Idempotency-Key``, run the
statements, write a JSON answer. No FastAPI, no SQLAlchemy, no pydantic, no middleware, no
money rules between the statements (the scripts' own SQL carries them, as it does for pgbench).
Issue 36 compares Pao's CPU per request with this one's (target ≤ 2×).
"""

from __future__ import annotations

import json
from typing import Any

from starlette.types import ASGIApp, Receive, Scope, Send

from bench.bare_common import Connections, Runner, read_body
from bench.common import BENCH_DIR
from bench.driver import Statement, parse

PREFIX = "/bench/bare-script/"
SCRIPTS = ("withdraw", "transfer")
_TOKEN = b"Bearer bench-token-"


def _statements(name: str) -> list[Statement]:
    return [
        s for s in parse(BENCH_DIR / "sql" / f"{name}.sql") if isinstance(s, Statement)
    ]


class BareScript:
    def __init__(self, app: ASGIApp, dsn: str, pool_size: int) -> None:
        self.app = app
        self.scripts = {name: _statements(name) for name in SCRIPTS}
        self.connections = Connections(dsn, pool_size)
        self.runner = Runner()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        name = scope["path"][len(PREFIX) :] if scope["type"] == "http" else ""
        if not scope["path"].startswith(PREFIX) or name not in self.scripts:
            await self.app(scope, receive, send)
            return
        status, payload = await self._answer(
            name, await read_body(receive), scope["headers"]
        )
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(payload)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": payload})

    async def _answer(
        self, name: str, body: bytes, headers: list[tuple[bytes, bytes]]
    ) -> tuple[int, bytes]:
        given = dict(headers)
        token = given.get(b"authorization", b"")
        try:
            request = json.loads(body)
            member = int(token[len(_TOKEN) :]) if token.startswith(_TOKEN) else None
        except ValueError:
            return 422, b'{"message":"BODY_INVALID"}'
        if member is None:
            return 401, b'{"message":"UNAUTHORIZED"}'
        if not given.get(b"idempotency-key") or not isinstance(request, dict):
            return 422, b'{"message":"KEY_MISSING"}'
        values: dict[str, Any] = {"i": member}
        connection = await self.connections.acquire()
        try:
            for statement in self.scripts[name]:
                await self.runner.run(connection, statement, values)
        except BaseException:
            await self.connections.discard(connection)
            raise
        await self.connections.release(connection)
        answer = {
            "code": "OK",
            "status": "PENDING" if name == "withdraw" else "SUCCESS",
        }
        return 200, json.dumps(answer).encode()
