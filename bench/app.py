"""The bench-only app: Pao's own ``create_app()`` plus a bare ASGI endpoint, in one process.

Two bare endpoints answer with one raw asyncpg query and no framework at all (no FastAPI, no
SQLAlchemy, no pydantic), in the same server process and on the same event loop as the app:

* ``GET /bench/bare-screen?token=…`` runs the wallet screen's own statement (the one
  ``GET /api/wallet`` sends, compiled once) and dumps its rows as JSON: the same database work
  without the framework, as pgbench runs the withdrawal's SQL without the app;
* ``GET /bench/bare?token=…`` reads the balance alone: the least an authenticated read can do;
* ``GET /bench/bare-health`` runs ``SELECT 1`` as ``/healthz`` does: the framework's floor.

They exist only here, never in production.

The game providers are :class:`InstantProvider`: an in-process provider that confirms every
transfer at once (no network), so that a wallet → game transfer measures Pao's own work — its
three transactions and the statements they send — not a remote provider's latency.

The bank's slip-verification API is :class:`InstantBank`: the transport of the app's HTTP client
(``app.state.http_transport``, the seam the tests use too) answers the lookups sent to
:data:`BANK_URL` in process, so that a slip upload runs Pao's whole path — the multipart body,
the image decoded and its QR read, the verifier's request and parsing, both transactions —
without a remote bank's latency. The bench's slips (``bench.slips``) carry references that
name their member, and the bank answers with that member's bank account as the sender.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from datetime import UTC, datetime
from typing import Any
from urllib.parse import parse_qs

import asyncpg
import httpx
from pao.core.settings import get_settings
from pao.games.providers.base import RemoteTransfer, RemoteTransferState
from pao.main import create_app
from starlette.types import ASGIApp, Receive, Scope, Send

from bench.bare_script import BareScript
from bench.bare_seamless import BareSeamless

BARE_PATH = "/bench/bare"
SCREEN_PATH = "/bench/bare-screen"
# The probe's work without the framework: one SELECT 1 on a pooled connection, a JSON answer.
HEALTH_PATH = "/bench/bare-health"
# The member's wallet balance by token, in one statement (what /api/wallet shows, minus the
# profile): the least work an authenticated balance read can do.
BARE_QUERY = """
SELECT a.balance FROM login_sessions s
JOIN ledger_accounts a ON a.kind = 'player_wallet' AND a.owner = s.member_id::text
 AND a.currency = 'THB'
WHERE s.token_digest = $1
"""


def _screen_statement() -> tuple[str, Any]:
    """Pao's wallet-screen statement (pao.wallet.screen), compiled once for asyncpg: its SQL
    and a function giving its positional arguments for a token digest. Built by the app's
    wiring (create_app plugs the invite summary it carries); a --before snapshot from before
    that has it as the module constant ``SCREEN``."""
    from pao.wallet import screen
    from sqlalchemy.dialects.postgresql.asyncpg import dialect

    built = getattr(screen, "screen_statement", None)
    statement = built() if built is not None else screen.SCREEN
    compiled = statement.compile(dialect=dialect())
    names = list(compiled.positiontup or [])
    fixed = [compiled.params[name] for name in names]
    at = names.index("digest")
    return str(compiled), lambda digest: [*fixed[:at], digest, *fixed[at + 1 :]]


class InstantProvider:
    """A game provider that confirms every transfer at once, in process (bench only). Only the
    calls a transfer makes are answered; anything else would be a bench bug."""

    def __init__(self, code: str) -> None:
        self.code = code

    async def deposit(
        self, *, username: str, amount: int, transfer_id: str
    ) -> RemoteTransfer:
        return RemoteTransfer(
            transfer_id=transfer_id, state=RemoteTransferState.SUCCESS
        )

    async def withdraw(
        self, *, username: str, amount: int, transfer_id: str
    ) -> RemoteTransfer:
        return RemoteTransfer(
            transfer_id=transfer_id, state=RemoteTransferState.SUCCESS
        )

    def __getattr__(self, name: str) -> Any:
        raise NotImplementedError(f"InstantProvider.{name}: not a transfer call")


def use_instant_providers(app: Any) -> None:
    app.state.game_provider_factory = InstantProvider


# Where the bench's app asks for slips (PAO_SLIP_VERIFY_URL, set by bench.common.app_env): never
# resolved, InstantBank answers it in process.
BANK_HOST = "bank.bench.invalid"
BANK_URL = f"http://{BANK_HOST}/slips"


class InstantBank(httpx.AsyncBaseTransport):
    """The bank's slip-verification API, in process (bench only): ``GET /slips/{bank}/{ref}``
    of a bench slip (``bench.slips.reference_of``) answers the transfer — 1 THB from the
    member's seeded bank account to the operator's receiving account, just now. Any other host
    goes to the network as the app's client would."""

    def __init__(self) -> None:
        self._network = httpx.AsyncHTTPTransport()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.host != BANK_HOST:
            return await self._network.handle_async_request(request)
        from bench import slips

        sending_bank, reference = request.url.path.rsplit("/", 2)[-2:]
        member = slips.member_of(reference)
        if member is None:
            return httpx.Response(404, json={"message": "no such transfer"})
        body = {
            "reference": reference,
            "sendingBank": sending_bank,
            "amount": slips.AMOUNT / 100,
            "currency": "THB",
            "transferredAt": datetime.now(UTC).isoformat(),
            "sender": {
                "bankCode": slips.MEMBER_BANK,
                "accountNo": slips.member_account(member),
                "name": "BENCH MEMBER",
            },
            "receiver": {
                "bankCode": slips.OPERATOR_BANK,
                "accountNo": slips.OPERATOR_ACCOUNT,
                "name": "PAO BENCH",
            },
        }
        return httpx.Response(200, json=body)

    async def aclose(self) -> None:
        await self._network.aclose()


def use_instant_bank(app: Any) -> None:
    app.state.http_transport = InstantBank()


class BareEndpoint:
    def __init__(self, app: ASGIApp, dsn: str, pool_size: int) -> None:
        self.app = app
        self.dsn = dsn
        self.pool_size = pool_size
        self.pool: asyncpg.Pool | None = None
        self.lock = asyncio.Lock()
        self.screen: tuple[str, Any] | None = None

    async def _pool(self) -> asyncpg.Pool:
        if self.pool is None:
            async with self.lock:
                if self.pool is None:
                    # Idle connections close within a second after its run, so that the
                    # bench never holds two full pools of connections at once.
                    self.pool = await asyncpg.create_pool(
                        self.dsn,
                        min_size=0,
                        max_size=self.pool_size,
                        max_inactive_connection_lifetime=1.0,
                    )
        return self.pool

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] not in (
            BARE_PATH,
            SCREEN_PATH,
            HEALTH_PATH,
        ):
            await self.app(scope, receive, send)
            return
        if scope["path"] == HEALTH_PATH:
            await (await self._pool()).execute("SELECT 1")
            await _send_json(send, 200, b'{"status":"ok","version":"bench"}')
            return
        query = parse_qs(scope["query_string"].decode())
        token = query.get("token", [""])[0]
        digest = hashlib.sha256(token.encode()).hexdigest()
        pool = await self._pool()
        if scope["path"] == SCREEN_PATH:
            # Compiled on first use: a --before snapshot of backend/src may not have it.
            if self.screen is None:
                self.screen = _screen_statement()
            sql, args = self.screen
            rows = await pool.fetch(sql, *args(digest))
            status = 200 if rows else 401
            payload = json.dumps([dict(row) for row in rows], default=str).encode()
        else:
            balance = await pool.fetchval(BARE_QUERY, digest)
            status = 200 if balance is not None else 401
            body: dict[str, Any] = {"wallet": {"amount": (balance or 0) / 100}}
            payload = json.dumps(body).encode()
        await _send_json(send, status, payload)


async def _send_json(send: Send, status: int, payload: bytes) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", b"application/json")],
        }
    )
    await send({"type": "http.response.body", "body": payload})


def create_bench_app() -> ASGIApp:
    settings = get_settings()
    dsn = (settings.database_url or "").replace(
        "postgresql+asyncpg://", "postgresql://", 1
    )
    app = create_app(settings)
    # Served as `pao serve` serves it (pao.main.create_served_app): start-up frozen for the gc.
    app.state.lives_as_long_as_the_process = True
    use_instant_providers(app)
    use_instant_bank(app)
    # The same pool size as the app's SQLAlchemy pool (pool_size + max_overflow).
    pool_size = settings.db_pool_size + settings.db_max_overflow
    served = BareScript(BareEndpoint(app, dsn, pool_size), dsn, pool_size)
    # Hub88's bet and win without the framework (bench.seamless compares them with Pao's);
    # a --before snapshot of backend/src from before the seamless wallet has no Hub88.
    try:
        from pao.games.seamless.hub88.keys import keys_of
    except ImportError:
        return served
    return BareSeamless(served, dsn, pool_size, keys_of(app).hub88_public)
