"""An assignment in the back office's inbox reaches every agent's socket (the agents' room),
and never a customer's."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import httpx
from fastapi import FastAPI

from pao.backoffice.staff.roles import Role
from tests.integration.test_chat_socket import PREFIX, Listener, listeners, live
from tests.staff_helpers import add_staff, bearer, open_token

__all__ = ["listeners", "live"]  # the fixtures this module borrows


class AssignmentListener(Listener):
    def __init__(self) -> None:
        super().__init__()
        self.assigned: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.client.on("assigned", self.assigned.put_nowait)


async def test_an_assignment_is_announced_to_the_agents(
    live: str, app: FastAPI, listeners: list[Listener]
) -> None:
    ann = await add_staff(app, role=Role.SUPPORT, name="Ann")
    bob = await add_staff(app, role=Role.SUPPORT, name="Bob")
    ann_token, bob_token = await open_token(app, ann), await open_token(app, bob)
    gid = str(uuid.uuid4())
    watching = AssignmentListener()
    listeners.append(watching)
    await watching.connect(live, {"agentToken": bob_token})
    guest = AssignmentListener()
    listeners.append(guest)
    await guest.connect(live, {"guestId": gid})
    assert await guest.join(f"{PREFIX}{gid}") == {"ok": True}

    async with httpx.AsyncClient(base_url=live) as http:
        sent = await http.post(
            "/api/chat/send-message",
            json={"message": {"message_type": "text", "payload": "help"}},
            headers={"X-Guest-Id": gid},
        )
        assert sent.status_code == 200, sent.text
        cid = (await watching.next())["conversationId"]
        r = await http.post(
            f"/api/backoffice/chat/conversations/{cid}/assign",
            json={"staffId": ann.id},
            headers=bearer(ann_token),
        )
        assert r.status_code == 200, r.text
        event = await asyncio.wait_for(watching.assigned.get(), 5)
        assert event == {
            "conversationId": cid,
            "assignedStaffId": str(ann.id),
            "assignedName": "Ann",
            "assignedAt": event["assignedAt"],
        }
        assert event["assignedAt"]
        r = await http.post(
            f"/api/backoffice/chat/conversations/{cid}/unassign", headers=bearer(bob_token)
        )
        assert r.status_code == 200, r.text
        released = await asyncio.wait_for(watching.assigned.get(), 5)
        assert (released["assignedStaffId"], released["assignedName"]) == (None, None)
    await asyncio.sleep(0.3)
    assert guest.assigned.empty()
