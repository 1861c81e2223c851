"""The cashiers' live queue over real sockets: staff holding ``withdrawals.read`` join the
``backoffice:withdrawals`` room with their staff token and hear ``withdrawal:new`` when a
member asks for a withdrawal (after its commit) and ``withdrawal:updated`` on a claim; a
member's token cannot join, and a member's socket hears nothing."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest
import socketio
from fastapi import FastAPI

from pao.backoffice.roles import Role
from tests.integration.test_chat_socket import live  # noqa: F401  (the served app fixture)
from tests.staff_helpers import add_staff, bearer, log_in
from tests.withdrawal_helpers import PREFIX, funded_member, request_withdrawal


class RoomListener:
    """A socket.io client queueing the withdrawal events it receives."""

    def __init__(self) -> None:
        self.client = socketio.AsyncClient(reconnection=False)
        self.events: asyncio.Queue[tuple[str, dict[str, Any]]] = asyncio.Queue()
        for name in ("withdrawal:new", "withdrawal:updated"):
            self.client.on(name, lambda data, name=name: self.events.put_nowait((name, data)))

    async def next(self, seconds: float = 5) -> tuple[str, dict[str, Any]]:
        return await asyncio.wait_for(self.events.get(), seconds)


async def test_staff_hear_new_withdrawals_and_members_cannot_join(
    live: str,  # noqa: F811
    client: httpx.AsyncClient,
    app: FastAPI,
) -> None:
    cashier_token = await log_in(client, await add_staff(app, role=Role.CASHIER))
    staff = RoomListener()
    await staff.client.connect(
        live, auth={"staffToken": cashier_token}, transports=["websocket"], wait_timeout=5
    )
    _, member_token = await funded_member(client)
    # A member's token is no staff session: refused.
    intruder = socketio.AsyncClient(reconnection=False)
    with pytest.raises(socketio.exceptions.ConnectionError):
        await intruder.connect(live, auth={"staffToken": member_token}, transports=["websocket"])
    # A member's own socket connects, but hears nothing of the queue.
    member = RoomListener()
    await member.client.connect(
        live, auth={"token": member_token}, transports=["websocket"], wait_timeout=5
    )
    try:
        async with httpx.AsyncClient(base_url=live) as http:
            withdrawal_id = await request_withdrawal(http, member_token, 250)
            name, data = await staff.next()
            assert (name, data["id"], data["amount"], data["currency"]) == (
                "withdrawal:new",
                withdrawal_id,
                250,
                "THB",
            )
            claimed = await http.post(
                f"{PREFIX}/{withdrawal_id}/claim", headers=bearer(cashier_token)
            )
            assert claimed.status_code == 200, claimed.text
            name, data = await staff.next()
            assert (name, data["id"], data["status"]) == (
                "withdrawal:updated",
                withdrawal_id,
                "PENDING",
            )
            assert data["claimedBy"] == claimed.json()["claimedBy"]
        await asyncio.sleep(0.3)
        assert member.events.empty()
    finally:
        await staff.client.disconnect()
        await member.client.disconnect()


async def test_staff_without_the_queue_permission_are_refused(
    live: str,  # noqa: F811
    client: httpx.AsyncClient,
    app: FastAPI,
) -> None:
    support_token = await log_in(client, await add_staff(app, role=Role.SUPPORT))
    io = socketio.AsyncClient(reconnection=False)
    with pytest.raises(socketio.exceptions.ConnectionError):
        await io.connect(live, auth={"staffToken": support_token}, transports=["websocket"])
