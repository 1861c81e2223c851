"""The agent inbox API: agents are staff who may use the chat (their back-office session's
token), tokens vs member tokens, conversations, replies, reads, the bot."""

from __future__ import annotations

import uuid
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import select

from pao.backoffice.staff.roles import Role
from pao.support.models import ChatConversation, ChatMessage
from tests.chat_media import MP4, PNG, pixels
from tests.helpers import auth, member_id, register_and_login, set_site_setting
from tests.staff_helpers import StaffAccount, add_staff, log_in


def text(payload: str) -> dict[str, Any]:
    return {"message_type": "text", "payload": payload}


async def add_agent(
    app: FastAPI, login: str = "0899999999", name: str = "Admin Ann", role: Role = Role.SUPPORT
) -> StaffAccount:
    return await add_staff(app, login=login, name=name, role=role)


@pytest.fixture
async def agent(client: httpx.AsyncClient, app: FastAPI) -> str:
    await set_site_setting(client, "enableChatWidget", True)
    return await log_in(client, await add_agent(app))


async def test_agent_logs_in_through_the_back_office(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    ann = await add_agent(app)
    token = await log_in(client, ann)
    me = await client.get("/api/agent/me", headers=auth(token))
    assert me.json() == {"_id": str(ann.id), "username": "0899999999", "name": "Admin Ann"}
    # The agent login of the chat's own is gone: operators log in once, as staff.
    old = await client.post("/api/agent/login", json={"username": ann.login, "password": "x"})
    assert old.status_code in (404, 405)


@pytest.mark.parametrize(
    ("role", "allowed"),
    [
        (Role.OWNER, True),
        (Role.MANAGER, True),
        (Role.SUPPORT, True),
        (Role.CASHIER, False),
        (Role.VIEWER, False),
    ],
)
async def test_only_staff_who_may_use_the_chat_are_agents(
    client: httpx.AsyncClient, app: FastAPI, role: Role, allowed: bool
) -> None:
    token = await log_in(client, await add_agent(app, login=f"x-{role.value}", role=role))
    r = await client.get("/api/agent/conversations", headers=auth(token))
    assert r.status_code == (200 if allowed else 401)


async def test_agent_messages_name_the_staff_member(
    client: httpx.AsyncClient, app: FastAPI, agent: str
) -> None:
    gid = str(uuid.uuid4())
    await client.post(
        "/api/chat/send-message", json={"message": text("hi")}, headers={"X-Guest-Id": gid}
    )
    conversation = (await client.get("/api/agent/conversations", headers=auth(agent))).json()[0]
    r = await client.post(
        f"/api/agent/conversations/{conversation['_id']}/messages",
        json={"message": text("hello")},
        headers=auth(agent),
    )
    assert r.status_code == 200, r.text
    me = (await client.get("/api/agent/me", headers=auth(agent))).json()
    async with app.state.sessionmaker() as s:
        sent = (
            await s.execute(select(ChatMessage).where(ChatMessage.sender == "agent"))
        ).scalar_one()
        assert str(sent.agent_id) == me["_id"]


async def test_tokens_do_not_cross(client: httpx.AsyncClient, agent: str) -> None:
    _, member = await register_and_login(client)
    # A member token never works on agent routes…
    for method, path in (
        ("GET", "/api/agent/me"),
        ("GET", "/api/agent/conversations"),
        ("GET", "/api/agent/conversations/1/messages"),
        ("PUT", "/api/agent/conversations/1/read"),
    ):
        r = await client.request(method, path, headers=auth(member))
        assert (r.status_code, r.json()["message"]) == (401, "invalid-token"), path
    # …and an agent token never on member routes, the chat's included.
    for method, path, body in (
        ("GET", "/api/account/profile", None),
        ("GET", "/api/wallet", None),
        ("POST", "/api/chat/history", {}),
        ("POST", "/api/chat/send-message", {"message": text("hi")}),
    ):
        r = await client.request(method, path, headers=auth(agent), json=body)
        assert (r.status_code, r.json()["message"]) == (401, "invalid-token"), path
    assert (await client.get("/api/agent/me", headers=auth(agent))).json()["name"] == "Admin Ann"


async def test_logout_revokes(client: httpx.AsyncClient, agent: str) -> None:
    assert (
        await client.post("/api/backoffice/auth/logout", headers=auth(agent))
    ).status_code == 204
    assert (await client.get("/api/agent/me", headers=auth(agent))).status_code == 401


async def test_inbox_reply_and_read(client: httpx.AsyncClient, agent: str) -> None:
    _, member = await register_and_login(client, name="Member Mai")
    me = str(await member_id(client, member))
    gid = str(uuid.uuid4())
    for headers, words in ((auth(member), ["a", "b"]), ({"X-Guest-Id": gid}, ["c"])):
        for word in words:
            r = await client.post(
                "/api/chat/send-message", json={"message": text(word)}, headers=headers
            )
            assert r.status_code == 200, r.text

    inbox = (await client.get("/api/agent/conversations", headers=auth(agent))).json()
    assert [(c["name"], c["unread"], c["userId"]) for c in inbox] == [
        (f"Guest {gid[:4].upper()}", 1, None),
        ("Member Mai", 2, me),
    ]
    # A guest's id is its credential: agents never see it.
    assert inbox[0]["guestId"] is None
    assert inbox[0]["lastMessage"]["guestId"] is None
    assert inbox[1]["lastMessage"]["message"]["payload"] == "b"
    conversation = inbox[1]["_id"]

    buttons = {
        "message_type": "buttons",
        "payload": {
            "text": "How can we help?",
            "buttons": [
                {"type": "web", "title": "Site", "url": "https://example.test"},
                {"type": "call", "title": "Call", "payload": "021234567"},
                {"type": "postback", "title": "Deposit", "payload": "deposit"},
            ],
        },
    }
    quick = {
        "message_type": "quick_replies",
        "payload": {"text": "Pick", "quick_replies": [{"title": "Yes"}, {"title": "No"}]},
    }
    for message in (text("Hello Mai"), buttons, quick):
        r = await client.post(
            f"/api/agent/conversations/{conversation}/messages",
            json={"message": message},
            headers=auth(agent),
        )
        assert r.status_code == 200, r.text

    mine = (await client.post("/api/chat/history", json={}, headers=auth(member))).json()
    assert [m["sender"] for m in mine] == ["agent", "agent", "agent", "customer", "customer"]
    assert mine[2]["message"]["payload"] == "Hello Mai"
    assert mine[2]["name"] == "Admin Ann"
    assert mine[1]["message"]["payload"]["buttons"][1]["payload"] == "021234567"

    read = await client.put(f"/api/agent/conversations/{conversation}/read", headers=auth(agent))
    assert read.json() == {"read": 2}
    unread = await client.put("/api/chat/read-customer/", json={}, headers=auth(member))
    assert unread.json() == {"read": 3}
    inbox = (await client.get("/api/agent/conversations", headers=auth(agent))).json()
    # The member's conversation has the newest message (the replies) and nothing unread.
    assert [(c["_id"], c["unread"]) for c in inbox] == [(conversation, 0), (inbox[1]["_id"], 1)]

    missing = await client.get("/api/agent/conversations/9999/messages", headers=auth(agent))
    assert (missing.status_code, missing.json()["message"]) == (404, "CHAT_CONVERSATION_NOT_FOUND")


async def test_agent_validation(client: httpx.AsyncClient, agent: str) -> None:
    gid = str(uuid.uuid4())
    await client.post(
        "/api/chat/send-message", json={"message": text("hi")}, headers={"X-Guest-Id": gid}
    )
    conversation = (await client.get("/api/agent/conversations", headers=auth(agent))).json()[0][
        "_id"
    ]
    url = f"/api/agent/conversations/{conversation}/messages"
    for message, code in (
        (text(" "), "CHAT_MESSAGE_EMPTY"),
        (text("x" * 2001), "CHAT_MESSAGE_TOO_LONG"),
        ({"message_type": "postback", "payload": {"title": "a", "payload": "b"}}, "KEY_INVALID"),
        (
            {
                "message_type": "buttons",
                "payload": {
                    "text": "x",
                    "buttons": [{"type": "web", "title": "x", "url": "javascript:x"}],
                },
            },
            "KEY_INVALID",
        ),
    ):
        r = await client.post(url, json={"message": message}, headers=auth(agent))
        assert (r.status_code, r.json()["message"]) == (422, code)


async def test_agent_media(client: httpx.AsyncClient, agent: str) -> None:
    gid = str(uuid.uuid4())
    guest = {"X-Guest-Id": gid}
    path = (
        await client.post("/api/chat/upload-image", files={"file": ("g.png", PNG)}, headers=guest)
    ).json()["path"]
    await client.post(
        "/api/chat/send-message",
        json={
            "message": {
                "message_type": "media",
                "payload": {"message": "g.png", "fileType": "image", "filePath": path},
            }
        },
        headers=guest,
    )
    conversation = (await client.get("/api/agent/conversations", headers=auth(agent))).json()[0][
        "_id"
    ]
    # The agent sees the guest's file; a member token does not open the agent's media route.
    seen = (await client.get(f"/api/agent/media/{path}", headers=auth(agent))).content
    assert pixels(seen) == pixels(PNG)
    _, member = await register_and_login(client)
    assert (await client.get(f"/api/agent/media/{path}", headers=auth(member))).status_code == 401
    # The agent uploads a video and sends it; the guest can fetch it.
    up = await client.post(
        f"/api/agent/conversations/{conversation}/upload-video",
        files={"file": ("v.mp4", MP4)},
        headers=auth(agent),
    )
    assert up.status_code == 200, up.text
    video = up.json()["path"]
    r = await client.post(
        f"/api/agent/conversations/{conversation}/messages",
        json={
            "message": {
                "message_type": "media",
                "payload": {"message": "v.mp4", "fileType": "video", "filePath": video},
            }
        },
        headers=auth(agent),
    )
    assert r.status_code == 200, r.text
    assert (await client.get(f"/api/chat/media/{video}", headers=guest)).content == MP4
    bad = await client.post(
        f"/api/agent/conversations/{conversation}/upload-image",
        files={"file": ("x.png", b"not an image")},
        headers=auth(agent),
    )
    assert (bad.status_code, bad.json()["message"]) == (400, "CHAT_FILE_NOT_SUPPORTED")


async def test_bot_answers_while_no_agent_is_online(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    await set_site_setting(client, "enableChatWidget", True)
    await set_site_setting(client, "chatBotEnabled", True)
    gid = str(uuid.uuid4())
    guest = {"X-Guest-Id": gid}

    async def say(message: dict[str, Any]) -> dict[str, Any]:
        r = await client.post("/api/chat/send-message", json={"message": message}, headers=guest)
        assert r.status_code == 200, r.text
        newest: dict[str, Any] = (
            await client.post("/api/chat/history", json={"limit": 1}, headers=guest)
        ).json()[0]
        return newest

    menu = await say(text("help"))
    assert (menu["sender"], menu["message"]["message_type"]) == ("bot", "quick_replies")
    replies = {q["title"]: q["payload"] for q in menu["message"]["payload"]["quick_replies"]}
    assert replies["วิธีฝากเงิน"] == "bot:deposit"
    assert replies["คุยกับแอดมิน"] == "bot:agent"

    deposit = await say(
        {"message_type": "postback", "payload": {"title": "วิธีฝากเงิน", "payload": "bot:deposit"}}
    )
    assert "ฝากเงิน" in deposit["message"]["payload"]["text"]

    handover = await say(
        {"message_type": "postback", "payload": {"title": "คุยกับแอดมิน", "payload": "bot:agent"}}
    )
    assert (handover["sender"], handover["message"]["message_type"]) == ("bot", "text")
    # Handed over: the bot is quiet now, the customer's message is the newest.
    quiet = await say(text("anyone?"))
    assert quiet["sender"] == "customer"
    async with app.state.sessionmaker() as s:
        conversation = (await s.execute(select(ChatConversation))).scalar_one()
        assert conversation.wants_agent is True


async def test_bot_answers_in_the_customers_language(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    await set_site_setting(client, "enableChatWidget", True)
    await set_site_setting(client, "chatBotEnabled", True)
    guest = {"X-Guest-Id": str(uuid.uuid4()), "Accept-Language": "lo-LA,lo;q=0.9"}

    async def say(message: dict[str, Any], headers: dict[str, str]) -> dict[str, Any]:
        r = await client.post("/api/chat/send-message", json={"message": message}, headers=headers)
        assert r.status_code == 200, r.text
        newest: dict[str, Any] = (
            await client.post("/api/chat/history", json={"limit": 1}, headers=headers)
        ).json()[0]
        return newest

    menu = await say(text("ສະບາຍດີ"), guest)
    assert menu["message"]["payload"]["text"].startswith("ສະບາຍດີ")
    titles = [q["title"] for q in menu["message"]["payload"]["quick_replies"]]
    assert titles == ["ວິທີຝາກເງິນ", "ວິທີຖອນເງິນ", "ຕິດຕໍ່ພວກເຮົາ", "ລົມກັບແອັດມິນ"]
    async with app.state.sessionmaker() as s:
        conversation = (await s.execute(select(ChatConversation))).scalar_one()
        assert conversation.locale == "la"
    # The customer switches the app to English: the bot follows.
    deposit = await say(
        {"message_type": "postback", "payload": {"title": "x", "payload": "bot:deposit"}},
        {**guest, "Accept-Language": "en"},
    )
    assert deposit["message"]["payload"]["text"].startswith("Deposit:")


async def test_bot_is_quiet_when_an_agent_is_online(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    await set_site_setting(client, "enableChatWidget", True)
    await set_site_setting(client, "chatBotEnabled", True)
    await app.state.chat.presence.add("agent-sid")
    try:
        guest = {"X-Guest-Id": str(uuid.uuid4())}
        await client.post("/api/chat/send-message", json={"message": text("hi")}, headers=guest)
        page = (await client.post("/api/chat/history", json={}, headers=guest)).json()
        assert [m["sender"] for m in page] == ["customer"]
    finally:
        await app.state.chat.presence.remove("agent-sid")


async def test_bot_off_by_default(client: httpx.AsyncClient) -> None:
    await set_site_setting(client, "enableChatWidget", True)
    guest = {"X-Guest-Id": str(uuid.uuid4())}
    await client.post("/api/chat/send-message", json={"message": text("hi")}, headers=guest)
    page = (await client.post("/api/chat/history", json={}, headers=guest)).json()
    assert [m["sender"] for m in page] == ["customer"]
