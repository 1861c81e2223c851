"""Chat tables: conversations (one per member or guest), messages and media.

Agents are staff members of the back office (``staff``, see :mod:`pao.support.agents`); a
message an agent sent names them by ``agent_id``, a staff id. The foreign key names the table
only, so this module imports nothing from the back office.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from pao.core.db import Base, BigId, UtcDateTime
from pao.kit.clock import utcnow


class ChatConversation(Base):
    """The one conversation of a member, a guest id, or a LINE user (:mod:`pao.support.line`)."""

    __tablename__ = "chat_conversations"

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    member_id: Mapped[int | None] = mapped_column(ForeignKey("members.id"), unique=True)
    guest_id: Mapped[str | None] = mapped_column(String(36), unique=True)
    # A LINE user's id ("U" + 32 hex digits): the customer talks from LINE, not the web widget.
    line_user_id: Mapped[str | None] = mapped_column(String(64), unique=True, index=True)
    display_name: Mapped[str] = mapped_column(String(100), default="")
    username: Mapped[str | None] = mapped_column(String(20))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
    last_message_at: Mapped[datetime | None] = mapped_column(UtcDateTime, index=True)
    # Messages the other side has not read yet (counters, reset by the read calls).
    agent_unread: Mapped[int] = mapped_column(Integer, default=0)
    customer_unread: Mapped[int] = mapped_column(Integer, default=0)
    # The customer asked the FAQ bot for a human: the bot stays quiet until an agent answers.
    wants_agent: Mapped[bool] = mapped_column(Boolean, default=False)
    # The language the customer last wrote in (th, la, en): the FAQ bot answers in it.
    locale: Mapped[str | None] = mapped_column(String(2))
    # The staff member working this conversation (NULL: unassigned) and since when
    # (:mod:`pao.support.assignment`).
    assigned_staff_id: Mapped[int | None] = mapped_column(ForeignKey("staff.id"), index=True)
    assigned_at: Mapped[datetime | None] = mapped_column(UtcDateTime)


class ChatMessage(Base):
    __tablename__ = "chat_messages"
    __table_args__ = (Index("ix_chat_messages_conversation_created", "conversation_id", "id"),)

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    conversation_id: Mapped[int] = mapped_column(ForeignKey("chat_conversations.id"))
    # customer | agent | bot
    sender: Mapped[str] = mapped_column(String(10))
    # The staff member who sent it (sender "agent").
    agent_id: Mapped[int | None] = mapped_column(ForeignKey("staff.id"))
    message_type: Mapped[str] = mapped_column(String(20))
    # The validated message object ({message_type, payload | payloads}).
    body: Mapped[dict[str, Any]] = mapped_column(JSON)
    # The sender's own id of the message, echoed back so its screen can match the echo.
    client_id: Mapped[str | None] = mapped_column(String(64))
    session_id: Mapped[str | None] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
    # An agent's or the bot's message to a LINE user: sending | failed | succeed, as LINE took
    # it (pao.support.line.outbound); NULL for web chat, which the socket delivers.
    delivery: Mapped[str | None] = mapped_column(String(10))


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
