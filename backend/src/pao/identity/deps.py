"""``CurrentMember``: the member behind the bearer token, or 401 ``invalid-token``."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy import bindparam, select

from pao.core.errors import Unauthorized
from pao.core.security import token_digest
from pao.core.uow import SessionDep
from pao.identity.models import LoginSession, Member, MemberStatus
from pao.kit.clock import utcnow

bearer = HTTPBearer(auto_error=False, description="The token from POST /api/login.")

# Every authenticated call runs this, so it is built once. The member comes in the same query
# (one round trip less): it lands in the session's identity map, where current_member's
# session.get finds it.
_LOGIN = (
    select(LoginSession, Member)
    .join(Member, Member.id == LoginSession.member_id)
    .where(LoginSession.token_digest == bindparam("digest"))
)


async def current_login(
    request: Request,
    session: SessionDep,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
) -> LoginSession:
    if credentials is None or not credentials.credentials:
        raise Unauthorized()
    row = (await session.execute(_LOGIN, {"digest": token_digest(credentials.credentials)})).first()
    login = row[0] if row is not None else None
    if login is None or login.revoked_at is not None or login.expires_at <= utcnow():
        raise Unauthorized()
    request.state.login = login
    # The identity map holds objects weakly: keep the member alive until current_member runs.
    request.state.login_member = row[1] if row is not None else None
    return login


async def current_member(
    session: SessionDep, login: Annotated[LoginSession, Depends(current_login)]
) -> Member:
    member = await session.get(Member, login.member_id)
    if member is None or member.status != MemberStatus.ACTIVE:
        raise Unauthorized()
    return member


CurrentLogin = Annotated[LoginSession, Depends(current_login)]
CurrentMember = Annotated[Member, Depends(current_member)]
