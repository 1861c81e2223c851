"""The cashiers' live queue over real sockets: staff holding ``withdrawals.read`` join the
``backoffice:withdrawals`` room with their staff token and hear ``withdrawals:changed`` with
the ``new`` withdrawals when members ask (after the commit, whichever way the request was
done) and the ``updated`` ones on a
claim, the withdrawals of one batch window in one event; a member's token cannot join, and a
member's socket hears nothing."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest
import socketio
from fastapi import FastAPI

from pao.backoffice.staff import rooms as staff_rooms
from pao.backoffice.staff.roles import Role
from tests.integration.test_chat_socket import live  # noqa: F401  (the served app fixture)
from tests.staff_helpers import add_staff, bearer, log_in
from tests.withdrawal_helpers import PREFIX, funded_member, request_withdrawal


class RoomListener:
    """A socket.io client queueing the withdrawal queue's batches it receives."""

    def __init__(self) -> None:
        self.client = socketio.AsyncClient(reconnection=False)
        self.events: asyncio.Queue[dict[str, list[dict[str, Any]]]] = asyncio.Queue()
        self.client.on("withdrawals:changed", self.events.put_nowait)

    async def next(self, seconds: float = 5) -> dict[str, list[dict[str, Any]]]:
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
            batch = await staff.next()
            assert list(batch) == ["new"]
            [new] = batch["new"]
            assert (new["id"], new["amount"], new["currency"]) == (withdrawal_id, 250, "THB")
            claimed = await http.post(
                f"{PREFIX}/{withdrawal_id}/claim", headers=bearer(cashier_token)
            )
            assert claimed.status_code == 200, claimed.text
            batch = await staff.next()
            assert list(batch) == ["updated"]
            [updated] = batch["updated"]
            assert (updated["id"], updated["status"]) == (withdrawal_id, "PENDING")
            assert updated["claimedBy"] == claimed.json()["claimedBy"]
            # The member's next withdrawal (on PostgreSQL one statement in autocommit, the
            # first took the steps that open the accounts) is heard the same.
            second_id = await request_withdrawal(http, member_token, 125)
            batch = await staff.next()
            assert [(n["id"], n["amount"]) for n in batch["new"]] == [(second_id, 125)]
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


async def test_withdrawals_of_one_window_arrive_as_one_event(
    live: str,  # noqa: F811
    client: httpx.AsyncClient,
    app: FastAPI,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A window wide enough for this machine to commit three requests and a claim in it.
    monkeypatch.setattr(staff_rooms, "BATCH_WINDOW_SECONDS", 3.0)
    cashier_token = await log_in(client, await add_staff(app, role=Role.CASHIER))
    members = [(await funded_member(client))[1] for _ in range(3)]
    staff = RoomListener()
    await staff.client.connect(
        live, auth={"staffToken": cashier_token}, transports=["websocket"], wait_timeout=5
    )
    try:
        async with httpx.AsyncClient(base_url=live) as http:
            ids = [
                await request_withdrawal(http, token, 100 + n) for n, token in enumerate(members)
            ]
            claimed = await http.post(f"{PREFIX}/{ids[0]}/claim", headers=bearer(cashier_token))
            assert claimed.status_code == 200, claimed.text
            batch = await staff.next(seconds=10)
        assert [(item["id"], item["amount"]) for item in batch["new"]] == [
            (ids[0], 100),
            (ids[1], 101),
            (ids[2], 102),
        ]
        assert [(item["id"], item["status"]) for item in batch["updated"]] == [(ids[0], "PENDING")]
        await asyncio.sleep(0.5)
        assert staff.events.empty()
    finally:
        await staff.client.disconnect()
