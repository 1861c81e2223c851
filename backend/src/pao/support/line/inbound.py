"""LINE's webhook events into the chat: stored first, processed after the webhook answered.

:func:`record_events` runs inside the webhook's request: each event is inserted under its
``webhookEventId`` (a redelivered one meets the row and adds nothing), and the request commits
before LINE gets its 200. :func:`process_events` then handles each row in a transaction of its
own, after the answer (a background task of the request) and again from the events job for
whatever a crash or a failure left (:data:`RETRY_SECONDS`, up to :data:`MAX_ATTEMPTS`).

What an event becomes: a text, an image (fetched from LINE's content endpoint, checked and
encoded again like a chat upload), a sticker (a sticker note) or a postback is a customer
message of the LINE user's one conversation, with the bot's answer when the operator's bot is
on; ``follow``/``unfollow`` are recorded on the contact. Events from groups and rooms, and
types Pao does not use, are marked processed and left.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import structlog
from linebot.v3.messaging.exceptions import ApiException
from linebot.v3.webhooks import (
    Event,
    FollowEvent,
    ImageMessageContent,
    MessageEvent,
    PostbackEvent,
    StickerMessageContent,
    TextMessageContent,
    UnfollowEvent,
)
from pydantic import BaseModel
from sqlalchemy import delete, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from pao.core.errors import AppError
from pao.core.language import Language
from pao.kit.clock import utcnow
from pao.kit.i18n import default_locale
from pao.kit.media import SNIFF_BYTES, sniff
from pao.site.settings import load_site_settings
from pao.support import bot, service
from pao.support.line import linking, outbound
from pao.support.line.client import LineApi, error_of
from pao.support.line.languages import locale_of
from pao.support.line.mapping import postback_parts
from pao.support.line.models import LineContact, LineWebhookEvent
from pao.support.line.notes import other_note, sticker_note, unreadable_image_note
from pao.support.models import ChatConversation, ChatMessage
from pao.support.schemas import (
    MAX_TEXT,
    MediaMessage,
    MediaPayload,
    PostbackMessage,
    PostbackPayloadBody,
    TextMessage,
)

log = structlog.get_logger(__name__)

# LINE's redelivery policy is not published: an event id is remembered a month.
KEEP_EVENTS_DAYS = 30
MAX_ATTEMPTS = 8
RETRY_SECONDS = (5, 15, 60, 300, 900, 1800, 3600)


@dataclass
class Processed:
    """What one event left to do after its commit: messages to show, messages to send."""

    conversation: ChatConversation | None = None
    messages: list[ChatMessage] = field(default_factory=list)
    to_send: list[int] = field(default_factory=list)


def _insert(session: AsyncSession, table: Any) -> Any:
    dialect = session.get_bind().dialect.name
    return (postgresql.insert if dialect == "postgresql" else sqlite.insert)(table)


async def record_events(session: AsyncSession, events: list[dict[str, Any]]) -> list[str]:
    """Store the events not seen before; answers their ids, in LINE's order."""
    new: list[str] = []
    for event in events:
        event_id = event.get("webhookEventId")
        if not isinstance(event_id, str) or not 0 < len(event_id) <= 64:
            # No id: nothing to de-duplicate it by; LINE always sends one.
            log.warning("line event without webhookEventId", type=str(event.get("type"))[:40])
            continue
        result = await session.execute(
            _insert(session, LineWebhookEvent)
            .values(webhook_event_id=event_id, payload=event, received_at=utcnow(), attempts=0)
            .on_conflict_do_nothing(index_elements=["webhook_event_id"])
        )
        if getattr(result, "rowcount", 0) == 1:
            new.append(event_id)
    return new


async def _contact(session: AsyncSession, api: LineApi, user_id: str, now: datetime) -> LineContact:
    contact = await session.get(LineContact, user_id)
    if contact is None:
        contact = LineContact(line_user_id=user_id, following=True, created_at=now)
        session.add(contact)
    if not contact.display_name:
        try:
            profile = await api.messaging.get_profile(user_id)
        except ApiException as error:
            # The message matters more than the name: kept without it, asked again next time.
            log.warning("line profile unavailable", error=error_of(error))
        else:
            contact.display_name = (profile.display_name or "")[:100]
            contact.language = locale_of(profile.language)
    return contact


async def _image(
    session: AsyncSession,
    app: Any,
    api: LineApi,
    conversation: ChatConversation,
    content: ImageMessageContent,
) -> BaseModel:
    if content.content_provider.type != "line":
        # An image LINE does not hold (sent through another service): only its address.
        return TextMessage(
            message_type="text",
            payload=other_note("image", content.content_provider.original_content_url),
        )
    data = bytes(await api.blob.get_message_content(content.id))
    detected = sniff(data[:SNIFF_BYTES])
    name = f"line-{content.id}.{detected.extension if detected else 'jpg'}"
    try:
        media = await service.save_image_bytes(
            session,
            store=app.state.file_store,
            conversation=conversation,
            data=data,
            file_name=name,
            uploaded_by="customer",
        )
    except AppError as refused:  # not an image the chat takes (type, size, pixels)
        return TextMessage(message_type="text", payload=unreadable_image_note(refused.code))
    return MediaMessage(
        message_type="media",
        payload=MediaPayload(
            message=media.file_name, file_type="image", file_path=media.key, url=True
        ),
    )


async def _message_of(
    session: AsyncSession,
    app: Any,
    api: LineApi,
    conversation: ChatConversation,
    event: MessageEvent | PostbackEvent,
) -> BaseModel | None:
    if isinstance(event, PostbackEvent):
        data = event.postback.data or ""
        title, payload = postback_parts(data)
        if not payload.strip():
            return None
        return PostbackMessage(
            message_type="postback",
            payload=PostbackPayloadBody(title=title, payload=payload[:1000]),
        )
    content = event.message
    if isinstance(content, TextMessageContent):
        text = content.text[:MAX_TEXT]
        return TextMessage(message_type="text", payload=text) if text.strip() else None
    if isinstance(content, ImageMessageContent):
        return await _image(session, app, api, conversation, content)
    if isinstance(content, StickerMessageContent):
        return TextMessage(
            message_type="text",
            payload=sticker_note(
                package_id=content.package_id,
                sticker_id=content.sticker_id,
                keywords=content.keywords or [],
                text=content.text,
            ),
        )
    return TextMessage(message_type="text", payload=other_note(str(content.type), None))


async def handle_event(
    session: AsyncSession, app: Any, api: LineApi, row: LineWebhookEvent
) -> Processed:
    """One stored event's effects, in ``session``'s transaction (not committed here)."""
    done = Processed()
    payload = row.payload
    source = payload.get("source") or {}
    user_id = source.get("userId") if source.get("type") == "user" else None
    if not isinstance(user_id, str) or not user_id:
        return done  # a group's or a room's event: the support inbox is one-to-one
    try:
        event = Event.from_dict(payload)
    except (ValueError, TypeError):
        return done  # a type this SDK version does not know
    now = utcnow()
    if isinstance(event, UnfollowEvent):
        contact = await session.get(LineContact, user_id)
        if contact is not None:
            contact.following = False
            contact.unfollowed_at = now
        return done
    if not isinstance(event, FollowEvent | MessageEvent | PostbackEvent):
        return done
    contact = await _contact(session, api, user_id, now)
    # The token's minute runs from when LINE sent it (the row's arrival), not from now.
    contact.reply_token = event.reply_token
    contact.reply_token_at = row.received_at
    if isinstance(event, FollowEvent):
        contact.following = True
        contact.followed_at = now
        return done
    conversation = await service.open_conversation(
        session,
        customer=service.Customer(line_user_id=user_id, line_name=contact.display_name),
        locale=contact.language,  # type: ignore[arg-type]
    )
    if contact.display_name and conversation.display_name != contact.display_name:
        conversation.display_name = contact.display_name
    done.conversation = conversation
    message = await _message_of(session, app, api, conversation, event)
    if message is None:
        return done
    stored = await service.store_message(
        session, conversation=conversation, sender="customer", message=message
    )
    done.messages.append(stored)
    code = linking.code_in(message.payload) if isinstance(message, TextMessage) else None
    if code is not None:
        # A link code from the player app's profile: linked (or not), and told so.
        linked = await linking.redeem(session, contact=contact, code=code)
        answer = TextMessage(
            message_type="text", payload=linking.REPLIES[linked][locale_of(contact.language)]
        )
        told = await service.store_message(
            session, conversation=conversation, sender="bot", message=answer
        )
        done.messages.append(told)
        await outbound.enqueue(session, message=told, line_user_id=user_id)
        done.to_send.append(told.id)
        return done
    site = await load_site_settings(session)
    if site.chat_bot_enabled:
        language = Language(
            locale=locale_of(contact.language),
            fallback=default_locale(lao_mode=app.state.settings.lao_mode),
        )
        reply = await bot.answer(
            session,
            site=site,
            conversation=conversation,
            incoming=message,
            agents_online=await app.state.chat.agents_online(),
            language=language,
        )
        if reply is not None:
            done.messages.append(reply)
            await outbound.enqueue(session, message=reply, line_user_id=user_id)
            done.to_send.append(reply.id)
    return done


async def _due(session: AsyncSession, event_id: str | None) -> LineWebhookEvent | None:
    query = (
        select(LineWebhookEvent)
        .where(LineWebhookEvent.processed_at.is_(None))
        .with_for_update(skip_locked=True)
        .execution_options(populate_existing=True)
    )
    if event_id is not None:
        query = query.where(LineWebhookEvent.webhook_event_id == event_id)
    else:
        query = query.where(LineWebhookEvent.next_attempt_at <= utcnow()).order_by(
            LineWebhookEvent.received_at, LineWebhookEvent.webhook_event_id
        )
    return (await session.execute(query.limit(1))).scalar_one_or_none()


async def _failed(
    sessionmaker: async_sessionmaker[AsyncSession], event_id: str, error: Exception
) -> None:
    async with sessionmaker() as session:
        row = await session.get(LineWebhookEvent, event_id)
        if row is None or row.processed_at is not None:
            return
        row.attempts += 1
        row.last_error = error_of(error)
        if row.attempts >= MAX_ATTEMPTS:
            row.processed_at = utcnow()  # given up; the row keeps the reason
        else:
            delay = RETRY_SECONDS[min(row.attempts - 1, len(RETRY_SECONDS) - 1)]
            row.next_attempt_at = utcnow() + timedelta(seconds=delay)
        await session.commit()
    log.warning("line event failed", attempts=row.attempts, error=row.last_error)


async def process_one(app: Any, event_id: str | None = None) -> bool:
    """Handle the event ``event_id`` (or the next due one); False when there was none."""
    sessionmaker: async_sessionmaker[AsyncSession] = app.state.sessionmaker
    api = await outbound.line_api(app)
    async with sessionmaker() as session:
        row = await _due(session, event_id)
        if row is None:
            return False
        row_id = row.webhook_event_id
        try:
            done = await handle_event(session, app, api, row)
            row.processed_at = utcnow()
            await session.commit()
        except Exception as error:  # retried by the events job; the webhook was answered
            await session.rollback()
            await _failed(sessionmaker, row_id, error)
            return True
    await after_processed(app, done)
    return True


async def after_processed(app: Any, done: Processed) -> None:
    """After the commit: show the messages in the agents' inbox, send the bot's to LINE."""
    if done.conversation is not None and done.messages:
        await outbound.show(app, done.conversation, done.messages)
    for message_id in done.to_send:
        await outbound.send_one(app, message_id)


async def process_events(app: Any, event_ids: list[str]) -> None:
    """The webhook's after-answer task: these events, in order (the job retries failures)."""
    for event_id in event_ids:
        try:
            await process_one(app, event_id)
        except Exception:  # never lost: the row stays unprocessed for the events job
            log.exception("line event processing failed")


async def events_tick(app: Any) -> int:
    """The events job: due events a task did not finish, then forgets old processed ones."""
    handled = 0
    while handled < 50 and await process_one(app):
        handled += 1
    async with app.state.sessionmaker() as session:
        cutoff = utcnow() - timedelta(days=KEEP_EVENTS_DAYS)
        await session.execute(
            delete(LineWebhookEvent).where(
                LineWebhookEvent.processed_at.is_not(None),
                LineWebhookEvent.received_at < cutoff,
            )
        )
        await session.commit()
    return handled
