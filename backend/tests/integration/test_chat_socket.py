"""The chat's socket.io server over real sockets: who may join which room, live delivery, and
two ``pao serve`` processes sharing rooms and agent presence through Redis."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import socketio
import uvicorn
from fastapi import FastAPI
from sqlalchemy.ext.asyncio import create_async_engine

from pao.backoffice.staff.roles import Role
from pao.core.db import create_sessionmaker
from pao.site.settings import set_value
from tests.conftest import REDIS_URL, build_schema
from tests.helpers import auth, member_id, register_and_login, set_site_setting
from tests.integration.serving import PAO, serve_environment, serving
from tests.staff_helpers import StaffAccount, add_staff, log_in

PREFIX = "pao-chat-"


@pytest.fixture
async def live(app: FastAPI) -> AsyncIterator[str]:
    """The test's app served over TCP (socket.io clients need a real socket)."""
    config = uvicorn.Config(
        app,
        host="127.0.0.1",
        port=0,
        lifespan="off",
        ws="wsproto",
        log_level="warning",
        # An aborted polling listener (Listener.close) leaves its long-poll open; the shutdown
        # ends it after a second instead of waiting for the server's next ping.
        timeout_graceful_shutdown=1,
    )
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    for _ in range(500):
        if server.started:
            break
        await asyncio.sleep(0.01)
    port = server.servers[0].sockets[0].getsockname()[1]
    await set_site_setting(app, "enableChatWidget", True)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    await task


class Listener:
    """A socket.io client that queues the events it receives."""

    def __init__(self) -> None:
        self.client = socketio.AsyncClient(reconnection=False)
        self.messages: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.client.on("messaging", self.messages.put_nowait)

    async def connect(self, url: str, auth: dict[str, str], transport: str = "websocket") -> None:
        await self.client.connect(url, auth=auth, transports=[transport], wait_timeout=5)

    async def join(self, room: str) -> dict[str, Any]:
        answer: dict[str, Any] = await self.client.call("join", room, timeout=5)
        return answer

    async def next(self, seconds: float = 5) -> dict[str, Any]:
        return await asyncio.wait_for(self.messages.get(), seconds)

    async def nothing(self, seconds: float = 0.3) -> None:
        await asyncio.sleep(seconds)
        assert self.messages.empty(), self.messages.get_nowait()

    async def close(self) -> None:
        if self.client.transport() == "polling":
            # A graceful disconnect over polling waits for the pending long-poll, which the
            # server answers only at its next ping (engine.io does not wake it for a client's
            # close): 45 s a test. Aborted, the live server's shutdown ends that request.
            await self.client.eio.disconnect(abort=True)
        else:
            await self.client.disconnect()


@pytest.fixture
async def listeners() -> AsyncIterator[list[Listener]]:
    made: list[Listener] = []
    yield made
    for listener in made:
        await listener.close()


def new_listener(made: list[Listener]) -> Listener:
    listener = Listener()
    made.append(listener)
    return listener


def text(payload: str) -> dict[str, Any]:
    return {"message_type": "text", "payload": payload}


async def test_member_joins_only_its_room_and_receives_messages(
    live: str, client: httpx.AsyncClient, listeners: list[Listener]
) -> None:
    _, alice = await register_and_login(client)
    _, bob = await register_and_login(client)
    alice_id = await member_id(client, alice)
    bob_id = await member_id(client, bob)
    a = new_listener(listeners)
    await a.connect(live, {"token": alice})
    assert await a.join(f"{PREFIX}{bob_id}") == {"ok": False, "message": "CHAT_NOT_OWNER"}
    assert await a.join(f"{PREFIX}guest") == {"ok": False, "message": "CHAT_NOT_OWNER"}
    assert await a.join(f"{PREFIX}{alice_id}") == {"ok": True}
    b = new_listener(listeners)
    await b.connect(live, {"token": bob}, transport="polling")
    assert await b.join(f"{PREFIX}{bob_id}") == {"ok": True}

    async with httpx.AsyncClient(base_url=live) as http:
        r = await http.post(
            "/api/chat/send-message",
            json={"message": text("to the room"), "clientId": "k1"},
            headers=auth(alice),
        )
        assert r.status_code == 200, r.text
    got = await a.next()
    assert (got["message"]["payload"], got["clientId"], got["userId"]) == (
        "to the room",
        "k1",
        str(alice_id),
    )
    # The event carries the stored time the HTTP answer returned.
    assert got["createdAt"] == r.json()["timestamp"]
    assert got["_id"] == r.json()["_id"]
    # Bob's socket, in his own room, hears nothing of Alice's conversation.
    await b.nothing()


async def test_guest_is_bound_to_its_id(
    live: str, client: httpx.AsyncClient, listeners: list[Listener]
) -> None:
    gid, other = str(uuid.uuid4()), str(uuid.uuid4())
    g = new_listener(listeners)
    await g.connect(live, {"guestId": gid})
    assert await g.join(f"{PREFIX}{other}") == {"ok": False, "message": "CHAT_NOT_OWNER"}
    assert await g.join(f"{PREFIX}{gid}") == {"ok": True}
    # Someone else's guest id in the HTTP header does not reach this socket's room.
    async with httpx.AsyncClient(base_url=live) as http:
        await http.post(
            "/api/chat/send-message", json={"message": text("x")}, headers={"X-Guest-Id": other}
        )
        await g.nothing()
        await http.post(
            "/api/chat/send-message", json={"message": text("mine")}, headers={"X-Guest-Id": gid}
        )
    assert (await g.next())["message"]["payload"] == "mine"


@pytest.mark.parametrize(
    "auth_object",
    [
        None,
        {},
        {"token": "not-a-token"},
        {"agentToken": "not-a-token"},
        {"guestId": "not-a-uuid"},
        {"guestId": "2B1E4C3A-1F6D-4E8A-9B7C-0D1E2F3A4B5C"},
        {"guestId": str(uuid.uuid4()), "token": "x"},
        {"guestId": 5},
    ],
)
async def test_bad_handshakes_are_refused(live: str, auth_object: Any) -> None:
    client = socketio.AsyncClient(reconnection=False)
    with pytest.raises(socketio.exceptions.ConnectionError):
        await client.connect(live, auth=auth_object, transports=["websocket"], wait_timeout=5)


async def test_member_token_is_not_an_agent_token(
    live: str, client: httpx.AsyncClient, app: FastAPI
) -> None:
    _, member = await register_and_login(client)
    client_io = socketio.AsyncClient(reconnection=False)
    with pytest.raises(socketio.exceptions.ConnectionError):
        await client_io.connect(live, auth={"agentToken": member}, transports=["websocket"])
    token = await log_in(client, await add_staff(app, login="ann"))
    with pytest.raises(socketio.exceptions.ConnectionError):
        await client_io.connect(live, auth={"token": token}, transports=["websocket"])


async def test_agents_receive_every_conversation_live(
    live: str, client: httpx.AsyncClient, app: FastAPI, listeners: list[Listener]
) -> None:
    agent_token = await log_in(client, await add_staff(app, login="ann", name="Ann"))
    agent = new_listener(listeners)
    await agent.connect(live, {"agentToken": agent_token})
    # Agents need no join; they may not join a customer's room either.
    assert (await agent.join(f"{PREFIX}1"))["ok"] is False
    assert await app.state.chat.agents_online() == 1

    gid = str(uuid.uuid4())
    g = new_listener(listeners)
    await g.connect(live, {"guestId": gid})
    await g.join(f"{PREFIX}{gid}")
    async with httpx.AsyncClient(base_url=live) as http:
        await http.post(
            "/api/chat/send-message", json={"message": text("help")}, headers={"X-Guest-Id": gid}
        )
        seen = await agent.next()
        assert seen["message"]["payload"] == "help"
        assert seen["guestId"] is None  # the guest's credential never reaches agents
        assert (await g.next())["guestId"] == gid
        reply = await http.post(
            f"/api/agent/conversations/{seen['conversationId']}/messages",
            json={"message": text("hello, how can I help?")},
            headers=auth(agent_token),
        )
        assert reply.status_code == 200, reply.text
    to_guest = await g.next()
    assert (to_guest["sender"], to_guest["name"]) == ("agent", "Ann")
    assert (await agent.next())["message"]["payload"] == "hello, how can I help?"
    await agent.close()
    listeners.remove(agent)
    for _ in range(50):
        if await app.state.chat.agents_online() == 0:
            break
        await asyncio.sleep(0.05)
    assert await app.state.chat.agents_online() == 0


# ----- two processes, one Redis ---------------------------------------------------------------


@pytest.fixture
def redis_url() -> str:
    if not REDIS_URL:
        pytest.skip("PAO_TEST_REDIS_URL is not set")
    return REDIS_URL


@pytest.fixture
def two_servers(redis_url: str, tmp_path: Path) -> Iterator[tuple[str, str, Path, StaffAccount]]:
    db = tmp_path / "pao.db"
    url = f"sqlite+aiosqlite:///{db}"

    async def prepare() -> StaffAccount:
        engine = create_async_engine(url)
        await build_schema(engine)
        sessionmaker = create_sessionmaker(engine)
        async with sessionmaker() as s:
            await set_value(s, "enableChatWidget", True, actor="test")
            await set_value(s, "chatBotEnabled", True, actor="test")
            await s.commit()
        ann = await add_staff(sessionmaker, login="ann", name="Ann", role=Role.SUPPORT)
        await engine.dispose()
        return ann

    ann = asyncio.run(prepare())
    env = serve_environment(
        url,
        tmp_path,
        PAO_REDIS_URL=redis_url,
        # A prefix of this run only: its Redis channel and presence key are private.
        PAO_CHAT_PREFIX=f"t{uuid.uuid4().hex[:12]}-",
    )
    # A long-polling socket keeps uvicorn's graceful shutdown waiting up to the ping
    # interval; the test does not need to wait for it.
    with (
        serving([PAO, "serve"], env, tmp_path / "serve-a.log", stop_seconds=5) as (a, _),
        serving([PAO, "serve"], env, tmp_path / "serve-b.log", stop_seconds=5) as (b, _),
    ):
        yield a, b, tmp_path, ann


@pytest.mark.redis
async def test_two_processes_share_rooms_through_redis(
    two_servers: tuple[str, str, Path, StaffAccount], listeners: list[Listener]
) -> None:
    a_url, b_url, _, ann = two_servers
    async with (
        httpx.AsyncClient(base_url=a_url) as a_http,
        httpx.AsyncClient(base_url=b_url) as b_http,
    ):
        prefix = (await a_http.get("/api/chat/config")).json()["PREFIX"]
        gid = str(uuid.uuid4())
        guest = new_listener(listeners)
        await guest.connect(a_url, {"guestId": gid})
        assert await guest.join(prefix + gid) == {"ok": True}

        # No agent online anywhere: the bot answers, and both messages reach process A's socket.
        r = await b_http.post(
            "/api/chat/send-message", json={"message": text("via B")}, headers={"X-Guest-Id": gid}
        )
        assert r.status_code == 200, r.text
        assert (await guest.next())["message"]["payload"] == "via B"
        assert (await guest.next())["sender"] == "bot"

        # An agent connected to process B is online for process A too (presence in Redis).
        token = await log_in(a_http, ann)
        agent = new_listener(listeners)
        await agent.connect(b_url, {"agentToken": token}, transport="polling")
        r = await a_http.post(
            "/api/chat/send-message", json={"message": text("via A")}, headers={"X-Guest-Id": gid}
        )
        assert r.status_code == 200
        assert (await guest.next())["message"]["payload"] == "via A"
        seen = await agent.next()
        assert seen["message"]["payload"] == "via A"
        await guest.nothing(0.5)  # no bot answer: an agent is online

        # The agent replies through process A; the guest's socket on A and agent's on B get it.
        reply = await a_http.post(
            f"/api/agent/conversations/{seen['conversationId']}/messages",
            json={"message": text("agent here")},
            headers=auth(token),
        )
        assert reply.status_code == 200, reply.text
        assert (await guest.next())["message"]["payload"] == "agent here"
        assert (await agent.next())["message"]["payload"] == "agent here"
