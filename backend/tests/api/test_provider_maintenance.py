"""Providers in maintenance or down (ADR 0013), over the API on SQLite and PostgreSQL:

* a transfer to or from such a provider is refused with PROVIDER_MAINTENANCE /
  PROVIDER_UNAVAILABLE before anything is written (no hold, no transfer row, no key record, no
  provider call), also under many simultaneous requests; the same key goes through later;
* launch and account opening are refused too; balance refreshes skip it (last known amount);
* the wallet screen tells the card the provider's state;
* a transfer already in flight is settled by the reconciler as always;
* the back office's routes need their permission and audit each change, as ``pao ops
  providers maintenance on|off`` does.
"""

from __future__ import annotations

import asyncio
import uuid
from datetime import timedelta
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import func, select

from pao.backoffice.audit.service import Actor
from pao.backoffice.models import AuditEntry
from pao.backoffice.providers import service as providers_service
from pao.backoffice.staff.roles import Role
from pao.games.models import GameTransfer, GameTransferStatus
from pao.games.reconciler import reconcile_tick
from pao.kit.clock import clock, utcnow
from pao.ledger.models import AccountKind, Hold
from tests.games_support import (
    activate,
    arm,
    assert_books_balance,
    balance_of,
    funded_member,
    provider_balance,
    seed,
    transfer_headers,
    username_of,
    wallet_minor,
)
from tests.helpers import auth
from tests.staff_helpers import add_staff, bearer, open_token

URL = "/api/backoffice/providers"


@pytest.fixture
async def game_app(app: FastAPI) -> FastAPI:
    await seed(app)
    return app


async def _transfer(
    client: httpx.AsyncClient, token: str, source: str, dest: str, amount: Any, key: str | None
) -> httpx.Response:
    return await client.post(
        "/api/wallet/transfer",
        json={"from": source, "to": dest, "amount": amount},
        headers=transfer_headers(token, key),
    )


async def _maintenance(
    client: httpx.AsyncClient, token: str, code: str, *, on: bool, **body: Any
) -> httpx.Response:
    if on:
        return await client.put(
            f"{URL}/{code}/maintenance", headers=bearer(token), json={"reason": "upgrade", **body}
        )
    return await client.delete(f"{URL}/{code}/maintenance", headers=bearer(token))


async def _counts(app: FastAPI) -> tuple[int, int]:
    async with app.state.sessionmaker() as session:
        transfers = await session.scalar(select(func.count()).select_from(GameTransfer))
        holds = await session.scalar(select(func.count()).select_from(Hold))
    return int(transfers or 0), int(holds or 0)


async def _slot(client: httpx.AsyncClient, token: str, code: str) -> dict[str, Any]:
    wallet = (await client.get("/api/wallet", headers=auth(token))).json()
    slot: dict[str, Any] = next(s for s in wallet["slots"] if s["code"] == code)
    return slot


async def test_maintenance_refuses_before_money_moves_and_the_key_goes_through_later(
    game_app: FastAPI, client: httpx.AsyncClient
) -> None:
    app = game_app
    token, mid = await funded_member(client, 100_00)
    await activate(client, token, "JOKER")
    user = await username_of(app, mid, "JOKER")
    assert (await _transfer(client, token, "WALLET", "JOKER", 30, None)).status_code == 200
    manager = await open_token(app, await add_staff(app, role=Role.MANAGER))
    until = (utcnow() + timedelta(hours=2)).replace(microsecond=0)
    set_ = await _maintenance(client, manager, "joker", on=True, until=until.isoformat())
    assert set_.status_code == 200, set_.text
    assert set_.json()["state"] == "maintenance"
    assert set_.json()["maintenance"]["reason"] == "upgrade"
    before = await _counts(app)

    key = str(uuid.uuid4())
    for source, dest in (("WALLET", "JOKER"), ("JOKER", "WALLET")):
        refused = await _transfer(
            client, token, source, dest, 10, key if source == "WALLET" else None
        )
        assert refused.status_code == 400
        assert refused.json() == {"message": "PROVIDER_MAINTENANCE"}
    all_in = await client.post("/api/wallet/transferAll", json={"to": "JOKER"}, headers=auth(token))
    assert all_in.json() == {"message": "PROVIDER_MAINTENANCE"}
    # Nothing written, nothing sent.
    assert await _counts(app) == before
    assert await wallet_minor(app, mid) == 70_00
    assert await provider_balance(client, "JOKER", user) == 30_00

    # The card says so, with the planned end; its balance is not asked (last known shown).
    slot = await _slot(client, token, "JOKER")
    assert slot["providerState"] == "maintenance"
    assert slot["maintenanceUntil"].startswith(until.strftime("%Y-%m-%dT%H:%M:%S"))
    assert slot["amount"] == 30
    await arm(client, "error", operation="balance", brand="JOKER")
    refreshed = (await client.get("/api/wallet/refresh/slot", headers=auth(token))).json()
    joker = next(s for s in refreshed["slots"] if s["code"] == "JOKER")
    assert (joker["stale"], joker["amount"], joker["providerState"]) == (True, 30, "maintenance")
    launch = await client.get(f"/api/autoLogin/joker2/{user}", headers=auth(token))
    assert launch.status_code == 404  # another game's route: not this account
    await client.delete("/sandbox/games/faults")

    off = await _maintenance(client, manager, "JOKER", on=False)
    assert off.json()["state"] == "ok"
    assert off.json()["maintenance"] is None
    # The refused key was not recorded: the same intent is evaluated afresh and goes through.
    moved = await _transfer(client, token, "WALLET", "JOKER", 10, key)
    assert moved.status_code == 200, moved.text
    assert await wallet_minor(app, mid) == 60_00
    assert await provider_balance(client, "JOKER", user) == 40_00
    assert (await _slot(client, token, "JOKER"))["providerState"] == "ok"
    await assert_books_balance(app)


async def test_many_simultaneous_transfers_to_a_provider_in_maintenance_move_nothing(
    game_app: FastAPI, client: httpx.AsyncClient
) -> None:
    app = game_app
    token, mid = await funded_member(client, 50_00)
    await activate(client, token, "PG")
    async with app.state.sessionmaker() as session:
        await providers_service.turn_on(
            session, code="PG", reason="provider upgrade", until=None, actor=Actor.operator("t")
        )
        await session.commit()
    answers = await asyncio.gather(
        *(_transfer(client, token, "WALLET", "PG", 5, str(uuid.uuid4())) for _ in range(12))
    )
    assert {(r.status_code, r.json()["message"]) for r in answers} == {
        (400, "PROVIDER_MAINTENANCE")
    }
    assert await _counts(app) == (0, 0)
    assert await wallet_minor(app, mid) == 50_00
    await assert_books_balance(app)


async def test_a_down_provider_is_refused_skipped_and_shown(
    game_app: FastAPI, client: httpx.AsyncClient
) -> None:
    """The sandbox's down switch: failing balance calls trip the tracker; then transfers,
    launch and opening an account are refused with PROVIDER_UNAVAILABLE and the refresh no
    longer asks the provider."""
    app = game_app
    token, mid = await funded_member(client, 20_00)
    await activate(client, token, "PG")
    user = await username_of(app, mid, "PG")
    assert (await _transfer(client, token, "WALLET", "PG", 5, None)).status_code == 200
    await arm(client, "down", operation="any", brand="PG")
    # Opening the account and the deposit answered (2 calls); with the default policy (at
    # least 5 calls, half of them failed) the third failing refresh trips it.
    for _ in range(3):
        slots = (await client.get("/api/wallet/refresh/slot", headers=auth(token))).json()
    pg = next(s for s in slots["slots"] if s["code"] == "PG")
    assert (pg["providerState"], pg["stale"], pg["amount"]) == ("down", True, 5)
    health = (await app.state.provider_health.health(["PG"]))["PG"]
    assert (health.circuit, health.calls, health.failures) == ("open", 5, 3)
    assert health.last_error == "HTTP_503"

    refused = await _transfer(client, token, "WALLET", "PG", 5, str(uuid.uuid4()))
    assert refused.json() == {"message": "PROVIDER_UNAVAILABLE"}
    launch = await client.get(f"/api/autoLogin/pg/{user}", headers=auth(token))
    assert (launch.status_code, launch.json()) == (400, {"message": "PROVIDER_UNAVAILABLE"})
    other, _ = await funded_member(client, 0)
    opened = await client.get("/api/wallet/activate/PG", headers=auth(other))
    assert opened.json() == {"message": "PROVIDER_UNAVAILABLE"}
    # The refresh skips it now: no call, so the tracker's count stays.
    await client.get("/api/wallet/refresh/slot", headers=auth(token))
    assert (await app.state.provider_health.health(["PG"]))["PG"].calls == 5
    assert (await _slot(client, token, "PG"))["providerState"] == "down"
    assert await wallet_minor(app, mid) == 15_00
    await assert_books_balance(app)


async def test_a_transfer_in_flight_is_settled_by_the_reconciler_during_maintenance(
    game_app: FastAPI, client: httpx.AsyncClient
) -> None:
    app = game_app
    token, mid = await funded_member(client, 20_00)
    await activate(client, token, "JOKER")
    user = await username_of(app, mid, "JOKER")
    await arm(client, "late", operation="deposit", delay=2.0)
    app.state.settings.game_provider_timeout_seconds = 1.0
    try:
        pending = await _transfer(client, token, "WALLET", "JOKER", 8, None)
    finally:
        app.state.settings.game_provider_timeout_seconds = 60.0
    assert pending.json()["code"] == "PENDING"
    async with app.state.sessionmaker() as session:
        await providers_service.turn_on(
            session, code="JOKER", reason="maintenance", until=None, actor=Actor.operator("t")
        )
        await session.commit()
    await asyncio.sleep(2.0)  # the late provider finishes its answer

    clock.advance(timedelta(minutes=15))
    assert await reconcile_tick(app) == 1
    async with app.state.sessionmaker() as session:
        row = (await session.execute(select(GameTransfer))).scalar_one()
    assert row.status == GameTransferStatus.SUCCESS
    assert await provider_balance(client, "JOKER", user) == 8_00
    assert await balance_of(app, AccountKind.GAME_TRANSFERS_PENDING) == 0
    assert await wallet_minor(app, mid) == 12_00
    await assert_books_balance(app)


async def test_permissions_audit_and_ops_share_one_function(
    game_app: FastAPI, client: httpx.AsyncClient
) -> None:
    app = game_app
    support = await open_token(app, await add_staff(app, role=Role.SUPPORT))
    cashier = await open_token(app, await add_staff(app, role=Role.CASHIER))
    owner = await open_token(app, await add_staff(app, role=Role.OWNER))

    listed = await client.get(URL, headers=bearer(support))
    assert listed.status_code == 200
    row = next(p for p in listed.json()["items"] if p["code"] == "JOKER")
    assert (row["state"], row["circuit"], row["calls"], row["maintenance"]) == (
        "ok",
        "closed",
        0,
        None,
    )
    assert listed.json()["windowSeconds"] == app.state.settings.provider_health_window_seconds
    for token in (support, cashier):
        refused = await _maintenance(client, token, "JOKER", on=True)
        assert (refused.status_code, refused.json()) == (403, {"message": "STAFF_FORBIDDEN"})

    past = (utcnow() - timedelta(minutes=1)).isoformat()
    for body, field in (({"until": past}, "until"), ({"reason": "   "}, "reason")):
        bad = await _maintenance(client, owner, "JOKER", on=True, **body)
        assert (bad.status_code, bad.json()) == (422, {"message": "KEY_INVALID", "field": field})
    unknown = await _maintenance(client, owner, "NOPE", on=True)
    assert (unknown.status_code, unknown.json()) == (404, {"message": "NO_GAME"})

    assert (await _maintenance(client, owner, "JOKER", on=True)).status_code == 200
    assert (await _maintenance(client, owner, "JOKER", on=False)).status_code == 200
    async with app.state.sessionmaker() as session:
        await providers_service.turn_on(
            session, code="pg", reason="night work", until=None, actor=Actor.operator("ops:root")
        )
        await session.commit()
    assert (
        next(
            p
            for p in (await client.get(URL, headers=bearer(owner))).json()["items"]
            if p["code"] == "PG"
        )["maintenance"]["setBy"]
        == "ops:root"
    )
    async with app.state.sessionmaker() as session:
        await providers_service.turn_off(session, code="PG", actor=Actor.operator("ops:root"))
        await session.commit()
        trail = [
            (r.action, r.object_id, r.actor, r.before, r.after)
            for r in (
                await session.execute(
                    select(AuditEntry)
                    .where(AuditEntry.object_type == "provider")
                    .order_by(AuditEntry.id)
                )
            ).scalars()
        ]
    on, off, ops_on, ops_off = trail
    assert on[:2] == ("provider.maintenance.on", "JOKER")
    assert on[3:] == (
        {"maintenance": False, "reason": None},
        {"maintenance": True, "reason": "upgrade"},
    )
    assert off[:2] == ("provider.maintenance.off", "JOKER")
    assert off[4] == {"maintenance": False}
    assert ops_on[:3] == ("provider.maintenance.on", "PG", "ops:root")
    assert ops_off[:3] == ("provider.maintenance.off", "PG", "ops:root")


async def test_a_planned_end_in_the_past_ends_the_maintenance(
    game_app: FastAPI, client: httpx.AsyncClient
) -> None:
    app = game_app
    token, _ = await funded_member(client, 10_00)
    await activate(client, token, "JOKER")
    async with app.state.sessionmaker() as session:
        await providers_service.turn_on(
            session,
            code="JOKER",
            reason="short",
            until=utcnow() + timedelta(minutes=5),
            actor=Actor.operator("t"),
        )
        await session.commit()
    assert (await _transfer(client, token, "WALLET", "JOKER", 1, None)).status_code == 400
    clock.advance(timedelta(minutes=6))
    assert (await _transfer(client, token, "WALLET", "JOKER", 1, None)).status_code == 200
