"""The operator's view of game accounts and providers: a member's credentials and live
balances, and every provider's state and health.

Balances come from :func:`pao.games.service.refresh_balances` (every provider asked at once,
each within ``game_balance_timeout_seconds``); a provider that does not answer leaves the
last known amount, marked stale.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from pao.games.availability import ProviderStatus, statuses
from pao.games.health import HealthTracker
from pao.games.models import Game, GameAccount
from pao.games.service import refresh_balances


@dataclass(frozen=True)
class AccountView:
    game_code: str
    game_name: str
    username: str
    password: str
    balance: int | None
    stale: bool
    balance_at: datetime | None


async def member_game_accounts(
    app: Any, session: AsyncSession, *, member_id: int
) -> list[AccountView]:
    slots = {slot.code: slot for slot in await refresh_balances(app, member_id=member_id)}
    accounts = (
        await session.execute(
            select(GameAccount)
            .where(GameAccount.member_id == member_id)
            .order_by(GameAccount.game_code)
            .execution_options(populate_existing=True)
        )
    ).scalars()
    views = []
    for account in accounts:
        slot = slots.get(account.game_code)
        views.append(
            AccountView(
                game_code=account.game_code,
                game_name=slot.name if slot is not None else account.game_code,
                username=account.username,
                password=account.password,
                balance=account.last_balance,
                stale=slot.stale if slot is not None else True,
                balance_at=account.balance_at,
            )
        )
    return views


async def providers_overview(
    tracker: HealthTracker, session: AsyncSession
) -> list[tuple[Game, ProviderStatus]]:
    """Every game of the catalogue with its provider's state and health, read now (the back
    office's provider screen, ``pao ops providers list``)."""
    query = select(Game).order_by(Game.sort_order, Game.code)
    games = list((await session.execute(query)).scalars())
    found = await statuses(tracker, session, [g.code for g in games])
    return [(game, found[game.code]) for game in games]
