"""What the framework and Pao's own code cost a seamless callback: Hub88's bet and win served by
a bare ASGI handler on raw asyncpg (bench only, never in production).

``POST /bench/bare-hub88/transaction/bet`` and ``/win`` are answered in front of the bench app,
in the same worker processes and on the same event loop: the raw body read, ``X-Hub88-Signature``
verified over it exactly as Pao verifies it (RSA PKCS#1 v1.5, SHA-256, the same public key, the
same ``cryptography`` call), the JSON parsed, and **the statements of bench/sql/seamless.sql**
(the pair's own, which ``bench.sqlcheck`` holds equal to what Pao sends: the bet's token read,
then one ``pao_seamless_call`` a call, in autocommit), each prepared once per connection, then
the answer written as Hub88's JSON. No FastAPI, no SQLAlchemy, no pydantic, no middleware.

The script's amounts are fixed (1 THB bets, 0.90 THB wins), as pgbench runs it; a body with
another amount is refused (``RS_ERROR_WRONG_TYPES``): the bare handler does the bench's calls,
not Hub88's whole contract. It checks what the money needs — the token is the member's and
unexpired, the game known; the function decides the rest (the id new, the wallet covers the
stake, the win's bet exists) — and answers ``RS_OK`` with the balance.
"""

from __future__ import annotations

import base64
import binascii
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding
from cryptography.hazmat.primitives.asymmetric.rsa import RSAPublicKey
from starlette.types import ASGIApp, Receive, Scope, Send

from pao.games.seamless.calls import Status
from pao.games.seamless.hub88 import wire

from bench.bare_common import Connections, Runner, read_body
from bench.driver import Statement, parse_text

PREFIX = "/bench/bare-hub88/transaction/"
SCRIPT = Path(__file__).resolve().parent / "sql" / "seamless.sql"
WIN_MARK = "-- ===== win ====="


def _sections() -> tuple[list[Statement], list[Statement]]:
    """The script's bet statements and its win statements, as pgbench reads them; its
    ``\\set`` lines are pgbench's own draws (here the body's ids)."""
    text = "\n".join(
        line for line in SCRIPT.read_text().splitlines() if not line.startswith("\\set")
    )
    bet, _, win = text.partition(WIN_MARK)
    return (
        [s for s in parse_text(bet) if isinstance(s, Statement)],
        [s for s in parse_text(win) if isinstance(s, Statement)],
    )


def _answer(call: dict[str, Any], status: str, balance: int | None = None) -> bytes:
    body: dict[str, Any] = {
        "user": call.get("user"),
        "status": status,
        "request_uuid": call.get("request_uuid"),
    }
    if balance is not None:
        body["currency"] = "THB"
        body["balance"] = balance * 1000
    return json.dumps(body).encode()


class _Refused(Exception):
    def __init__(self, status: str) -> None:
        self.status = status


class BareSeamless:
    def __init__(
        self, app: ASGIApp, dsn: str, pool_size: int, public_key: RSAPublicKey
    ) -> None:
        self.app = app
        self.key = public_key  # Hub88's, the very key object Pao verifies with
        self.bet, self.win = _sections()
        self.connections = Connections(dsn, pool_size)
        self.runner = Runner()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not scope["path"].startswith(PREFIX):
            await self.app(scope, receive, send)
            return
        body = await read_body(receive)
        signature = next(
            (value for name, value in scope["headers"] if name == b"x-hub88-signature"),
            b"",
        )
        payload = await self._call(scope["path"][len(PREFIX) :], body, signature)
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(payload)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": payload})

    def _verified(self, body: bytes, header: bytes) -> bool:
        if not header or len(header) > 1024:
            return False
        try:
            self.key.verify(
                base64.b64decode(header, validate=True),
                body,
                padding.PKCS1v15(),
                hashes.SHA256(),
            )
        except (InvalidSignature, binascii.Error, ValueError):
            return False
        return True

    async def _call(self, kind: str, body: bytes, signature: bytes) -> bytes:
        if not self._verified(body, signature):
            return _answer({}, "RS_ERROR_INVALID_SIGNATURE")
        try:
            call = json.loads(body)
            member = int(call["user"][1:])
            n = int(call["transaction_uuid"][1:])
            amount = call["amount"]
        except (ValueError, KeyError, TypeError):
            return _answer({}, "RS_ERROR_WRONG_SYNTAX")
        if kind not in ("bet", "win") or amount != (
            100_000 if kind == "bet" else 90_000
        ):
            return _answer(call, "RS_ERROR_WRONG_TYPES")
        values: dict[str, Any] = {"i": member, "n": n}
        connection = await self.connections.acquire()
        try:
            balance = await self._run(
                connection, self.bet if kind == "bet" else self.win, kind, call, values
            )
        except _Refused as refused:
            # Nothing to roll back: each statement ran in autocommit, and a refusal wrote nothing.
            await self.connections.release(connection)
            return _answer(call, refused.status)
        except BaseException:
            await self.connections.discard(connection)
            raise
        await self.connections.release(connection)
        return _answer(call, "RS_OK", balance)

    async def _run(
        self,
        connection: Any,
        statements: list[Statement],
        kind: str,
        call: dict[str, Any],
        values: dict[str, Any],
    ) -> int:
        """The section's statements in order, with the checks the money needs between them;
        the wallet's balance after the call."""
        balance = 0
        for statement in statements:
            rows = await self.runner.run(connection, statement, values)
            sql = statement.sql
            if "FROM seamless_sessions" in sql:
                token = rows[0] if rows else None
                # The script reads member i's token; Pao reads the one the call names.
                if (
                    token is None
                    or call.get("token") != f"bench-hub88-{values['i']}"
                    or token["member_id"] != values["i"]
                    or token["provider"] != "hub88"
                    or token["expires_at"] <= datetime.now(UTC)
                ):
                    raise _Refused("RS_ERROR_INVALID_TOKEN")
                if not token["known_game"]:
                    raise _Refused("RS_ERROR_INVALID_GAME")
            elif "FROM pao_seamless_call(" in sql:
                outcome = rows[0]
                if outcome["outcome"] != "ok" or outcome["replayed"]:
                    # Pao's own mapping of the function's statuses to Hub88's codes; a replay
                    # is a duplicate here (the bench never sends a call twice).
                    status = Status(outcome["outcome"])
                    raise _Refused(
                        wire.STATUS[Status.DUPLICATE if status is Status.OK else status]
                    )
                balance = outcome["balance_after"]
        return balance
