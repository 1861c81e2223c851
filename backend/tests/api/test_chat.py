"""Customer chat API (spec §7 Chat): sending, history, read marks, uploads, media, ownership."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import func, select

from pao.support.models import ChatConversation, ChatMedia, ChatMessage
from tests.chat_media import GIF, JPEG, MOV, MP4, PDF, PNG, ZIP_TAIL, declaring, pixels
from tests.helpers import auth, member_id, register_and_login, set_site_setting

HEADER = "X-Guest-Id"


def guest() -> str:
    return str(uuid.uuid4())


def gh(guest_id: str) -> dict[str, str]:
    return {HEADER: guest_id}


def text(payload: str) -> dict[str, Any]:
    return {"message_type": "text", "payload": payload}


@pytest.fixture
async def chat(client: httpx.AsyncClient) -> httpx.AsyncClient:
    await set_site_setting(client, "enableChatWidget", True)
    return client


async def send(
    client: httpx.AsyncClient, headers: dict[str, str], message: dict[str, Any], **body: Any
) -> httpx.Response:
    return await client.post(
        "/api/chat/send-message", json={"message": message, **body}, headers=headers
    )


async def history(
    client: httpx.AsyncClient, headers: dict[str, str], **body: Any
) -> httpx.Response:
    return await client.post("/api/chat/history", json=body, headers=headers)


async def upload(
    client: httpx.AsyncClient,
    headers: dict[str, str],
    name: str,
    data: bytes,
    kind: str = "image",
    mime: str = "application/octet-stream",
) -> httpx.Response:
    return await client.post(
        f"/api/chat/upload-{kind}", files={"file": (name, data, mime)}, headers=headers
    )


async def test_config_answers_prefix(client: httpx.AsyncClient) -> None:
    response = await client.get("/api/chat/config")
    assert response.status_code == 200
    assert response.json() == {"PREFIX": "pao-chat-"}


@pytest.mark.sqlite
async def test_first_messages_at_once_open_one_conversation_and_count_each(
    chat: httpx.AsyncClient, app: FastAPI
) -> None:
    """A guest's first messages sent at the same time: one conversation (the others find the
    one the first created), every message stored and counted unread for the agents."""
    me = guest()
    sent = await asyncio.gather(*(send(chat, gh(me), text(f"m{i}")) for i in range(6)))
    assert [r.status_code for r in sent] == [200] * 6, [r.text for r in sent]
    async with app.state.sessionmaker() as session:
        conversations = (
            (await session.execute(select(ChatConversation).where(ChatConversation.guest_id == me)))
            .scalars()
            .all()
        )
        assert len(conversations) == 1
        assert conversations[0].agent_unread == 6
        stored = await session.execute(
            select(func.count()).where(ChatMessage.conversation_id == conversations[0].id)
        )
        assert stored.scalar_one() == 6


async def test_member_sends_and_reads_history_newest_first(
    chat: httpx.AsyncClient, app: FastAPI
) -> None:
    _, token = await register_and_login(chat, name="Somchai Jaidee")
    me = str(await member_id(chat, token))
    stamps = []
    for i in range(12):
        r = await send(chat, auth(token), text(f"m{i}"), userId=me, clientId=f"c{i}")
        assert r.status_code == 200, r.text
        stamps.append(r.json()["timestamp"])
    first = await history(chat, auth(token), userId=me, limit=10, skip=0)
    assert first.status_code == 200, first.text
    page = first.json()
    assert [m["message"]["payload"] for m in page] == [f"m{i}" for i in range(11, 1, -1)]
    assert page[0]["createdAt"] == stamps[11]
    assert page[0]["sender"] == "customer"
    assert page[0]["userId"] == me
    assert page[0]["name"] == "Somchai Jaidee"
    assert page[0]["clientId"] == "c11"
    second = (await history(chat, auth(token), userId=me, limit=10, skip=10)).json()
    assert [m["message"]["payload"] for m in second] == ["m1", "m0"]
    # Persisted: the rows are in the database, in one conversation.
    async with app.state.sessionmaker() as s:
        assert await s.scalar(select(func.count()).select_from(ChatMessage)) == 12
        conversation = (await s.execute(select(ChatConversation))).scalar_one()
        assert conversation.member_id == int(me)
        assert conversation.agent_unread == 12


async def test_guest_chats_with_its_header(chat: httpx.AsyncClient) -> None:
    gid = guest()
    r = await send(chat, gh(gid), text("สวัสดี"), guestId=gid, name="Visitor")
    assert r.status_code == 200, r.text
    page = (await history(chat, gh(gid), guestId=gid)).json()
    assert [(m["guestId"], m["name"], m["userId"]) for m in page] == [(gid, "Visitor", None)]


@pytest.mark.parametrize(
    ("message", "code"),
    [
        (text(""), "CHAT_MESSAGE_EMPTY"),
        (text("   \n "), "CHAT_MESSAGE_EMPTY"),
        (text("x" * 2001), "CHAT_MESSAGE_TOO_LONG"),
        ({"message_type": "text"}, "KEY_MISSING"),
        ({"message_type": "buttons", "payload": {"text": "x", "buttons": []}}, "KEY_INVALID"),
        ({"message_type": "unknown", "payload": "x"}, "KEY_INVALID"),
        ({"message_type": "text", "payload": "x", "html": "<b>"}, "KEY_INVALID"),
    ],
)
async def test_invalid_messages_are_refused(
    chat: httpx.AsyncClient, app: FastAPI, message: dict[str, Any], code: str
) -> None:
    gid = guest()
    r = await send(chat, gh(gid), message)
    assert r.status_code == 422, r.text
    assert r.json()["message"] == code
    async with app.state.sessionmaker() as s:
        assert await s.scalar(select(func.count()).select_from(ChatMessage)) == 0


async def test_longest_text_is_accepted(chat: httpx.AsyncClient) -> None:
    r = await send(chat, gh(guest()), text("ก" * 2000))
    assert r.status_code == 200, r.text


async def test_identity_is_required(chat: httpx.AsyncClient) -> None:
    assert (await send(chat, {}, text("hi"))).status_code == 401
    bad = await send(chat, gh("not-a-uuid"), text("hi"))
    assert (bad.status_code, bad.json()["message"]) == (401, "CHAT_INVALID_GUEST")
    v1 = await send(chat, gh(str(uuid.uuid1())), text("hi"))
    assert v1.json()["message"] == "CHAT_INVALID_GUEST"
    upper = await send(chat, gh(guest().upper()), text("hi"))
    assert upper.json()["message"] == "CHAT_INVALID_GUEST"
    wrong_token = await send(chat, auth("nope"), text("hi"))
    assert (wrong_token.status_code, wrong_token.json()["message"]) == (401, "invalid-token")


async def test_chat_closed_when_widget_disabled(client: httpx.AsyncClient) -> None:
    r = await send(client, gh(guest()), text("hi"))
    assert (r.status_code, r.json()["message"]) == (403, "CHAT_DISABLED")


async def test_nobody_reads_another_history(chat: httpx.AsyncClient) -> None:
    _, alice = await register_and_login(chat)
    _, bob = await register_and_login(chat)
    alice_id = str(await member_id(chat, alice))
    assert (await send(chat, auth(alice), text("alice secret"))).status_code == 200
    gid, other = guest(), guest()
    assert (await send(chat, gh(gid), text("guest secret"))).status_code == 200

    # Bob names Alice: refused, whatever else he sends.
    r = await history(chat, auth(bob), userId=alice_id)
    assert (r.status_code, r.json()["message"]) == (403, "CHAT_NOT_OWNER")
    # Bob's own history does not contain Alice's message.
    assert (await history(chat, auth(bob))).json() == []
    # A member cannot read a guest's conversation by naming its id: it is ignored.
    assert (await history(chat, auth(bob), guestId=gid)).json() == []
    # A guest naming another guest, or a member, is refused.
    r = await history(chat, gh(other), guestId=gid)
    assert (r.status_code, r.json()["message"]) == (403, "CHAT_NOT_OWNER")
    r = await history(chat, gh(other), userId=alice_id)
    assert r.status_code == 403
    # Sending in another's name is refused too.
    r = await send(chat, auth(bob), text("x"), userId=alice_id)
    assert (r.status_code, r.json()["message"]) == (403, "CHAT_NOT_OWNER")
    r = await send(chat, gh(other), text("x"), guestId=gid)
    assert r.status_code == 403
    # The owners still see their own.
    mine = (await history(chat, auth(alice), userId=alice_id)).json()
    assert [m["message"]["payload"] for m in mine] == ["alice secret"]
    theirs = (await history(chat, gh(gid), guestId=gid)).json()
    assert [m["message"]["payload"] for m in theirs] == ["guest secret"]


async def test_history_paging_rules(chat: httpx.AsyncClient) -> None:
    gid = guest()
    for limit, skip in ((0, 0), (51, 0), (10, -1)):
        r = await history(chat, gh(gid), limit=limit, skip=skip)
        assert (r.status_code, r.json()["message"]) == (422, "KEY_INVALID")


async def test_read_customer_resets_unread(chat: httpx.AsyncClient, app: FastAPI) -> None:
    gid = guest()
    assert (await send(chat, gh(gid), text("hello"))).status_code == 200
    async with app.state.sessionmaker() as s:
        conversation = (await s.execute(select(ChatConversation))).scalar_one()
        conversation.customer_unread = 3
        await s.commit()
    r = await chat.put("/api/chat/read-customer/", json={"guestId": gid}, headers=gh(gid))
    assert r.status_code == 200, r.text
    assert r.json() == {"read": 3}
    again = await chat.put("/api/chat/read-customer/", json={"guestId": gid}, headers=gh(gid))
    assert again.json() == {"read": 0}
    other = await chat.put("/api/chat/read-customer/", json={"guestId": gid}, headers=gh(guest()))
    assert other.status_code == 403


@pytest.mark.parametrize(
    ("kind", "name", "data", "mime"),
    [
        ("image", "a.png", PNG, "image/png"),
        ("image", "b.jpeg", JPEG, "image/jpeg"),
        ("image", "c.gif", GIF, "image/gif"),
        ("video", "d.mp4", MP4, "video/mp4"),
        ("video", "e.mov", MOV, "video/quicktime"),
    ],
)
async def test_upload_and_send_media(
    chat: httpx.AsyncClient, kind: str, name: str, data: bytes, mime: str
) -> None:
    _, token = await register_and_login(chat)
    r = await upload(chat, auth(token), name, data, kind)
    assert r.status_code == 200, r.text
    path = r.json()["path"]
    media = {
        "message_type": "media",
        "payload": {"message": name, "url": True, "fileType": kind, "filePath": path},
    }
    assert (await send(chat, auth(token), media)).status_code == 200
    stored = (await history(chat, auth(token))).json()[0]["message"]["payload"]
    assert (stored["filePath"], stored["fileType"]) == (path, kind)
    got = await chat.get(f"/api/chat/media/{path}", headers=auth(token))
    assert got.status_code == 200
    if kind == "image":
        # Encoded again when stored (pao.kit.images): the same picture, not the same bytes.
        assert pixels(got.content) == pixels(data)
    else:
        assert got.content == data
    assert got.headers["content-type"] == mime
    # A member's file stays out of the browser's cache, and is never sniffed into a page.
    assert got.headers["cache-control"] == "no-store"
    assert got.headers["x-content-type-options"] == "nosniff"


@pytest.mark.parametrize(
    ("kind", "name", "data", "status", "code"),
    [
        ("image", "doc.pdf", PDF, 400, "CHAT_FILE_NOT_SUPPORTED"),
        ("image", "fake.png", PDF, 400, "CHAT_FILE_NOT_SUPPORTED"),
        ("image", "noext", PNG, 400, "CHAT_FILE_NOT_SUPPORTED"),
        ("image", "clip.mp4", MP4, 400, "CHAT_FILE_NOT_SUPPORTED"),
        ("video", "pic.png", PNG, 400, "CHAT_FILE_NOT_SUPPORTED"),
        ("image", "big.png", PNG + b"\x00" * (10 * 1024 * 1024), 413, "CHAT_FILE_TOO_LARGE"),
        # Starts like a png, decodes as nothing.
        ("image", "broken.png", PNG[:40], 400, "CHAT_FILE_NOT_SUPPORTED"),
        # A decompression bomb's shape: refused before it is decoded.
        ("image", "bomb.png", declaring(20_000, 20_000), 422, "IMAGE_DIMENSIONS_TOO_LARGE"),
    ],
)
async def test_upload_refusals(
    chat: httpx.AsyncClient, app: FastAPI, kind: str, name: str, data: bytes, status: int, code: str
) -> None:
    r = await upload(chat, gh(guest()), name, data, kind)
    assert (r.status_code, r.json()["message"]) == (status, code), r.text
    async with app.state.sessionmaker() as s:
        assert await s.scalar(select(func.count()).select_from(ChatMedia)) == 0


async def test_too_large_video_says_its_limit(chat: httpx.AsyncClient) -> None:
    r = await upload(chat, gh(guest()), "big.mp4", MP4 + b"\x00" * (20 * 1024 * 1024), "video")
    assert r.status_code == 413
    assert r.json() == {"message": "CHAT_FILE_TOO_LARGE", "maxMb": 20}


async def test_upload_needs_the_file_field(chat: httpx.AsyncClient) -> None:
    r = await chat.post(
        "/api/chat/upload-image", files={"other": ("a.png", PNG)}, headers=gh(guest())
    )
    assert (r.status_code, r.json()["message"]) == (422, "KEY_MISSING")


async def test_media_is_served_only_to_its_conversation(chat: httpx.AsyncClient) -> None:
    _, alice = await register_and_login(chat)
    _, bob = await register_and_login(chat)
    path = (await upload(chat, auth(alice), "a.png", PNG)).json()["path"]
    gid = guest()
    guest_path = (await upload(chat, gh(gid), "g.png", PNG)).json()["path"]

    assert (await chat.get(f"/api/chat/media/{path}", headers=auth(alice))).status_code == 200
    for headers, key in (
        (auth(bob), path),
        (gh(gid), path),
        (gh(guest()), guest_path),
        (auth(alice), guest_path),
    ):
        r = await chat.get(f"/api/chat/media/{key}", headers=headers)
        assert (r.status_code, r.json()["message"]) == (404, "CHAT_MEDIA_NOT_FOUND")
    assert (await chat.get(f"/api/chat/media/{path}")).status_code == 401
    # Nor can Bob send Alice's file as his own media message.
    media = {
        "message_type": "media",
        "payload": {"message": "a.png", "fileType": "image", "filePath": path},
    }
    r = await send(chat, auth(bob), media)
    assert (r.status_code, r.json()["message"]) == (404, "CHAT_MEDIA_NOT_FOUND")
    # And a path that escapes the store is just not found.
    r = await chat.get("/api/chat/media/../../pao.db", headers=auth(alice))
    assert r.status_code == 404


async def test_media_type_claim_is_overridden(chat: httpx.AsyncClient) -> None:
    gid = guest()
    path = (await upload(chat, gh(gid), "v.mp4", MP4, "video")).json()["path"]
    claim = {
        "message_type": "media",
        "payload": {"message": "v.mp4", "fileType": "image", "filePath": path},
    }
    assert (await send(chat, gh(gid), claim)).status_code == 200
    stored = (await history(chat, gh(gid))).json()[0]["message"]["payload"]
    assert stored["fileType"] == "video"


async def test_send_rate_limit(chat: httpx.AsyncClient) -> None:
    gid = guest()
    codes = [(await send(chat, gh(gid), text(f"{i}"))).status_code for i in range(31)]
    assert codes[:30] == [200] * 30
    assert codes[30] == 429


async def test_an_image_is_stored_as_pixels_only(chat: httpx.AsyncClient) -> None:
    # A polyglot: a real png with a zip after it. What is kept is the picture, nothing after it.
    _, token = await register_and_login(chat)
    r = await upload(chat, auth(token), "poly.png", PNG + ZIP_TAIL, "image")
    assert r.status_code == 200, r.text
    got = await chat.get(f"/api/chat/media/{r.json()['path']}", headers=auth(token))
    assert pixels(got.content) == pixels(PNG)
    assert b"PK\x03\x04" not in got.content
    assert b"<script>" not in got.content
