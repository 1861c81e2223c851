"""Chat tables: conversations (one per member or guest), messages, media and agents.

An agent logs in with its own token table (``chat_agent_sessions``), separate from members'
``login_sessions``: a member token is never found when an agent route looks it up, and an
agent token never when a member route does.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from pao.core.db import Base, BigId, UtcDateTime
from pao.kit.clock import utcnow


class ChatAgent(Base):
    """An operator account of the agent inbox (created with ``pao ops agent add``)."""

    __tablename__ = "chat_agents"

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    login: Mapped[str] = mapped_column(String(40), unique=True)
    display_name: Mapped[str] = mapped_column(String(80))
    password_hash: Mapped[str] = mapped_column(String(200))
    active: Mapped[bool] = mapped_column(Boolean, default=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)


class AgentSession(Base):
    """An agent's opaque bearer token, stored as its SHA-256 digest."""

    __tablename__ = "chat_agent_sessions"

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    agent_id: Mapped[int] = mapped_column(ForeignKey("chat_agents.id"), index=True)
    token_digest: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(UtcDateTime)
    revoked_at: Mapped[datetime | None] = mapped_column(UtcDateTime)


class ChatConversation(Base):
    """The one conversation of a member, or of a guest id."""

    __tablename__ = "chat_conversations"

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    member_id: Mapped[int | None] = mapped_column(ForeignKey("members.id"), unique=True)
    guest_id: Mapped[str | None] = mapped_column(String(36), unique=True)
    display_name: Mapped[str] = mapped_column(String(100), default="")
    username: Mapped[str | None] = mapped_column(String(20))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
    last_message_at: Mapped[datetime | None] = mapped_column(UtcDateTime, index=True)
    # Messages the other side has not read yet (counters, reset by the read calls).
    agent_unread: Mapped[int] = mapped_column(Integer, default=0)
    customer_unread: Mapped[int] = mapped_column(Integer, default=0)
    # The customer asked the FAQ bot for a human: the bot stays quiet until an agent answers.
    wants_agent: Mapped[bool] = mapped_column(Boolean, default=False)


class ChatMessage(Base):
    __tablename__ = "chat_messages"
    __table_args__ = (Index("ix_chat_messages_conversation_created", "conversation_id", "id"),)

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    conversation_id: Mapped[int] = mapped_column(ForeignKey("chat_conversations.id"))
    # customer | agent | bot
    sender: Mapped[str] = mapped_column(String(10))
    agent_id: Mapped[int | None] = mapped_column(ForeignKey("chat_agents.id"))
    message_type: Mapped[str] = mapped_column(String(20))
    # The validated message object ({message_type, payload | payloads}).
    body: Mapped[dict[str, Any]] = mapped_column(JSON)
    # The sender's own id of the message, echoed back so its screen can match the echo.
    client_id: Mapped[str | None] = mapped_column(String(64))
    session_id: Mapped[str | None] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)


class ChatMedia(Base):
    """An uploaded image or video; served only to its conversation's participants."""

    __tablename__ = "chat_media"

    key: Mapped[str] = mapped_column(String(200), primary_key=True)
    conversation_id: Mapped[int] = mapped_column(ForeignKey("chat_conversations.id"), index=True)
    file_type: Mapped[str] = mapped_column(String(10))  # image | video
    content_type: Mapped[str] = mapped_column(String(40))
    size: Mapped[int] = mapped_column(Integer)
    file_name: Mapped[str] = mapped_column(String(255))
    uploaded_by: Mapped[str] = mapped_column(String(10))  # customer | agent
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
