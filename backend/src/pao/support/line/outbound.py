"""Agents' and the bot's messages to LINE users: the outbox, reply or push, delivery states.

A message to a LINE user is stored like any chat message (``delivery = sending``) with a
:class:`~pao.support.line.models.LineOutbox` row in the same transaction; after the commit
:func:`send_one` sends it, and the outbox job (:func:`outbox_tick`) sends what is still
pending (a crash, a failure waiting for its retry). Sending:

1. the user's last reply token, if LINE sent it less than :data:`REPLY_TOKEN_FRESH` ago and
   no reply used it yet (a token is single use: it is cleared whatever the answer);
2. otherwise, or when the reply is refused (400 invalid reply token, 429, 5xx), a push with
   ``X-Line-Retry-Key`` = the row's key, the same on every retry of the message: LINE accepts
   a key once and answers a repeat 409, which means the first push was taken, so a push
   retried after a lost answer is never shown twice.

The outcome is the message's ``delivery`` (``succeed``; ``failed`` while it waits for its retry
or once given up), announced to the agents' inbox like a new message. A 4xx other than 409 and
429 is LINE refusing the message itself: given up at once.

The SDK (``linebot``, ≈ 2.5 s of CPU to import) is imported by the sending functions, not by
this module: queueing a message needs none of it, and every process imports this module (each
test's, each ``pao`` command) while only one that sends needs the SDK. With LINE configured it
is imported at start-up (:mod:`pao.support.wiring`).
"""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import TYPE_CHECKING, Any

import structlog
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from pao.kit.clock import utcnow
from pao.support import service
from pao.support.line.media import media_url
from pao.support.line.models import LineContact, LineOutbox
from pao.support.models import ChatConversation, ChatMessage
from pao.support.socket import ChatHub

if TYPE_CHECKING:
    from pao.support.line.client import LineApi

log = structlog.get_logger(__name__)

# LINE: "use the reply token within one minute"; a margin for the call itself.
REPLY_TOKEN_FRESH = timedelta(seconds=50)
MAX_SEND_ATTEMPTS = 8
RETRY_SECONDS = (5, 15, 60, 300, 900, 1800, 3600)


async def line_api(app: Any) -> LineApi:
    """The app's SDK clients, built on first use (they need a running loop)."""
    from pao.support.line.client import open_line_api

    api: LineApi | None = getattr(app.state, "line_api", None)
    if api is None:
        api = await open_line_api(app.state.settings, app.state.http)
        app.state.line_api = api
    return api


async def enqueue(
    session: AsyncSession,
    *,
    message: ChatMessage,
    line_user_id: str,
    notice_key: str | None = None,
) -> None:
    """Queue a stored message for LINE, in the caller's transaction."""
    session.add(
        LineOutbox(
            message_id=message.id,
            line_user_id=line_user_id,
            status="pending",
            retry_key=str(uuid.uuid4()),
            attempts=0,
            next_attempt_at=utcnow(),
            created_at=utcnow(),
            notice_key=notice_key,
        )
    )
    await session.flush()


async def show(app: Any, conversation: ChatConversation, messages: list[ChatMessage]) -> None:
    """Deliver ``messages`` (new, or with a new delivery state) to the agents' sockets."""
    hub: ChatHub = app.state.chat
    async with app.state.sessionmaker() as session:
        names = await service.agent_names(session, hub.agents, messages)
    room = service.room_of(conversation, hub.prefix)
    for message in messages:
        await hub.deliver(
            room=room,
            customer_view=service.to_wire(message, conversation, names=names),
            agent_view=service.to_wire(message, conversation, names=names, for_agent=True),
        )


async def _claim(session: AsyncSession, message_id: int | None) -> LineOutbox | None:
    query = (
        select(LineOutbox)
        .where(LineOutbox.status == "pending")
        .with_for_update(skip_locked=True)
        .execution_options(populate_existing=True)
    )
    if message_id is not None:
        query = query.where(LineOutbox.message_id == message_id)
    else:
        query = query.where(LineOutbox.next_attempt_at <= utcnow()).order_by(
            LineOutbox.next_attempt_at, LineOutbox.message_id
        )
    return (await session.execute(query.limit(1))).scalar_one_or_none()


async def _deliver(
    api: LineApi, row: LineOutbox, reply_token: str | None, messages: list[Any]
) -> str:
    """Send; answers how LINE took it (reply | push), or raises the push's failure."""
    from linebot.v3.messaging import PushMessageRequest, ReplyMessageRequest
    from linebot.v3.messaging.exceptions import ApiException

    if reply_token is not None:
        try:
            await api.messaging.reply_message(
                ReplyMessageRequest(reply_token=reply_token, messages=messages)
            )
            return "reply"
        except ApiException as refused:
            log.info("line reply refused, pushing", status=refused.status)
    try:
        await api.messaging.push_message(
            PushMessageRequest(to=row.line_user_id, messages=messages),
            x_line_retry_key=row.retry_key,
        )
    except ApiException as error:
        if error.status != 409:
            raise
        # 409 to a retry key: LINE took this push before (its answer was lost).
    return "push"


async def send_one(app: Any, message_id: int | None = None) -> bool:
    """Send the outbox row of ``message_id`` (or the next due one); False when none."""
    from pao.support.line.mapping import to_line

    sessionmaker: async_sessionmaker[AsyncSession] = app.state.sessionmaker
    settings = app.state.settings
    api = await line_api(app)
    async with sessionmaker() as session:
        row = await _claim(session, message_id)
        if row is None:
            return False
        message = await session.get(ChatMessage, row.message_id)
        contact = await session.get(LineContact, row.line_user_id)
        assert message is not None
        conversation = await session.get(ChatConversation, message.conversation_id)
        assert conversation is not None
        now = utcnow()
        token = None
        if (
            contact is not None
            and contact.reply_token
            and contact.reply_token_at is not None
            and now - contact.reply_token_at < REPLY_TOKEN_FRESH
        ):
            token = contact.reply_token
        lines = to_line(
            message.body,
            lambda key: media_url(settings.base_url, settings.line_secret, key),
        )
        try:
            via = await _deliver(api, row, token, lines)
        except Exception as error:
            _record_failure(row, error)
            message.delivery = "failed"
        else:
            row.status, row.sent_via, row.sent_at = "sent", via, utcnow()
            message.delivery = "succeed"
        if token is not None and contact is not None:
            contact.reply_token = None  # single use, whatever LINE answered
        await session.commit()
    await show(app, conversation, [message])
    return True


def _record_failure(row: LineOutbox, error: Exception) -> None:
    from linebot.v3.messaging.exceptions import ApiException

    from pao.support.line.client import error_of

    row.attempts += 1
    row.last_error = error_of(error)
    status = error.status if isinstance(error, ApiException) else None
    permanent = isinstance(status, int) and 400 <= status < 500 and status not in (409, 429)
    if permanent or row.attempts >= MAX_SEND_ATTEMPTS:
        row.status = "failed"
    else:
        delay = RETRY_SECONDS[min(row.attempts - 1, len(RETRY_SECONDS) - 1)]
        row.next_attempt_at = utcnow() + timedelta(seconds=delay)
    log.warning("line send failed", attempts=row.attempts, status=status, given_up=row.status)


async def outbox_tick(app: Any) -> int:
    """The outbox job: every due message, one at a time (a small batch per tick)."""
    handled = 0
    while handled < 50 and await send_one(app):
        handled += 1
    return handled
