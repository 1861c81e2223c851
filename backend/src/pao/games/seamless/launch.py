"""What the player app calls for a seamless aggregator: its games (``GET
/api/games/seamless/{code}``, from the synced catalogue) and a game's launch link
(``GET /api/autoLogin/hub88/{gameCode}`` → ``{link}``, like the spec's other auto-login calls).

A launch issues a fresh session token for the member, game and currency, commits it, then asks
the aggregator for the game's URL with it; the Wallet API accepts that token for that member.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from sqlalchemy import select

from pao.core.errors import AppError
from pao.core.language import RequestLanguage
from pao.core.openapi import AUTH_ERRORS, errors
from pao.core.uow import SessionDep, UnitOfWorkRoute
from pao.games.availability import ensure_available
from pao.games.exceptions import NoGame
from pao.games.models import Game
from pao.games.schemas import LinkOut, SeamlessGameOut, SeamlessGamesOut
from pao.games.seamless import SEAMLESS_PROVIDERS, tokens
from pao.games.seamless.hub88 import PROVIDER as HUB88
from pao.games.seamless.hub88.games_api import Hub88Error, game_url
from pao.games.seamless.hub88.wire import user_of
from pao.games.seamless.models import SeamlessGame
from pao.identity.deps import CurrentMember
from pao.kit.money import Currency
from pao.protection.service import ensure_may_play

router = APIRouter(route_class=UnitOfWorkRoute)

_COUNTRY = {Currency.THB: "TH", Currency.LAK: "LA"}
# Hub88 takes an ISO 639-1 code: Lao is "lo" (Pao's own code for it is "la"); th and en are.
_HUB88_LANGUAGE: dict[str, str] = {"la": "lo"}


class LaunchFailed(AppError):
    status_code = 503
    code = "INTERNAL_SERVER_ERROR"


async def _lobby_card(request: Request, session: SessionDep, provider: str) -> Game:
    if provider == HUB88 and not request.app.state.settings.hub88_enabled:
        raise NoGame()
    card = (
        await session.execute(
            select(Game).where(Game.provider == provider, Game.enabled.is_(True)).limit(1)
        )
    ).scalar_one_or_none()
    if card is None:
        raise NoGame()
    return card


@router.get(
    "/api/games/seamless/{code}",
    operation_id="seamlessGames",
    tags=["games"],
    response_model=SeamlessGamesOut,
    responses={**AUTH_ERRORS, **errors(_404="NO_GAME")},
)
async def seamless_games(code: str, session: SessionDep, member: CurrentMember) -> SeamlessGamesOut:
    """The games of a seamless aggregator's lobby card (they play from the wallet)."""
    game = await session.get(Game, code)
    if game is None or not game.enabled or game.provider not in SEAMLESS_PROVIDERS:
        raise NoGame()
    rows = (
        await session.execute(
            select(SeamlessGame)
            .where(SeamlessGame.provider == game.provider, SeamlessGame.enabled.is_(True))
            .order_by(SeamlessGame.name)
        )
    ).scalars()
    return SeamlessGamesOut(
        games=[
            SeamlessGameOut(
                game_code=row.game_code,
                name=row.name,
                category=row.category,
                thumbnail=row.thumbnail,
            )
            for row in rows
        ]
    )


@router.get(
    "/api/autoLogin/hub88/{gameCode}",
    operation_id="autoLoginHub88",
    tags=["autoLogin"],
    response_model=LinkOut,
    responses={
        **AUTH_ERRORS,
        **errors(
            _400="PROVIDER_MAINTENANCE | PROVIDER_UNAVAILABLE",
            _403="PLAY_EXCLUDED",
            _404="NO_GAME",
            _503="INTERNAL_SERVER_ERROR",
        ),
    },
)
async def launch_hub88(
    gameCode: str,
    request: Request,
    session: SessionDep,
    member: CurrentMember,
    language: RequestLanguage,
) -> LinkOut:
    """A launch link of a Hub88 game, with a fresh session token for the caller."""
    ensure_may_play(member)
    card = await _lobby_card(request, session, HUB88)
    known = await session.execute(
        select(SeamlessGame.id).where(
            SeamlessGame.provider == HUB88,
            SeamlessGame.game_code == gameCode,
            SeamlessGame.enabled.is_(True),
        )
    )
    if known.first() is None:
        raise NoGame()
    await ensure_available(request.app, session, [card.code])
    token = await tokens.issue(
        session, provider=HUB88, member_id=member.id, game_code=gameCode, currency=member.currency
    )
    # The token must exist before the aggregator can call back with it.
    await session.commit()
    try:
        link = await game_url(
            request.app,
            user=user_of(member.id),
            token=token,
            game_code=gameCode,
            currency=member.currency,
            country=_COUNTRY[member.currency],
            # The locale's code, not the Language object (its str() is a dataclass repr).
            lang=_HUB88_LANGUAGE.get(language.locale, language.locale),
            mobile="Mobi" in request.headers.get("user-agent", ""),
            lobby_url="/user/home",
        )
    except Hub88Error as exc:
        raise LaunchFailed() from exc
    return LinkOut(link=link)
