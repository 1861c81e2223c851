"""Chat rules: conversations, messages, read marks, media and their owners.

Services never commit (the request's unit of work does) and never talk to sockets: they
return what was stored, and the router delivers it to the socket.io rooms after the commit.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, get_args

import anyio
from pydantic import BaseModel
from sqlalchemy import Update, bindparam, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from pao.core import executor
from pao.core.inserts import insert_now, insert_now_unless_present
from pao.identity.models import Member
from pao.kit.clock import utcnow
from pao.kit.i18n import Locale
from pao.kit.images import ImageUnreadable, reencode
from pao.kit.storage import FileStore, TooLarge, Upload, read_bounded, read_chunks
from pao.support.agents import Agent, AgentDirectory
from pao.support.exceptions import ConversationNotFound, FileNotSupported, MediaNotFound
from pao.support.models import ChatConversation, ChatMedia, ChatMessage
from pao.support.schemas import ConversationOut, ConversationSummaryOut, MediaMessage
from pao.support.uploads import (
    MAX_BYTES,
    SNIFF_BYTES,
    Detected,
    MediaKind,
    check_upload,
    safe_file_name,
    too_large,
)

Sender = Literal["customer", "agent", "bot"]
AGENTS_ROOM = "__agents__"
BOT_NAME = "Bot"


@dataclass(frozen=True)
class Customer:
    """Who is chatting on the customer side: a member, a guest or a LINE user (one of them).

    A LINE user has no socket: it reads its messages in LINE (:mod:`pao.support.line`)."""

    member: Member | None = None
    guest_id: str | None = None
    line_user_id: str | None = None
    # A LINE user's profile name, kept as the conversation's name.
    line_name: str | None = None

    @property
    def user_id(self) -> str | None:
        return str(self.member.id) if self.member else None

    def room(self, prefix: str) -> str:
        return prefix + (self.user_id or self.guest_id or "")


def room_of(conversation: ChatConversation, prefix: str) -> str:
    owner = str(conversation.member_id) if conversation.member_id else conversation.guest_id
    if owner is None and conversation.line_user_id:
        # Nobody joins it (the user reads in LINE); named apart from every member or guest room.
        owner = "line:" + conversation.line_user_id
    return prefix + (owner or "")


def guest_label(guest_id: str) -> str:
    return f"Guest {guest_id[:4].upper()}"


async def find_conversation(
    session: AsyncSession, *, customer: Customer
) -> ChatConversation | None:
    if customer.member is not None:
        query = select(ChatConversation).where(ChatConversation.member_id == customer.member.id)
    elif customer.line_user_id is not None:
        query = select(ChatConversation).where(
            ChatConversation.line_user_id == customer.line_user_id
        )
    else:
        query = select(ChatConversation).where(ChatConversation.guest_id == customer.guest_id)
    return (await session.execute(query)).scalar_one_or_none()


async def open_conversation(
    session: AsyncSession,
    *,
    customer: Customer,
    guest_name: str | None = None,
    locale: Locale | None = None,
) -> ChatConversation:
    """The customer's conversation, created on first use (safe against a concurrent twin).

    ``locale`` is the language the customer writes from now; it is kept on the conversation
    (the FAQ bot answers in it)."""
    found = await find_conversation(session, customer=customer)
    if found is not None:
        if customer.member is None and guest_name and guest_name.strip():
            found.display_name = guest_name.strip()[:100]
        if locale is not None and found.locale != locale:
            found.locale = locale
        return found
    if customer.member is not None:
        conversation = ChatConversation(
            member_id=customer.member.id,
            display_name=customer.member.name,
            username=customer.member.phone,
            locale=locale,
        )
    elif customer.line_user_id is not None:
        conversation = ChatConversation(
            line_user_id=customer.line_user_id,
            display_name=(customer.line_name or "").strip()[:100] or "LINE",
            locale=locale,
        )
    else:
        assert customer.guest_id is not None
        name = (guest_name or "").strip()[:100] or guest_label(customer.guest_id)
        conversation = ChatConversation(
            guest_id=customer.guest_id, display_name=name, locale=locale
        )
    owner = (
        "member_id" if customer.member else "line_user_id" if customer.line_user_id else "guest_id"
    )
    if await insert_now_unless_present(session, conversation, unique=owner) is not None:
        return conversation
    # A first message of the same customer's, at the same time, created it.
    again = await find_conversation(session, customer=customer)
    assert again is not None
    return again


async def get_conversation(session: AsyncSession, *, conversation_id: int) -> ChatConversation:
    conversation = await session.get(ChatConversation, conversation_id)
    if conversation is None:
        raise ConversationNotFound()
    return conversation


async def store_message(
    session: AsyncSession,
    *,
    conversation: ChatConversation,
    sender: Sender,
    message: BaseModel,
    agent: Agent | None = None,
    client_id: str | None = None,
    session_id: str | None = None,
) -> ChatMessage:
    """Store one validated message and count it unread for the other side.

    An agent's or the bot's message to a LINE user starts as ``sending``: the LINE outbox
    takes it from there (:func:`pao.support.line.outbound.enqueue`)."""
    if isinstance(message, MediaMessage):
        media = await session.get(ChatMedia, message.payload.file_path)
        if media is None or media.conversation_id != conversation.id:
            raise MediaNotFound()
        # The stored type wins over the client's claim.
        message.payload.file_type = media.file_type  # type: ignore[assignment]
    body: dict[str, Any] = message.model_dump(mode="json", by_alias=True, exclude_none=True)
    now = utcnow()
    row = ChatMessage(
        conversation_id=conversation.id,
        sender=sender,
        agent_id=agent.id if agent else None,
        message_type=body["message_type"],
        body=body,
        client_id=client_id,
        session_id=session_id,
        created_at=now,
        delivery="sending" if conversation.line_user_id and sender != "customer" else None,
    )
    await insert_now(session, row)
    # The counters as they now stand (another message may have counted at the same time).
    counted = await executor.fetch_one_or_none(
        session, _COUNTING[sender], {"conversation_id_": conversation.id, "at_": now}
    )
    assert counted is not None
    executor.set_committed_values(conversation, dict(zip(_COUNTED, counted, strict=True)))
    return row


_COUNTED = ("agent_unread", "customer_unread", "last_message_at", "wants_agent")


def _counting(sender: Sender) -> Update:
    """A message counted on its conversation: unread for the other side, the time of the last
    message, and an agent's answer ends a wait for an agent; the counters as they now stand."""
    table: Any = ChatConversation.__table__
    counter = table.c.agent_unread if sender == "customer" else table.c.customer_unread
    values: dict[Any, Any] = {
        counter: counter + 1,
        table.c.last_message_at: bindparam("at_", type_=table.c.last_message_at.type),
    }
    if sender == "agent":
        values[table.c.wants_agent] = False
    return (
        update(table)
        .where(table.c.id == bindparam("conversation_id_"))
        .values(values)
        .returning(*(table.c[name] for name in _COUNTED))
    )


# Built once: a statement reused keeps its compiled form (pao.core.executor).
_COUNTING: dict[Sender, Update] = {sender: _counting(sender) for sender in get_args(Sender)}


async def history(
    session: AsyncSession, *, conversation: ChatConversation, limit: int, skip: int
) -> list[ChatMessage]:
    """Newest first."""
    query = (
        select(ChatMessage)
        .where(ChatMessage.conversation_id == conversation.id)
        .order_by(ChatMessage.id.desc())
        .limit(limit)
        .offset(skip)
    )
    return list((await session.execute(query)).scalars().all())


async def mark_read(
    session: AsyncSession, *, conversation: ChatConversation, by: Literal["customer", "agent"]
) -> int:
    """Reset the reader's unread counter; returns how many were unread."""
    counter = "customer_unread" if by == "customer" else "agent_unread"
    unread = int(getattr(conversation, counter))
    if unread:
        setattr(conversation, counter, 0)
        await session.flush()
    return unread


async def agent_names(
    session: AsyncSession, agents: AgentDirectory, messages: list[ChatMessage]
) -> dict[int, str]:
    ids = {m.agent_id for m in messages if m.agent_id is not None}
    if not ids:
        return {}
    return await agents.display_names(session, ids)


def to_wire(
    message: ChatMessage,
    conversation: ChatConversation,
    *,
    names: dict[int, str] | None = None,
    for_agent: bool = False,
) -> ConversationOut:
    """The wire form. ``for_agent`` hides a guest's id: it is that guest's only credential."""
    agent_name = None
    if message.sender == "agent" and message.agent_id is not None:
        agent_name = (names or {}).get(message.agent_id)
    elif message.sender == "bot":
        agent_name = BOT_NAME
    customer_side = message.sender == "customer"
    return ConversationOut.model_validate(
        {
            "_id": str(message.id),
            "sender": message.sender,
            "message": message.body,
            "createdAt": message.created_at,
            "session_id": message.session_id,
            "userId": str(conversation.member_id) if conversation.member_id else None,
            "guestId": None if for_agent else conversation.guest_id,
            "username": conversation.username if customer_side else None,
            "name": conversation.display_name if customer_side else (agent_name or ""),
            "clientId": message.client_id,
            "conversationId": str(conversation.id),
            "agentName": agent_name,
            "delivery": message.delivery,
        }
    )


async def list_conversations(
    session: AsyncSession, *, agents: AgentDirectory, limit: int = 100
) -> list[ConversationSummaryOut]:
    """Conversations with messages, most recent first, with the agents' unread counts."""
    conversations = (
        (
            await session.execute(
                select(ChatConversation)
                .where(ChatConversation.last_message_at.is_not(None))
                .order_by(ChatConversation.last_message_at.desc(), ChatConversation.id.desc())
                .limit(limit)
            )
        )
        .scalars()
        .all()
    )
    ids = [c.id for c in conversations]
    last_ids = (
        select(func.max(ChatMessage.id))
        .where(ChatMessage.conversation_id.in_(ids))
        .group_by(ChatMessage.conversation_id)
    )
    last = (
        (await session.execute(select(ChatMessage).where(ChatMessage.id.in_(last_ids))))
        .scalars()
        .all()
    )
    by_conversation = {m.conversation_id: m for m in last}
    names = await agent_names(session, agents, list(last))
    out = []
    for c in conversations:
        message = by_conversation.get(c.id)
        out.append(
            ConversationSummaryOut.model_validate(
                {
                    "_id": str(c.id),
                    "userId": str(c.member_id) if c.member_id else None,
                    "guestId": None,
                    "name": c.display_name,
                    "username": c.username,
                    "unread": c.agent_unread,
                    "wantsAgent": c.wants_agent,
                    "lastMessageAt": c.last_message_at,
                    "lastMessage": (
                        to_wire(message, c, names=names, for_agent=True) if message else None
                    ),
                }
            )
        )
    return out


async def save_media(
    session: AsyncSession,
    *,
    store: FileStore,
    conversation: ChatConversation,
    kind: MediaKind,
    file_name: str | None,
    upload: Upload,
    uploaded_by: Literal["customer", "agent"],
) -> ChatMedia:
    """Check the file by its name and first bytes, then copy it to the store, which stops at
    the size limit (nothing is stored then). A video is streamed, never read into memory
    whole; an image (at most 10 MB) is decoded and encoded again, so that only its pixels are
    kept (:func:`pao.kit.images.reencode`: no trailing payload, no GPS metadata)."""
    detected = check_upload(kind=kind, file_name=file_name, head=await upload.read(SNIFF_BYTES))
    await upload.seek(0)
    prefix = f"chat/{conversation.id}"
    try:
        if kind == "image":
            data = await read_bounded(upload, MAX_BYTES[kind])
            key, size = await _store_image(store, prefix, data, detected.extension)
        else:
            stored = await store.put_stream(
                prefix=prefix,
                chunks=read_chunks(upload),
                extension=detected.extension,
                max_bytes=MAX_BYTES[kind],
            )
            key, size = stored.key, stored.size
    except TooLarge:
        raise too_large(kind) from None
    return await _add_media(
        session, conversation, key, size, detected, file_name=file_name, uploaded_by=uploaded_by
    )


async def _store_image(
    store: FileStore, prefix: str, data: bytes, extension: str
) -> tuple[str, int]:
    try:
        image = await anyio.to_thread.run_sync(reencode, data, extension)
    except ImageUnreadable:
        raise FileNotSupported() from None
    key = await store.put(prefix=prefix, data=image.data, extension=extension)
    return key, len(image.data)


async def _add_media(
    session: AsyncSession,
    conversation: ChatConversation,
    key: str,
    size: int,
    detected: Detected,
    *,
    file_name: str | None,
    uploaded_by: Literal["customer", "agent"],
) -> ChatMedia:
    media = ChatMedia(
        key=key,
        conversation_id=conversation.id,
        file_type=detected.kind,
        content_type=detected.content_type,
        size=size,
        file_name=safe_file_name(file_name, detected),
        uploaded_by=uploaded_by,
    )
    session.add(media)
    await session.flush()
    return media


async def save_image_bytes(
    session: AsyncSession,
    *,
    store: FileStore,
    conversation: ChatConversation,
    data: bytes,
    file_name: str,
    uploaded_by: Literal["customer", "agent"],
) -> ChatMedia:
    """An image that came as bytes (a LINE user's, fetched from LINE): checked by its content
    and size like an upload, and encoded again (:func:`save_media`)."""
    if len(data) > MAX_BYTES["image"]:
        raise too_large("image")
    detected = check_upload(kind="image", file_name=file_name, head=data[:SNIFF_BYTES])
    key, size = await _store_image(store, f"chat/{conversation.id}", data, detected.extension)
    return await _add_media(
        session, conversation, key, size, detected, file_name=file_name, uploaded_by=uploaded_by
    )


async def media_of(
    session: AsyncSession, *, key: str, conversation: ChatConversation | None
) -> ChatMedia:
    """The media ``key`` if it belongs to ``conversation`` (``None``: any, for agents)."""
    media = await session.get(ChatMedia, key)
    if media is None or (conversation is not None and media.conversation_id != conversation.id):
        raise MediaNotFound()
    return media
