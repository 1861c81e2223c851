"""Wire shapes of the back office's support inbox (``/api/backoffice/chat``), camelCase.

A conversation's last message keeps the chat's own wire form (``ConversationOut``, as the
socket's ``messaging`` event delivers it), so the screen renders both the same way.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import Field

from pao.backoffice.schemas import _Wire, _WireIn
from pao.core.params import MAX_BODY_ID
from pao.support import service
from pao.support.agents import Agent
from pao.support.assignment import InboxEntry, InboxSort, InboxView
from pao.support.schemas import ConversationOut


class InboxQuery(_WireIn):
    view: InboxView = Field(
        default="all",
        description="mine: assigned to the caller; unassigned: nobody's yet; all.",
    )
    page: int = Field(default=1, ge=1, le=100_000)
    limit: int = Field(default=50, ge=1, le=100)
    sort: InboxSort = "-lastMessageAt"


class InboxConversationOut(_Wire):
    id: int
    member_id: int | None = Field(
        description="The member chatting (a LINE user: the member it linked to); null for a guest."
    )
    channel: Literal["web", "line"] = Field(description="Where the customer writes from.")
    name: str
    username: str | None = Field(description="A member's phone number.")
    unread: int = Field(description="The customer's messages no agent has read yet.")
    wants_agent: bool = Field(description="The customer asked the bot for a human.")
    last_message_at: datetime | None
    last_message: ConversationOut | None
    assigned_staff_id: int | None
    assigned_name: str | None
    assigned_at: datetime | None

    @classmethod
    def of(cls, entry: InboxEntry) -> InboxConversationOut:
        c = entry.conversation
        last = entry.last_message
        return cls(
            id=c.id,
            member_id=entry.member_id,
            channel="line" if c.line_user_id else "web",
            name=c.display_name,
            username=c.username,
            unread=c.agent_unread,
            wants_agent=c.wants_agent,
            last_message_at=c.last_message_at,
            last_message=(
                service.to_wire(last, c, names=entry.names, for_agent=True) if last else None
            ),
            assigned_staff_id=c.assigned_staff_id,
            assigned_name=entry.assignee_name,
            assigned_at=c.assigned_at,
        )


class AssignIn(_WireIn):
    staff_id: int = Field(ge=1, le=MAX_BODY_ID, description="An active staff member with chat.use.")
    replace: bool = Field(
        default=False,
        description="Take the conversation over from the agent holding it (else 409 "
        "CHAT_ALREADY_ASSIGNED).",
    )


class ChatAgentOut(_Wire):
    id: int
    login: str
    display_name: str

    @classmethod
    def of(cls, agent: Agent) -> ChatAgentOut:
        return cls(id=agent.id, login=agent.login, display_name=agent.display_name)
