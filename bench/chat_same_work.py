"""The chat's same-work baseline (bench only, never in production): what Pao's
``POST /api/chat/send-message`` does for a guest, without the framework.

A bare ASGI handler in front of a python-socketio server that shares Redis as Pao's does
(socket.io's Redis manager, the same channel naming): read the body and parse its JSON, take
the guest from ``X-Guest-Id``, count the send in Redis (Pao's throttle: INCR and EXPIRE NX in
one MULTI), then **the statements Pao sends, in its order and transaction** on raw asyncpg
(the conversation looked up, created when new unless a twin did, the message inserted, the
conversation's counters bumped and returned), commit, answer, and emit ``messaging`` to the
guest's room and to the agents' room, as Pao's delivery does after its response.

No FastAPI, no SQLAlchemy, no pydantic, no middleware. The chat bench times delivery through
this server as through Pao's (bench.chat): the ratio between them is what Pao's own code
costs on the way, the ratio to the bare python-socketio server (bench.chat_baseline) what a
stored message costs at all. Run: ``uvicorn bench.chat_same_work:app``.
"""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime
from typing import Any

import asyncpg
import socketio
from redis.asyncio import Redis
from starlette.types import Receive, Scope, Send

from bench.bare_common import read_body, send_json
from bench.common import PG_URL, REDIS_URL

SEND_PATH = "/bench/chat-send"
PREFIX = "pao-chat-"  # pao.core.settings.Settings.chat_prefix's default, as the bench runs Pao
AGENTS_ROOM = "__agents__"  # pao.support.service.AGENTS_ROOM
SENDS_PER_MINUTE = 30  # pao.support.router.SENDS_PER_MINUTE

_COLUMNS = (
    "id, member_id, guest_id, line_user_id, display_name, username, created_at,"
    " last_message_at, agent_unread, customer_unread, wants_agent, locale,"
    " assigned_staff_id, assigned_at"
)
_FIND = f"SELECT {_COLUMNS} FROM chat_conversations WHERE guest_id = $1"
_CREATE = (
    "INSERT INTO chat_conversations (guest_id, display_name, created_at, agent_unread,"
    " customer_unread, wants_agent, locale) VALUES ($1, $2, $3, 0, 0, false, $4)"
    f" ON CONFLICT (guest_id) DO NOTHING RETURNING {_COLUMNS}"
)
_MESSAGE_COLUMNS = (
    "id, conversation_id, sender, agent_id, message_type, body, client_id, session_id,"
    " created_at, delivery"
)
_STORE = (
    "INSERT INTO chat_messages (conversation_id, sender, agent_id, message_type, body,"
    " client_id, session_id, created_at, delivery) VALUES"
    f" ($1, 'customer', NULL, $2, $3, $4, NULL, $5, NULL) RETURNING {_MESSAGE_COLUMNS}"
)
_COUNT = (
    "UPDATE chat_conversations SET last_message_at = $1, agent_unread = agent_unread + 1"
    " WHERE id = $2 RETURNING agent_unread, customer_unread, last_message_at, wants_agent"
)

sio = socketio.AsyncServer(
    async_mode="asgi",
    client_manager=socketio.AsyncRedisManager(REDIS_URL, channel=f"{PREFIX}socketio"),
    cors_allowed_origins=None,
)


@sio.on("connect")  # type: ignore[misc]
async def connect(sid: str, environ: dict[str, Any], auth: Any = None) -> None:
    guest = auth.get("guestId") if isinstance(auth, dict) else None
    await sio.save_session(sid, {"room": PREFIX + str(guest)})


@sio.on("join")  # type: ignore[misc]
async def join(sid: str, room: Any = None) -> dict[str, Any]:
    # Pao lets a socket join its own room only; the bench's clients join theirs.
    if (await sio.get_session(sid)).get("room") != room:
        return {"ok": False}
    await sio.enter_room(sid, str(room))
    return {"ok": True}


class SameWork:
    def __init__(self) -> None:
        self.sockets = socketio.ASGIApp(sio, socketio_path="socket.io")
        self.pool: asyncpg.Pool | None = None
        self.redis = Redis.from_url(REDIS_URL)
        self.lock = asyncio.Lock()

    async def _pool(self) -> asyncpg.Pool:
        # The lock only while there is no pool yet: the baseline pays nothing per request for it.
        if self.pool is None:
            async with self.lock:
                if self.pool is None:
                    self.pool = await asyncpg.create_pool(PG_URL, min_size=1, max_size=10)
        return self.pool

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] != SEND_PATH:
            await self.sockets(scope, receive, send)
            return
        headers = dict(scope["headers"])
        guest = headers.get(b"x-guest-id", b"").decode()
        body = json.loads(await read_body(receive))
        key = f"pao:rl:chat-send:{PREFIX}{guest}"
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.incr(key)
            pipe.expire(key, 60, nx=True)
            count, _ = await pipe.execute()
        if int(count) > SENDS_PER_MINUTE:
            await send_json(send, 429, b'{"message": "REQUEST_LIMIT"}')
            return
        message = body["message"]
        now = datetime.now(UTC)
        pool = await self._pool()
        async with pool.acquire() as connection, connection.transaction():
            conversation = await connection.fetchrow(_FIND, guest)
            if conversation is None:
                name = f"Guest {guest[:4].upper()}"
                conversation = await connection.fetchrow(
                    _CREATE, guest, name, now, "en"
                )
            conversation_id = conversation["id"]
            stored = await connection.fetchrow(
                _STORE,
                conversation_id,
                message["message_type"],
                json.dumps(message),
                body.get("clientId"),
                now,
            )
            await connection.fetchrow(_COUNT, now, conversation_id)
        message_id = stored["id"]
        answer = {"timestamp": now.isoformat(), "id": str(message_id)}
        await send_json(send, 200, json.dumps(answer).encode())
        view = {
            "_id": str(message_id),
            "sender": "customer",
            "message": message,
            "createdAt": now.isoformat(),
            "session_id": None,
            "userId": None,
            "guestId": guest,
            "username": None,
            "name": conversation["display_name"],
            "clientId": body.get("clientId"),
            "conversationId": str(conversation_id),
            "agentName": None,
            "delivery": None,
        }
        await sio.emit("messaging", view, to=PREFIX + guest)
        await sio.emit("messaging", {**view, "guestId": None}, to=AGENTS_ROOM)


app = SameWork()
