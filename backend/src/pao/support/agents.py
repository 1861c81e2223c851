"""Agent accounts and their tokens (a token type of their own, see :mod:`.models`).

``CurrentAgent`` is the agent behind the bearer token of an ``/api/agent/*`` call; it looks
only in ``chat_agent_sessions``, so a member's token is refused there (and
:data:`pao.identity.deps.CurrentMember` looks only in ``login_sessions``).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Annotated

from fastapi import Depends
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from pao.core.errors import BadRequest, Conflict, Unauthorized
from pao.core.security import hash_password, new_token, token_digest, verify_password
from pao.core.uow import SessionDep
from pao.kit.clock import utcnow
from pao.support.exceptions import AgentWrongCredential
from pao.support.models import AgentSession, ChatAgent

AGENT_SESSION_TTL = timedelta(hours=12)
MIN_PASSWORD = 8

agent_bearer = HTTPBearer(
    auto_error=False, scheme_name="AgentBearer", description="The token of POST /api/agent/login."
)


async def create_agent(
    session: AsyncSession, *, login: str, password: str, display_name: str | None = None
) -> ChatAgent:
    login = login.strip()
    if not login or len(login) > 40:
        raise BadRequest("KEY_INVALID", field="login")
    if len(password) < MIN_PASSWORD:
        raise BadRequest("KEY_INVALID", field="password")
    exists = await session.execute(select(ChatAgent.id).where(ChatAgent.login == login))
    if exists.scalar_one_or_none() is not None:
        raise Conflict("EXISTING_USER")
    agent = ChatAgent(
        login=login,
        display_name=(display_name or login).strip()[:80],
        password_hash=hash_password(password),
    )
    session.add(agent)
    await session.flush()
    return agent


async def log_in(session: AsyncSession, *, login: str, password: str) -> tuple[str, ChatAgent]:
    agent = (
        await session.execute(select(ChatAgent).where(ChatAgent.login == login.strip()))
    ).scalar_one_or_none()
    # verify_password costs the same with no hash, so timing does not reveal agent names.
    ok = verify_password(agent.password_hash if agent else None, password)
    if agent is None or not ok or not agent.active:
        raise AgentWrongCredential()
    token = new_token()
    now = utcnow()
    session.add(
        AgentSession(
            agent_id=agent.id,
            token_digest=token_digest(token),
            created_at=now,
            expires_at=now + AGENT_SESSION_TTL,
        )
    )
    await session.flush()
    return token, agent


async def agent_for_token(session: AsyncSession, token: str | None) -> ChatAgent | None:
    if not token:
        return None
    found = (
        await session.execute(
            select(AgentSession).where(AgentSession.token_digest == token_digest(token))
        )
    ).scalar_one_or_none()
    if found is None or found.revoked_at is not None or found.expires_at <= utcnow():
        return None
    agent = await session.get(ChatAgent, found.agent_id)
    return agent if agent is not None and agent.active else None


async def log_out(session: AsyncSession, *, token: str) -> None:
    found = (
        await session.execute(
            select(AgentSession).where(AgentSession.token_digest == token_digest(token))
        )
    ).scalar_one_or_none()
    if found is not None and found.revoked_at is None:
        found.revoked_at = utcnow()
        await session.flush()


async def current_agent(
    session: SessionDep,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(agent_bearer)],
) -> ChatAgent:
    agent = await agent_for_token(session, credentials.credentials if credentials else None)
    if agent is None:
        raise Unauthorized()
    return agent


CurrentAgent = Annotated[ChatAgent, Depends(current_agent)]
AgentCredentials = Annotated[HTTPAuthorizationCredentials | None, Depends(agent_bearer)]
