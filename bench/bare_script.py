"""A money path's database work served bare (bench only, never in production): ``POST
/bench/bare-script/withdraw``, ``/transfer`` (wallet → game), ``/transfer_out`` (game →
wallet) and ``/slip`` run **the path's own pgbench script** (``bench/sql/withdraw.sql``,
``transfer.sql``, ``transfer_out.sql``, ``slip.sql``: the statements the app sends, in its
order and transactions, which ``bench.sqlcheck`` holds equal to the app's) on raw asyncpg, in
front of the app, in the same worker processes.

What the handler does is what any server must for the request: read the body and parse its
JSON, take the member from ``Authorization: Bearer bench-token-<i>`` (the script finds the
session by the token's digest, as the app does), require an ``Idempotency-Key``, run the
statements, write a JSON answer. No FastAPI, no SQLAlchemy, no pydantic, no middleware, no
money rules between the statements (the scripts' own SQL carries them, as it does for pgbench).
Issue 36 compares Pao's CPU per request with this one's (target ≤ 2×).

``/slip`` takes the app's multipart upload (``POST /api/wallet/slip``) and does, before the
script, what the app does before and during its transaction 1 (``bench.bare_slip``): the image
cut out of the body, decoded and its QR read in a worker thread (Pillow and zxing-cpp, called
as Pao's decoder calls them), its SHA-256, the image written to a file. Then ``slip.sql`` —
the session lookup, transaction 1, transaction 2 — back to back: **no bank call** between the
transactions (the app asks the bank there, in the bench the in-process
``bench.app.InstantBank``: its request, answer and parsing are Pao's CPU alone), and the
script's own reference (``'PGB' || txid_current()``), not the QR's, so that the same slips can
be sent again and again.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from typing import Any

import anyio
from starlette.types import ASGIApp, Receive, Scope, Send

from bench import bare_slip
from bench.bare_common import Connections, Runner, read_body, send_json
from bench.common import BENCH_DIR, WORK_DIR
from bench.driver import Statement, parse

PREFIX = "/bench/bare-script/"
SCRIPTS = ("withdraw", "transfer", "transfer_out", "slip")
_TOKEN = b"Bearer bench-token-"
# Where the bare slip handler stores the images (the app: PAO_DATA_DIR/slips/<member>/).
SLIP_STORE = WORK_DIR / "bare-slips"


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
        self.slip_dirs: set[int] = set()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        # Anything else, the lifespan included (it has no path), is the app's: without its
        # lifespan the app would serve without its HTTP client (the slip's bank call), its jobs
        # and its frozen start-up (pao.main).
        if scope["type"] != "http" or not scope["path"].startswith(PREFIX):
            await self.app(scope, receive, send)
            return
        name = scope["path"][len(PREFIX) :]
        if name not in self.scripts:
            await self.app(scope, receive, send)
            return
        status, payload = await self._answer(
            name, await read_body(receive), scope["headers"]
        )
        await send_json(send, status, payload)

    async def _answer(
        self, name: str, body: bytes, headers: list[tuple[bytes, bytes]]
    ) -> tuple[int, bytes]:
        given = dict(headers)
        token = given.get(b"authorization", b"")
        try:
            if name == "slip":
                request = bare_slip.file_part(body, given.get(b"content-type", b""))
            else:
                request = json.loads(body)
            member = int(token[len(_TOKEN) :]) if token.startswith(_TOKEN) else None
        except ValueError:
            return 422, b'{"message":"BODY_INVALID"}'
        if member is None:
            return 401, b'{"message":"UNAUTHORIZED"}'
        if not given.get(b"idempotency-key") or not isinstance(request, dict | bytes):
            return 422, b'{"message":"KEY_MISSING"}'
        if isinstance(request, bytes) and not await self._slip(member, request):
            return 400, b'{"message":"SLIP_INVALID_FILE"}'
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
            "code": "SUCCESS" if name == "slip" else "OK",
            "status": "PENDING" if name == "withdraw" else "SUCCESS",
        }
        return 200, json.dumps(answer).encode()

    async def _slip(self, member: int, data: bytes) -> bool:
        """The image decoded and its QR read (a worker thread), hashed and stored, as the app
        does before and in its transaction 1; False when it is no slip."""
        if await anyio.to_thread.run_sync(bare_slip.decode, data) is None:
            return False
        digest = hashlib.sha256(data).hexdigest()
        folder = anyio.Path(SLIP_STORE / str(member))
        if member not in self.slip_dirs:
            await folder.mkdir(parents=True, exist_ok=True)
            self.slip_dirs.add(member)
        await (folder / f"{digest[:16]}-{secrets.token_hex(16)}.png").write_bytes(data)
        return True
