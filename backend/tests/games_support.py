"""Helpers for the games tests: the demo games, funded members, the sandbox provider's
failure controls and its view of an account."""

from __future__ import annotations

from typing import Any

import httpx
from fastapi import FastAPI
from sqlalchemy import func, select

from pao.games.catalogue import seed_games
from pao.games.models import GameAccount
from pao.identity.models import Member
from pao.ledger.models import AccountKind, LedgerAccount
from pao.ledger.service import check_books
from pao.wallet.adjustments import credit_manually
from tests.helpers import app_of, auth, member_id, register_and_login


async def seed(app: FastAPI) -> None:
    """The demo games, and a generous provider time-out: the test machine may be loaded, and
    only the fault tests want a call to time out (they shorten it around that call)."""
    app.state.settings.game_provider_timeout_seconds = 60.0
    async with app.state.sessionmaker() as session:
        await seed_games(session)
        await session.commit()


async def funded_member(client: httpx.AsyncClient, minor: int) -> tuple[str, int]:
    """A fresh member with ``minor`` in the wallet; returns (token, member id)."""
    _, token = await register_and_login(client)
    mid = await member_id(client, token)
    if minor:
        async with app_of(client).state.sessionmaker() as session:
            member = await session.get(Member, mid)
            assert member is not None
            await credit_manually(session, member=member, amount=minor, note="test", actor="test")
            await session.commit()
    return token, mid


async def activate(client: httpx.AsyncClient, token: str, code: str) -> dict[str, Any]:
    response = await client.get(f"/api/wallet/activate/{code}", headers=auth(token))
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


async def username_of(app: FastAPI, mid: int, code: str) -> str:
    async with app.state.sessionmaker() as session:
        account = (
            await session.execute(
                select(GameAccount).where(
                    GameAccount.member_id == mid, GameAccount.game_code == code
                )
            )
        ).scalar_one()
        return str(account.username)


async def arm(
    client: httpx.AsyncClient,
    mode: str,
    *,
    operation: str = "transfer",
    count: int = 1,
    delay: float = 1.0,
    brand: str | None = None,
) -> None:
    response = await client.post(
        "/sandbox/games/faults",
        json={
            "mode": mode,
            "operation": operation,
            "count": count,
            "delaySeconds": delay,
            "brand": brand,
        },
    )
    assert response.status_code == 200, response.text


async def provider_balance(client: httpx.AsyncClient, code: str, username: str) -> int:
    response = await client.get(f"/sandbox/games/inspect/{code}/{username}")
    assert response.status_code == 200, response.text
    return int(response.json()["balance"])


async def wallet_minor(app: FastAPI, mid: int) -> int:
    return await balance_of(app, AccountKind.PLAYER_WALLET, str(mid))


async def balance_of(app: FastAPI, kind: AccountKind, owner: str | None = None) -> int:
    """The balance of ``kind``'s account of ``owner``, or the sum over every owner."""
    query = select(func.sum(LedgerAccount.balance)).where(LedgerAccount.kind == kind)
    if owner is not None:
        query = query.where(LedgerAccount.owner == owner)
    async with app.state.sessionmaker() as session:
        return int((await session.execute(query)).scalar_one() or 0)


async def assert_books_balance(app: FastAPI) -> None:
    async with app.state.sessionmaker() as session:
        report = await check_books(session)
        assert report.balanced, report


def transfer_headers(token: str, key: str | None = None) -> dict[str, str]:
    headers = auth(token)
    if key:
        headers["Idempotency-Key"] = key
    return headers
