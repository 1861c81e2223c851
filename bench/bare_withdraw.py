"""What the framework costs a withdrawal: the same withdrawal as ``POST /api/wallet/withdraw``
served by a bare ASGI handler (bench only, never in production).

Issue 19's proposal is to serve the money paths from bare ASGI handlers; this measures what
that would save before anyone builds it. :class:`BareWithdraw` answers
``POST /bench/bare-withdraw`` in front of the app: it reads the body and the two headers
itself, then runs **the route's own code** — ``pao.wallet.router._withdraw`` with a session of
the app's sessionmaker (the login, the idempotency key, the gate, the hold, the withdrawal, the
statement line: one statement on PostgreSQL; the domain event), the commit — and writes the answer
as JSON. What it leaves out is exactly the framework: Pao's middleware stack, Starlette's
routing, FastAPI's dependency solving and its validation of the answer against the response
model. Same statements, same transaction, same money rules.

``python -m bench.cpu withdraw`` and ``python -m bench.cpu bare-withdraw`` (on the seeded bench
database) give the CPU per request of each, through the same in-process client.
"""

from __future__ import annotations

import json
from typing import Any

from fastapi.security import HTTPAuthorizationCredentials
from pao.core.errors import AppError
from pao.wallet.router import _withdraw
from pao.wallet.schemas import WithdrawRequest
from pydantic import ValidationError
from starlette.types import ASGIApp, Receive, Scope, Send

from bench.bare_common import read_body

PATH = "/bench/bare-withdraw"


class BareWithdraw:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] != PATH:
            await self.app(scope, receive, send)
            return
        body = await read_body(receive)
        headers = dict(scope["headers"])
        status, answer = await self._answer(
            body,
            headers.get(b"authorization", b"").decode(),
            headers.get(b"idempotency-key"),
        )
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [(b"content-type", b"application/json")],
            }
        )
        await send({"type": "http.response.body", "body": json.dumps(answer).encode()})

    async def _answer(self, body: bytes, authorization: str, key: bytes | None) -> tuple[int, Any]:
        scheme, _, token = authorization.partition(" ")
        credentials = (
            HTTPAuthorizationCredentials(scheme=scheme, credentials=token) if token else None
        )
        try:
            request = WithdrawRequest.model_validate_json(body)
        except ValidationError:
            return 422, {"message": "INVALID_BODY"}
        sessionmaker = self.app.state.sessionmaker  # type: ignore[attr-defined]
        engine = self.app.state.engine  # type: ignore[attr-defined]
        async with sessionmaker() as session:
            try:
                answer = await _withdraw(
                    engine, session, credentials, request, key.decode() if key else None
                )
            except AppError as error:
                # As pao.core.uow: a counted failure keeps its changes, any other rolls back.
                if error.keeps_changes:
                    await session.commit()
                return error.status_code, error.body()
            await session.commit()
        return 200, answer
