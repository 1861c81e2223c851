"""LINE tables: webhook events as received, LINE users (contacts) and the messages to send.

* ``line_webhook_events``: one row per ``webhookEventId``, written before the webhook answers
  (so a redelivery finds it and changes nothing) and processed after the answer; kept
  :data:`~pao.support.line.inbound.KEEP_EVENTS_DAYS` days, then deleted by the events job.
* ``line_contacts``: a LINE user who wrote to the Official Account: its profile (name,
  language), whether it follows the account, and the last reply token with the time it came.
* ``line_outbox``: an agent's or the bot's message on its way to LINE, with the retry key that
  makes a repeated push harmless (LINE accepts a key once); a notice's row names what it tells
  (``notice_key``, unique: a notice is queued once).
* ``line_link_codes``: the one-time codes a member sends to the Official Account to link their
  LINE user (:mod:`pao.support.line.linking`).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, ForeignKey, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from pao.core.db import Base, BigId, UtcDateTime
from pao.kit.clock import utcnow


class LineWebhookEvent(Base):
    __tablename__ = "line_webhook_events"

    webhook_event_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    # The event object as LINE sent it (one element of the body's "events").
    payload: Mapped[dict[str, Any]] = mapped_column(JSON)
    received_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow, index=True)
    # NULL: still to do (the events job picks it up if the after-answer task did not).
    processed_at: Mapped[datetime | None] = mapped_column(UtcDateTime, index=True)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_attempt_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
    # The last failure's class and message (no payload, no token), for an operator.
    last_error: Mapped[str | None] = mapped_column(Text)


class LineContact(Base):
    __tablename__ = "line_contacts"

    line_user_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    display_name: Mapped[str] = mapped_column(String(100), default="")
    # th | la | en: the profile's language when Pao speaks it, else th.
    language: Mapped[str] = mapped_column(String(2), default="th")
    following: Mapped[bool] = mapped_column(Boolean, default=True)
    followed_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
    unfollowed_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
    # The reply token of the user's last event, single use: cleared once a reply used it.
    reply_token: Mapped[str | None] = mapped_column(String(255))
    reply_token_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
    # The member this LINE user proved to be (a link code), and whether they want notices.
    member_id: Mapped[int | None] = mapped_column(ForeignKey("members.id"), unique=True, index=True)
    linked_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
    notices: Mapped[bool] = mapped_column(Boolean, default=False)


class LineLinkCode(Base):
    __tablename__ = "line_link_codes"

    code: Mapped[str] = mapped_column(String(16), primary_key=True)
    member_id: Mapped[int] = mapped_column(ForeignKey("members.id"), index=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(UtcDateTime)
    used_at: Mapped[datetime | None] = mapped_column(UtcDateTime)


class LineOutbox(Base):
    __tablename__ = "line_outbox"

    message_id: Mapped[int] = mapped_column(BigId, ForeignKey("chat_messages.id"), primary_key=True)
    line_user_id: Mapped[str] = mapped_column(String(64), index=True)
    # pending (to send or retry) | sent | failed (given up)
    status: Mapped[str] = mapped_column(String(10), default="pending", index=True)
    # X-Line-Retry-Key of every push of this message: LINE accepts one push per key.
    retry_key: Mapped[str] = mapped_column(String(36))
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_attempt_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
    # reply | push: how LINE took it.
    sent_via: Mapped[str | None] = mapped_column(String(5))
    sent_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
    last_error: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
    # A notice's subject ("deposit:slip:REF", "withdrawal:12:PAID"): one notice per subject.
    notice_key: Mapped[str | None] = mapped_column(String(120), unique=True, index=True)
