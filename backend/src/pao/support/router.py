"""HTTP routes of the chat (spec §7 Chat) and of the agent inbox (``/api/agent/*``).

Agents are staff members who may use the chat; they log in through the back office
(``/api/backoffice/auth/*``, password and TOTP) and call ``/api/agent/*`` with that staff
session's token (:mod:`pao.support.agents`).

Customers are members (bearer token of ``POST /api/login``) or guests. A guest sends its
guest id — a random v4 UUID the browser created and keeps in local storage — in the
``X-Guest-Id`` header; the id is the guest's only credential (122 random bits), and every body
that names a guest id must name that one. Media are served by ``GET /api/chat/media/{key}``
(and ``/api/agent/media/{key}``) with the same credentials, so the browser fetches them with
its headers; there is no public URL of a chat file.

Messages are delivered to the socket.io rooms in a background task, that is after the
transaction committed and the response was sent.
"""

from __future__ import annotations

from enum import Enum
from typing import Annotated, Any

from fastapi import (
    APIRouter,
    BackgroundTasks,
    Depends,
    File,
    Header,
    Query,
    Request,
    Response,
    UploadFile,
)
from fastapi.routing import APIRoute
from fastapi.security import HTTPAuthorizationCredentials
from sqlalchemy.ext.asyncio import AsyncSession

from pao.core.errors import Forbidden, Unauthorized
from pao.core.fast_lane import LeanEndpoint, declared_route, lean_post
from pao.core.language import VARY_LANGUAGE, Language, RequestLanguage, lean_language
from pao.core.openapi import VALIDATION, errors
from pao.core.params import DbId
from pao.core.uow import SessionDep, UnitOfWorkRoute
from pao.identity.deps import bearer, current_member
from pao.site.settings import SiteSettings, load_site_settings
from pao.support import bot, service
from pao.support.agents import Agent, CurrentAgent, directory
from pao.support.exceptions import (
    ChatRateLimited,
    InvalidGuest,
    MediaNotFound,
    NotOwner,
)
from pao.support.line import outbound as line_outbound
from pao.support.models import ChatConversation, ChatMessage
from pao.support.schemas import (
    GUEST_ID,
    AgentHistoryIn,
    AgentOut,
    AgentSendIn,
    ChatConfigOut,
    ConversationOut,
    ConversationSummaryOut,
    HistoryIn,
    ReadIn,
    ReadOut,
    SendMessageIn,
    SentOut,
    UploadOut,
)
from pao.support.service import Customer
from pao.support.socket import ChatHub
from pao.support.uploads import MediaKind

router = APIRouter(route_class=UnitOfWorkRoute)

CHAT_TAGS: list[str | Enum] = ["chat"]
AGENT_TAGS: list[str | Enum] = ["agent"]
GUEST_HEADER = "X-Guest-Id"
SENDS_PER_MINUTE = 30
UPLOADS_PER_MINUTE = 10

CUSTOMER_ERRORS = {
    **errors(_401="invalid-token | CHAT_INVALID_GUEST", _403="CHAT_NOT_OWNER", _410="gone"),
    **VALIDATION,
}
MEDIA_TYPES: dict[str, dict[str, Any]] = {
    "image/png": {},
    "image/jpeg": {},
    "image/gif": {},
    "video/mp4": {},
    "video/quicktime": {},
}


def _hub(request: Request) -> ChatHub:
    hub: ChatHub = request.app.state.chat
    return hub


async def current_customer(
    session: SessionDep,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
    guest_id: Annotated[
        str | None,
        Header(
            alias=GUEST_HEADER,
            description="A guest's own id (a v4 UUID), when there is no member token.",
        ),
    ] = None,
) -> Customer:
    if credentials is not None and credentials.credentials:
        return Customer(member=await current_member(session, credentials))
    if guest_id is None:
        raise Unauthorized()
    if not GUEST_ID.fullmatch(guest_id):
        raise InvalidGuest()
    return Customer(guest_id=guest_id)


CurrentCustomer = Annotated[Customer, Depends(current_customer)]


def _check_owner(customer: Customer, *, user_id: str | None, guest_id: str | None) -> None:
    """A body may name only its caller (a member's guestId, if any, is ignored)."""
    if customer.member is not None:
        if user_id and user_id != customer.user_id:
            raise NotOwner()
        return
    if user_id or (guest_id and guest_id != customer.guest_id):
        raise NotOwner()


async def _limit(request: Request, key: str, per_minute: int) -> None:
    if await request.app.state.rate_limiter.incr(key, 60) > per_minute:
        raise ChatRateLimited()


async def _deliver(
    request: Request,
    background: BackgroundTasks,
    session: SessionDep,
    conversation: ChatConversation,
    messages: list[ChatMessage],
) -> None:
    hub = _hub(request)
    names = await service.agent_names(session, directory(request), messages)
    room = service.room_of(conversation, hub.prefix)
    for message in messages:
        background.add_task(
            hub.deliver,
            room=room,
            customer_view=service.to_wire(message, conversation, names=names),
            agent_view=service.to_wire(message, conversation, names=names, for_agent=True),
        )


async def _site(session: SessionDep) -> SiteSettings:
    return await load_site_settings(session)


Site = Annotated[SiteSettings, Depends(_site)]


def _chat_open(site: SiteSettings) -> None:
    if not site.enable_chat_widget:
        raise Forbidden("CHAT_DISABLED")


@router.get(
    "/api/chat/config",
    operation_id="chatConfig",
    tags=CHAT_TAGS,
    response_model=ChatConfigOut,
    responses=errors(_410="gone"),
    summary="The room prefix of the chat (rooms are PREFIX + userId or guestId)",
)
async def chat_config(request: Request) -> ChatConfigOut:
    return ChatConfigOut(prefix=_hub(request).prefix)


@router.post(
    "/api/chat/send-message",
    operation_id="chatSendMessage",
    tags=CHAT_TAGS,
    response_model=SentOut,
    responses={
        **CUSTOMER_ERRORS,
        **errors(
            _403="CHAT_NOT_OWNER | CHAT_DISABLED",
            _404="CHAT_MEDIA_NOT_FOUND",
            _422="CHAT_MESSAGE_EMPTY | CHAT_MESSAGE_TOO_LONG | KEY_MISSING | KEY_INVALID",
            _429="REQUEST_LIMIT",
        ),
    },
    summary="Send a customer message (text, media or postback); answers its stored time",
)
async def send_message(
    body: SendMessageIn,
    request: Request,
    background: BackgroundTasks,
    session: SessionDep,
    customer: CurrentCustomer,
    site: Site,
    language: RequestLanguage,
) -> SentOut:
    return await _send_message(request, background, session, customer, site, language, body)


async def send_message_lean(request: Request) -> Response | None:
    """``POST /api/chat/send-message`` as the fast lane serves it
    (:func:`pao.core.fast_lane.lean_post`): the route's own body, its dependencies taken as
    FastAPI takes them (the customer by :func:`current_customer`, the site's settings, the
    language), its delivery after the answer as a background task too."""
    language = lean_language(request)
    if language is None:
        return None
    background = BackgroundTasks()

    async def act(session: AsyncSession, body: SendMessageIn) -> SentOut:
        customer = await current_customer(
            session, await bearer(request), request.headers.get(GUEST_HEADER)
        )
        site = await load_site_settings(session)
        return await _send_message(request, background, session, customer, site, language, body)

    return await lean_post(
        request, SendMessageIn, SentOut, act, background=background, headers=VARY_LANGUAGE
    )


def lean_endpoints() -> list[tuple[APIRoute, LeanEndpoint]]:
    """The chat's routes the fast lane answers in front of the routing (as declared: their
    metrics label, their contract), with their lean endpoints: a message sent, which is what
    a chat is made of (issue 36's delivery to a room)."""
    return [(declared_route(router.routes, "/api/chat/send-message"), send_message_lean)]


async def _send_message(
    request: Request,
    background: BackgroundTasks,
    session: AsyncSession,
    customer: Customer,
    site: SiteSettings,
    language: Language,
    body: SendMessageIn,
) -> SentOut:
    _chat_open(site)
    _check_owner(customer, user_id=body.user_id, guest_id=body.guest_id)
    await _limit(request, f"chat-send:{customer.room('')}", SENDS_PER_MINUTE)
    conversation = await service.open_conversation(
        session, customer=customer, guest_name=body.name, locale=language.locale
    )
    stored = await service.store_message(
        session,
        conversation=conversation,
        sender="customer",
        message=body.message,
        client_id=body.client_id,
        session_id=body.session_id,
    )
    delivered = [stored]
    if site.chat_bot_enabled:
        reply = await bot.answer(
            session,
            site=site,
            conversation=conversation,
            incoming=body.message,
            agents_online=await _hub(request).agents_online(),
            language=language,
        )
        if reply is not None:
            delivered.append(reply)
    await _deliver(request, background, session, conversation, delivered)
    return SentOut(timestamp=stored.created_at, id=str(stored.id))


@router.post(
    "/api/chat/history",
    operation_id="chatHistory",
    tags=CHAT_TAGS,
    response_model=list[ConversationOut],
    responses=CUSTOMER_ERRORS,
    summary="The caller's messages, newest first (limit, skip)",
)
async def chat_history(
    body: HistoryIn, request: Request, session: SessionDep, customer: CurrentCustomer
) -> list[ConversationOut]:
    _check_owner(customer, user_id=body.user_id, guest_id=body.guest_id)
    conversation = await service.find_conversation(session, customer=customer)
    if conversation is None:
        return []
    messages = await service.history(
        session, conversation=conversation, limit=body.limit, skip=body.skip
    )
    names = await service.agent_names(session, directory(request), messages)
    return [service.to_wire(m, conversation, names=names) for m in messages]


@router.put(
    "/api/chat/read-customer/",
    operation_id="chatReadCustomer",
    tags=CHAT_TAGS,
    response_model=ReadOut,
    responses=CUSTOMER_ERRORS,
    summary="Mark the agents' messages read by the customer",
)
async def read_customer(
    body: ReadIn,
    request: Request,
    background: BackgroundTasks,
    session: SessionDep,
    customer: CurrentCustomer,
) -> ReadOut:
    _check_owner(customer, user_id=body.user_id, guest_id=body.guest_id)
    conversation = await service.find_conversation(session, customer=customer)
    if conversation is None:
        return ReadOut(read=0)
    read = await service.mark_read(session, conversation=conversation, by="customer")
    if read:
        background.add_task(
            _hub(request).announce_read, conversation_id=conversation.id, by="customer"
        )
    return ReadOut(read=read)


async def _customer_upload(
    request: Request,
    session: SessionDep,
    customer: Customer,
    site: SiteSettings,
    file: UploadFile,
    kind: MediaKind,
) -> UploadOut:
    _chat_open(site)
    await _limit(request, f"chat-upload:{customer.room('')}", UPLOADS_PER_MINUTE)
    conversation = await service.open_conversation(session, customer=customer)
    media = await service.save_media(
        session,
        store=request.app.state.file_store,
        conversation=conversation,
        kind=kind,
        file_name=file.filename,
        upload=file,
        uploaded_by="customer",
    )
    return UploadOut(path=media.key)


# An image declaring more pixels than pao.kit.images allows, besides the body's own checks.
IMAGE_422 = "KEY_MISSING | KEY_INVALID | IMAGE_DIMENSIONS_TOO_LARGE (with maxPixels)"
UPLOAD_ERRORS = {
    **CUSTOMER_ERRORS,
    **errors(
        _400="CHAT_FILE_NOT_SUPPORTED",
        _403="CHAT_NOT_OWNER | CHAT_DISABLED",
        _413="CHAT_FILE_TOO_LARGE (with maxMb)",
        _422=IMAGE_422,
        _429="REQUEST_LIMIT",
    ),
}
FileField = Annotated[UploadFile, File(description="The file (multipart field 'file').")]


@router.post(
    "/api/chat/upload-image",
    operation_id="chatUploadImage",
    tags=CHAT_TAGS,
    response_model=UploadOut,
    responses=UPLOAD_ERRORS,
    summary="Upload an image (png, jpeg, gif; 10 MB); answers its path for a media message",
)
async def upload_image(
    request: Request, session: SessionDep, customer: CurrentCustomer, site: Site, file: FileField
) -> UploadOut:
    return await _customer_upload(request, session, customer, site, file, "image")


@router.post(
    "/api/chat/upload-video",
    operation_id="chatUploadVideo",
    tags=CHAT_TAGS,
    response_model=UploadOut,
    responses=UPLOAD_ERRORS,
    summary="Upload a video (mp4, QuickTime; 20 MB); answers its path for a media message",
)
async def upload_video(
    request: Request, session: SessionDep, customer: CurrentCustomer, site: Site, file: FileField
) -> UploadOut:
    return await _customer_upload(request, session, customer, site, file, "video")


MEDIA_RESPONSES: dict[int | str, dict[str, Any]] = {
    200: {"content": MEDIA_TYPES, "description": "The file."}
}


async def _media_response(request: Request, key: str, content_type: str) -> Response:
    data = await request.app.state.file_store.get(key)
    # No caching header of its own: a member's file is an API answer like any other, never
    # stored by the browser (pao.core.security_headers: no-store, nosniff).
    return Response(content=data, media_type=content_type)


@router.get(
    "/api/chat/media/{key:path}",
    operation_id="chatMedia",
    tags=CHAT_TAGS,
    response_class=Response,
    responses={**MEDIA_RESPONSES, **CUSTOMER_ERRORS, **errors(_404="CHAT_MEDIA_NOT_FOUND")},
    summary="A file of the caller's conversation",
)
async def chat_media(
    key: str, request: Request, session: SessionDep, customer: CurrentCustomer
) -> Response:
    conversation = await service.find_conversation(session, customer=customer)
    if conversation is None:
        raise MediaNotFound()
    media = await service.media_of(session, key=key, conversation=conversation)
    return await _media_response(request, media.key, media.content_type)


# ----- agent inbox --------------------------------------------------------------------------

AGENT_ERRORS = {**errors(_401="invalid-token", _410="gone"), **VALIDATION}


def _agent_out(agent: Agent) -> AgentOut:
    return AgentOut(id=str(agent.id), username=agent.login, name=agent.display_name)


@router.get(
    "/api/agent/me",
    operation_id="agentMe",
    tags=AGENT_TAGS,
    response_model=AgentOut,
    responses=AGENT_ERRORS,
    summary="The agent behind the token",
)
async def agent_me(agent: CurrentAgent) -> AgentOut:
    return _agent_out(agent)


@router.get(
    "/api/agent/conversations",
    operation_id="agentConversations",
    tags=AGENT_TAGS,
    response_model=list[ConversationSummaryOut],
    responses=AGENT_ERRORS,
    summary="Conversations, most recent first, with the agents' unread counts",
)
async def agent_conversations(
    request: Request, session: SessionDep, agent: CurrentAgent
) -> list[ConversationSummaryOut]:
    return await service.list_conversations(session, agents=directory(request))


@router.get(
    "/api/agent/conversations/{conversation_id}/messages",
    operation_id="agentConversationMessages",
    tags=AGENT_TAGS,
    response_model=list[ConversationOut],
    responses={**AGENT_ERRORS, **errors(_404="CHAT_CONVERSATION_NOT_FOUND")},
    summary="A conversation's messages, newest first",
)
async def agent_messages(
    conversation_id: DbId,
    request: Request,
    session: SessionDep,
    agent: CurrentAgent,
    page: Annotated[AgentHistoryIn, Query()],
) -> list[ConversationOut]:
    conversation = await service.get_conversation(session, conversation_id=conversation_id)
    messages = await service.history(
        session, conversation=conversation, limit=page.limit, skip=page.skip
    )
    names = await service.agent_names(session, directory(request), messages)
    return [service.to_wire(m, conversation, names=names, for_agent=True) for m in messages]


@router.post(
    "/api/agent/conversations/{conversation_id}/messages",
    operation_id="agentSendMessage",
    tags=AGENT_TAGS,
    response_model=SentOut,
    responses={
        **AGENT_ERRORS,
        **errors(
            _404="CHAT_CONVERSATION_NOT_FOUND | CHAT_MEDIA_NOT_FOUND",
            _422="CHAT_MESSAGE_EMPTY | CHAT_MESSAGE_TOO_LONG | KEY_MISSING | KEY_INVALID",
        ),
    },
    summary="Reply: text, buttons, media, quick replies or generic cards",
)
async def agent_send(
    conversation_id: DbId,
    body: AgentSendIn,
    request: Request,
    background: BackgroundTasks,
    session: SessionDep,
    agent: CurrentAgent,
) -> SentOut:
    conversation = await service.get_conversation(session, conversation_id=conversation_id)
    stored = await service.store_message(
        session,
        conversation=conversation,
        sender="agent",
        message=body.message,
        agent=agent,
        client_id=body.client_id,
    )
    await _deliver(request, background, session, conversation, [stored])
    if conversation.line_user_id:
        # The user reads it in LINE: sent after the commit (the outbox job retries failures).
        await line_outbound.enqueue(session, message=stored, line_user_id=conversation.line_user_id)
        background.add_task(line_outbound.send_one, request.app, stored.id)
    return SentOut(timestamp=stored.created_at, id=str(stored.id))


@router.put(
    "/api/agent/conversations/{conversation_id}/read",
    operation_id="agentReadConversation",
    tags=AGENT_TAGS,
    response_model=ReadOut,
    responses={**AGENT_ERRORS, **errors(_404="CHAT_CONVERSATION_NOT_FOUND")},
    summary="Mark the customer's messages read by the agents",
)
async def agent_read(
    conversation_id: DbId,
    request: Request,
    background: BackgroundTasks,
    session: SessionDep,
    agent: CurrentAgent,
) -> ReadOut:
    conversation = await service.get_conversation(session, conversation_id=conversation_id)
    read = await service.mark_read(session, conversation=conversation, by="agent")
    if read:
        background.add_task(
            _hub(request).announce_read, conversation_id=conversation.id, by="agent"
        )
    return ReadOut(read=read)


async def _agent_upload(
    request: Request, session: SessionDep, conversation_id: int, file: UploadFile, kind: MediaKind
) -> UploadOut:
    conversation = await service.get_conversation(session, conversation_id=conversation_id)
    media = await service.save_media(
        session,
        store=request.app.state.file_store,
        conversation=conversation,
        kind=kind,
        file_name=file.filename,
        upload=file,
        uploaded_by="agent",
    )
    return UploadOut(path=media.key)


AGENT_UPLOAD_ERRORS = {
    **AGENT_ERRORS,
    **errors(
        _400="CHAT_FILE_NOT_SUPPORTED",
        _404="CHAT_CONVERSATION_NOT_FOUND",
        _413="CHAT_FILE_TOO_LARGE (with maxMb)",
        _422=IMAGE_422,
    ),
}


@router.post(
    "/api/agent/conversations/{conversation_id}/upload-image",
    operation_id="agentUploadImage",
    tags=AGENT_TAGS,
    response_model=UploadOut,
    responses=AGENT_UPLOAD_ERRORS,
    summary="Upload an image into a conversation",
)
async def agent_upload_image(
    conversation_id: DbId,
    request: Request,
    session: SessionDep,
    agent: CurrentAgent,
    file: FileField,
) -> UploadOut:
    return await _agent_upload(request, session, conversation_id, file, "image")


@router.post(
    "/api/agent/conversations/{conversation_id}/upload-video",
    operation_id="agentUploadVideo",
    tags=AGENT_TAGS,
    response_model=UploadOut,
    responses=AGENT_UPLOAD_ERRORS,
    summary="Upload a video into a conversation",
)
async def agent_upload_video(
    conversation_id: DbId,
    request: Request,
    session: SessionDep,
    agent: CurrentAgent,
    file: FileField,
) -> UploadOut:
    return await _agent_upload(request, session, conversation_id, file, "video")


@router.get(
    "/api/agent/media/{key:path}",
    operation_id="agentMedia",
    tags=AGENT_TAGS,
    response_class=Response,
    responses={**MEDIA_RESPONSES, **AGENT_ERRORS, **errors(_404="CHAT_MEDIA_NOT_FOUND")},
    summary="A file of any conversation",
)
async def agent_media(
    key: str, request: Request, session: SessionDep, agent: CurrentAgent
) -> Response:
    media = await service.media_of(session, key=key, conversation=None)
    return await _media_response(request, media.key, media.content_type)
