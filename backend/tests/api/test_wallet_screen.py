"""GET /api/wallet as one statement (pao.wallet.screen): the body is exactly the expected JSON,
and the same as the ORM path builds (slots as ``slot_of`` makes them from loaded games and
accounts, the bank account as the profile shows it); only the member's own game accounts show,
and identity's rules hold: a missing, unknown, revoked or expired token, or a member who is not
active, gets 401 ``invalid-token``."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import select, update

from pao.games.models import Game, GameAccount
from pao.games.service import list_games, slot_of
from pao.identity.models import Member, MemberStatus
from pao.kit.clock import clock
from tests.games_support import funded_member, seed
from tests.helpers import auth, login, new_bank_account_no, register, set_site_setting

INVALID = (401, {"message": "invalid-token"})
UFA_HOST = "https://ufa.example.com"


async def wallet(client: httpx.AsyncClient, token: str) -> httpx.Response:
    return await client.get("/api/wallet", headers=auth(token))


async def add_account(
    app: FastAPI, mid: int, code: str, balance: int | None, at: datetime | None
) -> None:
    async with app.state.sessionmaker() as session:
        session.add(
            GameAccount(
                member_id=mid,
                game_code=code,
                username=f"{code.lower()}-{mid}",
                password="pw",
                last_balance=balance,
                balance_at=at,
            )
        )
        await session.commit()


async def test_slots_are_the_enabled_games_with_the_members_own_accounts(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    await seed(app)
    token, mid = await funded_member(client, 12_34)
    _, other = await funded_member(client, 0)
    seen_at = datetime(2026, 1, 2, 3, 4, 5, 678901, tzinfo=UTC)
    await add_account(app, mid, "JOKER", 1_234_56, seen_at)
    await add_account(app, mid, "PG", None, None)  # opened, never asked
    await add_account(app, other, "SUPERSLOT", 99_00, seen_at)
    async with app.state.sessionmaker() as session:
        await session.execute(update(Game).where(Game.code == "SLOTXO").values(enabled=False))
        # Every field of JOKER distinct, so that no two columns can be swapped unseen.
        await session.execute(
            update(Game)
            .where(Game.code == "JOKER")
            .values(android="joker://android", ios="joker://ios", ft_wallet_slot=0.5)
        )
        await session.commit()
    await set_site_setting(client, "ufaHost", UFA_HOST)

    response = await wallet(client, token)

    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == "application/json"
    body = response.json()
    assert body["wallet"] == {"amount": 12.34, "currency": "THB"}
    assert body["profile"]["_id"] == str(mid)
    slots = {slot["code"]: slot for slot in body["slots"]}
    assert slots["JOKER"] == {
        "code": "JOKER",
        "name": "Joker",
        "category": "slot",
        "isActive": True,
        "amount": 1234.56,
        "ftWalletSlot": 0.5,
        "logo": "/games/joker-logo.svg",
        "background": "/games/joker-bg.svg",
        "web": "/sandbox/games/login/JOKER",
        "android": "joker://android",
        "ios": "joker://ios",
        "stale": False,
        "updatedAt": "2026-01-02T03:04:05.678901Z",
        "providerState": "ok",
        "maintenanceUntil": None,
        "mode": "transfer",
    }
    assert (slots["PG"]["isActive"], slots["PG"]["amount"], slots["PG"]["updatedAt"]) == (
        True,
        0.0,
        None,
    )
    # Another member's account is not this member's.
    assert (slots["SUPERSLOT"]["isActive"], slots["SUPERSLOT"]["amount"]) == (False, 0.0)
    assert "SLOTXO" not in slots
    assert slots["UFABET"]["web"] == UFA_HOST
    # The same slots, in the same order, as the ORM path (activate, refresh) builds them from
    # loaded games and accounts: the row's columns carry the same values as the objects.
    async with app.state.sessionmaker() as session:
        games = await list_games(session)
        query = select(GameAccount).where(GameAccount.member_id == mid)
        accounts = {a.game_code: a for a in (await session.execute(query)).scalars()}
    assert body["slots"] == [
        slot_of(game, accounts.get(game.code), ufa_host=UFA_HOST).model_dump(
            mode="json", by_alias=True
        )
        for game in games
    ]


async def test_bank_account_is_the_profiles(client: httpx.AsyncClient, app: FastAPI) -> None:
    account_no = new_bank_account_no()
    phone = await register(client, bank_account_no=account_no)
    token = await login(client, phone)
    expected = {
        "bank": {"nameTH": "ธนาคารกสิกรไทย", "nameEN": "Kasikornbank"},
        "bankAccountName": "TEST MEMBER",
        "bankAccountNo": account_no,
        "bankCode": "KBANK",
    }
    profile = await client.get("/api/account/profile", headers=auth(token))
    assert (await wallet(client, token)).json()["bankAccount"] == expected
    assert profile.json()["bankAccount"] == expected
    # A code no longer in the bank list (a member from before it left): no bank, the rest kept.
    async with app.state.sessionmaker() as session:
        await session.execute(update(Member).where(Member.phone == phone).values(bank_code="OLD"))
        await session.commit()
    gone = {**expected, "bank": None, "bankCode": "OLD"}
    profile = await client.get("/api/account/profile", headers=auth(token))
    assert (await wallet(client, token)).json()["bankAccount"] == gone
    assert profile.json()["bankAccount"] == gone


@pytest.mark.parametrize(
    "headers",
    [
        {},
        {"Authorization": "Bearer "},
        {"Authorization": "Basic dXNlcjpwYXNz"},
        {"Authorization": "Bearer not-a-token"},
    ],
)
async def test_missing_or_unknown_token(client: httpx.AsyncClient, headers: dict[str, str]) -> None:
    response = await client.get("/api/wallet", headers=headers)
    assert (response.status_code, response.json()) == INVALID


async def test_revoked_token(client: httpx.AsyncClient) -> None:
    phone = await register(client)
    token, other = await login(client, phone), await login(client, phone)
    assert (await wallet(client, token)).status_code == 200
    assert (await client.post("/api/logout", headers=auth(token))).status_code == 204
    response = await wallet(client, token)
    assert (response.status_code, response.json()) == INVALID
    assert (await wallet(client, other)).status_code == 200


async def test_expired_token(client: httpx.AsyncClient, app: FastAPI) -> None:
    token = await login(client, await register(client))
    ttl = timedelta(hours=app.state.settings.session_ttl_hours)
    clock.advance(ttl - timedelta(seconds=5))
    assert (await wallet(client, token)).status_code == 200
    clock.advance(timedelta(seconds=10))
    response = await wallet(client, token)
    assert (response.status_code, response.json()) == INVALID


async def test_member_who_is_not_active(client: httpx.AsyncClient, app: FastAPI) -> None:
    phone = await register(client)
    token = await login(client, phone)
    assert (await wallet(client, token)).status_code == 200
    async with app.state.sessionmaker() as session:
        await session.execute(
            update(Member).where(Member.phone == phone).values(status=MemberStatus.INACTIVE)
        )
        await session.commit()
    response = await wallet(client, token)
    assert (response.status_code, response.json()) == INVALID
