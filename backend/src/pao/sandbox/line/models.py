"""The sandbox LINE platform's state (in the sandbox's own database).

Its users (a tester plays one), everything said in their chats (the user's messages and what
Pao replied or pushed), the reply tokens it issued, the files its users sent (served by the
content endpoint), the push retry keys it accepted, and the failures a tester asked for.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, Integer, LargeBinary, String
from sqlalchemy.orm import Mapped, mapped_column

from pao.core.db import UtcDateTime
from pao.kit.clock import utcnow
from pao.sandbox.store import SandboxBase


class SandboxLineUser(SandboxBase):
    __tablename__ = "sandbox_line_users"

    user_id: Mapped[str] = mapped_column(String(33), primary_key=True)
    display_name: Mapped[str] = mapped_column(String(100))
    language: Mapped[str] = mapped_column(String(10), default="th")
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)


class SandboxLineEntry(SandboxBase):
    """One line of a user's chat: ``user`` (what the tester sent) or ``bot`` (from Pao)."""

    __tablename__ = "sandbox_line_chat"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    user_id: Mapped[str] = mapped_column(String(33), index=True)
    side: Mapped[str] = mapped_column(String(4))  # user | bot
    # user: the event's "message" (or the event for follow/postback); bot: a LINE message.
    message: Mapped[dict[str, Any]] = mapped_column(JSON)
    via: Mapped[str | None] = mapped_column(String(8))  # reply | push (bot side)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)


class SandboxLineEvent(SandboxBase):
    """A webhook event the sandbox sent, kept to redeliver it (same webhookEventId)."""

    __tablename__ = "sandbox_line_events"

    webhook_event_id: Mapped[str] = mapped_column(String(26), primary_key=True)
    event: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)


class SandboxLineReplyToken(SandboxBase):
    __tablename__ = "sandbox_line_reply_tokens"

    token: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[str] = mapped_column(String(33))
    issued_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
    used: Mapped[bool] = mapped_column(Boolean, default=False)


class SandboxLineContent(SandboxBase):
    __tablename__ = "sandbox_line_content"

    message_id: Mapped[str] = mapped_column(String(20), primary_key=True)
    content_type: Mapped[str] = mapped_column(String(40))
    data: Mapped[bytes] = mapped_column(LargeBinary)


class SandboxLineRetryKey(SandboxBase):
    __tablename__ = "sandbox_line_retry_keys"

    retry_key: Mapped[str] = mapped_column(String(36), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)


class SandboxLineFailure(SandboxBase):
    """The next ``times`` calls of ``endpoint`` (reply | push | content | profile) fail."""

    __tablename__ = "sandbox_line_failures"

    endpoint: Mapped[str] = mapped_column(String(10), primary_key=True)
    status: Mapped[int] = mapped_column(Integer)
    times: Mapped[int] = mapped_column(Integer)
