"""The sandbox's LINE Messaging API: what the line-bot-sdk calls when pointed at it.

``PAO_LINE_API_URL`` (the SDK's ``host``) is ``{base}/sandbox/line`` in sandbox mode, so these
answer LINE's paths under it (shared/providers.md §3): reply, push, a message's content and a
user's profile, with LINE's bearer token check and LINE's error bodies. A reply token is good
once, for a minute after its event; a push's ``X-Line-Retry-Key`` is accepted once (a repeat is
409, as LINE answers). A tester can make the next calls of an endpoint fail (400 invalid reply
token, 429, 500: :func:`take_failure`).
"""

from __future__ import annotations

import hmac
from datetime import timedelta
from typing import Annotated, Any

from fastapi import APIRouter, Header, Request
from fastapi.responses import JSONResponse, Response
from sqlalchemy.ext.asyncio import AsyncSession

from pao.kit.clock import utcnow
from pao.sandbox.line.models import (
    SandboxLineContent,
    SandboxLineEntry,
    SandboxLineFailure,
    SandboxLineReplyToken,
    SandboxLineRetryKey,
    SandboxLineUser,
)
from pao.sandbox.store import SandboxSessionDep

router = APIRouter(prefix="/sandbox/line/v2/bot", include_in_schema=False)

REPLY_TOKEN_SECONDS = 60
_FAILURE_MESSAGES = {
    400: "Invalid reply token",
    429: "The API rate limit has been exceeded. Try again later.",
    500: "An error occurred on the server.",
}


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"message": message}, status_code=status)


def _authorised(request: Request, authorization: str | None) -> bool:
    expected = "Bearer " + request.app.state.settings.line_access_token
    return hmac.compare_digest((authorization or "").encode(), expected.encode())


async def take_failure(session: AsyncSession, endpoint: str) -> JSONResponse | None:
    """The failure planned for this call of ``endpoint``, if any (counted down)."""
    plan = await session.get(SandboxLineFailure, endpoint)
    if plan is None or plan.times <= 0:
        return None
    plan.times -= 1
    await session.commit()
    return _error(plan.status, _FAILURE_MESSAGES.get(plan.status, "Sandbox failure"))


async def _refusal(
    request: Request, session: AsyncSession, endpoint: str, authorization: str | None
) -> JSONResponse | None:
    if not _authorised(request, authorization):
        return _error(401, "Authentication failed due to the following reason: invalid token.")
    return await take_failure(session, endpoint)


def _messages(body: Any) -> list[dict[str, Any]] | None:
    messages = body.get("messages") if isinstance(body, dict) else None
    if not isinstance(messages, list) or not 1 <= len(messages) <= 5:
        return None
    if not all(isinstance(m, dict) and isinstance(m.get("type"), str) for m in messages):
        return None
    return messages


def _sent(
    session: AsyncSession, user_id: str, messages: list[dict[str, Any]], via: str
) -> dict[str, Any]:
    entries = [
        SandboxLineEntry(user_id=user_id, side="bot", message=m, via=via, created_at=utcnow())
        for m in messages
    ]
    session.add_all(entries)
    return {"sentMessages": [{"id": str(10**17 + i)} for i, _ in enumerate(entries)]}


@router.post("/message/reply")
async def reply(
    request: Request,
    session: SandboxSessionDep,
    authorization: Annotated[str | None, Header()] = None,
) -> Response:
    refused = await _refusal(request, session, "reply", authorization)
    if refused is not None:
        return refused
    body = await request.json()
    messages = _messages(body)
    if messages is None:
        return _error(400, "The request body has 1 error(s)")
    token = await session.get(SandboxLineReplyToken, str(body.get("replyToken", "")))
    too_old = utcnow() - timedelta(seconds=REPLY_TOKEN_SECONDS)
    if token is None or token.used or token.issued_at < too_old:
        return _error(400, "Invalid reply token")
    token.used = True
    answer = _sent(session, token.user_id, messages, "reply")
    await session.commit()
    return JSONResponse(answer)


@router.post("/message/push")
async def push(
    request: Request,
    session: SandboxSessionDep,
    authorization: Annotated[str | None, Header()] = None,
    x_line_retry_key: Annotated[str | None, Header()] = None,
) -> Response:
    refused = await _refusal(request, session, "push", authorization)
    if refused is not None:
        return refused
    body = await request.json()
    messages = _messages(body)
    user = await session.get(SandboxLineUser, str(body.get("to", "")))
    if messages is None or user is None:
        return _error(400, "The request body has 1 error(s)")
    if x_line_retry_key:
        if await session.get(SandboxLineRetryKey, x_line_retry_key) is not None:
            return _error(409, "The retry key is already accepted")
        session.add(SandboxLineRetryKey(retry_key=x_line_retry_key, created_at=utcnow()))
    answer = _sent(session, user.user_id, messages, "push")
    await session.commit()
    return JSONResponse(answer)


@router.get("/message/{message_id}/content")
async def content(
    message_id: str,
    request: Request,
    session: SandboxSessionDep,
    authorization: Annotated[str | None, Header()] = None,
) -> Response:
    refused = await _refusal(request, session, "content", authorization)
    if refused is not None:
        return refused
    found = await session.get(SandboxLineContent, message_id)
    if found is None:
        return _error(404, "Not found")
    return Response(found.data, media_type=found.content_type)


@router.get("/profile/{user_id}")
async def profile(
    user_id: str,
    request: Request,
    session: SandboxSessionDep,
    authorization: Annotated[str | None, Header()] = None,
) -> Response:
    refused = await _refusal(request, session, "profile", authorization)
    if refused is not None:
        return refused
    user = await session.get(SandboxLineUser, user_id)
    if user is None:
        return _error(404, "Not found")
    return JSONResponse(
        {"userId": user.user_id, "displayName": user.display_name, "language": user.language}
    )


@router.get("/info")
async def bot_info(
    request: Request,
    session: SandboxSessionDep,
    authorization: Annotated[str | None, Header()] = None,
) -> Response:
    """LINE's ``GET /v2/bot/info`` (the Official Account itself): what ``pao ops providers
    check`` asks."""
    refused = await _refusal(request, session, "info", authorization)
    if refused is not None:
        return refused
    return JSONResponse(
        {
            "userId": "U" + "0" * 32,
            "basicId": "@pao-sandbox",
            "displayName": "Pao (sandbox)",
            "chatMode": "chat",
            "markAsReadMode": "manual",
        }
    )
