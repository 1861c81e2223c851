"""The LINE channel (issue 32): the webhook, LINE users in the agent inbox, replies to LINE.

LINE is played by the sandbox platform of the same app (``/sandbox/line``): the SDK's host is
the sandbox, so the real SDK calls its reply, push, content and profile endpoints.
"""

from __future__ import annotations

import base64
import json
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from asgi_lifespan import LifespanManager
from fastapi import FastAPI
from sqlalchemy import func, select

from pao.core.settings import Settings
from pao.kit.clock import clock
from pao.main import create_app
from pao.sandbox.line.tester import signature
from pao.support.line import inbound, outbound
from pao.support.line.models import LineContact, LineOutbox, LineWebhookEvent
from pao.support.models import ChatConversation, ChatMedia, ChatMessage
from tests.chat_media import PNG
from tests.helpers import auth, set_site_setting
from tests.staff_helpers import add_staff, log_in

pytestmark = pytest.mark.sqlite

SECRET = "sandbox-line-channel-secret"
WEBHOOK = "/api/line/webhook"


def test_the_worked_example_of_providers_md() -> None:
    body = b'{"destination":"U00000000000000000000000000000000","events":[]}'
    assert signature("0123456789abcdef0123456789abcdef", body) == (
        "4RuzQe5ynlcY/Q1UqnA2wWHpO3m0lBkZBamjQ2YJec4="
    )


def text_event(user_id: str, text: str, event_id: str, token: str = "rt-1") -> dict[str, Any]:
    return {
        "type": "message",
        "mode": "active",
        "timestamp": 1735689600000,
        "source": {"type": "user", "userId": user_id},
        "webhookEventId": event_id,
        "deliveryContext": {"isRedelivery": False},
        "replyToken": token,
        "message": {"id": "4687895778982625", "type": "text", "text": text, "quoteToken": "q"},
    }


async def post_signed(
    client: httpx.AsyncClient, events: list[dict[str, Any]], secret: str = SECRET
) -> httpx.Response:
    body = json.dumps({"destination": "U" + "0" * 32, "events": events}).encode()
    return await client.post(
        WEBHOOK,
        content=body,
        headers={"Content-Type": "application/json", "x-line-signature": signature(secret, body)},
    )


async def new_user(client: httpx.AsyncClient, name: str = "Nok", language: str = "th") -> str:
    r = await client.post(
        "/sandbox/line/api/users", json={"displayName": name, "language": language}
    )
    assert r.status_code == 200, r.text
    return str(r.json()["userId"])


async def line_send(client: httpx.AsyncClient, user_id: str, **body: Any) -> dict[str, Any]:
    r = await client.post("/sandbox/line/api/send", json={"userId": user_id, **body})
    assert r.status_code == 200, r.text
    assert r.json()["webhookStatus"] == 200
    return dict(r.json()["event"])


async def line_chat(client: httpx.AsyncClient, user_id: str) -> list[dict[str, Any]]:
    r = await client.get("/sandbox/line/api/chat", params={"userId": user_id})
    return list(r.json())


async def count(app: FastAPI, model: Any) -> int:
    async with app.state.sessionmaker() as s:
        return int(await s.scalar(select(func.count()).select_from(model)) or 0)


async def conversation_of(app: FastAPI, user_id: str) -> ChatConversation:
    async with app.state.sessionmaker() as s:
        found = await s.execute(
            select(ChatConversation).where(ChatConversation.line_user_id == user_id)
        )
        conversation: ChatConversation = found.scalar_one()
        return conversation


async def messages_of(app: FastAPI, conversation_id: int) -> list[ChatMessage]:
    async with app.state.sessionmaker() as s:
        rows = await s.execute(
            select(ChatMessage)
            .where(ChatMessage.conversation_id == conversation_id)
            .order_by(ChatMessage.id)
        )
        return list(rows.scalars())


@pytest.fixture
async def agent(client: httpx.AsyncClient, app: FastAPI) -> str:
    return await log_in(client, await add_staff(app, login="0899999998", name="Agent Ann"))


# ----- webhook -------------------------------------------------------------------------------


async def test_an_empty_events_list_is_accepted(client: httpx.AsyncClient) -> None:
    r = await post_signed(client, [])
    assert r.status_code == 200, r.text
    assert r.json() == {"received": 0}


@pytest.mark.parametrize("signed_with", ["another-secret", None])
async def test_a_forged_signature_changes_nothing(
    client: httpx.AsyncClient, app: FastAPI, signed_with: str | None
) -> None:
    events = [text_event("U" + "1" * 32, "hello", "01JG0000000000000000000001")]
    if signed_with is None:
        r = await client.post(WEBHOOK, json={"destination": "U", "events": events})
    else:
        r = await post_signed(client, events, secret=signed_with)
    assert r.status_code == 401
    assert r.json() == {"message": "UNAUTHORIZED"}
    assert await count(app, LineWebhookEvent) == 0
    assert await count(app, ChatMessage) == 0


async def test_a_redelivered_event_adds_nothing(client: httpx.AsyncClient, app: FastAPI) -> None:
    user = await new_user(client)
    event = await line_send(client, user, type="text", text="สวัสดีค่ะ")
    again = await client.post(
        "/sandbox/line/api/redeliver", json={"webhookEventId": event["webhookEventId"]}
    )
    assert again.json() == {"webhookStatus": 200}
    # And the same body posted twice, directly.
    direct = text_event(user, "again", "01JG0000000000000000000002")
    assert (await post_signed(client, [direct])).json() == {"received": 1}
    assert (await post_signed(client, [direct])).json() == {"received": 0}
    conversation = await conversation_of(app, user)
    assert [m.body["payload"] for m in await messages_of(app, conversation.id)] == [
        "สวัสดีค่ะ",
        "again",
    ]
    assert await count(app, LineWebhookEvent) == 2


async def test_line_is_off_without_its_settings(tmp_path: Path, database_url: str) -> None:
    settings = Settings(
        env="test",
        database_url=database_url,
        data_dir=tmp_path / "data",
        static_dir=tmp_path / "no-spa",
        run_jobs=False,
        bank_webhook_secret="b",
        gateway_ww_secret="w",
        gateway_paytimz_secret="p",
        gateway_payonex_secret="x",
        game_provider_key="g",
    )
    assert not settings.line_enabled
    application = create_app(settings)
    async with LifespanManager(application):
        transport = httpx.ASGITransport(app=application)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as c:
            r = await post_signed(c, [])
    assert r.status_code == 404


async def test_a_failed_event_is_kept_and_retried(client: httpx.AsyncClient, app: FastAPI) -> None:
    user = await new_user(client)
    await client.post(
        "/sandbox/line/api/failures", json={"endpoint": "content", "status": 500, "times": 1}
    )
    await line_send(client, user, type="image", imageBase64=base64.b64encode(PNG).decode())
    async with app.state.sessionmaker() as s:
        row = (await s.execute(select(LineWebhookEvent))).scalar_one()
        assert row.processed_at is None
        assert row.attempts == 1
        assert row.last_error is not None
        assert "500" in row.last_error
    assert await count(app, ChatMedia) == 0
    clock.advance(timedelta(seconds=10))
    assert await inbound.events_tick(app) == 1
    assert await count(app, ChatMedia) == 1


# ----- the inbox -----------------------------------------------------------------------------


async def test_text_image_and_sticker_reach_the_inbox(
    client: httpx.AsyncClient, app: FastAPI, agent: str
) -> None:
    user = await new_user(client, name="Nok LINE", language="lo")
    await line_send(client, user, type="text", text="ສະບາຍດີ")
    await line_send(client, user, type="image", imageBase64=base64.b64encode(PNG).decode())
    await line_send(
        client, user, type="sticker", packageId="446", stickerId="1988", keywords=["happy"]
    )
    inbox = await client.get("/api/backoffice/chat/conversations", headers=auth(agent))
    assert inbox.status_code == 200, inbox.text
    (entry,) = inbox.json()["items"]
    assert entry["name"] == "Nok LINE"
    assert entry["channel"] == "line"
    assert entry["unread"] == 3
    conversation_id = entry["id"]
    page = await client.get(
        f"/api/agent/conversations/{conversation_id}/messages", headers=auth(agent)
    )
    newest_first = page.json()
    assert [m["message"]["message_type"] for m in newest_first] == ["text", "media", "text"]
    assert newest_first[0]["message"]["payload"] == "[LINE sticker: happy] (446/1988)"
    assert newest_first[2]["message"]["payload"] == "ສະບາຍດີ"
    media = newest_first[1]["message"]["payload"]
    assert media["fileType"] == "image"
    # Stored re-encoded with the FileStore, served to agents like any chat file.
    served = await client.get(f"/api/agent/media/{media['filePath']}", headers=auth(agent))
    assert served.status_code == 200
    assert served.headers["content-type"] == "image/png"
    assert served.content.startswith(b"\x89PNG")
    # The profile's language (Lao: "lo") is the conversation's.
    assert (await conversation_of(app, user)).locale == "la"


async def test_an_image_that_is_not_one_becomes_a_note(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    user = await new_user(client)
    fake = b"GIF89a" + b"\x00" * 40
    await line_send(client, user, type="image", imageBase64=base64.b64encode(fake).decode())
    (message,) = await messages_of(app, (await conversation_of(app, user)).id)
    assert message.body["payload"] == "[LINE image refused: CHAT_FILE_NOT_SUPPORTED]"
    assert await count(app, ChatMedia) == 0


async def test_the_bot_greets_a_line_user_in_its_language(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    await set_site_setting(client, "chatBotEnabled", True)
    user = await new_user(client, language="en")
    await line_send(client, user, type="text", text="hi")
    chat = await line_chat(client, user)
    assert [e["side"] for e in chat] == ["user", "bot"]
    greeting = chat[1]
    assert greeting["via"] == "reply"
    assert greeting["message"]["type"] == "text"
    assert greeting["message"]["quickReply"]["items"]
    stored = await messages_of(app, (await conversation_of(app, user)).id)
    assert [(m.sender, m.delivery) for m in stored] == [("customer", None), ("bot", "succeed")]
    # The greeting is the English text of the bot's start node.
    assert greeting["message"]["text"] == stored[1].body["payload"]["text"]
    # A tap on a quick reply comes back as the postback the bot knows.
    action = greeting["message"]["quickReply"]["items"][0]["action"]
    assert action["type"] == "postback"
    await line_send(client, user, type="postback", data=action["data"])
    stored = await messages_of(app, (await conversation_of(app, user)).id)
    assert stored[2].body["message_type"] == "postback"
    assert stored[2].body["payload"]["payload"].startswith("bot:")


# ----- replies -------------------------------------------------------------------------------


async def agent_says(
    client: httpx.AsyncClient, agent: str, conversation_id: int, message: dict[str, Any]
) -> httpx.Response:
    r = await client.post(
        f"/api/agent/conversations/{conversation_id}/messages",
        json={"message": message},
        headers=auth(agent),
    )
    assert r.status_code == 200, r.text
    return r


async def test_an_agents_reply_uses_the_reply_token(
    client: httpx.AsyncClient, app: FastAPI, agent: str
) -> None:
    user = await new_user(client)
    event = await line_send(client, user, type="text", text="ฝากเงินไม่เข้า")
    conversation = await conversation_of(app, user)
    quick = {
        "message_type": "quick_replies",
        "payload": {
            "text": "ขอสลิปด้วยค่ะ",
            "quick_replies": [{"title": "ส่งสลิป", "payload": "slip"}, {"title": "โทรหาเรา"}],
        },
    }
    await agent_says(client, agent, conversation.id, quick)
    bot_side = [e for e in await line_chat(client, user) if e["side"] == "bot"]
    assert len(bot_side) == 1
    assert bot_side[0]["via"] == "reply"
    assert bot_side[0]["message"] == {
        "type": "text",
        "text": "ขอสลิปด้วยค่ะ",
        "quickReply": {
            "items": [
                {
                    "type": "action",
                    "action": {
                        "type": "postback",
                        "label": "ส่งสลิป",
                        "data": '{"t":"ส่งสลิป","p":"slip"}',
                        "displayText": "ส่งสลิป",
                    },
                },
                {
                    "type": "action",
                    "action": {"type": "message", "label": "โทรหาเรา", "text": "โทรหาเรา"},
                },
            ]
        },
    }
    # The token was the event's, and it is spent: the next message is pushed.
    async with app.state.sessionmaker() as s:
        contact = await s.get(LineContact, user)
        assert contact is not None
        assert contact.reply_token is None
    assert event["replyToken"]
    await agent_says(client, agent, conversation.id, {"message_type": "text", "payload": "x"})
    bot_side = [e for e in await line_chat(client, user) if e["side"] == "bot"]
    assert [e["via"] for e in bot_side] == ["reply", "push"]
    stored = await messages_of(app, conversation.id)
    assert [m.delivery for m in stored] == [None, "succeed", "succeed"]


async def test_buttons_and_what_line_cannot_show(
    client: httpx.AsyncClient, app: FastAPI, agent: str
) -> None:
    user = await new_user(client)
    await line_send(client, user, type="text", text="hi")
    conversation = await conversation_of(app, user)
    buttons = {
        "message_type": "buttons",
        "payload": {
            "text": "How can we help?",
            "buttons": [
                {"type": "web", "title": "Open the site", "url": "https://example.com/"},
                {"type": "postback", "title": "Deposit", "payload": "deposit"},
            ],
        },
    }
    cards = {"message_type": "generic", "payloads": [{"title": "Promo", "subtitle": "100%"}]}
    await agent_says(client, agent, conversation.id, buttons)
    await agent_says(client, agent, conversation.id, cards)
    template, text = [e["message"] for e in await line_chat(client, user) if e["side"] == "bot"]
    assert template["type"] == "template"
    assert template["template"]["type"] == "buttons"
    assert [a["type"] for a in template["template"]["actions"]] == ["uri", "postback"]
    assert text == {"type": "text", "text": "Promo\n100%"}


async def test_a_stale_reply_token_falls_back_to_push_once(
    client: httpx.AsyncClient, app: FastAPI, agent: str
) -> None:
    user = await new_user(client)
    await line_send(client, user, type="text", text="hello")
    conversation = await conversation_of(app, user)
    # LINE refuses the token (used, or past its minute on LINE's clock).
    await client.post(
        "/sandbox/line/api/failures", json={"endpoint": "reply", "status": 400, "times": 1}
    )
    await agent_says(client, agent, conversation.id, {"message_type": "text", "payload": "one"})
    # Past the minute by Pao's own clock: no reply is tried at all.
    await line_send(client, user, type="text", text="again")
    clock.advance(timedelta(seconds=61))
    await agent_says(client, agent, conversation.id, {"message_type": "text", "payload": "two"})
    bot_side = [e for e in await line_chat(client, user) if e["side"] == "bot"]
    assert [(e["via"], e["message"]["text"]) for e in bot_side] == [
        ("push", "one"),
        ("push", "two"),
    ]


async def test_a_failed_push_shows_and_is_retried_without_a_double(
    client: httpx.AsyncClient, app: FastAPI, agent: str
) -> None:
    user = await new_user(client)
    await line_send(client, user, type="text", text="hello")
    conversation = await conversation_of(app, user)
    clock.advance(timedelta(seconds=61))
    await client.post(
        "/sandbox/line/api/failures", json={"endpoint": "push", "status": 500, "times": 1}
    )
    await agent_says(client, agent, conversation.id, {"message_type": "text", "payload": "hey"})
    page = await client.get(
        f"/api/agent/conversations/{conversation.id}/messages", headers=auth(agent)
    )
    assert page.json()[0]["delivery"] == "failed"
    assert [e for e in await line_chat(client, user) if e["side"] == "bot"] == []
    # The retry sends it once; a second send of the same row (a lost answer) is a 409 to LINE's
    # retry key, taken as sent, and shows nothing twice.
    assert await outbound.outbox_tick(app) == 0  # not due yet
    clock.advance(timedelta(seconds=10))
    assert await outbound.outbox_tick(app) == 1
    async with app.state.sessionmaker() as s:
        row = (await s.execute(select(LineOutbox))).scalar_one()
        assert (row.status, row.sent_via, row.attempts) == ("sent", "push", 1)
        row.status = "pending"
        await s.commit()
    assert await outbound.outbox_tick(app) == 1
    bot_side = [e for e in await line_chat(client, user) if e["side"] == "bot"]
    assert [e["message"]["text"] for e in bot_side] == ["hey"]
    page = await client.get(
        f"/api/agent/conversations/{conversation.id}/messages", headers=auth(agent)
    )
    assert page.json()[0]["delivery"] == "succeed"


async def test_an_agents_image_goes_as_a_signed_link(
    client: httpx.AsyncClient, app: FastAPI, agent: str
) -> None:
    user = await new_user(client)
    await line_send(client, user, type="text", text="hello")
    conversation = await conversation_of(app, user)
    up = await client.post(
        f"/api/agent/conversations/{conversation.id}/upload-image",
        files={"file": ("a.png", PNG, "image/png")},
        headers=auth(agent),
    )
    key = up.json()["path"]
    media = {
        "message_type": "media",
        "payload": {"message": "a.png", "fileType": "image", "filePath": key},
    }
    await agent_says(client, agent, conversation.id, media)
    (sent,) = [e["message"] for e in await line_chat(client, user) if e["side"] == "bot"]
    assert sent["type"] == "image"
    url = httpx.URL(sent["originalContentUrl"])
    fetched = await client.get(url.path)
    assert fetched.status_code == 200
    assert fetched.content.startswith(b"\x89PNG")
    forged = url.path[:-3] + ("AAA" if not url.path.endswith("AAA") else "BBB")
    assert (await client.get(forged)).status_code == 404


async def test_no_line_secret_or_token_in_logs(
    client: httpx.AsyncClient, app: FastAPI, agent: str, capfd: pytest.CaptureFixture[str]
) -> None:
    settings = app.state.settings
    capfd.readouterr()
    user = await new_user(client)
    await line_send(client, user, type="text", text="hello")
    await post_signed(client, [text_event(user, "x", "01JG0000000000000000000003")], "forged")
    conversation = await conversation_of(app, user)
    # Failures are logged (a refused reply, a failed push): with their status, never a secret.
    for endpoint in ("reply", "push"):
        await client.post(
            "/sandbox/line/api/failures", json={"endpoint": endpoint, "status": 500, "times": 1}
        )
    await agent_says(client, agent, conversation.id, {"message_type": "text", "payload": "hi"})
    out, err = capfd.readouterr()
    assert "line send failed" in out + err
    for secret in (settings.line_secret, settings.line_access_token):
        assert secret not in out + err
