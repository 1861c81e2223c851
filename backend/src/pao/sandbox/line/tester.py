"""The tester's side of the sandbox LINE platform: play a LINE user, as LINE's app would.

``POST /sandbox/line/api/send`` makes one webhook event (text, image, sticker, postback,
follow, unfollow) the way LINE does (a ULID-like ``webhookEventId``, a fresh reply token, the
image kept for the content endpoint), signs the body with the channel secret and posts it to
Pao's ``/api/line/webhook``; ``/api/redeliver`` posts a sent event again (same id,
``isRedelivery``). ``GET /api/chat`` is the user's chat, Pao's replies and pushes included;
``POST /api/failures`` plans failures of the LINE endpoints Pao calls.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
import time
from typing import Any, Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from pao.core.params import RequestModel
from pao.kit.clock import utcnow
from pao.kit.media import sniff
from pao.sandbox.line.models import (
    SandboxLineContent,
    SandboxLineEntry,
    SandboxLineEvent,
    SandboxLineFailure,
    SandboxLineReplyToken,
    SandboxLineUser,
)
from pao.sandbox.line.page import PAGE_HTML
from pao.sandbox.store import SandboxSessionDep

router = APIRouter(prefix="/sandbox/line", include_in_schema=False)

BOT_USER_ID = "U" + "0" * 32
_ULID_CHARS = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
MAX_IMAGE_BYTES = 10 * 1024 * 1024


class _In(BaseModel):
    model_config = ConfigDict(populate_by_name=True, extra="forbid")


class UserIn(_In):
    user_id: str | None = Field(default=None, alias="userId", pattern=r"^U[0-9a-f]{32}$")
    display_name: str = Field(alias="displayName", min_length=1, max_length=100)
    language: str = Field(default="th", max_length=10)


class SendIn(_In):
    user_id: str = Field(alias="userId", pattern=r"^U[0-9a-f]{32}$")
    type: Literal["text", "image", "sticker", "postback", "follow", "unfollow"]
    text: str | None = Field(default=None, max_length=5000)
    image_base64: str | None = Field(default=None, alias="imageBase64", max_length=14_000_000)
    package_id: str = Field(default="446", alias="packageId", max_length=20)
    sticker_id: str = Field(default="1988", alias="stickerId", max_length=20)
    keywords: list[str] = Field(default_factory=list, max_length=15)
    data: str | None = Field(default=None, max_length=300)


class RedeliverIn(_In):
    webhook_event_id: str = Field(alias="webhookEventId", max_length=26)


class FailureIn(_In, RequestModel):
    endpoint: Literal["reply", "push", "content", "profile"]
    # One of 400 (an invalid reply token), 429 and 500; bounded as every integer input is.
    status: Literal[400, 429, 500] = Field(json_schema_extra={"minimum": 400, "maximum": 500})
    times: int = Field(default=1, ge=0, le=100)


def _ulid() -> str:
    """A ULID-shaped id (time first, then randomness), as LINE's webhookEventId."""
    value = (int(time.time() * 1000) << 80) | secrets.randbits(80)
    return "".join(_ULID_CHARS[(value >> (5 * i)) & 31] for i in reversed(range(26)))


def signature(secret: str, body: bytes) -> str:
    digest = hmac.new(secret.encode(), body, hashlib.sha256).digest()
    return base64.b64encode(digest).decode()


async def post_webhook(request: Request, events: list[dict[str, Any]]) -> int:
    """Sign and post ``events`` to Pao's webhook, as LINE does; answers Pao's status."""
    settings = request.app.state.settings
    body = json.dumps(
        {"destination": BOT_USER_ID, "events": events}, ensure_ascii=False, separators=(",", ":")
    ).encode()
    response = await request.app.state.http.post(
        f"{settings.base_url}/api/line/webhook",
        content=body,
        headers={
            "Content-Type": "application/json",
            "x-line-signature": signature(settings.line_secret, body),
        },
    )
    return int(response.status_code)


def _message_id() -> str:
    return str(secrets.randbelow(9 * 10**17) + 10**17)


async def _event(session: AsyncSession, body: SendIn) -> dict[str, Any] | JSONResponse:
    now_ms = int(time.time() * 1000)
    kind = "message" if body.type in ("text", "image", "sticker") else body.type
    event: dict[str, Any] = {
        "type": kind,
        "mode": "active",
        "timestamp": now_ms,
        "source": {"type": "user", "userId": body.user_id},
        "webhookEventId": _ulid(),
        "deliveryContext": {"isRedelivery": False},
    }
    if body.type != "unfollow":
        token = secrets.token_hex(16)
        session.add(SandboxLineReplyToken(token=token, user_id=body.user_id, issued_at=utcnow()))
        event["replyToken"] = token
    if body.type == "follow":
        event["follow"] = {"isUnblocked": False}
    elif body.type == "postback":
        event["postback"] = {"data": body.data or ""}
    elif body.type == "text":
        if not body.text:
            return JSONResponse({"message": "text is required"}, status_code=400)
        event["message"] = {
            "id": _message_id(),
            "type": "text",
            "text": body.text,
            "quoteToken": secrets.token_hex(8),
        }
    elif body.type == "sticker":
        event["message"] = {
            "id": _message_id(),
            "type": "sticker",
            "packageId": body.package_id,
            "stickerId": body.sticker_id,
            "stickerResourceType": "STATIC",
            "keywords": body.keywords,
            "quoteToken": secrets.token_hex(8),
        }
    elif body.type == "image":
        try:
            data = base64.b64decode(body.image_base64 or "", validate=True)
        except ValueError:
            data = b""
        if not data or len(data) > MAX_IMAGE_BYTES:
            return JSONResponse({"message": "an image is required"}, status_code=400)
        detected = sniff(data[:64])
        message_id = _message_id()
        session.add(
            SandboxLineContent(
                message_id=message_id,
                content_type=detected.content_type if detected else "application/octet-stream",
                data=data,
            )
        )
        event["message"] = {
            "id": message_id,
            "type": "image",
            "contentProvider": {"type": "line"},
            "quoteToken": secrets.token_hex(8),
        }
    return event


@router.get("", response_class=HTMLResponse)
async def page() -> HTMLResponse:
    return HTMLResponse(PAGE_HTML)


@router.post("/api/users", operation_id="sandboxLineUser")
async def save_user(body: UserIn, session: SandboxSessionDep) -> JSONResponse:
    user_id = body.user_id or "U" + secrets.token_hex(16)
    user = await session.get(SandboxLineUser, user_id)
    if user is None:
        user = SandboxLineUser(user_id=user_id, created_at=utcnow())
        session.add(user)
    user.display_name, user.language = body.display_name, body.language
    await session.commit()
    return JSONResponse({"userId": user_id, "displayName": user.display_name})


@router.post("/api/send", operation_id="sandboxLineSend")
async def send(body: SendIn, request: Request, session: SandboxSessionDep) -> JSONResponse:
    if await session.get(SandboxLineUser, body.user_id) is None:
        return JSONResponse({"message": "unknown user"}, status_code=404)
    event = await _event(session, body)
    if isinstance(event, JSONResponse):
        return event
    shown = event.get("message") or {k: event[k] for k in ("type", "postback") if k in event}
    session.add(
        SandboxLineEntry(user_id=body.user_id, side="user", message=shown, created_at=utcnow())
    )
    session.add(SandboxLineEvent(webhook_event_id=event["webhookEventId"], event=event))
    # Committed before the post: Pao calls the content and profile endpoints while handling it.
    await session.commit()
    status = await post_webhook(request, [event])
    return JSONResponse({"webhookStatus": status, "event": event})


@router.post("/api/redeliver", operation_id="sandboxLineRedeliver")
async def redeliver(
    body: RedeliverIn, request: Request, session: SandboxSessionDep
) -> JSONResponse:
    sent = await session.get(SandboxLineEvent, body.webhook_event_id)
    if sent is None:
        return JSONResponse({"message": "unknown event"}, status_code=404)
    event = {**sent.event, "deliveryContext": {"isRedelivery": True}}
    return JSONResponse({"webhookStatus": await post_webhook(request, [event])})


@router.get("/api/chat", operation_id="sandboxLineChat")
async def chat(
    session: SandboxSessionDep, user_id: str = Query(alias="userId", max_length=33)
) -> JSONResponse:
    rows = await session.execute(
        select(SandboxLineEntry)
        .where(SandboxLineEntry.user_id == user_id)
        .order_by(SandboxLineEntry.id)
    )
    return JSONResponse(
        [{"id": e.id, "side": e.side, "message": e.message, "via": e.via} for e in rows.scalars()]
    )


@router.post("/api/failures", operation_id="sandboxLineFailures")
async def plan_failure(body: FailureIn, session: SandboxSessionDep) -> JSONResponse:
    plan = await session.get(SandboxLineFailure, body.endpoint)
    if plan is None:
        plan = SandboxLineFailure(endpoint=body.endpoint)
        session.add(plan)
    plan.status, plan.times = body.status, body.times
    await session.commit()
    return JSONResponse({"endpoint": body.endpoint, "status": body.status, "times": body.times})
