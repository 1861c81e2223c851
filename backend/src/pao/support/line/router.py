"""LINE's routes: the webhook (``POST /api/line/webhook``) and the files LINE fetches.

The webhook checks ``x-line-signature`` over the raw body first (the SDK's
``SignatureValidator``: Base64 HMAC-SHA256 with the channel secret, compared in constant time;
LINE publishes no source addresses, so the signature is the only proof), before the body is
parsed or anything is read. Then it stores the events (:func:`~pao.support.line.inbound.
record_events`, de-duplicated by ``webhookEventId``), commits and answers 200 at once; the
events are processed after the answer. With ``PAO_LINE_CHANNEL_SECRET`` or
``PAO_LINE_CHANNEL_ACCESS_TOKEN`` unset, LINE is off and both routes answer 404.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, BackgroundTasks, Header, Request, Response
from linebot.v3.webhook import SignatureValidator
from pydantic import BaseModel, Field

from pao.core.errors import BadRequest, NotFound, Unauthorized
from pao.core.openapi import errors
from pao.core.settings import Settings
from pao.core.uow import SessionDep, UnitOfWorkRoute
from pao.support.line import inbound
from pao.support.line.media import key_of
from pao.support.router import MEDIA_RESPONSES
from pao.support.service import media_of

router = APIRouter(route_class=UnitOfWorkRoute)
TAGS: list[Any] = ["line"]


class LineOff(NotFound):
    """LINE is not configured on this deployment."""


class BadLineSignature(Unauthorized):
    code = "UNAUTHORIZED"


class WebhookAck(BaseModel):
    received: int = Field(description="Events new to Pao (a redelivered one is not counted).")


def _settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    if not settings.line_enabled:
        raise LineOff()
    return settings


def _events_of(raw: bytes) -> list[dict[str, Any]]:
    try:
        body = json.loads(raw)
    except ValueError:
        raise BadRequest("KEY_INVALID") from None
    events = body.get("events") if isinstance(body, dict) else None
    if not isinstance(events, list) or not all(isinstance(e, dict) for e in events):
        raise BadRequest("KEY_INVALID")
    return events


@router.post(
    "/api/line/webhook",
    operation_id="lineWebhook",
    tags=TAGS,
    response_model=WebhookAck,
    responses=errors(
        _400="KEY_INVALID", _401="UNAUTHORIZED", _404="NO_DATA (LINE is off)", _410="gone"
    ),
    summary="LINE's webhook (server to server): signed events, answered before processing",
    description="Header x-line-signature = Base64(HMAC-SHA256(channel secret, raw body)). "
    "Body {destination, events[]}; an empty events list is LINE's connectivity check. "
    "Events are de-duplicated by webhookEventId and processed after the answer.",
)
async def webhook(
    request: Request,
    background: BackgroundTasks,
    session: SessionDep,
    x_line_signature: Annotated[str, Header(alias="x-line-signature")] = "",
) -> WebhookAck:
    settings = _settings(request)
    raw = await request.body()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise BadLineSignature() from None  # LINE signs UTF-8 JSON; this is not LINE's
    if not x_line_signature or not SignatureValidator(settings.line_secret).validate(
        text, x_line_signature
    ):
        raise BadLineSignature()
    new = await inbound.record_events(session, _events_of(raw))
    if new:
        background.add_task(inbound.process_events, request.app, new)
    return WebhookAck(received=len(new))


@router.get(
    "/api/line/media/{media_token}",
    operation_id="lineMedia",
    tags=TAGS,
    response_class=Response,
    responses={**MEDIA_RESPONSES, **errors(_404="CHAT_MEDIA_NOT_FOUND | NO_DATA", _410="gone")},
    summary="A chat file sent to a LINE user, by its signed link (LINE fetches it)",
)
async def line_media(media_token: str, request: Request, session: SessionDep) -> Response:
    settings = _settings(request)
    key = key_of(settings.line_secret, media_token)
    media = await media_of(session, key=key or "", conversation=None)
    data = await request.app.state.file_store.get(media.key)
    return Response(content=data, media_type=media.content_type)
