"""Round trips of the hot requests (the fixes recorded in docs/benchmarks.md stay fixed).

An authenticated call loads the member together with its login session (one statement, not
two), the pool does not ping each connection (three more round trips on asyncpg), no
dependency of the hot routes is a plain ``def`` (FastAPI would run it in its thread pool), a
withdrawal, a transfer and a slip upload send no more statements than counted in the bench,
the wallet read is one
statement (login, member, balance, invite summary and games together) without a
transaction on PostgreSQL, a seamless callback one statement without one, and the wallet's
routes are matched first."""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from fastapi.routing import APIRoute
from sqlalchemy import event

from pao.core import executor
from pao.core.db import create_engine
from pao.core.settings import Settings
from pao.core.uow import ReadRoute
from pao.games.availability import AvailabilityCache
from pao.games.catalogue import DEMO_GAMES
from pao.site import settings as site_settings
from pao.site import termination
from pao.wallet.router import reads as wallet_reads
from tests.api.test_seamless_hub88 import UNIT as HUB88_UNIT
from tests.api.test_seamless_hub88 import _player as hub88_player
from tests.api.test_slips import bank_transfer, open_slips, slip_of, upload
from tests.api.test_slips import member as slip_member
from tests.games_support import activate, funded_member, seed, transfer_headers
from tests.helpers import auth, register_and_login

# Also on SQLite (tests/databases.py): each path's statements differ per database.
pytestmark = pytest.mark.sqlite


@contextmanager
def listening(app: FastAPI, before: Any) -> Iterator[None]:
    """``before`` called with every statement SQLAlchemy sends (not those on the driver)."""
    event.listen(app.state.engine.sync_engine, "before_cursor_execute", before)
    try:
        yield
    finally:
        event.remove(app.state.engine.sync_engine, "before_cursor_execute", before)


@contextmanager
def recorded(app: FastAPI) -> Iterator[list[str]]:
    """Statements sent through SQLAlchemy and on the driver (pao.core.executor)."""
    with executor.recorded(app.state.engine) as statements:
        yield statements


async def test_authenticated_call_loads_member_with_login(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    _, token = await register_and_login(client)
    with recorded(app) as statements:
        # A CurrentMember route (the wallet read loads its member inside its own statement).
        response = await client.get("/api/account/profile", headers=auth(token))
    assert response.status_code == 200
    logins = [s for s in statements if "FROM login_sessions" in s]
    assert len(logins) == 1
    assert "JOIN members ON members.id = login_sessions.member_id" in logins[0]
    # current_member found the member in the identity map: no second lookup by id.
    assert not [s for s in statements if s.startswith("SELECT members.id") and "FROM members" in s]


@pytest.fixture
def settings_stay_cached(monkeypatch: pytest.MonkeyPatch) -> None:
    """Parsed site settings are reused for a second (pao.site.settings); make that
    independent of how fast the machine runs the test."""
    monkeypatch.setattr(site_settings, "CACHE_SECONDS", 3600.0)


@pytest.mark.usefixtures("settings_stay_cached")
async def test_withdrawal_sends_the_benchmarked_statements(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    token, _ = await funded_member(client, 1_000_00)
    # The first withdrawal opens the member's suspense account; count the second.
    for key in ("round-trips-1", "round-trips-2"):
        with recorded(app) as statements:
            response = await client.post(
                "/api/wallet/withdraw",
                json={"amount": 100},
                headers={**auth(token), "Idempotency-Key": key},
            )
        assert response.status_code == 200, response.text
    statements = [s for s in statements if not s.startswith("BEGIN")]  # SQLite's own
    verbs = [" ".join(s.split()[:3]) for s in statements]
    # On PostgreSQL the whole request is one call of pao_withdraw, run alone (ADR 0039;
    # bench/sql/withdraw.sql): the login, the key, the checks, the bonus gate, the hold and the
    # answer. On SQLite the steps: login, idempotency key, bonus gate, wallet + suspense found
    # and locked together, entry, balances, postings, hold, withdrawal, statement line, then
    # the idempotent answer, the key claimed without a savepoint. The settings were read by the
    # first withdrawal.
    if app.state.engine.dialect.name == "postgresql":
        assert len(statements) == 1, verbs
        assert "FROM pao_withdraw(" in statements[0]
    else:
        assert len(statements) == 11, verbs
        assert "ON CONFLICT" in next(s for s in statements if "INTO idempotency_keys" in s)
    assert not [s for s in statements if s.startswith(("SAVEPOINT", "RELEASE"))]


@pytest.mark.usefixtures("settings_stay_cached")
async def test_transfer_plans_and_answers_without_reading_its_transfer_again(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    """Wallet → game: the provider call is planned from transaction 1 and the answer comes
    from the settling transaction, so the transfer row is read once, under its lock (no
    transaction of its own reads it back before the provider call or after the settling;
    bench/sql/transfer.sql). The provider's availability is not read per request, and on
    PostgreSQL every statement of the request is one of the executor's prebuilt statements:
    none goes through SQLAlchemy's ORM or its cursor."""
    await seed(app)
    # Provider availability is read once a second per process (ADR 0013, amendment): not in
    # the counted transfer, however slowly the machine runs the test.
    app.state.provider_availability = AvailabilityCache(ttl=3600.0)
    token, _ = await funded_member(client, 1_000_00)
    await activate(client, token, "JOKER")
    # The first transfer opens the member's suspense account and the float's shard; count
    # the second.
    through_sqlalchemy: list[str] = []

    def before(_conn: Any, _cursor: Any, sql: str, *_args: Any) -> None:
        through_sqlalchemy.append(sql)

    for key in ("transfer-trips-1", "transfer-trips-2"):
        through_sqlalchemy.clear()
        with recorded(app) as statements, listening(app, before):
            response = await client.post(
                "/api/wallet/transfer",
                json={"from": "WALLET", "to": "JOKER", "amount": 1},
                headers=transfer_headers(token, key),
            )
        assert response.status_code == 200, response.text
        assert response.json()["transfers"][0]["status"] == "SUCCESS"
    statements = [s for s in statements if not s.startswith("BEGIN")]  # SQLite's own
    verbs = [" ".join(s.split()[:3]) for s in statements]
    assert not [s for s in statements if "provider_maintenance" in s]
    if app.state.engine.dialect.name == "postgresql":
        # bench/sql/transfer.sql: transaction 1 as one call of pao_transfer_begin, run alone
        # (the login, the key, the hold, the answer: ADR 0039); transaction 2 as one call of
        # pao_settle_transfer, which locks and reads the transfer and keeps the game balance
        # the sandbox's answer carries.
        assert len(statements) == 2, verbs
        assert "FROM pao_transfer_begin(" in statements[0]
        assert "FROM pao_settle_transfer(" in statements[1]
        assert through_sqlalchemy == []
    else:
        # The steps: 26, and the game balance the sandbox's answer carries.
        reads = [s for s in statements if s.startswith("SELECT game_transfers.")]
        assert len(reads) == 1, reads
        assert len(statements) == 27, verbs


@pytest.mark.usefixtures("settings_stay_cached")
async def test_slip_upload_sends_the_benchmarked_statements(
    app: FastAPI, client: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A credited slip (bench/sql/slip.sql): the login; transaction 1 — the key's earlier
    slip, the slip and its claim, each inserted with ON CONFLICT (no savepoint), with the
    member's currency from the login; no read of the slip before the bank is asked;
    transaction 2 — the slip locked with its member, the receiving accounts, the ledger's credit
    (on SQLite four: bank clearing and the wallet found and locked by one statement, the entry,
    the balances, the postings; on PostgreSQL one call of pao_credit_wallet, ADR 0018), the
    status change, the slip's row written once, the statement line; then DepositCredited's
    subscribers (outside the slip's code): pao.promotions' deposit record and, the wheel being
    on here (not in the bench), the member's coins; the LINE channel (on with the sandbox) looks
    the member's LINE contact up for a "deposit credited" notice. On PostgreSQL nothing goes
    through SQLAlchemy."""
    # The termination flag too is read at most once a second: not inside the counted upload,
    # however slowly the machine decodes the slip.
    monkeypatch.setattr(termination, "CACHE_SECONDS", 3600.0)
    await open_slips(client)
    token, account = await slip_member(client)
    through_sqlalchemy: list[str] = []

    def before(_conn: Any, _cursor: Any, sql: str, *_args: Any) -> None:
        through_sqlalchemy.append(sql)

    # The first deposit of a member opens the bank clearing shard it uses; count the second.
    for key in ("slip-trips-1", "slip-trips-2"):
        image = await slip_of(client, await bank_transfer(client, from_account=account))
        through_sqlalchemy.clear()
        with recorded(app) as statements, listening(app, before):
            response = await upload(client, token, image, key=key)
        assert response.json()["code"] == "SUCCESS", response.text
    statements = [s for s in statements if not s.startswith("BEGIN")]  # SQLite's own
    verbs = [" ".join(s.split()[:3]) for s in statements]
    on_postgres = app.state.engine.dialect.name == "postgresql"
    assert len(statements) == (13 if on_postgres else 16), "\n".join(verbs)
    assert not [s for s in statements if s.startswith(("SAVEPOINT", "RELEASE"))]
    assert not [s for s in statements if "FROM members" in s and "JOIN" not in s]
    for table in ("slips", "slip_claims"):
        assert "ON CONFLICT" in next(s for s in statements if f"INSERT INTO {table} " in s)
    reads = [s for s in statements if s.startswith("SELECT slips.")]
    assert len(reads) == 2, reads  # the key's earlier slip; the lock
    assert [s for s in statements if s.startswith("UPDATE slips")] == [statements[-5]]
    assert statements[-1].startswith("SELECT line_contacts.")
    ledger = [s for s in statements if "ledger_accounts" in s or "pao_credit_wallet" in s]
    if on_postgres:  # the lock, entry, balances and postings in the function's one call
        assert [s.split(" FROM ")[1].split("(")[0] for s in ledger] == ["pao_credit_wallet"]
        assert not [s for s in statements if "journal_entries" in s or "postings" in s]
        assert reads[1].endswith("FOR UPDATE OF slips")  # SQLite has no row locks
        assert through_sqlalchemy == []
    else:
        assert [" ".join(s.split()[:1]) for s in ledger] == ["SELECT", "UPDATE"], ledger


@pytest.mark.usefixtures("settings_stay_cached")
async def test_wallet_read_is_one_statement_outside_a_transaction(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    await seed(app)  # games, so that the slots are read too
    _, token = await register_and_login(client)
    await client.get("/api/wallet", headers=auth(token))  # the settings are read once
    with recorded(app) as statements:
        response = await client.get("/api/wallet", headers=auth(token))
    assert response.status_code == 200
    assert len(response.json()["slots"]) == len(DEMO_GAMES)
    statements = [s for s in statements if not s.startswith("BEGIN")]  # SQLite's own
    # Login + member with the balance and the invite summary, joined with the games and the
    # member's accounts on them.
    assert len(statements) == 1, statements
    for table in ("login_sessions", "ledger_accounts", "promo_invite_incomes", "game_accounts"):
        assert f"FROM {table}" in statements[0] or f"JOIN {table}" in statements[0], table
    assert [type(r) for r in wallet_reads.routes] == [ReadRoute]
    if app.state.engine.dialect.name == "postgresql":
        options = app.state.read_sessionmaker.kw["bind"].get_execution_options()
        assert options.get("isolation_level") == "AUTOCOMMIT"


async def test_member_of_a_bad_token_is_not_loaded(client: httpx.AsyncClient) -> None:
    response = await client.get("/api/wallet", headers=auth("not-a-token"))
    assert response.status_code == 401
    assert response.json() == {"message": "invalid-token"}


def test_pool_does_not_ping_by_default(settings: Settings) -> None:
    defaults = Settings()
    assert defaults.db_pool_pre_ping is False
    pg = Settings(database_url="postgresql+asyncpg://u@127.0.0.1:1/none", db_max_overflow=3)
    engine = create_engine(pg)
    assert engine.pool._pre_ping is False
    assert engine.pool._max_overflow == 3  # type: ignore[attr-defined]


def _runs_in_threadpool(call: Any) -> bool:
    """What FastAPI does with a dependency: a plain ``def`` goes to the thread pool."""
    if inspect.isclass(call):
        return False  # a class dependency is instantiated, cheaply, on the loop
    target = call if inspect.isfunction(call) or inspect.ismethod(call) else call.__call__
    return not (inspect.iscoroutinefunction(target) or inspect.isasyncgenfunction(target))


def _api_routes(routes: Any) -> Iterator[APIRoute]:
    for route in routes:
        if isinstance(route, APIRoute):
            yield route
        elif hasattr(route, "original_router"):  # an included router (FastAPI ≥ 0.120)
            yield from _api_routes(route.original_router.routes)


def _dependencies(dependant: Any) -> Iterator[Any]:
    for sub in dependant.dependencies:
        yield sub.call
        yield from _dependencies(sub)


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/api/wallet"),
        ("POST", "/api/wallet/withdraw"),
        ("POST", "/api/wallet/withdrawAll"),
        ("POST", "/api/login"),
    ],
)
def test_hot_routes_never_hop_to_the_threadpool(app: FastAPI, method: str, path: str) -> None:
    route = next(
        r for r in _api_routes(app.routes) if r.path == path and method in (r.methods or set())
    )
    sync = [
        getattr(call, "__name__", repr(call))
        for call in _dependencies(route.dependant)
        if _runs_in_threadpool(call)
    ]
    assert sync == []
    assert not _runs_in_threadpool(route.endpoint)


def test_money_routes_are_matched_first_and_the_callbacks_last(app: FastAPI) -> None:
    """Routes are tried one by one in order. The wallet read, asked for by every page load, and
    the member's money paths come first: none must wait behind two hundred-odd others (ADR
    0035). The aggregators' callbacks are answered in front of the routing (the fast lane),
    so theirs come after every other API route: no other request tries them on its way."""
    api_paths = [r.path for r in _api_routes(app.routes) if r.path.startswith("/api/")]
    wallet_paths = {"/api/wallet", "/api/wallet/withdraw", "/api/wallet/withdrawAll"}
    assert wallet_paths <= set(api_paths[:4]), api_paths[:6]
    # Then the other money paths a member sends often: the transfer and the slip upload.
    assert {"/api/wallet/transfer", "/api/wallet/slip"} <= set(api_paths[:6])
    callbacks = [path for path in api_paths if path.startswith(("/api/hub88/", "/api/amb/"))]
    assert {"/api/hub88/transaction/bet", "/api/hub88/transaction/win"} <= set(callbacks)
    assert api_paths[-len(callbacks) :] == callbacks, api_paths[-len(callbacks) - 2 :]


async def test_a_seamless_spin_is_one_statement_a_call_without_a_transaction(
    app: FastAPI, client: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Hub88 bet and its win (a spin): on PostgreSQL the bet's token-and-game read and one
    ``pao_seamless_call`` each, in autocommit (no BEGIN or COMMIT round trips; ADR 0033,
    bench/sql/seamless.sql); on SQLite the core's steps in a transaction."""
    player = await hub88_player(client, 100_00)
    await player.balance()  # the member's accounts on the provider: opened by a first call
    opened = await player.bet(0)
    assert opened["status"] == "RS_OK"
    transactions: list[str] = []
    postgres = app.state.engine.dialect.name == "postgresql"
    if postgres:
        adapter = type(await _raw_connection(app))
        start = adapter._start_transaction

        async def counting(self: Any) -> None:
            if self.isolation_level != "autocommit":
                transactions.append(self.isolation_level)
            await start(self)

        monkeypatch.setattr(adapter, "_start_transaction", counting)
    body = player.txn(10)
    with recorded(app) as statements:
        bet = await player.call("/transaction/bet", body)
        win = await player.win(body, 25)
    assert (bet["status"], win["status"]) == ("RS_OK", "RS_OK")
    assert win["balance"] == (100_00 - 10 + 25) * HUB88_UNIT  # satang, in Hub88's unit
    statements = [s for s in statements if not s.startswith("BEGIN")]  # SQLite's own
    if postgres:
        assert len(statements) == 3, statements
        assert "FROM seamless_sessions" in statements[0]
        assert all("FROM pao_seamless_call(" in s for s in statements[1:])
        assert transactions == []
    else:
        assert len(statements) > 10


async def _raw_connection(app: FastAPI) -> Any:
    async with app.state.engine.connect() as connection:
        return (await connection.get_raw_connection()).dbapi_connection
