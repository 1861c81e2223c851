"""Who answers the chat on the operator's side, as the chat sees it.

The chat does not own operator accounts: the back office does (staff with the ``chat.use``
permission). The chat declares what it needs of them, :class:`AgentDirectory`, and the app
hands it an implementation when it wires the chat (``pao.main``), so this package never
imports the back office (docs/adr/0008-staff-identity-and-permissions.md).

``CurrentAgent`` is the agent behind the bearer token of an ``/api/agent/*`` call, or 401
``invalid-token``; the directory finds only staff sessions, so a member's token is refused.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Annotated, Protocol

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy.ext.asyncio import AsyncSession

from pao.core.errors import Unauthorized
from pao.core.uow import SessionDep


@dataclass(frozen=True)
class Agent:
    """An operator answering the chat (its id is what ``chat_messages.agent_id`` holds)."""

    id: int
    login: str
    display_name: str


class AgentDirectory(Protocol):
    """The operator accounts the chat works with."""

    async def agent_for_token(self, session: AsyncSession, token: str) -> Agent | None:
        """The agent of a live operator session whose holder may use the chat, else ``None``."""
        ...

    async def display_names(self, session: AsyncSession, ids: Collection[int]) -> dict[int, str]:
        """The names customers see for these agent ids (unknown ids are left out)."""
        ...

    async def assignable(self, session: AsyncSession, agent_id: int) -> Agent | None:
        """The agent ``agent_id`` if a conversation may be assigned to them (an active
        operator account that may use the chat), else ``None``."""
        ...

    async def all_assignable(self, session: AsyncSession) -> list[Agent]:
        """Every agent a conversation may be assigned to, by name."""
        ...


agent_bearer = HTTPBearer(
    auto_error=False,
    scheme_name="AgentBearer",
    description="A staff session token (POST /api/backoffice/auth/totp) of a staff member "
    "who may use the chat.",
)


def directory(request: Request) -> AgentDirectory:
    agents: AgentDirectory = request.app.state.chat.agents
    return agents


async def current_agent(
    request: Request,
    session: SessionDep,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(agent_bearer)],
) -> Agent:
    token = credentials.credentials if credentials is not None else ""
    agent = await directory(request).agent_for_token(session, token) if token else None
    if agent is None:
        raise Unauthorized()
    return agent


CurrentAgent = Annotated[Agent, Depends(current_agent)]
