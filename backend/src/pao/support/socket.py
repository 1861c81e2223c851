"""The socket.io server of the chat, mounted in the app at ``/socket.io``.

Identity comes from the handshake's ``auth`` object, checked once at connect and bound to the
socket's session, so a socket cannot change who it is afterwards:

* ``{"token": <member token>}`` → a member; it may join only ``PREFIX + member id``;
* ``{"guestId": <v4 UUID>}`` → a guest; it may join only ``PREFIX + guest id``;
* ``{"agentToken": <staff session token>}`` → an agent (a staff member who may use the chat,
  found through the :class:`~pao.support.agents.AgentDirectory`); it is put in the agents'
  room, which receives every conversation's messages.
* ``{"staffToken": <staff session token>}`` → a staff member of the back office; it is put in
  the staff rooms its permissions open (found through :class:`StaffRooms`, which the back
  office provides, e.g. ``backoffice:withdrawals``), and refused when they open none. The
  back office emits its live queue events there (:meth:`ChatHub.emit_to_room`).

Events: the client emits ``join`` (a room name; the ack is ``{"ok": bool, "message"?}``) and
receives ``messaging`` (one message, as history returns it) and, agents only, ``read`` and
``assigned`` (a conversation changed hands: ``{conversationId, assignedStaffId,
assignedName, assignedAt}``, the ids as strings like the other events, null when released).
With ``PAO_REDIS_URL`` the server uses socket.io's Redis manager so that every process shares
rooms, and the agents online are counted in Redis (a sorted set of socket ids with an expiry
that each process refreshes for its own sockets).
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

import socketio
import structlog
from redis.asyncio import Redis
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from pao.core import metrics
from pao.core.request_limits import DEFAULT_BODY_LIMIT
from pao.core.security import token_digest
from pao.core.settings import Settings
from pao.identity.models import LoginSession, Member, MemberStatus
from pao.kit.clock import utcnow
from pao.support.agents import AgentDirectory
from pao.support.schemas import GUEST_ID, ConversationOut
from pao.support.service import AGENTS_ROOM

log = structlog.get_logger(__name__)

PRESENCE_TTL_SECONDS = 90
PRESENCE_REFRESH_SECONDS = 30


class AgentPresence:
    """Which agent sockets are connected: in this process, and in Redis when configured."""

    def __init__(self, redis: Redis | None, key: str) -> None:
        self.redis = redis
        self.key = key
        self.local: set[str] = set()

    async def add(self, sid: str) -> None:
        self.local.add(sid)
        if self.redis is not None:
            await self.redis.zadd(self.key, {sid: time.time() + PRESENCE_TTL_SECONDS})

    async def remove(self, sid: str) -> None:
        self.local.discard(sid)
        if self.redis is not None:
            await self.redis.zrem(self.key, sid)

    async def refresh(self) -> int:
        """Extend this process's sockets (a crashed process's entries expire on their own)."""
        if self.redis is not None and self.local:
            expiry = time.time() + PRESENCE_TTL_SECONDS
            await self.redis.zadd(self.key, dict.fromkeys(self.local, expiry))
        return len(self.local)

    async def count(self) -> int:
        if self.redis is None:
            return len(self.local)
        now = time.time()
        await self.redis.zremrangebyscore(self.key, "-inf", now)
        return int(await self.redis.zcount(self.key, now, "+inf"))

    async def close(self) -> None:
        if self.redis is not None:
            if self.local:
                await self.redis.zrem(self.key, *self.local)
            await self.redis.aclose()


class StaffRooms(Protocol):
    """The back office's rooms for a staff session (this package never imports it)."""

    async def rooms_for_token(self, session: AsyncSession, token: str) -> list[str] | None:
        """The rooms of a live staff session's holder, or ``None`` for no such session."""
        ...


class ChatHub:
    """The socket.io server plus what the API needs from it (delivery, presence)."""

    def __init__(
        self,
        settings: Settings,
        sessionmaker: async_sessionmaker[AsyncSession],
        agents: AgentDirectory,
    ) -> None:
        self.prefix = settings.chat_prefix
        self.sessionmaker = sessionmaker
        self.agents = agents
        # Set by the back office when it is wired (pao.backoffice.wiring); None: no staff rooms.
        self.staff_rooms: StaffRooms | None = None
        self._before_close: list[Callable[[], Awaitable[None]]] = []
        manager = None
        redis = None
        if settings.redis_url:
            manager = socketio.AsyncRedisManager(
                settings.redis_url, channel=f"{settings.chat_prefix}socketio"
            )
            redis = Redis.from_url(settings.redis_url)
        self.presence = AgentPresence(redis, f"{settings.chat_prefix}agents-online")
        # cors_allowed_origins=None: only the app's own origin may open a socket.
        self.sio = socketio.AsyncServer(
            async_mode="asgi",
            client_manager=manager,
            cors_allowed_origins=None,
            logger=False,
            engineio_logger=False,
            # A socket message is bounded like an HTTP body (the edge bounds the polling
            # transport's bodies; this bounds WebSocket messages too): clients send only
            # small events (join).
            max_http_buffer_size=DEFAULT_BODY_LIMIT,
        )
        self.sio.on("connect", self._connect)
        self.sio.on("disconnect", self._disconnect)
        self.sio.on("join", self._join)

    def asgi_app(self) -> socketio.ASGIApp:
        return socketio.ASGIApp(self.sio, socketio_path="socket.io")

    def before_close(self, callback: Callable[[], Awaitable[None]]) -> None:
        """Await ``callback`` when the hub closes, while its sockets are still connected (the
        back office sends the live events it holds back, pao.backoffice.staff.rooms)."""
        self._before_close.append(callback)

    async def close(self) -> None:
        for callback in self._before_close:
            await callback()
        await self.sio.shutdown()
        await self.presence.close()

    # ----- delivery (called after the request's transaction committed) ---------------------

    async def deliver(
        self, *, room: str, customer_view: ConversationOut, agent_view: ConversationOut
    ) -> None:
        await self.sio.emit(
            "messaging", customer_view.model_dump(mode="json", by_alias=True), to=room
        )
        await self.sio.emit(
            "messaging", agent_view.model_dump(mode="json", by_alias=True), to=AGENTS_ROOM
        )

    async def announce_read(self, *, conversation_id: int, by: str) -> None:
        await self.sio.emit(
            "read", {"conversationId": str(conversation_id), "by": by}, to=AGENTS_ROOM
        )

    async def emit_to_room(self, event: str, data: Any, *, room: str) -> None:
        """An event for a staff room (every process's sockets in it, through Redis)."""
        await self.sio.emit(event, data, to=room)

    async def announce_assignment(
        self,
        *,
        conversation_id: int,
        assigned_staff_id: int | None,
        assigned_name: str | None,
        assigned_at: str | None,
    ) -> None:
        """Tell every agent's inbox who now works the conversation (after the commit)."""
        await self.sio.emit(
            "assigned",
            {
                "conversationId": str(conversation_id),
                "assignedStaffId": str(assigned_staff_id) if assigned_staff_id else None,
                "assignedName": assigned_name,
                "assignedAt": assigned_at,
            },
            to=AGENTS_ROOM,
        )

    async def agents_online(self) -> int:
        return await self.presence.count()

    # ----- socket events ----------------------------------------------------------------------

    async def _identify(self, auth: Any) -> dict[str, Any] | None:
        if not isinstance(auth, dict):
            return None
        token, agent_token, staff_token, guest_id = (
            auth.get("token"),
            auth.get("agentToken"),
            auth.get("staffToken"),
            auth.get("guestId"),
        )
        given = [v for v in (token, agent_token, staff_token, guest_id) if v]
        if len(given) != 1 or not all(isinstance(v, str) for v in given):
            return None
        async with self.sessionmaker() as session:
            if isinstance(token, str) and token:
                member = await _member_for_token(session, token)
                if member is None:
                    return None
                return {"kind": "member", "room": f"{self.prefix}{member.id}"}
            if isinstance(agent_token, str) and agent_token:
                agent = await self.agents.agent_for_token(session, agent_token)
                if agent is None:
                    return None
                return {"kind": "agent", "room": None, "agent_id": agent.id}
            if isinstance(staff_token, str) and staff_token and self.staff_rooms is not None:
                rooms = await self.staff_rooms.rooms_for_token(session, staff_token)
                if not rooms:
                    return None
                return {"kind": "staff", "room": None, "staff_rooms": rooms}
        if isinstance(guest_id, str) and GUEST_ID.fullmatch(guest_id):
            return {"kind": "guest", "room": f"{self.prefix}{guest_id}"}
        return None

    async def _connect(self, sid: str, environ: dict[str, Any], auth: Any = None) -> None:
        identity = await self._identify(auth)
        if identity is None:
            raise socketio.exceptions.ConnectionRefusedError("invalid-token")
        await self.sio.save_session(sid, identity)
        metrics.SOCKETIO_CONNECTIONS.labels(identity["kind"]).inc()
        if identity["kind"] == "agent":
            await self.sio.enter_room(sid, AGENTS_ROOM)
            await self.presence.add(sid)
        for room in identity.get("staff_rooms", ()):
            await self.sio.enter_room(sid, room)

    async def _disconnect(self, sid: str, *args: Any) -> None:
        # Only an accepted connection has a session (a refused one never counted).
        with contextlib.suppress(KeyError):
            identity = await self.sio.get_session(sid)
            metrics.SOCKETIO_CONNECTIONS.labels(identity["kind"]).dec()
        await self.presence.remove(sid)

    async def _join(self, sid: str, room: Any = None) -> dict[str, Any]:
        identity = await self.sio.get_session(sid)
        if identity.get("room") is None or room != identity["room"]:
            log.info("chat join refused", kind=identity.get("kind"))
            return {"ok": False, "message": "CHAT_NOT_OWNER"}
        await self.sio.enter_room(sid, room)
        return {"ok": True}


async def _member_for_token(session: AsyncSession, token: str) -> Member | None:
    login = (
        await session.execute(
            select(LoginSession).where(LoginSession.token_digest == token_digest(token))
        )
    ).scalar_one_or_none()
    if login is None or login.revoked_at is not None or login.expires_at <= utcnow():
        return None
    member = await session.get(Member, login.member_id)
    if member is None or member.status != MemberStatus.ACTIVE:
        return None
    return member
