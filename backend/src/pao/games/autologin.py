"""Auto-login (spec §7): ``GET /api/autoLogin/<game>/{username}[/{password}]`` → ``{link}``.

The path carries the game account's username (and for some games its password), as the
original client sends them; Pao only ever launches the *caller's own* account: a username or
password that is not the caller's answers the game's not-found code (never a link), so a
member cannot obtain a session on someone else's game account. The launch codes without an
auto-login route hand their credentials to the provider's login page instead
(:data:`CREDENTIAL_FORM_CODES`). A game whose provider is in maintenance or down answers
PROVIDER_MAINTENANCE / PROVIDER_UNAVAILABLE (pao.games.availability).
"""

from __future__ import annotations

import secrets
from typing import Any

from fastapi import APIRouter, Request

from pao.core.errors import AppError
from pao.core.openapi import AUTH_ERRORS, errors
from pao.core.uow import SessionDep, UnitOfWorkRoute
from pao.games.availability import ensure_available
from pao.games.providers import provider_for
from pao.games.providers.base import ProviderError
from pao.games.schemas import LinkOut
from pao.games.service import no_account_error, own_account
from pao.identity.deps import CurrentMember


class LaunchFailed(AppError):
    status_code = 503
    code = "INTERNAL_SERVER_ERROR"


router = APIRouter(route_class=UnitOfWorkRoute)

# path segment → game code, and whether the path carries the password too.
AUTOLOGIN_PATHS: dict[str, tuple[str, bool]] = {
    "pg": ("PG", False),
    "betflix": ("BETFLIX", False),
    "askmebet": ("ASKMEBET", True),
    "imi": ("IMI", True),
    "usun": ("USUN", True),
    "areaslot": ("AREASLOT", False),
    "circus": ("CIRCUS", True),
    "slotracha": ("SLOTRACHA", True),
    "pgslot": ("PGSLOT", True),
    "joker2": ("JOKER2", False),
    "huayhd": ("HUAYHD", False),
}

# The other launch codes of spec §9 whose provider takes the player's credentials on its own
# login page: the client hands the game account's username and password to the game's web link
# in its fragment (``#username=…&password=…``), which the provider's page fills in and sends
# (the sandbox does, pao.sandbox.games.pages). Every demo launch code is in exactly one of the
# two tables; any other code opens its plain link.
CREDENTIAL_FORM_CODES: frozenset[str] = frozenset(
    {"JOKER", "SEXYGAME", "UFABET", "SUPERSLOT", "SLOTXO"}
)


async def launch_own(
    request: Request,
    session: SessionDep,
    member_id: int,
    code: str,
    username: str,
    password: str | None,
) -> LinkOut:
    account = await own_account(session, member_id=member_id, game_code=code)
    same_user = secrets.compare_digest(account.username.encode(), username.encode())
    same_password = password is None or secrets.compare_digest(
        account.password.encode(), password.encode()
    )
    if not (same_user and same_password):
        raise no_account_error(code)
    await ensure_available(request.app, session, [code])
    # Nothing is written: end the read transaction before calling the provider.
    await session.commit()
    try:
        link = await provider_for(request.app, game_code=code).launch_link(
            username=account.username
        )
    except ProviderError as exc:
        raise LaunchFailed() from exc
    return LinkOut(link=link)


def _codes(code: str) -> str:
    return "NO_GAME | SLOT_NO_ACCOUNT" + (" | NOT_AREASLOT" if code == "AREASLOT" else "")


def _add_route(segment: str, code: str, with_password: bool) -> None:
    responses: dict[int | str, dict[str, Any]] = {
        **AUTH_ERRORS,
        **errors(
            _400="PROVIDER_MAINTENANCE | PROVIDER_UNAVAILABLE",
            _404=_codes(code),
            _503="INTERNAL_SERVER_ERROR",
        ),
    }
    name = f"autoLogin{segment[0].upper()}{segment[1:]}"
    if with_password:

        async def with_pw(
            username: str,
            password: str,
            request: Request,
            session: SessionDep,
            member: CurrentMember,
        ) -> LinkOut:
            return await launch_own(request, session, member.id, code, username, password)

        with_pw.__doc__ = f"A launch link for the caller's own {code} account."
        router.add_api_route(
            f"/api/autoLogin/{segment}/{{username}}/{{password}}",
            with_pw,
            methods=["GET"],
            operation_id=name,
            tags=["autoLogin"],
            response_model=LinkOut,
            responses=responses,
        )
    else:

        async def without_pw(
            username: str, request: Request, session: SessionDep, member: CurrentMember
        ) -> LinkOut:
            return await launch_own(request, session, member.id, code, username, None)

        without_pw.__doc__ = f"A launch link for the caller's own {code} account."
        router.add_api_route(
            f"/api/autoLogin/{segment}/{{username}}",
            without_pw,
            methods=["GET"],
            operation_id=name,
            tags=["autoLogin"],
            response_model=LinkOut,
            responses=responses,
        )


for _segment, (_code, _with_password) in AUTOLOGIN_PATHS.items():
    _add_route(_segment, _code, _with_password)
