"""The audit log as staff read it: every amount with its currency (rows written now, and rows
written before amounts were tagged), the staff member by name, the list of actions its filter
offers (every action a route writes is in it), and sign-ins left out on request."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
from fastapi import FastAPI

from pao.backoffice.audit.actions import ACTIONS, OBJECT_TYPES
from pao.backoffice.models import AuditEntry
from pao.backoffice.staff.roles import Role
from pao.kit.clock import utcnow
from tests.api.test_backoffice_access import EXAMPLES
from tests.staff_helpers import add_staff, bearer, log_in, open_token
from tests.withdrawal_helpers import pending_withdrawal

AUDIT = "/api/backoffice/audit"
SOURCES = Path(__file__).resolve().parents[2] / "src" / "pao"


async def _entries(client: httpx.AsyncClient, token: str, **params: Any) -> list[dict[str, Any]]:
    r = await client.get(AUDIT, params={"limit": 200, **params}, headers=bearer(token))
    assert r.status_code == 200, r.text
    items: list[dict[str, Any]] = r.json()["items"]
    return items


async def _old_row(app: FastAPI, action: str, **values: Any) -> None:
    """A row as an older release wrote it (bare amounts), straight into the table."""
    async with app.state.sessionmaker() as s:
        s.add(AuditEntry(at=utcnow(), actor="ops:root", action=action, **values))
        await s.commit()


async def test_a_withdrawal_decision_and_a_limit_change_show_money_with_its_currency(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    owner = await add_staff(app, role=Role.OWNER, name="Ann Owner")
    token = await open_token(app, owner)
    withdrawal_id, _ = await pending_withdrawal(client, amount=555)
    headers = bearer(token)
    claimed = await client.post(
        f"/api/backoffice/withdrawals/{withdrawal_id}/claim", headers=headers
    )
    assert claimed.status_code == 200, claimed.text
    approved = await client.post(
        f"/api/backoffice/withdrawals/{withdrawal_id}/approve",
        json={"mode": "manual", "reference": "REF-555"},
        headers=headers,
    )
    assert approved.status_code == 200, approved.text
    saved = await client.put(
        "/api/backoffice/settings", json={"values": {"withdrawMin": {"THB": 200}}}, headers=headers
    )
    assert saved.status_code == 200, saved.text

    entries = {e["action"]: e for e in await _entries(client, token)}
    approval = entries["withdrawal.approve"]
    assert approval["after"]["amount"] == {"$money": {"THB": 555.0}}
    assert approval["after"]["reference"] == "REF-555"
    # Who decided, by name (the login stays for searching).
    assert (approval["staffName"], approval["actor"]) == ("Ann Owner", owner.login)
    limit = entries["settings.save"]
    assert limit["before"]["withdrawMin"] == {"$money": {"THB": 100.0, "LAK": 50_000.0}}
    assert limit["after"]["withdrawMin"] == {"$money": {"THB": 200.0, "LAK": 50_000.0}}


async def test_rows_written_before_amounts_were_tagged_read_as_money(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    token = await open_token(app, await add_staff(app, role=Role.OWNER))
    # Minor units beside a currency (adjustments, slips), major units (a payment match), a
    # baht-only limit of before ADR 0020, a per-currency one, a kip bonus, a wheel prize.
    await _old_row(
        app, "adjustment.request", after={"amount": 55500, "currency": "LAK", "status": "POSTED"}
    )
    await _old_row(app, "deposit.slip.approve", after={"amount": 55500, "currency": "THB"})
    await _old_row(app, "deposit.payment.match", after={"amount": 123.45, "currency": "THB"})
    await _old_row(
        app, "settings.save", before={"withdrawMin": 10000}, after={"withdrawMin": 20000}
    )
    await _old_row(
        app,
        "settings.revert",
        before={"refundMinimum": {"THB": 100, "LAK": None}, "refundRateBp": 500},
        after={"refundMinimum": {"THB": 200, "LAK": 100_000}, "refundRateBp": 600},
    )
    await _old_row(
        app, "promotion.create", after={"currency": "LAK", "maxAmount": 1_000_000, "percent": 10}
    )
    await _old_row(
        app,
        "wheel.update",
        after={
            "slice:C10": {"prizeType": "credit", "prizeAmount": 1000, "weight": 3},
            "slice:X": {"prizeType": "item", "prizeAmount": 0},
        },
    )

    entries = {e["action"]: e for e in await _entries(client, token)}
    assert entries["adjustment.request"]["after"] == {
        "amount": {"$money": {"LAK": 555.0}},
        "status": "POSTED",
    }
    assert entries["deposit.slip.approve"]["after"] == {"amount": {"$money": {"THB": 555.0}}}
    assert entries["deposit.payment.match"]["after"] == {"amount": {"$money": {"THB": 123.45}}}
    old_limit = entries["settings.save"]
    assert (old_limit["before"], old_limit["after"]) == (
        {"withdrawMin": {"$money": {"THB": 100.0}}},
        {"withdrawMin": {"$money": {"THB": 200.0}}},
    )
    revert = entries["settings.revert"]
    assert revert["before"] == {
        "refundMinimum": {"$money": {"THB": 1.0, "LAK": None}},
        "refundRateBp": 500,
    }
    assert revert["after"]["refundMinimum"] == {"$money": {"THB": 2.0, "LAK": 1_000.0}}
    assert entries["promotion.create"]["after"] == {
        "currency": "LAK",
        "maxAmount": {"$money": {"LAK": 10_000.0}},
        "percent": 10,
    }
    wheel = entries["wheel.update"]["after"]
    # The wheel's currency was not in an old row: an amount without a unit (XXX, no currency).
    assert wheel["slice:C10"] == {
        "prizeType": "credit",
        "prizeAmount": {"$money": {"XXX": 10.0}},
        "weight": 3,
    }
    assert wheel["slice:X"]["prizeAmount"] == 0  # an item prize has no amount


async def test_the_filter_lists_every_action_and_can_hide_sign_ins(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    owner = await add_staff(app, role=Role.OWNER)
    token = await log_in(client, owner)  # writes auth.password_accepted and auth.login
    await client.post(
        "/api/backoffice/staff",
        json={"login": "newbie", "password": "newbie-pass-1", "role": "viewer"},
        headers=bearer(token),
    )
    r = await client.get(f"{AUDIT}/actions", headers=bearer(token))
    assert r.status_code == 200, r.text
    listed = r.json()
    assert listed["items"] == list(ACTIONS)
    locks = {"session.lock", "session.unlock", "session.unlock_failed"}
    assert set(listed["signIns"]) == {a for a in ACTIONS if a.startswith("auth.")} | locks
    assert listed["objectTypes"] == list(OBJECT_TYPES)

    everything = [e["action"] for e in await _entries(client, token)]
    assert {"auth.login", "auth.password_accepted", "staff.create"} <= set(everything)
    shown = [e["action"] for e in await _entries(client, token, hideSignIns="true")]
    assert shown == [a for a in everything if not a.startswith("auth.")]
    assert "staff.create" in shown
    total = await client.get(AUDIT, params={"hideSignIns": "true"}, headers=bearer(token))
    assert total.json()["total"] == len(shown)


def test_every_action_written_is_in_the_list() -> None:
    # What each mutating route writes (the access test's examples) …
    assert {action for _, action in EXAMPLES.values()} <= set(ACTIONS)
    # … and every action named in the back office's and the shell's sources.
    written: set[str] = set()
    for path in [*SOURCES.glob("backoffice/**/*.py"), *SOURCES.glob("ops/*.py")]:
        text = path.read_text(encoding="utf-8")
        written |= set(re.findall(r'action(?:, \w+)? = "([a-z_]+\.[a-z_.0-9]+)"', text))
        written |= set(re.findall(r'action="([a-z_]+\.[a-z_.0-9]+)"', text))
        written |= set(re.findall(r'ACTION = "([a-z_]+\.[a-z_.0-9]+)"', text))
    assert written, "no action found in the sources"
    assert written <= set(ACTIONS), sorted(written - set(ACTIONS))
    objects: set[str] = set()
    for path in [*SOURCES.glob("backoffice/**/*.py"), *SOURCES.glob("ops/*.py")]:
        text = path.read_text(encoding="utf-8")
        objects |= set(re.findall(r'object_type="([a-z_]+)"', text))
        objects |= set(re.findall(r'OBJECT = "([a-z_]+)"', text))
    objects |= {f"{kind}_payment" for kind in ("bank", "gateway")}  # f"{kind.value}_payment"
    assert objects <= set(OBJECT_TYPES), sorted(objects - set(OBJECT_TYPES))
