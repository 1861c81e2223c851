"""Linked-account signals for the cashier (issue 33 §5): members who share a bank account
number, a holder name, a device (the app's X-Pao-Device) or, when the operator turns it on, a
login address within a window are linked; the member page and a withdrawal's detail list the
links with their reasons, the queue flags them, the settings decide which signals hold a
withdrawal back from auto-approval; a once-in-a-lifetime bonus is received once per device."""

from __future__ import annotations

import asyncio
import itertools
import string
import uuid
from datetime import timedelta

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import select

from pao.backoffice.staff.roles import Role
from pao.identity.models import LoginSession
from pao.ops.withdrawals import LINKED, list_lines
from pao.payments.payouts.jobs import auto_approve_tick
from pao.promotions.models import BonusDeviceClaim, MemberBonus
from pao.wallet.adjustments import credit_manually
from pao.wallet.models import Withdrawal, WithdrawalStatus
from pao.wallet.service import find_member_by_phone
from tests.helpers import (
    DEFAULT_PASSWORD,
    app_of,
    auth,
    member_id,
    new_bank_account_no,
    register,
    set_money_setting,
    set_site_setting,
)
from tests.promotions_helpers import add_bonus
from tests.staff_helpers import add_staff, bearer, open_token
from tests.withdrawal_helpers import PREFIX, request_withdrawal

# The address window is dialect SQL (pao.identity.changes.hours_before), the device claim a
# money path's race: both run on SQLite too.
pytestmark = pytest.mark.sqlite

_names = itertools.count(1)


def _holder() -> str:
    n, letters = next(_names), ""
    while n:
        n, r = divmod(n, 26)
        letters += string.ascii_uppercase[r]
    return f"LINKED {letters}"


def new_device() -> str:
    return str(uuid.uuid4())


async def login_on(client: httpx.AsyncClient, phone: str, device: str | None) -> str:
    headers = {"X-Pao-Device": device} if device else {}
    r = await client.post(
        "/api/login", json={"username": phone, "password": DEFAULT_PASSWORD}, headers=headers
    )
    assert r.status_code == 200, r.text
    token: str = r.json()["token"]
    return token


async def member_on(
    client: httpx.AsyncClient, device: str | None, *, funds: int = 0
) -> tuple[int, str]:
    """A member with a bank account and holder name of their own, logged in on ``device``:
    (member id, token)."""
    phone = await register(
        client, bank_account_name=_holder(), bank_account_no=new_bank_account_no()
    )
    token = await login_on(client, phone, device)
    if funds:
        async with app_of(client).state.sessionmaker() as s:
            member = await find_member_by_phone(s, phone=phone)
            await credit_manually(s, member=member, amount=funds, note="test", actor="test")
            await s.commit()
    return await member_id(client, token), token


async def staff(app: FastAPI, role: Role = Role.CASHIER) -> dict[str, str]:
    return bearer(await open_token(app, await add_staff(app, role=role)))


async def ops_marked(app: FastAPI) -> set[int]:
    """The withdrawals `pao ops withdrawals list` marks as held for a link."""
    async with app.state.sessionmaker() as s:
        lines = await list_lines(s, status=None, limit=100)
    return {int(line.split()[0][1:]) for line in lines if LINKED in line}


async def links_on_page(
    client: httpx.AsyncClient, headers: dict[str, str], member: int
) -> dict[int, list[str]]:
    r = await client.get(f"/api/backoffice/members/{member}", headers=headers)
    assert r.status_code == 200, r.text
    return {m["id"]: m["reasons"] for m in r.json()["linkedMembers"]}


async def test_one_device_links_two_members_on_the_page_and_in_the_queue(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    device = new_device()
    ann, ann_token = await member_on(client, device, funds=1_000_00)
    bob, _ = await member_on(client, device)
    alone, alone_token = await member_on(client, new_device(), funds=1_000_00)
    headers = await staff(app, Role.VIEWER)

    assert await links_on_page(client, headers, ann) == {bob: ["device"]}
    assert await links_on_page(client, headers, bob) == {ann: ["device"]}
    assert await links_on_page(client, headers, alone) == {}

    linked = await request_withdrawal(client, ann_token, 200)
    clean = await request_withdrawal(client, alone_token, 200)
    rows = {i["id"]: i for i in (await client.get(PREFIX, headers=headers)).json()["items"]}
    assert (rows[linked]["linkedAccounts"], rows[linked]["clean"]) == (True, False)
    assert (rows[clean]["linkedAccounts"], rows[clean]["clean"]) == (False, True)
    detail = (await client.get(f"{PREFIX}/{linked}", headers=headers)).json()
    assert [(m["id"], m["reasons"]) for m in detail["linkedMembers"]] == [(bob, ["device"])]
    assert detail["withdrawal"]["linkedAccounts"] is True


async def test_the_settings_decide_which_links_hold_a_withdrawal(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    await set_money_setting(client, "withdrawAutoApproveMax", THB=500_00)
    device = new_device()
    _, token = await member_on(client, device, funds=1_000_00)
    await member_on(client, device)
    held = await request_withdrawal(client, token, 100)

    # A device link holds it back from auto-approval (the default), and the queue flags it,
    # as `pao ops withdrawals list` does.
    assert await auto_approve_tick(app) == 0
    assert await ops_marked(app) == {held}
    # Off: the same withdrawal is clean and paid without a cashier; the link is still listed.
    await set_site_setting(client, "holdLinkedDevice", False)
    assert await ops_marked(app) == set()
    headers = await staff(app, Role.VIEWER)
    row = (await client.get(f"{PREFIX}/{held}", headers=headers)).json()
    assert (row["withdrawal"]["linkedAccounts"], len(row["linkedMembers"])) == (False, 1)
    assert await auto_approve_tick(app) == 1
    async with app.state.sessionmaker() as s:
        paid = await s.get(Withdrawal, held)
    assert paid is not None
    assert paid.status == WithdrawalStatus.PAID


async def test_a_shared_holder_name_or_account_number_is_a_reason_too(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    name, number = _holder(), new_bank_account_no()
    first = await register(client, bank_code="SCB", bank_account_name=name, bank_account_no=number)
    # The same number at another bank (a member's account is unique per bank), another name.
    second = await register(
        client, bank_code="KBANK", bank_account_name=_holder(), bank_account_no=number
    )
    third = await register(client, bank_account_name=name, bank_account_no=new_bank_account_no())
    ids = [await member_id(client, await login_on(client, p, None)) for p in (first, second, third)]
    headers = await staff(app, Role.VIEWER)
    assert await links_on_page(client, headers, ids[0]) == {
        ids[1]: ["bank_account"],
        ids[2]: ["holder_name"],
    }


async def test_a_login_address_links_only_when_turned_on_and_within_its_window(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    # Every test client logs in from one address; the devices differ.
    ann, _ = await member_on(client, new_device())
    bob, _ = await member_on(client, new_device())
    headers = await staff(app, Role.VIEWER)
    assert await links_on_page(client, headers, ann) == {}

    await set_site_setting(client, "holdLinkedAddress", True)
    assert await links_on_page(client, headers, ann) == {bob: ["address"]}

    # Logins further apart than the window do not link.
    await set_site_setting(client, "linkedAddressWindowHours", 2)
    async with app.state.sessionmaker() as s:
        for login in (
            await s.execute(select(LoginSession).where(LoginSession.member_id == bob))
        ).scalars():
            login.created_at -= timedelta(hours=3)
        await s.commit()
    assert await links_on_page(client, headers, ann) == {}
    await set_site_setting(client, "linkedAddressWindowHours", 4)
    assert await links_on_page(client, headers, ann) == {bob: ["address"]}


async def test_a_device_id_of_another_shape_is_ignored(client: httpx.AsyncClient) -> None:
    _, _ = await member_on(client, "short")
    _, _ = await member_on(client, "x" * 65)
    async with app_of(client).state.sessionmaker() as s:
        devices = (await s.execute(select(LoginSession.device_id))).scalars().all()
    assert set(devices) == {None}


# ------------------------------------------------------------------- once per device


async def activate(
    client: httpx.AsyncClient, token: str, device: str | None, **headers: str
) -> httpx.Response:
    sent = {**auth(token), **headers}
    if device:
        sent["X-Pao-Device"] = device
    return await client.get("/api/bonus/activate/GIFT", headers=sent)


async def test_a_welcome_bonus_is_received_once_per_device(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    await add_bonus(app, code="GIFT", percent=0, fixed_amount=100_00, min_deposit=0)
    device = new_device()
    _, ann = await member_on(client, device)
    _, bob = await member_on(client, device)
    _, cat = await member_on(client, new_device())

    first = await activate(client, ann, device)
    assert first.status_code == 200, first.text
    refused = await activate(client, bob, device)
    assert (refused.status_code, refused.json()["message"]) == (400, "BONUS_DEVICE_CLAIMED")
    wallet = await client.get("/api/wallet", headers=auth(bob))
    assert wallet.json()["wallet"]["amount"] == 0
    # Another device takes it as usual.
    assert (await activate(client, cat, new_device())).status_code == 200
    async with app.state.sessionmaker() as s:
        assert len((await s.execute(select(MemberBonus))).scalars().all()) == 2
        claims = (await s.execute(select(BonusDeviceClaim))).scalars().all()
    assert len(claims) == 2


async def test_a_bonus_taken_again_each_day_is_not_held_to_one_device(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    await add_bonus(app, code="GIFT", type="day", percent=0, fixed_amount=10_00, min_deposit=0)
    device = new_device()
    _, ann = await member_on(client, device)
    _, bob = await member_on(client, device)
    assert (await activate(client, ann, device)).status_code == 200
    assert (await activate(client, bob, device)).status_code == 200


async def test_two_members_racing_on_one_device_get_it_once(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    await add_bonus(app, code="GIFT", percent=0, fixed_amount=100_00, min_deposit=0)
    device = new_device()
    tokens = [(await member_on(client, device))[1] for _ in range(4)]
    answers = await asyncio.gather(*(activate(client, t, device) for t in tokens))
    codes = sorted(a.status_code for a in answers)
    assert codes == [200, 400, 400, 400], [a.text for a in answers]
    async with app.state.sessionmaker() as s:
        assert len((await s.execute(select(MemberBonus))).scalars().all()) == 1


async def test_a_retried_claim_answers_as_the_first_did(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    await add_bonus(app, code="GIFT", percent=0, fixed_amount=100_00, min_deposit=0)
    device = new_device()
    _, ann = await member_on(client, device)
    key = {"Idempotency-Key": str(uuid.uuid4())}
    first = await activate(client, ann, device, **key)
    again = await activate(client, ann, device, **key)
    assert (first.status_code, again.status_code) == (200, 200)
    assert first.json() == again.json()
    async with app.state.sessionmaker() as s:
        assert len((await s.execute(select(MemberBonus))).scalars().all()) == 1
