"""``/api/backoffice/chat``: the support inbox of the back office (``chat.use``).

The inbox's views (mine, unassigned, all) and the assignment of a conversation to a staff
member. The rules live in :mod:`pao.support.assignment`; these routes check the permission,
call it, write the audit row, and after the commit tell every agent's socket who now holds
the conversation. Messages themselves keep flowing through ``/api/agent/*`` and socket.io
(a staff session's token is the agent token there).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import BackgroundTasks, Depends, Query, Request

from pao.backoffice.audit import service as audit
from pao.backoffice.chat.schemas import (
    AssignIn,
    ChatAgentOut,
    InboxConversationOut,
    InboxQuery,
)
from pao.backoffice.deps import actor_of, require
from pao.backoffice.models import Staff
from pao.backoffice.routing import AUTHENTICATED, backoffice_router
from pao.backoffice.staff.roles import Permission
from pao.core.openapi import VALIDATION, errors
from pao.core.params import DbId
from pao.core.uow import SessionDep
from pao.kit.pagination import Page
from pao.support import assignment, service
from pao.support.agents import AgentDirectory, directory
from pao.support.socket import ChatHub

router = backoffice_router()

ChatAgent = Annotated[Staff, Depends(require(Permission.CHAT_USE))]
NOT_FOUND = errors(_404="CHAT_CONVERSATION_NOT_FOUND")
AUDIT_OBJECT = "chat_conversation"


async def _entry(
    request: Request, session: SessionDep, conversation_id: int
) -> InboxConversationOut:
    conversation = await service.get_conversation(session, conversation_id=conversation_id)
    (entry,) = await assignment.entries(
        session, agents=directory(request), conversations=[conversation]
    )
    return InboxConversationOut.of(entry)


def _announce(request: Request, background: BackgroundTasks, out: InboxConversationOut) -> None:
    hub: ChatHub = request.app.state.chat
    background.add_task(
        hub.announce_assignment,
        conversation_id=out.id,
        assigned_staff_id=out.assigned_staff_id,
        assigned_name=out.assigned_name,
        assigned_at=out.assigned_at.isoformat() if out.assigned_at else None,
    )


@router.get(
    "/chat/conversations",
    operation_id="backofficeChatInbox",
    response_model=Page[InboxConversationOut],
    responses={**AUTHENTICATED, **VALIDATION},
    summary="The support inbox: conversations of a view (mine, unassigned, all), one page, "
    "with unread counts and assignees",
)
async def inbox(
    query: Annotated[InboxQuery, Query()],
    request: Request,
    session: SessionDep,
    staff: ChatAgent,
) -> Page[InboxConversationOut]:
    found, total = await assignment.inbox(
        session,
        agents=directory(request),
        view=query.view,
        me=staff.id,
        offset=(query.page - 1) * query.limit,
        limit=query.limit,
        sort=query.sort,
    )
    return Page[InboxConversationOut].of(found, InboxConversationOut.of, total=total, request=query)


@router.get(
    "/chat/conversations/{conversation_id}",
    operation_id="backofficeChatConversation",
    response_model=InboxConversationOut,
    responses={**AUTHENTICATED, **NOT_FOUND, **VALIDATION},
    summary="One conversation of the inbox, with its assignee",
)
async def conversation(
    conversation_id: DbId, request: Request, session: SessionDep, staff: ChatAgent
) -> InboxConversationOut:
    return await _entry(request, session, conversation_id)


@router.get(
    "/chat/agents",
    operation_id="backofficeChatAgents",
    response_model=list[ChatAgentOut],
    responses=AUTHENTICATED,
    summary="The staff a conversation may be assigned to (active, with chat.use), by name",
)
async def agents(request: Request, session: SessionDep, staff: ChatAgent) -> list[ChatAgentOut]:
    found: AgentDirectory = directory(request)
    return [ChatAgentOut.of(a) for a in await found.all_assignable(session)]


@router.post(
    "/chat/conversations/{conversation_id}/assign",
    operation_id="backofficeChatAssign",
    response_model=InboxConversationOut,
    responses={
        **AUTHENTICATED,
        **NOT_FOUND,
        **errors(
            _409="CHAT_ALREADY_ASSIGNED (with assignedStaffId)",
            _422="CHAT_ASSIGNEE_NOT_AGENT",
        ),
        **VALIDATION,
    },
    summary="Assign a conversation to a staff member who may use the chat (oneself or "
    "another); taking it from another agent needs replace",
)
async def assign(
    conversation_id: DbId,
    body: AssignIn,
    request: Request,
    background: BackgroundTasks,
    session: SessionDep,
    staff: ChatAgent,
) -> InboxConversationOut:
    done = await assignment.assign(
        session,
        agents=directory(request),
        conversation_id=conversation_id,
        agent_id=body.staff_id,
        replace=body.replace,
    )
    await audit.record(
        session,
        actor=actor_of(request),
        action="chat.assign",
        object_type=AUDIT_OBJECT,
        object_id=conversation_id,
        before={"assignedStaffId": done.before},
        after={"assignedStaffId": done.after},
    )
    out = await _entry(request, session, conversation_id)
    if done.changed:
        _announce(request, background, out)
    return out


@router.post(
    "/chat/conversations/{conversation_id}/unassign",
    operation_id="backofficeChatUnassign",
    response_model=InboxConversationOut,
    responses={**AUTHENTICATED, **NOT_FOUND, **VALIDATION},
    summary="Release a conversation back to the unassigned queue",
)
async def unassign(
    conversation_id: DbId,
    request: Request,
    background: BackgroundTasks,
    session: SessionDep,
    staff: ChatAgent,
) -> InboxConversationOut:
    done = await assignment.unassign(session, conversation_id=conversation_id)
    await audit.record(
        session,
        actor=actor_of(request),
        action="chat.unassign",
        object_type=AUDIT_OBJECT,
        object_id=conversation_id,
        before={"assignedStaffId": done.before},
        after={"assignedStaffId": done.after},
    )
    out = await _entry(request, session, conversation_id)
    if done.changed:
        _announce(request, background, out)
    return out
