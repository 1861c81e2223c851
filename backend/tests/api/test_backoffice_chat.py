"""The back office's support inbox: assigning a conversation (who may be an assignee, 404,
hand-over, audit), the views mine / unassigned / all, and two agents assigning the same
conversation at once."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import func, select

from pao.backoffice.audit.service import Actor
from pao.backoffice.models import AuditEntry
from pao.backoffice.staff.roles import Role
from pao.backoffice.staff.service import update_staff
from pao.support.models import ChatConversation
from tests.helpers import app_of, set_site_setting
from tests.staff_helpers import StaffAccount, add_staff, bearer, open_token

CHAT = "/api/backoffice/chat"


async def guest_conversation(client: httpx.AsyncClient, words: str = "hello") -> int:
    """A guest writes: a conversation with one unread message; answers its id."""
    r = await client.post(
        "/api/chat/send-message",
        json={"message": {"message_type": "text", "payload": words}},
        headers={"X-Guest-Id": str(uuid.uuid4())},
    )
    assert r.status_code == 200, r.text
    async with app_of(client).state.sessionmaker() as s:
        newest = await s.scalar(select(func.max(ChatConversation.id)))
    return int(newest)


@pytest.fixture
async def support(client: httpx.AsyncClient, app: FastAPI) -> tuple[StaffAccount, str]:
    await set_site_setting(client, "enableChatWidget", True)
    ann = await add_staff(app, role=Role.SUPPORT, name="Ann")
    return ann, await open_token(app, ann)


async def assign(
    client: httpx.AsyncClient, token: str, conversation: int, staff_id: int, **extra: Any
) -> httpx.Response:
    return await client.post(
        f"{CHAT}/conversations/{conversation}/assign",
        json={"staffId": staff_id, **extra},
        headers=bearer(token),
    )


async def test_assign_to_self_shows_in_the_inbox_and_is_audited(
    client: httpx.AsyncClient, app: FastAPI, support: tuple[StaffAccount, str]
) -> None:
    ann, token = support
    cid = await guest_conversation(client)
    r = await assign(client, token, cid, ann.id)
    assert r.status_code == 200, r.text
    body = r.json()
    assert (body["id"], body["assignedStaffId"], body["assignedName"]) == (cid, ann.id, "Ann")
    assert body["unread"] == 1
    assert body["assignedAt"]
    assert body["lastMessage"]["message"]["payload"] == "hello"
    async with app.state.sessionmaker() as s:
        entry = (
            await s.execute(select(AuditEntry).where(AuditEntry.action == "chat.assign"))
        ).scalar_one()
    assert (entry.staff_id, entry.object_type, entry.object_id) == (
        ann.id,
        "chat_conversation",
        str(cid),
    )
    assert (entry.before, entry.after) == ({"assignedStaffId": None}, {"assignedStaffId": ann.id})
    # Assigning it again to the same agent changes nothing and is harmless.
    again = await assign(client, token, cid, ann.id)
    assert again.status_code == 200
    assert again.json()["assignedAt"] == body["assignedAt"]


async def test_assign_to_another_agent_and_unassign(
    client: httpx.AsyncClient, app: FastAPI, support: tuple[StaffAccount, str]
) -> None:
    _ann, token = support
    manager = await add_staff(app, role=Role.MANAGER, name="Max")
    cid = await guest_conversation(client)
    r = await assign(client, token, cid, manager.id)
    assert (r.status_code, r.json()["assignedName"]) == (200, "Max")
    r = await client.post(f"{CHAT}/conversations/{cid}/unassign", headers=bearer(token))
    assert r.status_code == 200, r.text
    assert (r.json()["assignedStaffId"], r.json()["assignedAt"]) == (None, None)
    async with app.state.sessionmaker() as s:
        entry = (
            await s.execute(select(AuditEntry).where(AuditEntry.action == "chat.unassign"))
        ).scalar_one()
    assert (entry.before, entry.after) == (
        {"assignedStaffId": manager.id},
        {"assignedStaffId": None},
    )


@pytest.mark.parametrize("who", ["cashier", "viewer", "disabled", "unknown"])
async def test_only_active_chat_staff_can_be_assignees(
    client: httpx.AsyncClient, app: FastAPI, support: tuple[StaffAccount, str], who: str
) -> None:
    _, token = support
    if who == "unknown":
        target = 999_999
    elif who == "disabled":
        gone = await add_staff(app, role=Role.SUPPORT)
        async with app.state.sessionmaker() as s:
            await update_staff(s, actor=Actor.operator("ops:test"), staff_id=gone.id, disabled=True)
            await s.commit()
        target = gone.id
    else:
        target = (await add_staff(app, role=Role(who))).id
    cid = await guest_conversation(client)
    r = await assign(client, token, cid, target)
    assert (r.status_code, r.json()["message"]) == (422, "CHAT_ASSIGNEE_NOT_AGENT")
    async with app.state.sessionmaker() as s:
        conversation = await s.get(ChatConversation, cid)
        assert conversation is not None
        assert conversation.assigned_staff_id is None
        assert (
            await s.execute(select(AuditEntry).where(AuditEntry.action == "chat.assign"))
        ).first() is None


async def test_unknown_conversation_is_404(
    client: httpx.AsyncClient, support: tuple[StaffAccount, str]
) -> None:
    ann, token = support
    for r in (
        await assign(client, token, 999_999, ann.id),
        await client.post(f"{CHAT}/conversations/999999/unassign", headers=bearer(token)),
        await client.get(f"{CHAT}/conversations/999999", headers=bearer(token)),
    ):
        assert (r.status_code, r.json()["message"]) == (404, "CHAT_CONVERSATION_NOT_FOUND")


async def test_taking_over_needs_replace(
    client: httpx.AsyncClient, app: FastAPI, support: tuple[StaffAccount, str]
) -> None:
    ann, token = support
    bob = await add_staff(app, role=Role.SUPPORT, name="Bob")
    bob_token = await open_token(app, bob)
    cid = await guest_conversation(client)
    assert (await assign(client, token, cid, ann.id)).status_code == 200
    r = await assign(client, bob_token, cid, bob.id)
    assert r.status_code == 409
    assert r.json() == {"message": "CHAT_ALREADY_ASSIGNED", "assignedStaffId": ann.id}
    r = await assign(client, bob_token, cid, bob.id, replace=True)
    assert (r.status_code, r.json()["assignedStaffId"]) == (200, bob.id)


async def test_views_mine_unassigned_all(
    client: httpx.AsyncClient, app: FastAPI, support: tuple[StaffAccount, str]
) -> None:
    ann, token = support
    bob = await add_staff(app, role=Role.SUPPORT, name="Bob")
    mine = await guest_conversation(client, "a")
    bobs = await guest_conversation(client, "b")
    free = await guest_conversation(client, "c")
    await assign(client, token, mine, ann.id)
    await assign(client, token, bobs, bob.id)

    async def view(name: str, **params: Any) -> dict[str, Any]:
        r = await client.get(
            f"{CHAT}/conversations", params={"view": name, **params}, headers=bearer(token)
        )
        assert r.status_code == 200, r.text
        data: dict[str, Any] = r.json()
        return data

    assert [c["id"] for c in (await view("mine"))["items"]] == [mine]
    assert [c["id"] for c in (await view("unassigned"))["items"]] == [free]
    everything = await view("all")
    # Most recent first; the count covers every page.
    assert ([c["id"] for c in everything["items"]], everything["total"]) == (
        [free, bobs, mine],
        3,
    )
    assert everything["items"][1]["assignedName"] == "Bob"
    page = await view("all", limit=1, page=2, sort="lastMessageAt")
    assert ([c["id"] for c in page["items"]], page["total"]) == ([bobs], 3)
    bad = await client.get(f"{CHAT}/conversations", params={"view": "x"}, headers=bearer(token))
    assert bad.status_code == 422


async def test_agents_lists_who_can_be_assigned(
    client: httpx.AsyncClient, app: FastAPI, support: tuple[StaffAccount, str]
) -> None:
    _, token = support
    await add_staff(app, role=Role.CASHIER, name="Cash")
    await add_staff(app, role=Role.MANAGER, name="Max")
    r = await client.get(f"{CHAT}/agents", headers=bearer(token))
    assert [a["displayName"] for a in r.json()] == ["Ann", "Max"]


async def test_two_agents_assigning_at_once_one_wins(
    client: httpx.AsyncClient, app: FastAPI, support: tuple[StaffAccount, str]
) -> None:
    ann, ann_token = support
    others = [await add_staff(app, role=Role.SUPPORT) for _ in range(3)]
    agents = [(ann, ann_token)] + [(o, await open_token(app, o)) for o in others]
    cid = await guest_conversation(client)
    answers = await asyncio.gather(*(assign(client, t, cid, a.id) for a, t in agents))
    won = [r for r in answers if r.status_code == 200]
    lost = [r for r in answers if r.status_code != 200]
    assert len(won) == 1, [r.text for r in answers]
    winner = won[0].json()["assignedStaffId"]
    assert all(
        (r.status_code, r.json())
        == (409, {"message": "CHAT_ALREADY_ASSIGNED", "assignedStaffId": winner})
        for r in lost
    )
    async with app.state.sessionmaker() as s:
        conversation = await s.get(ChatConversation, cid)
        assert conversation is not None
        assert conversation.assigned_staff_id == winner
        entries = (
            (await s.execute(select(AuditEntry).where(AuditEntry.action == "chat.assign")))
            .scalars()
            .all()
        )
    assert [e.after for e in entries] == [{"assignedStaffId": winner}]


async def test_support_staff_only(client: httpx.AsyncClient, app: FastAPI) -> None:
    cashier = await add_staff(app, role=Role.CASHIER)
    r = await client.get(f"{CHAT}/conversations", headers=bearer(await open_token(app, cashier)))
    assert (r.status_code, r.json()["message"]) == (403, "STAFF_FORBIDDEN")
