"""In-transaction domain events, so that domains react to each other without importing
each other (payments does not know that promotions awards wheel coins for a deposit).

``publish`` runs every subscriber *in the publisher's transaction*: a deposit and the coins it
earns commit together or not at all. Subscribers must be quick and must not call third
parties. Domains register their handlers at import time (see ``pao.models``, which imports
every domain).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy.ext.asyncio import AsyncSession

from pao.kit.money import Currency


@dataclass(frozen=True)
class DepositCredited:
    """A player's own deposit arrived in their wallet (slip, QR, gateway, TrueMoney). A staff
    or operator manual credit is not one and does not publish it (docs/adr/0010)."""

    member_id: int
    amount: int
    currency: Currency
    channel: str  # "slip" | "qr" | "gateway" | "truemoney"
    reference: str


@dataclass(frozen=True)
class WithdrawalPaid:
    member_id: int
    amount: int
    currency: Currency
    withdrawal_id: int


@dataclass(frozen=True)
class WithdrawalRequested:
    """A member asked to be paid out: a new item in the cashiers' queue."""

    withdrawal_id: int
    member_id: int
    amount: int
    currency: Currency


@dataclass(frozen=True)
class WithdrawalChanged:
    """A withdrawal's status or claim changed (claimed, released, decided, paid, failed)."""

    withdrawal_id: int
    status: str
    claimed_by: str | None


@dataclass(frozen=True)
class BonusReceived:
    """A member was granted a bonus or a promotion, paid into their wallet."""

    member_id: int
    amount: int
    currency: Currency
    member_bonus_id: int
    # Its name per locale ({"th": …, "en": …}) or one text.
    name: dict[str, str] | str


@dataclass(frozen=True)
class GameTransferSettled:
    """Money moved between the wallet and a game account (direction "in" = to the game)."""

    member_id: int
    amount: int
    currency: Currency
    game_code: str
    direction: str


E = TypeVar("E")
Handler = Callable[[AsyncSession, Any], Awaitable[None]]
_subscribers: dict[type, list[Handler]] = defaultdict(list)


def subscribe(
    event_type: type[E],
) -> Callable[
    [Callable[[AsyncSession, E], Awaitable[None]]], Callable[[AsyncSession, E], Awaitable[None]]
]:
    def register(
        handler: Callable[[AsyncSession, E], Awaitable[None]],
    ) -> Callable[[AsyncSession, E], Awaitable[None]]:
        if handler not in _subscribers[event_type]:
            _subscribers[event_type].append(handler)
        return handler

    return register


async def publish(session: AsyncSession, event: object) -> None:
    for handler in list(_subscribers[type(event)]):
        await handler(session, event)
