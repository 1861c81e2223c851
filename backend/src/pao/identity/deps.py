"""``CurrentMember``: the member behind the bearer token, or 401 ``invalid-token``.

The rules (a token, an open login session, an active member) are also here as plain
functions, for a read that loads the login together with its data in one statement
(pao.wallet.screen)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy import ScalarSelect, bindparam, inspect, select
from sqlalchemy.ext.asyncio import AsyncSession

from pao.core import executor
from pao.core.errors import Unauthorized
from pao.core.security import token_digest
from pao.core.uow import SessionDep
from pao.identity.models import LoginSession, Member, MemberStatus
from pao.kit.clock import utcnow

bearer = HTTPBearer(auto_error=False, description="The token from POST /api/login.")

# Every authenticated call runs this, so it is built once. The member comes in the same query
# (one round trip less).
_LOGIN = (
    select(LoginSession, Member)
    .join(Member, Member.id == LoginSession.member_id)
    .where(LoginSession.token_digest == bindparam("digest"))
)
_LOGIN_COLUMNS = len(inspect(LoginSession).column_attrs)  # the session's, then the member's


BearerCredentials = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]


def bearer_digest(credentials: HTTPAuthorizationCredentials | None) -> str:
    """The stored digest of the bearer token (401 without a token)."""
    if credentials is None or not credentials.credentials:
        raise Unauthorized()
    return token_digest(credentials.credentials)


def member_id_of_token() -> ScalarSelect[int]:
    """The member id of the login whose digest is the statement's ``digest`` parameter, as a
    scalar subquery (a gate's expression inside a request that is one statement, ADR 0039)."""
    logins = LoginSession.__table__
    return (
        select(logins.c.member_id)
        .where(logins.c.token_digest == bindparam("digest"))
        .scalar_subquery()
    )


def require_open_login(*, revoked_at: datetime | None, expires_at: datetime) -> None:
    """401 unless the login session is neither revoked nor expired."""
    if revoked_at is not None or expires_at <= utcnow():
        raise Unauthorized()


def require_active_member(status: str) -> None:
    """401 unless the member may use the API."""
    if status != MemberStatus.ACTIVE:
        raise Unauthorized()


async def _login(
    session: AsyncSession, credentials: HTTPAuthorizationCredentials | None
) -> tuple[LoginSession, Member]:
    """The open login session of the bearer token and its member, both in ``session``."""
    # On PostgreSQL on the driver, in the request's transaction (pao.core.executor).
    row = await executor.fetch_one_or_none(session, _LOGIN, {"digest": bearer_digest(credentials)})
    if row is None:
        raise Unauthorized()
    login = executor.attach(session, LoginSession, row[:_LOGIN_COLUMNS])
    require_open_login(revoked_at=login.revoked_at, expires_at=login.expires_at)
    return login, executor.attach(session, Member, row[_LOGIN_COLUMNS:])


async def current_login(session: SessionDep, credentials: BearerCredentials) -> LoginSession:
    login, _member = await _login(session, credentials)
    return login


async def current_member(session: SessionDep, credentials: BearerCredentials) -> Member:
    # Not built on current_login: every member route solves this, and each level of
    # dependencies costs FastAPI work per request (docs/benchmarks.md, the withdrawal's profile).
    _login_session, member = await _login(session, credentials)
    require_active_member(member.status)
    return member


async def request_member(request: Request, session: AsyncSession) -> Member:
    """:func:`current_member` outside FastAPI's dependency solving: for a lean endpoint
    (pao.core.fast_lane), the bearer token read by the same ``HTTPBearer``."""
    return await current_member(session, await bearer(request))


async def member_if_signed_in(
    session: AsyncSession, credentials: BearerCredentials
) -> Member | None:
    """The active member behind the bearer token, or ``None`` (no token, or not a member's
    open login): for the answers that need no login but follow the member when there is one
    (the lookups' money numbers are the member's own currency's)."""
    if credentials is None or not credentials.credentials:
        return None
    try:
        _login_session, member = await _login(session, credentials)
        require_active_member(member.status)
    except Unauthorized:
        return None
    return member


CurrentLogin = Annotated[LoginSession, Depends(current_login)]
CurrentMember = Annotated[Member, Depends(current_member)]
