"""Who works a conversation: assigning it to an agent, releasing it, and the inbox's views.

A conversation is assigned to at most one agent (``assigned_staff_id``). Taking one that
someone else holds needs ``replace`` (an explicit hand-over), so two agents who both click
"assign to me" on the same new conversation never both believe they have it: the row is
locked (``FOR UPDATE`` on PostgreSQL, the write lock on SQLite) and the second one gets
409 ``CHAT_ALREADY_ASSIGNED``. Who may be an assignee is the agent directory's answer (an
active staff member whose role may use the chat), so this module never imports the back
office. Like :mod:`pao.support.service`, nothing here commits or talks to sockets.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from sqlalchemy import Select, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from pao.kit.clock import utcnow
from pao.support.agents import AgentDirectory
from pao.support.exceptions import AlreadyAssigned, AssigneeNotAgent, ConversationNotFound
from pao.support.line.models import LineContact
from pao.support.models import ChatConversation, ChatMessage

InboxView = Literal["mine", "unassigned", "all"]
InboxSort = Literal["lastMessageAt", "-lastMessageAt", "unread", "-unread"]


@dataclass(frozen=True)
class Assignment:
    """The outcome of an assign or unassign: the conversation, and who held it before."""

    conversation: ChatConversation
    before: int | None

    @property
    def after(self) -> int | None:
        return self.conversation.assigned_staff_id

    @property
    def changed(self) -> bool:
        return self.before != self.after


@dataclass(frozen=True)
class InboxEntry:
    """One conversation of the inbox with its last message and its assignee's name."""

    conversation: ChatConversation
    last_message: ChatMessage | None
    assignee_name: str | None
    # Names of the agents involved (assignee, last message's author), for the wire form.
    names: dict[int, str]
    # A LINE user's conversation: the member that LINE user linked to (pao.support.line).
    linked_member_id: int | None = None

    @property
    def member_id(self) -> int | None:
        return self.conversation.member_id or self.linked_member_id


async def lock_conversation(session: AsyncSession, conversation_id: int) -> ChatConversation:
    """The conversation under a row lock, fresh from the database, or 404."""
    query = (
        select(ChatConversation)
        .where(ChatConversation.id == conversation_id)
        .with_for_update()
        .execution_options(populate_existing=True)
    )
    conversation = (await session.execute(query)).scalar_one_or_none()
    if conversation is None:
        raise ConversationNotFound()
    return conversation


async def assign(
    session: AsyncSession,
    *,
    agents: AgentDirectory,
    conversation_id: int,
    agent_id: int,
    replace: bool = False,
) -> Assignment:
    """Give the conversation to ``agent_id``. Held by another agent: 409 unless ``replace``.
    Assigning it to whoever holds it already changes nothing (a repeated click is harmless)."""
    conversation = await lock_conversation(session, conversation_id)
    if await agents.assignable(session, agent_id) is None:
        raise AssigneeNotAgent()
    before = conversation.assigned_staff_id
    if before == agent_id:
        return Assignment(conversation, before)
    if before is not None and not replace:
        raise AlreadyAssigned(assignedStaffId=before)
    conversation.assigned_staff_id = agent_id
    conversation.assigned_at = utcnow()
    await session.flush()
    return Assignment(conversation, before)


async def unassign(session: AsyncSession, *, conversation_id: int) -> Assignment:
    """Release the conversation back to the unassigned queue (already free: no change)."""
    conversation = await lock_conversation(session, conversation_id)
    before = conversation.assigned_staff_id
    if before is not None:
        conversation.assigned_staff_id = None
        conversation.assigned_at = None
        await session.flush()
    return Assignment(conversation, before)


def _in_view(query: Select[Any], view: InboxView, me: int) -> Select[Any]:
    # Only conversations with a message: an opened, silent widget is not work for anyone.
    query = query.where(ChatConversation.last_message_at.is_not(None))
    if view == "mine":
        return query.where(ChatConversation.assigned_staff_id == me)
    if view == "unassigned":
        return query.where(ChatConversation.assigned_staff_id.is_(None))
    return query


_SORTS = {
    "lastMessageAt": ChatConversation.last_message_at,
    "unread": ChatConversation.agent_unread,
}


async def inbox(
    session: AsyncSession,
    *,
    agents: AgentDirectory,
    view: InboxView,
    me: int,
    offset: int,
    limit: int,
    sort: InboxSort = "-lastMessageAt",
) -> tuple[list[InboxEntry], int]:
    """One page of the ``view`` (``me``: the asking agent, for "mine") and the count of all."""
    total = await session.scalar(
        _in_view(select(func.count()).select_from(ChatConversation), view, me)
    )
    column = _SORTS[sort.lstrip("-")]
    descending = sort.startswith("-")
    # The id breaks ties in the same direction, so a page boundary is stable.
    order = (
        (column.desc(), ChatConversation.id.desc())
        if descending
        else (
            column.asc(),
            ChatConversation.id.asc(),
        )
    )
    rows = await session.execute(
        _in_view(select(ChatConversation), view, me).order_by(*order).offset(offset).limit(limit)
    )
    conversations = list(rows.scalars().all())
    return await entries(session, agents=agents, conversations=conversations), int(total or 0)


async def entries(
    session: AsyncSession, *, agents: AgentDirectory, conversations: list[ChatConversation]
) -> list[InboxEntry]:
    """The conversations with their last messages and assignees' names (three queries)."""
    ids = [c.id for c in conversations]
    last_by: dict[int, ChatMessage] = {}
    if ids:
        last_ids = (
            select(func.max(ChatMessage.id))
            .where(ChatMessage.conversation_id.in_(ids))
            .group_by(ChatMessage.conversation_id)
        )
        last = await session.execute(select(ChatMessage).where(ChatMessage.id.in_(last_ids)))
        last_by = {m.conversation_id: m for m in last.scalars()}
    people = {c.assigned_staff_id for c in conversations if c.assigned_staff_id is not None}
    people |= {m.agent_id for m in last_by.values() if m.agent_id is not None}
    names = await agents.display_names(session, people) if people else {}
    line_users = [c.line_user_id for c in conversations if c.line_user_id]
    linked: dict[str, int] = {}
    if line_users:
        rows = await session.execute(
            select(LineContact.line_user_id, LineContact.member_id).where(
                LineContact.line_user_id.in_(line_users), LineContact.member_id.is_not(None)
            )
        )
        linked = {user: member for user, member in rows.all() if member is not None}
    return [
        InboxEntry(
            conversation=c,
            last_message=last_by.get(c.id),
            assignee_name=names.get(c.assigned_staff_id) if c.assigned_staff_id else None,
            names=names,
            linked_member_id=linked.get(c.line_user_id) if c.line_user_id else None,
        )
        for c in conversations
    ]
