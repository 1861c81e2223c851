"""Helpers of the promotions tests: configured bonuses and wheels, a player's deposit (the
money and the DepositCredited event a real deposit channel publishes), and a fake of the games
domain's game results for rule tests (integration tests use the real sandbox provider)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import httpx
from fastapi import FastAPI
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from pao.identity.models import Member
from pao.kit.money import Currency
from pao.ledger.service import check_books
from pao.promotions.models import (
    Bonus,
    BonusKind,
    BonusType,
    MemberBonus,
    MemberBonusStatus,
    PrizeType,
    Wheel,
    WheelSlice,
)
from pao.wallet.adjustments import credit_manually
from tests.helpers import auth, member_id, register_and_login


async def add_bonus(app: FastAPI, **overrides: Any) -> Bonus:
    values: dict[str, Any] = {
        "code": "WELCOME",
        "kind": BonusKind.BONUS,
        "type": BonusType.LIMIT,
        "name": {"en": "Welcome"},
        "description": {"en": "Welcome bonus"},
        "max_received": 1,
        "percent": 100,
        "fixed_amount": 0,
        "max_amount": 500_00,
        "min_deposit": 100_00,
        "turnover_multiplier": 5,
        "percent_fail": 10,
        "banners": [{"image": "/b.svg", "html": {"en": "<p>hi</p><script>x</script>"}}],
    }
    values.update(overrides)
    async with app.state.sessionmaker() as session:
        bonus = Bonus(**values)
        session.add(bonus)
        await session.commit()
        return bonus


async def give_active_bonus(app: FastAPI, member_id: int, **overrides: Any) -> None:
    """An ACTIVE bonus of ``member_id`` (of a new offer), written directly: what the gates
    then refuse (BONUS_REMAINING)."""
    offer = await add_bonus(app, code=f"ACTIVE{member_id}")
    values: dict[str, Any] = {
        "member_id": member_id,
        "bonus_id": offer.id,
        "status": MemberBonusStatus.ACTIVE,
        "currency": Currency.THB,
        "bonus_amount": 100_00,
        "turnover_required": 500_00,
        "percent_fail": 10,
    }
    values.update(overrides)
    async with app.state.sessionmaker() as session:
        session.add(MemberBonus(**values))
        await session.commit()


async def add_wheel(
    app: FastAPI,
    slices: list[tuple[str, int, PrizeType, int]] | None = None,
    *,
    currency: Currency = Currency.THB,
) -> Wheel:
    """A wheel of ``(code, weight, prize type, amount)`` slices, its prizes in ``currency``."""
    slices = slices or [
        ("C10", 1, PrizeType.CREDIT, 10_00),
        ("NONE", 0, PrizeType.NONE, 0),
    ]
    async with app.state.sessionmaker() as session:
        wheel = Wheel(name={"en": "Test wheel"}, is_active=True, currency=currency)
        session.add(wheel)
        await session.flush()
        for position, (code, weight, kind, amount) in enumerate(slices):
            session.add(
                WheelSlice(
                    wheel_id=wheel.id,
                    position=position,
                    code=code,
                    label={"en": f"L-{code}"},
                    bg_color="#000000",
                    text_color="#ffffff",
                    html_description={"en": "<p>x</p>"},
                    weight=weight,
                    prize_type=kind,
                    prize_name={"en": f"Prize {code}"},
                    prize_amount=amount,
                )
            )
        await session.commit()
        return wheel


async def deposit(app: FastAPI, member: int, amount: int) -> None:
    """A player's deposit of ``amount`` minor units, as ``pao ops deposit`` records one: the
    wallet credited and DepositCredited published (docs/adr/0010)."""
    async with app.state.sessionmaker() as session:
        row = await session.get(Member, member)
        assert row is not None
        await credit_manually(session, member=row, amount=amount, note="test deposit", actor="test")
        await session.commit()


@dataclass
class Player:
    phone: str
    token: str
    id: int

    @property
    def headers(self) -> dict[str, str]:
        return auth(self.token)


async def new_player(client: httpx.AsyncClient, *, invite_code: str | None = None) -> Player:
    phone, token = await register_and_login(client, invite_code=invite_code)
    return Player(phone=phone, token=token, id=await member_id(client, token))


async def wallet_amount(client: httpx.AsyncClient, player: Player) -> float:
    response = await client.get("/api/wallet", headers=player.headers)
    assert response.status_code == 200, response.text
    return float(response.json()["wallet"]["amount"])


async def coins(app: FastAPI, member: int) -> int:
    async with app.state.sessionmaker() as session:
        value = (await session.execute(select(Member.coin).where(Member.id == member))).scalar_one()
        return int(value)


async def books_balanced(app: FastAPI) -> bool:
    async with app.state.sessionmaker() as session:
        return (await check_books(session)).balanced


@dataclass(frozen=True)
class Results:
    turnover: int
    payout: int


class FakeGameResults:
    """Stands in for ``pao.games.turnover.game_results`` in rule tests: every bet recorded
    with :meth:`bet` counts for the window it falls in."""

    def __init__(self) -> None:
        self.bets: dict[int, list[tuple[datetime, int, int]]] = defaultdict(list)

    def bet(self, member: int, *, at: datetime, stake: int, payout: int) -> None:
        self.bets[member].append((at, stake, payout))

    async def __call__(
        self, app: Any, session: AsyncSession, *, member_id: int, since: datetime, until: datetime
    ) -> Results:
        rows = [b for b in self.bets[member_id] if since <= b[0] < until]
        return Results(turnover=sum(r[1] for r in rows), payout=sum(r[2] for r in rows))


def fake_game_results(app: FastAPI) -> FakeGameResults:
    fake = FakeGameResults()
    app.state.promotions_game_results = fake
    return fake
