"""Receiving accounts in the back office: list, add, edit, enable/disable, each audited with the
account before and after; refusals answer catalogue codes; ``pao ops accounts`` shares the
functions (and the audit rows)."""

from __future__ import annotations

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import select

from pao.backoffice.audit.service import Actor
from pao.backoffice.models import AuditEntry
from pao.backoffice.staff.roles import Role
from pao.ops import accounts as ops_accounts
from pao.payments import accounts as domain
from tests.staff_helpers import add_staff, bearer, open_token

URL = "/api/backoffice/accounts"
SCB = {
    "kind": "BANK",
    "code": "scb",
    "mode": "MANUAL",
    "accountName": "PAO",
    "accountNo": "4071234567",
}


async def manager(app: FastAPI) -> str:
    return await open_token(app, await add_staff(app, role=Role.MANAGER))


async def test_add_edit_disable_enable_audited(client: httpx.AsyncClient, app: FastAPI) -> None:
    token = await manager(app)
    created = await client.post(URL, headers=bearer(token), json=SCB)
    assert created.status_code == 201, created.text
    account = created.json()
    assert (account["code"], account["active"]) == ("SCB", True)
    lookup = await client.get("/api/lookup/deposit")
    assert [b["bankCode"] for b in lookup.json()["banks"]] == ["SCB"]

    edited = await client.patch(
        f"{URL}/{account['id']}", headers=bearer(token), json={"accountName": "PAO CO"}
    )
    assert edited.json()["accountName"] == "PAO CO"
    disabled = await client.patch(
        f"{URL}/{account['id']}", headers=bearer(token), json={"active": False}
    )
    assert disabled.json()["active"] is False
    assert (await client.get("/api/lookup/deposit")).json()["banks"] == []
    enabled = await client.patch(
        f"{URL}/{account['id']}", headers=bearer(token), json={"active": True}
    )
    assert enabled.json()["active"] is True

    listed = await client.get(URL, headers=bearer(token))
    assert listed.json()["total"] == 1
    async with app.state.sessionmaker() as s:
        rows = (await s.execute(select(AuditEntry).order_by(AuditEntry.id))).scalars().all()
        trail = [
            (r.action, r.before, r.after) for r in rows if r.object_type == "receiving_account"
        ]
    assert trail[0][0] == "account.create"
    assert trail[1] == ("account.update", {"accountName": "PAO"}, {"accountName": "PAO CO"})
    assert trail[2] == ("account.update", {"active": True}, {"active": False})


@pytest.mark.parametrize(
    ("body", "status", "code", "field"),
    [
        ({**SCB, "mode": None}, 422, "KEY_INVALID", "mode"),
        ({**SCB, "code": "NOPE"}, 400, "RECEIVING_ACCOUNT_INVALID", "code"),
        ({**SCB, "mode": "AUTO"}, 400, "RECEIVING_ACCOUNT_INVALID", "promptpayId"),
        (
            {**SCB, "mode": "AUTO", "promptpayId": "12"},
            400,
            "RECEIVING_ACCOUNT_INVALID",
            "promptpayId",
        ),
        (
            {"kind": "GATEWAY", "code": "WW", "mode": "MANUAL"},
            400,
            "RECEIVING_ACCOUNT_INVALID",
            "mode",
        ),
        ({**SCB, "accountNo": "abc"}, 400, "RECEIVING_ACCOUNT_INVALID", "accountNo"),
        ({**SCB, "kind": "CASH"}, 422, "KEY_INVALID", "kind"),
    ],
)
async def test_create_refusals(
    client: httpx.AsyncClient,
    app: FastAPI,
    body: dict[str, object],
    status: int,
    code: str,
    field: str,
) -> None:
    response = await client.post(URL, headers=bearer(await manager(app)), json=body)
    assert response.status_code == status, response.text
    assert response.json()["message"] == code
    assert response.json().get("field") == field


async def test_update_refusals(client: httpx.AsyncClient, app: FastAPI) -> None:
    token = await manager(app)
    account = (await client.post(URL, headers=bearer(token), json=SCB)).json()
    for body in ({"mode": None}, {"active": None}, {"code": None}):
        refused = await client.patch(f"{URL}/{account['id']}", headers=bearer(token), json=body)
        assert refused.status_code == 422, (body, refused.text)
    bad = await client.patch(f"{URL}/{account['id']}", headers=bearer(token), json={"mode": "AUTO"})
    assert (bad.status_code, bad.json()["message"]) == (400, "RECEIVING_ACCOUNT_INVALID")
    missing = await client.patch(f"{URL}/999999", headers=bearer(token), json={"active": False})
    assert (missing.status_code, missing.json()["message"]) == (404, "RECEIVING_ACCOUNT_NOT_FOUND")
    cashier = await open_token(app, await add_staff(app, role=Role.CASHIER))
    assert (await client.get(URL, headers=bearer(cashier))).status_code == 200
    assert (await client.post(URL, headers=bearer(cashier), json=SCB)).status_code == 403


async def test_ops_and_back_office_share_the_functions(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    async with app.state.sessionmaker() as s:
        account = await domain.add_account(
            s,
            kind=domain.ReceivingKind.BANK,
            code="KBANK",
            mode=domain.ReceivingMode.MANUAL,
            account_no="0481234567",
        )
        await ops_accounts.change(
            s, account_id=account.id, changes={"active": False}, actor=Actor.operator("ops:root")
        )
        await s.commit()
    listed = (await client.get(URL, headers=bearer(await manager(app)))).json()
    assert listed["items"][0]["active"] is False
    async with app.state.sessionmaker() as s:
        row = (
            await s.execute(select(AuditEntry).where(AuditEntry.action == "account.update"))
        ).scalar_one()
        assert (row.actor, row.after) == ("ops:root", {"active": False})
