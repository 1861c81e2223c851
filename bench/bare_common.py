"""What the bench's bare handlers share (bench only): their connections, the request body, and
a pgbench script's statements run on one connection as pgbench runs them.

A bare handler answers in front of the app, in the same worker processes, with no framework,
no SQLAlchemy and no pydantic, so that Pao's CPU per request can be compared with what the same
database work costs from Python alone (issues 30 and 36)."""

from __future__ import annotations

import asyncio
from typing import Any

import asyncpg
from starlette.types import Receive, Send

from bench.driver import Statement

_TEXT_TYPES = {"text", "varchar", "bpchar"}


class Connections:
    """Up to ``size`` connections of the handler's own, reused as they are. Not an asyncpg
    Pool: a Pool resets each connection it takes back (a round trip per request that neither
    Pao's pool nor pgbench pays)."""

    def __init__(self, dsn: str, size: int) -> None:
        self.dsn = dsn
        self.size = size
        self.idle: list[asyncpg.Connection] = []
        self.opened = 0
        self.returned = asyncio.Condition()

    async def acquire(self) -> asyncpg.Connection:
        async with self.returned:
            while not self.idle and self.opened >= self.size:
                await self.returned.wait()
            if self.idle:
                return self.idle.pop()
            self.opened += 1
        try:
            return await asyncpg.connect(self.dsn)
        except BaseException:
            await self.forget()
            raise

    async def release(self, connection: asyncpg.Connection) -> None:
        async with self.returned:
            self.idle.append(connection)
            self.returned.notify()

    async def discard(self, connection: asyncpg.Connection) -> None:
        """Never back to the others inside a transaction (it would hold its row locks)."""
        connection.terminate()
        await self.forget()

    async def forget(self) -> None:
        async with self.returned:
            self.opened -= 1
            self.returned.notify()


async def send_json(send: Send, status: int, body: bytes) -> None:
    """An answer of ``body`` (JSON already), with its length: all a bare handler writes."""
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


async def read_body(receive: Receive) -> bytes:
    body = b""
    more = True
    while more:
        message = await receive()
        body += message.get("body", b"")
        more = message.get("more_body", False)
    return body


class Runner:
    """Runs a script's statements on a connection, each prepared once per connection (asyncpg's
    statement cache), every value passed as the type its place expects (pgbench passes text)."""

    def __init__(self) -> None:
        self.types: dict[str, list[str]] = {}

    async def _types(self, connection: Any, statement: Statement) -> list[str]:
        types = self.types.get(statement.sql)
        if types is None:
            prepared = await connection.prepare(statement.sql)
            types = self.types[statement.sql] = [
                t.name for t in prepared.get_parameters()
            ]
        return types

    async def run(
        self, connection: Any, statement: Statement, values: dict[str, Any]
    ) -> list[Any]:
        """The statement's rows; a ``\\gset`` statement's first row joins ``values``."""
        args = [
            str(values[name]) if kind in _TEXT_TYPES else values[name]
            for name, kind in zip(
                statement.names, await self._types(connection, statement), strict=True
            )
        ]
        rows: list[Any] = await connection.fetch(statement.sql, *args)
        if statement.gset and rows:
            values.update({statement.prefix + k: v for k, v in rows[0].items()})
        return rows
