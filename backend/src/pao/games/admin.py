"""The operator's view of a member's game accounts: credentials and live balances.

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

from pao.games.models import GameAccount
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
