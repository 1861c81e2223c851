"""HTTP routes of pao.games: game accounts, balances, transfers, launch settings, auto-login.

The saga routes (activate, reset password, refresh, transfers) call providers, so no
transaction stays open across a provider call: they end the request's own transaction first
(it only read the member) and open their own short transactions around the call, except that a
transfer's first transaction continues the request's own and commits it before the call (see
:mod:`pao.games.transfers`).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.routing import APIRoute
from fastapi.security import HTTPAuthorizationCredentials
from sqlalchemy.ext.asyncio import AsyncSession

from pao.core.fast_lane import LeanEndpoint, declared_route, lean_post
from pao.core.openapi import AUTH_ERRORS, errors
from pao.core.uow import SessionDep, UnitOfWorkRoute
from pao.games import service, transfers
from pao.games.autologin import router as autologin_router
from pao.games.schemas import (
    CredentialsOut,
    LaunchSettingsOut,
    RefreshSlotsOut,
    TransferAllRequest,
    TransferRequest,
    TransferResponse,
)
from pao.identity.deps import BearerCredentials, CurrentMember, bearer, current_member
from pao.kit.idempotency import IdempotencyKeyHeader
from pao.protection.service import ensure_may_stake
from pao.site.settings import load_site_settings
from pao.wallet.schemas import Slot
from pao.wallet.statements import WALLET_LABEL as WALLET

router = APIRouter(route_class=UnitOfWorkRoute)
router.include_router(autologin_router)
# The transfer has a router of its own, which the app matches before its other routers
# (pao.main): routes are tried one by one, and it is a money path a member sends often.
transfer_router = APIRouter(route_class=UnitOfWorkRoute)

NOT_FOUND = "NO_GAME | SLOT_NO_ACCOUNT | NOT_AREASLOT | NOT_UFABET"
TRANSFER_ERRORS = {
    **AUTH_ERRORS,
    **errors(
        _400="TRANSFER_MINIMUM | TRANSFER_SAME_ACCOUNT | MONEY_NOT_ENOUGH | TRANSFER_FAIL"
        " | BONUS_REMAINING | PROVIDER_MAINTENANCE | PROVIDER_UNAVAILABLE | LOSS_LIMIT_REACHED",
        _403="PLAY_EXCLUDED",
        _404="NO_GAME",
        _409="IDEMPOTENCY_KEY_REUSED",
        _422="KEY_MISSING | KEY_INVALID",
    ),
}


async def _end_read(session: SessionDep) -> None:
    """The request's transaction only read the member; end it before any provider call (on
    SQLite every transaction holds the write lock)."""
    await session.commit()


@router.get(
    "/api/wallet/activate/{code}",
    operation_id="activateGameAccount",
    tags=["games"],
    response_model=Slot,
    responses={
        **AUTH_ERRORS,
        **errors(
            _400="SLOT_ALREADY_ACTIVE | SLOT_ACTIVATE_FAIL | PROVIDER_MAINTENANCE"
            " | PROVIDER_UNAVAILABLE",
            _404="NO_GAME",
        ),
    },
)
async def activate(code: str, request: Request, session: SessionDep, member: CurrentMember) -> Slot:
    """Open the member's account on game ``code`` at its provider."""
    await _end_read(session)
    return await service.activate(request.app, member_id=member.id, game_code=code.upper())


@router.get(
    "/api/wallet/account/{code}",
    operation_id="getGameAccount",
    tags=["games"],
    response_model=CredentialsOut,
    responses={**AUTH_ERRORS, **errors(_404=NOT_FOUND)},
)
async def account(code: str, session: SessionDep, member: CurrentMember) -> CredentialsOut:
    """The credentials of the caller's own account on game ``code``."""
    creds = await service.credentials(session, member_id=member.id, game_code=code.upper())
    return CredentialsOut(username=creds.username, password=creds.password)


@router.get(
    "/api/wallet/resetpassword/{code}",
    operation_id="resetGamePassword",
    tags=["games"],
    response_model=CredentialsOut,
    responses={
        **AUTH_ERRORS,
        **errors(
            _400="SLOT_RESET_PASSWORD_FAIL | PROVIDER_MAINTENANCE | PROVIDER_UNAVAILABLE",
            _404=NOT_FOUND,
        ),
    },
)
async def reset_password(
    code: str, request: Request, session: SessionDep, member: CurrentMember
) -> CredentialsOut:
    """Have the provider issue a new password for the caller's account; returns the new
    credentials."""
    await _end_read(session)
    creds = await service.reset_password(request.app, member_id=member.id, game_code=code.upper())
    return CredentialsOut(username=creds.username, password=creds.password)


@router.get(
    "/api/wallet/refresh/slot",
    operation_id="refreshGameBalances",
    tags=["games"],
    response_model=RefreshSlotsOut,
    responses=AUTH_ERRORS,
)
async def refresh_slots(
    request: Request, session: SessionDep, member: CurrentMember
) -> RefreshSlotsOut:
    """Ask every provider for the member's balances, concurrently, each with a time-out."""
    await _end_read(session)
    return RefreshSlotsOut(slots=await service.refresh_balances(request.app, member_id=member.id))


@transfer_router.post(
    "/api/wallet/transfer",
    operation_id="transfer",
    tags=["games"],
    response_model=TransferResponse,
    responses=TRANSFER_ERRORS,
)
async def transfer(
    body: TransferRequest,
    request: Request,
    session: SessionDep,
    member: CurrentMember,
    credentials: BearerCredentials,
    idempotency_key: IdempotencyKeyHeader = None,
) -> Any:
    """Move ``amount`` from ``from`` to ``to`` (WALLET or a game code; game → game goes
    through the wallet). PENDING means the provider's answer is not known yet: the money is
    held safely and the transfer settles by itself. An excluded member may only bring money
    back to the wallet (PLAY_EXCLUDED otherwise)."""
    del member  # solved first: without a login, 401 before the body is looked at
    return await _transfer(request, session, credentials, body, idempotency_key)


async def _transfer(
    request: Request,
    session: AsyncSession,
    credentials: HTTPAuthorizationCredentials | None,
    body: TransferRequest,
    key: str | None,
) -> TransferResponse:
    """Between the wallet and a game with its first transaction in one statement on
    PostgreSQL (:func:`pao.games.transfers.transfer_alone`), else in steps: the member, player
    protection before money goes to play, then the transfer."""
    answer = await transfers.transfer_alone(
        request.app,
        session,
        credentials,
        source=body.from_,
        destination=body.to,
        amount=body.amount,
        key=key,
    )
    if answer is not None:
        return answer
    member = await current_member(session, credentials)
    if body.to != WALLET:
        await ensure_may_stake(session, member, body.amount)
    return await transfers.request_transfer(
        request.app,
        session,
        member=member,
        source=body.from_,
        destination=body.to,
        amount=body.amount,
        key=key,
    )


async def transfer_lean(request: Request) -> Response | None:
    """``POST /api/wallet/transfer`` as the fast lane serves it
    (:func:`pao.core.fast_lane.lean_post`): what the route above does, the bearer token read by
    the same ``HTTPBearer``, without FastAPI's dependency solving."""
    credentials = await bearer(request)
    key = request.headers.get("idempotency-key")

    async def act(session: AsyncSession, asked: TransferRequest) -> TransferResponse:
        return await _transfer(request, session, credentials, asked, key)

    return await lean_post(request, TransferRequest, TransferResponse, act)


def lean_endpoints() -> list[tuple[APIRoute, LeanEndpoint]]:
    """The transfer's route as declared (its metrics label, its contract) with its lean
    endpoint, for the fast lane."""
    return [(declared_route(_api_routes(transfer_router), "/api/wallet/transfer"), transfer_lean)]


@router.post(
    "/api/wallet/transferAll",
    operation_id="transferAll",
    tags=["games"],
    response_model=TransferResponse,
    responses=TRANSFER_ERRORS,
)
async def transfer_all(
    body: TransferAllRequest,
    request: Request,
    session: SessionDep,
    member: CurrentMember,
    idempotency_key: IdempotencyKeyHeader = None,
) -> Any:
    """Move the whole wallet to game ``to``, or with ``to`` = WALLET bring every game
    account's balance back to the wallet."""
    if body.to != WALLET:
        await ensure_may_stake(session, member, None)
    await _end_read(session)
    return await transfers.request_transfer_all(
        request.app, member=member, destination=body.to, key=idempotency_key
    )


@router.get(
    "/api/games/settings",
    operation_id="getGameLaunchSettings",
    tags=["games"],
    response_model=LaunchSettingsOut,
    responses=AUTH_ERRORS,
)
async def launch_settings(session: SessionDep, member: CurrentMember) -> LaunchSettingsOut:
    """How the app launches games: inside the app (iframe) or in a new tab."""
    settings = await load_site_settings(session)
    return LaunchSettingsOut(
        launch_in_iframe=settings.game_launch_iframe, ufa_host=settings.ufa_host
    )


def register(app: Any) -> None:
    """Wire pao.games into the app: its routes, the transfer reconciler job and the provider
    health tracker (in memory, or in Redis when configured)."""
    from pao.games.health import create_health_tracker
    from pao.games.providers import provider_api_key
    from pao.games.reconciler import JOB
    from pao.games.seamless.launch import router as seamless_launch

    settings = app.state.settings
    if settings.game_provider_url and not settings.sandbox:
        provider_api_key(settings)  # refuses to start without the key
    app.include_router(router)
    # The player's side of seamless games is Pao's API whether or not an aggregator is on
    # (the contract must not depend on the configuration): without one, NO_GAME.
    app.include_router(seamless_launch)
    app.state.jobs.append(JOB)
    app.state.provider_health = create_health_tracker(settings)


def register_seamless_callbacks(app: Any) -> list[APIRoute]:
    """The aggregators' wallet callbacks (Hub88's Wallet API, AMB's Common Flow), for those
    configured; their routes, which the app also serves in front of FastAPI's routing
    (:mod:`pao.core.fast_lane`: a callback is the hottest request Pao serves, a spin is a
    bet and a win). The app includes them after its other routers: the router only sees the
    requests the lane leaves to it (another method), and every other request would have tried
    them first."""
    settings = app.state.settings
    callbacks: list[APIRoute] = []
    if settings.hub88_enabled:
        from pao.games.seamless.hub88.games_api import SYNC_JOB
        from pao.games.seamless.hub88.keys import keys_of
        from pao.games.seamless.hub88.wallet import router as hub88_wallet

        keys_of(app)  # a key that does not load stops the start-up, not the first bet
        app.include_router(hub88_wallet)
        callbacks += _api_routes(hub88_wallet)
        app.state.jobs.append(SYNC_JOB)
    if settings.amb_enabled:
        from pao.games.seamless.amb.callbacks import router as amb_callbacks

        app.include_router(amb_callbacks)
        callbacks += _api_routes(amb_callbacks)
    return callbacks


def _api_routes(router: APIRouter) -> list[APIRoute]:
    return [route for route in router.routes if isinstance(route, APIRoute)]
