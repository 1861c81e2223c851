"""LINE's routes: the webhook (``POST /api/line/webhook``), the files LINE fetches, and a
member's link to their LINE user.

The webhook checks ``x-line-signature`` over the raw body first (the SDK's
``SignatureValidator``: Base64 HMAC-SHA256 with the channel secret, compared in constant time;
LINE publishes no source addresses, so the signature is the only proof), before the body is
parsed or anything is read. Then it stores the events (:func:`~pao.support.line.inbound.
record_events`, de-duplicated by ``webhookEventId``), commits and answers 200 at once; the
events are processed after the answer. With ``PAO_LINE_CHANNEL_SECRET`` or
``PAO_LINE_CHANNEL_ACCESS_TOKEN`` unset, LINE is off and the routes answer 404 (the member's
link state answers ``enabled: false``).

A member links their LINE user with a one-time code (``/api/line/link*``,
:mod:`pao.support.line.linking`), then may opt in to notices.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, BackgroundTasks, Header, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from pao.core.errors import BadRequest, NotFound, Unauthorized
from pao.core.openapi import AUTH_ERRORS, VALIDATION, errors
from pao.core.settings import Settings
from pao.core.uow import SessionDep, UnitOfWorkRoute
from pao.identity.deps import CurrentMember
from pao.support.line import linking
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
    # The SDK's modules: imported by the wiring at start-up, as LINE is configured here
    # (pao.support.line.outbound says why not at this module's import).
    from linebot.v3.webhook import SignatureValidator

    from pao.support.line import inbound

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


# ----- linking a member's LINE user (the player app's profile) ------------------------------


class LinkOut(BaseModel):
    model_config = ConfigDict(populate_by_name=True)

    enabled: bool = Field(description="LINE is on for this site (else nothing else is set).")
    linked: bool
    display_name: str | None = Field(default=None, alias="displayName")
    notices: bool = Field(description="Deposits, withdrawals and bonuses are told on LINE.")
    following: bool = Field(description="The LINE user follows the Official Account.")
    code: str | None = Field(
        default=None, description="The live one-time code to send to the Official Account."
    )
    code_expires_at: datetime | None = Field(default=None, alias="codeExpiresAt")


class NoticesIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    enabled: bool


LINK_ERRORS = {**AUTH_ERRORS, **errors(_404="NO_DATA (LINE is off, or not linked)")}


async def _link_out(request: Request, session: SessionDep, member_id: int) -> LinkOut:
    if not request.app.state.settings.line_enabled:
        return LinkOut(enabled=False, linked=False, notices=False, following=False)
    found = await linking.state(session, member_id=member_id)
    return LinkOut(
        enabled=True,
        linked=found.linked,
        display_name=found.display_name,
        notices=found.notices,
        following=found.following,
        code=found.code,
        code_expires_at=found.code_expires_at,
    )


@router.get(
    "/api/line/link",
    operation_id="lineLink",
    tags=TAGS,
    response_model=LinkOut,
    response_model_by_alias=True,
    responses=AUTH_ERRORS,
    summary="The member's LINE link: linked or not, notices, the live link code",
)
async def link_state(request: Request, session: SessionDep, member: CurrentMember) -> LinkOut:
    return await _link_out(request, session, member.id)


@router.post(
    "/api/line/link/code",
    operation_id="lineLinkCode",
    tags=TAGS,
    response_model=LinkOut,
    response_model_by_alias=True,
    responses=LINK_ERRORS,
    summary="A new one-time code (15 minutes) to send to the Official Account in LINE",
)
async def link_code(request: Request, session: SessionDep, member: CurrentMember) -> LinkOut:
    _settings(request)
    await linking.new_code(session, member_id=member.id)
    return await _link_out(request, session, member.id)


@router.put(
    "/api/line/link/notices",
    operation_id="lineLinkNotices",
    tags=TAGS,
    response_model=LinkOut,
    response_model_by_alias=True,
    responses={**LINK_ERRORS, **VALIDATION},
    summary="Opt in or out of notices on LINE (deposit credited, withdrawal paid or "
    "rejected, bonus received)",
)
async def link_notices(
    body: NoticesIn, request: Request, session: SessionDep, member: CurrentMember
) -> LinkOut:
    _settings(request)
    if not await linking.set_notices(session, member_id=member.id, enabled=body.enabled):
        raise NotFound()
    return await _link_out(request, session, member.id)


@router.delete(
    "/api/line/link",
    operation_id="lineUnlink",
    tags=TAGS,
    response_model=LinkOut,
    response_model_by_alias=True,
    responses=LINK_ERRORS,
    summary="Unlink the member's LINE user (no more notices)",
)
async def unlink(request: Request, session: SessionDep, member: CurrentMember) -> LinkOut:
    _settings(request)
    await linking.unlink(session, member_id=member.id)
    return await _link_out(request, session, member.id)
