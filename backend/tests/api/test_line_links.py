"""A member links their LINE user (a one-time code sent in LINE) and gets notices on LINE.

LINE is the sandbox platform of the same app, as in tests/api/test_line.py.
"""

from __future__ import annotations

from datetime import timedelta

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import select

from pao.identity.models import Member
from pao.kit.clock import clock
from pao.support.line import outbound
from pao.support.line.models import LineOutbox
from pao.wallet.adjustments import credit_manually
from pao.wallet.withdrawals import reject_withdrawal
from tests.api.test_line import line_chat, line_send, new_user
from tests.api.test_qr_deposits import create, notify, seed
from tests.helpers import auth, member_id, register_and_login
from tests.staff_helpers import add_staff, log_in
from tests.withdrawal_helpers import funded_member, request_withdrawal

pytestmark = pytest.mark.sqlite


async def linked_member(client: httpx.AsyncClient, language: str = "en") -> tuple[str, str, int]:
    """A member whose LINE user (a new sandbox user) sent the member's link code."""
    _phone, token = await register_and_login(client)
    user = await new_user(client, name="Linked Lek", language=language)
    code = (await client.post("/api/line/link/code", headers=auth(token))).json()["code"]
    await line_send(client, user, type="text", text=code.lower())
    return token, user, await member_id(client, token)


async def bot_texts(client: httpx.AsyncClient, user: str) -> list[str]:
    return [e["message"]["text"] for e in await line_chat(client, user) if e["side"] == "bot"]


async def test_a_member_links_with_a_one_time_code(client: httpx.AsyncClient, app: FastAPI) -> None:
    _phone, token = await register_and_login(client)
    before = (await client.get("/api/line/link", headers=auth(token))).json()
    assert before == {
        "enabled": True,
        "linked": False,
        "displayName": None,
        "notices": False,
        "following": False,
        "code": None,
        "codeExpiresAt": None,
    }
    code = (await client.post("/api/line/link/code", headers=auth(token))).json()["code"]
    assert code.startswith("PAO-")
    user = await new_user(client, name="Lek", language="en")
    await line_send(client, user, type="text", text=code)
    state = (await client.get("/api/line/link", headers=auth(token))).json()
    assert (state["linked"], state["displayName"], state["code"]) == (True, "Lek", None)
    assert await bot_texts(client, user) == ["LINE is now linked to your account."]
    # The code was one-time: another LINE user sending it links nothing.
    other = await new_user(client, name="Other", language="th")
    await line_send(client, other, type="text", text=code)
    assert (await bot_texts(client, other))[0].startswith("รหัสนี้ใช้ไม่ได้")
    # The inbox shows the member beside the LINE conversation.
    agent = await log_in(client, await add_staff(app, login="0899999997", name="Agent Bee"))
    inbox = (await client.get("/api/backoffice/chat/conversations", headers=auth(agent))).json()
    by_name = {c["name"]: c for c in inbox["items"]}
    assert by_name["Lek"]["memberId"] == await member_id(client, token)
    assert by_name["Other"]["memberId"] is None
    # Unlinking is one call.
    assert (await client.delete("/api/line/link", headers=auth(token))).json()["linked"] is False


async def test_an_expired_code_links_nothing(client: httpx.AsyncClient) -> None:
    _phone, token = await register_and_login(client)
    code = (await client.post("/api/line/link/code", headers=auth(token))).json()["code"]
    clock.advance(timedelta(minutes=16))
    user = await new_user(client)
    await line_send(client, user, type="text", text=code)
    assert (await client.get("/api/line/link", headers=auth(token))).json()["linked"] is False


async def test_a_deposit_is_noticed_once_after_it_commits(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    token, user, _member = await linked_member(client)
    r = await client.put("/api/line/link/notices", json={"enabled": True}, headers=auth(token))
    assert r.json()["notices"] is True
    await seed(client)
    await create(client, token, "KBANK", 100)
    for _ in range(2):  # the bank's notification, then its replay
        assert (await notify(client, amount=100, transfer_id="TX-LINE-1")).status_code == 200
    # Queued with the deposit's commit; the outbox job sends it (once).
    assert await outbound.outbox_tick(app) == 1
    assert await outbound.outbox_tick(app) == 0
    texts = await bot_texts(client, user)
    assert texts[1:] == ["Your deposit of 100.00 THB is in your wallet."]


async def test_no_notice_for_a_rolled_back_deposit_nor_without_opting_in(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    token, user, member = await linked_member(client, language="lo")
    # Not opted in: nothing.
    async with app.state.sessionmaker() as session:
        row = await session.get(Member, member)
        assert row is not None
        await credit_manually(session, member=row, amount=5000, note="t", actor="test")
        await session.commit()
    await client.put("/api/line/link/notices", json={"enabled": True}, headers=auth(token))
    # Opted in, but the deposit's transaction rolls back: nothing either.
    async with app.state.sessionmaker() as session:
        row = await session.get(Member, member)
        assert row is not None
        await credit_manually(session, member=row, amount=5000, note="t", actor="test")
        await session.rollback()
    async with app.state.sessionmaker() as session:
        assert (await session.execute(select(LineOutbox.notice_key))).scalars().all() == [None]
    # Committed: told, in Lao (the LINE profile's language).
    async with app.state.sessionmaker() as session:
        row = await session.get(Member, member)
        assert row is not None
        await credit_manually(session, member=row, amount=5000, note="t", actor="test")
        await session.commit()
    await outbound.outbox_tick(app)
    assert (await bot_texts(client, user))[1:] == ["ເງິນຝາກ 50.00 THB ເຂົ້າກະເປົາຂອງທ່ານແລ້ວ"]


async def test_no_notice_to_a_user_who_unfollowed(client: httpx.AsyncClient, app: FastAPI) -> None:
    token, user, member = await linked_member(client)
    await client.put("/api/line/link/notices", json={"enabled": True}, headers=auth(token))
    await line_send(client, user, type="unfollow")
    assert (await client.get("/api/line/link", headers=auth(token))).json()["following"] is False
    async with app.state.sessionmaker() as session:
        row = await session.get(Member, member)
        assert row is not None
        await credit_manually(session, member=row, amount=5000, note="t", actor="test")
        await session.commit()
    assert await outbound.outbox_tick(app) == 0
    assert len(await bot_texts(client, user)) == 1  # only the link's confirmation
    # Following again: notices resume.
    await line_send(client, user, type="follow")
    assert (await client.get("/api/line/link", headers=auth(token))).json()["following"] is True


async def test_a_rejected_withdrawal_is_noticed(client: httpx.AsyncClient, app: FastAPI) -> None:
    _phone, token = await funded_member(client)
    user = await new_user(client, name="Wan", language="en")
    code = (await client.post("/api/line/link/code", headers=auth(token))).json()["code"]
    await line_send(client, user, type="text", text=code)
    await client.put("/api/line/link/notices", json={"enabled": True}, headers=auth(token))
    withdrawal_id = await request_withdrawal(client, token, 300)
    async with app.state.sessionmaker() as session:
        await reject_withdrawal(session, withdrawal_id=withdrawal_id, actor="test", reason="no")
        await session.commit()
    assert await outbound.outbox_tick(app) == 1
    assert (await bot_texts(client, user))[1:] == [
        "Your withdrawal of 300.00 THB was not approved; the money is back in your wallet."
    ]
