"""Game accounts: the catalogue, opening an account at a provider, credentials, balances.

Provider calls never run inside a database transaction (SQLite serialises writers, and a slow
provider must not hold row locks): the callers here read what they need, end the
transaction, call the provider, then write in a new transaction opened from
``app.state.sessionmaker``. Functions that take ``app`` do that themselves; functions that
take ``session`` only touch the database and never commit.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import structlog
from sqlalchemy import ColumnElement, FromClause, Join, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from pao.games.availability import ProviderStatus, ensure_available, statuses
from pao.games.exceptions import (
    NoGame,
    NoGameAccount,
    NotAreaslot,
    NotUfabet,
    ResetPasswordFailed,
    SlotActivateFailed,
    SlotAlreadyActive,
)
from pao.games.health import tracker_of
from pao.games.models import Game, GameAccount
from pao.games.providers import provider_for
from pao.games.providers.base import Credentials, ProviderError
from pao.games.seamless import SEAMLESS_PROVIDERS
from pao.kit.clock import utcnow
from pao.site.settings import load_site_settings
from pao.wallet.schemas import Slot

log = structlog.get_logger(__name__)

BALANCE_GRACE_SECONDS = 0.25

# Some games have their own "not found" code in the catalogue (spec §8).
_NO_ACCOUNT_ERRORS: dict[str, type[NoGameAccount] | type[NotAreaslot] | type[NotUfabet]] = {
    "AREASLOT": NotAreaslot,
    "UFABET": NotUfabet,
}


def no_account_error(code: str) -> Exception:
    return _NO_ACCOUNT_ERRORS.get(code, NoGameAccount)()


def _sessionmaker(app: Any) -> async_sessionmaker[AsyncSession]:
    factory: async_sessionmaker[AsyncSession] = app.state.sessionmaker
    return factory


async def list_games(session: AsyncSession) -> Sequence[Game]:
    query = select(Game).where(Game.enabled.is_(True)).order_by(Game.sort_order, Game.code)
    return (await session.execute(query)).scalars().all()


async def get_game(session: AsyncSession, code: str) -> Game:
    """A transfer-mode game (a seamless aggregator's card has no game account to open,
    credentials or balance: NO_GAME for those calls)."""
    game = await session.get(Game, code)
    if game is None or not game.enabled or game.provider in SEAMLESS_PROVIDERS:
        raise NoGame()
    return game


async def find_account(
    session: AsyncSession, *, member_id: int, game_code: str
) -> GameAccount | None:
    query = select(GameAccount).where(
        GameAccount.member_id == member_id, GameAccount.game_code == game_code
    )
    return (await session.execute(query)).scalar_one_or_none()


async def own_account(session: AsyncSession, *, member_id: int, game_code: str) -> GameAccount:
    """The member's account for ``game_code``; NO_GAME for an unknown game, else the
    catalogue's not-found code of that game."""
    await get_game(session, game_code)
    account = await find_account(session, member_id=member_id, game_code=game_code)
    if account is None:
        raise no_account_error(game_code)
    return account


def launch_web(code: str, web: str | None, *, ufa_host: str) -> str | None:
    """A game's web login URL: UFABET's is the operator's own host when one is set."""
    if code == "UFABET" and ufa_host:
        return ufa_host
    return web


def slot_of(
    game: Game,
    account: GameAccount | None,
    *,
    ufa_host: str = "",
    stale: bool = False,
    status: ProviderStatus | None = None,
) -> Slot:
    """:func:`slot_fields` of a loaded game and account (activation, balance refresh)."""
    account_values = (
        (account.id, account.last_balance, account.balance_at) if account else (None, None, None)
    )
    values = (
        game.code,
        game.name,
        game.category,
        game.ft_wallet_slot,
        game.logo,
        game.background,
        game.web,
        game.android,
        game.ios,
        game.provider,
        *account_values,
    )
    return Slot.model_validate(slot_fields(values, ufa_host=ufa_host, stale=stale, status=status))


# The wallet screen's slots come inside its one statement (pao.wallet.screen): every enabled
# game, with the member's account on it if any, as Core columns (no ORM objects to build).
# slot_fields reads them in this order.
_games = Game.__table__
_accounts = GameAccount.__table__
SLOT_COLUMNS = (
    _games.c.code.label("game_code"),
    _games.c.name.label("game_name"),
    _games.c.category.label("game_category"),
    _games.c.ft_wallet_slot.label("game_ft_wallet_slot"),
    _games.c.logo.label("game_logo"),
    _games.c.background.label("game_background"),
    _games.c.web.label("game_web"),
    _games.c.android.label("game_android"),
    _games.c.ios.label("game_ios"),
    _games.c.provider.label("game_provider"),
    _accounts.c.id.label("account_id"),
    _accounts.c.last_balance.label("account_last_balance"),
    _accounts.c.balance_at.label("account_balance_at"),
)
SLOT_ORDER = (_games.c.sort_order, _games.c.code)


def with_slots(source: FromClause, member_id: ColumnElement[Any]) -> Join:
    """``source`` outer-joined with every enabled game and ``member_id``'s account on it: one
    row per game, or one row with null :data:`SLOT_COLUMNS` when no game is enabled."""
    return source.outerjoin(_games, _games.c.enabled.is_(True)).outerjoin(
        _accounts, (_accounts.c.game_code == _games.c.code) & (_accounts.c.member_id == member_id)
    )


def slot_fields(
    values: Sequence[Any],
    *,
    ufa_host: str,
    stale: bool = False,
    status: ProviderStatus | None = None,
) -> dict[str, Any]:
    """The :class:`Slot` fields of one game and the member's account on it, from their
    :data:`SLOT_COLUMNS` values in that order (a null ``account_id``: no account), not
    validated: the wallet screen validates them with its whole response, in one call, and
    :func:`slot_of` alone. ``status``: the provider's state (pao.games.availability); none
    means usable.

    Values by position, not by name: the wallet screen passes a slice of each of its rows as it
    comes, and a Row's attribute lookups, or keyword arguments, would cost more than the rest
    of this.
    """
    (
        code,
        name,
        category,
        ft_wallet_slot,
        logo,
        background,
        web,
        android,
        ios,
        provider,
        account_id,
        last_balance,
        balance_at,
    ) = values
    has_account = account_id is not None
    return {
        "code": code,
        "name": name,
        "category": category,
        "is_active": has_account,
        "amount": (last_balance or 0) if has_account else 0,
        "ft_wallet_slot": ft_wallet_slot,
        "logo": logo,
        "background": background,
        "web": launch_web(code, web, ufa_host=ufa_host),
        "android": android,
        "ios": ios,
        "stale": stale,
        "updated_at": balance_at if has_account else None,
        "provider_state": status.state.value if status is not None else "ok",
        "maintenance_until": status.until if status is not None else None,
        "mode": "seamless" if provider in SEAMLESS_PROVIDERS else "transfer",
    }


async def activate(app: Any, *, member_id: int, game_code: str) -> Slot:
    """Open the member's account at the game's provider (SLOT_ALREADY_ACTIVE if it exists,
    SLOT_ACTIVATE_FAIL if the provider cannot)."""
    async with _sessionmaker(app)() as session, session.begin():
        game = await get_game(session, game_code)
        if await find_account(session, member_id=member_id, game_code=game_code):
            raise SlotAlreadyActive()
        await ensure_available(app, session, [game_code])
    try:
        # The provider keys accounts by our member reference, so a retry after a lost answer
        # gets the same account back instead of a second one.
        credentials = await provider_for(app, game_code=game_code).create_account(
            member_ref=f"pao-{member_id}"
        )
    except ProviderError as exc:
        log.warning("game account not opened", game=game_code, reason=exc.reason)
        raise SlotActivateFailed() from exc
    try:
        async with _sessionmaker(app)() as session, session.begin():
            account = GameAccount(
                member_id=member_id,
                game_code=game_code,
                username=credentials.username,
                password=credentials.password,
                last_balance=0,
                balance_at=utcnow(),
            )
            session.add(account)
            await session.flush()
            settings = await load_site_settings(session)
            return slot_of(game, account, ufa_host=settings.ufa_host)
    except IntegrityError:  # two activations at once: the other one won
        raise SlotAlreadyActive() from None


async def credentials(session: AsyncSession, *, member_id: int, game_code: str) -> Credentials:
    account = await own_account(session, member_id=member_id, game_code=game_code)
    return Credentials(username=account.username, password=account.password)


async def reset_password(app: Any, *, member_id: int, game_code: str) -> Credentials:
    async with _sessionmaker(app)() as session, session.begin():
        account = await own_account(session, member_id=member_id, game_code=game_code)
        username = account.username
        await ensure_available(app, session, [game_code])
    try:
        password = await provider_for(app, game_code=game_code).reset_password(username=username)
    except ProviderError as exc:
        raise ResetPasswordFailed() from exc
    async with _sessionmaker(app)() as session, session.begin():
        account = await own_account(session, member_id=member_id, game_code=game_code)
        account.password = password
    return Credentials(username=username, password=password)


async def _ask_balance(app: Any, code: str, username: str, seconds: float) -> int | None:
    try:
        # A little longer than the adapter's own time-out, so that the adapter's fires first
        # and the call is recorded as a time-out of the provider (pao.games.health).
        async with asyncio.timeout(seconds + BALANCE_GRACE_SECONDS):
            return await provider_for(app, game_code=code, timeout=seconds).balance(
                username=username
            )
    except (ProviderError, TimeoutError) as exc:
        log.info("game balance unavailable", game=code, reason=str(exc))
        return None


async def refresh_balances(app: Any, *, member_id: int) -> list[Slot]:
    """Ask every provider where the member has an account, concurrently, each within
    ``game_balance_timeout_seconds``; one that does not answer keeps its last known amount
    and is marked ``stale``. A provider in maintenance or down is not asked at all: its card
    shows the last known amount, stale, with the provider's state."""
    async with _sessionmaker(app)() as session, session.begin():
        accounts = [
            (a.game_code, a.username)
            for a in (
                await session.execute(select(GameAccount).where(GameAccount.member_id == member_id))
            ).scalars()
        ]
        found = await statuses(tracker_of(app), session)
    asked = [(code, username) for code, username in accounts if _usable(found, code)]
    timeout = app.state.settings.game_balance_timeout_seconds
    answers = await asyncio.gather(
        *(_ask_balance(app, code, username, timeout) for code, username in asked)
    )
    fresh: dict[str, int | None] = {code: None for code, _ in accounts}
    fresh.update({code: amount for (code, _), amount in zip(asked, answers, strict=True)})
    async with _sessionmaker(app)() as session, session.begin():
        now = utcnow()
        games = await list_games(session)
        rows = {
            a.game_code: a
            for a in (
                await session.execute(select(GameAccount).where(GameAccount.member_id == member_id))
            ).scalars()
        }
        for code, amount in fresh.items():
            if amount is not None and code in rows:
                rows[code].last_balance = amount
                rows[code].balance_at = now
        settings = await load_site_settings(session)
        # Read again: these very calls may have marked a provider down.
        found = await statuses(tracker_of(app), session)
        return [
            slot_of(
                g,
                rows.get(g.code),
                ufa_host=settings.ufa_host,
                stale=g.code in fresh and fresh[g.code] is None,
                status=found.get(g.code),
            )
            for g in games
        ]


def _usable(found: dict[str, ProviderStatus], code: str) -> bool:
    status = found.get(code)
    return status is None or status.usable
