"""The back office's editors of content, refund and invite rules and site settings: a group saved
together or not at all, its history (written by every path, ``pao ops settings set`` too),
revert as a new version, permissions, audit rows, and players seeing the change at once."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import select

from pao.backoffice.models import AuditEntry
from pao.backoffice.staff.roles import Role
from pao.ops.site import set_setting_line
from pao.site.models import SiteSetting, SiteSettingChange
from tests.helpers import set_site_setting
from tests.staff_helpers import add_staff, bearer, open_token

BO = "/api/backoffice"
CONTENT, RULES, SETTINGS = f"{BO}/content", f"{BO}/content/rules", f"{BO}/settings"


async def token_of(app: FastAPI, role: Role) -> str:
    return await open_token(app, await add_staff(app, role=role))


async def stored(app: FastAPI) -> dict[str, Any]:
    async with app.state.sessionmaker() as session:
        rows = (await session.scalars(select(SiteSetting))).all()
        return {row.key: row.value for row in rows}


async def changes(app: FastAPI) -> list[SiteSettingChange]:
    async with app.state.sessionmaker() as session:
        query = select(SiteSettingChange).order_by(SiteSettingChange.id)
        return list((await session.scalars(query)).all())


async def audit_rows(app: FastAPI, action: str) -> list[AuditEntry]:
    async with app.state.sessionmaker() as session:
        query = select(AuditEntry).where(AuditEntry.action == action).order_by(AuditEntry.id)
        return list((await session.scalars(query)).all())


async def test_content_save_sanitises_and_players_see_it(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    token = await token_of(app, Role.MANAGER)
    before = await client.get(CONTENT, headers=bearer(token))
    assert before.status_code == 200, before.text
    assert "contactText" in [f["key"] for f in before.json()["fields"]]
    html = (
        '<b>Call us</b><script>alert(1)</script><img src="https://x.example/a.png" onerror="x()">'
    )
    saved = await client.put(
        CONTENT,
        headers=bearer(token),
        json={"values": {"contactText": {"th": html, "la": "ລາວ", "en": "<i>hi</i>"}}},
    )
    assert saved.status_code == 200, saved.text
    text = saved.json()["values"]["contactText"]
    assert "<b>Call us</b>" in text["th"]
    assert "script" not in text["th"]
    assert "onerror" not in text["th"]
    assert saved.json()["changeSet"]
    assert "script" not in (await stored(app))["contactText"]["th"]
    # A player's lookup reads the settings through the cache: the change shows at once here
    # (this process dropped its copy on commit).
    contact = await client.get("/api/lookup/contact", params={"lang": "th"})
    assert contact.json()["contactText"] == text["th"]


async def test_preview_is_the_players_sanitiser(client: httpx.AsyncClient, app: FastAPI) -> None:
    token = await token_of(app, Role.MANAGER)
    r = await client.post(
        f"{CONTENT}/preview",
        headers=bearer(token),
        json={"html": '<b>x</b><script>alert(1)</script><a href="javascript:x()">y</a>'},
    )
    assert r.status_code == 200, r.text
    assert r.json()["html"].startswith("<b>x</b>")
    assert "script" not in r.json()["html"]
    assert "javascript" not in r.json()["html"]
    assert await changes(app) == []


@pytest.mark.parametrize(
    ("url", "values", "code", "field"),
    [
        (RULES, {"refundMinimum": {"THB": -5}}, "KEY_INVALID", "refundMinimum.THB"),
        (
            RULES,
            {"refundMinimum": {"THB": 6000}, "refundMaxPerPeriod": {"THB": 5000}},
            "SETTING_RANGE",
            "refundMinimum.THB",
        ),
        (RULES, {"inviteRateBp": 10_001}, "KEY_INVALID", "inviteRateBp"),
        (RULES, {"refundMinimum": {"LAK": 1.001}}, "KEY_INVALID", "refundMinimum.LAK"),
        # Money is per currency: a bare amount names no currency; an unknown one is refused.
        (RULES, {"refundMinimum": 20}, "KEY_INVALID", "refundMinimum"),
        (SETTINGS, {"withdrawMin": {"USD": 20}}, "KEY_INVALID", "withdrawMin.USD"),
        (
            SETTINGS,
            {"withdrawMin": {"THB": 900}, "withdrawMax": {"THB": 800}},
            "SETTING_RANGE",
            "withdrawMin.THB",
        ),
        # Each currency's minimum against its own maximum: 60,000 kip is under 20,000,000 kip
        # although above the baht maximum; 30,000,000 kip is not.
        (SETTINGS, {"withdrawMin": {"LAK": 30_000_000}}, "SETTING_RANGE", "withdrawMin.LAK"),
        (
            SETTINGS,
            {"withdrawMin": {"THB": 50}, "otpPrefixDigits": 1},
            "KEY_INVALID",
            "otpPrefixDigits",
        ),
        (SETTINGS, {"timezone": "Mars/Olympus"}, "KEY_INVALID", "timezone"),
        (CONTENT, {"lineLink": "javascript:alert(1)"}, "KEY_INVALID", "lineLink"),
        (CONTENT, {"siteName": "Ok", "howtoWallet": "ftp://x"}, "KEY_INVALID", "howtoWallet"),
        (CONTENT, {"withdrawMin": {"THB": 1}}, "KEY_INVALID", "withdrawMin"),
    ],
)
async def test_a_refused_save_changes_nothing(
    client: httpx.AsyncClient,
    app: FastAPI,
    url: str,
    values: dict[str, Any],
    code: str,
    field: str,
) -> None:
    token = await token_of(app, Role.OWNER)
    shown = (await client.get(url, headers=bearer(token))).json()["values"]
    r = await client.put(url, headers=bearer(token), json={"values": values})
    assert r.status_code == 422, r.text
    assert (r.json()["message"], r.json()["field"]) == (code, field)
    assert await stored(app) == {}
    assert await changes(app) == []
    assert await audit_rows(app, "settings.save") == []
    assert (await client.get(url, headers=bearer(token))).json()["values"] == shown


async def test_rules_in_major_units_history_and_revert(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    token = await token_of(app, Role.MANAGER)
    first = await client.put(
        RULES,
        headers=bearer(token),
        json={
            "values": {
                "refundMinimum": {"THB": 20.5},
                "refundRateBp": 750,
                "refundPeriod": "day",
            }
        },
    )
    assert first.status_code == 200, first.text
    # Major units per currency on the wire; kip keeps its own value.
    assert first.json()["values"]["refundMinimum"] == {"THB": 20.5, "LAK": 1000.0}
    # Minor units inside.
    assert (await stored(app))["refundMinimum"] == {"THB": 2050, "LAK": 1_000_00}
    second = await client.put(
        RULES, headers=bearer(token), json={"values": {"refundMinimum": {"THB": 30}}}
    )
    assert second.status_code == 200

    history = (await client.get(f"{RULES}/history", headers=bearer(token))).json()["items"]
    assert [len(v["changes"]) for v in history] == [1, 3]  # one version per save, newest first
    assert history[0]["changes"] == [
        {
            "key": "refundMinimum",
            "before": {"THB": 20.5, "LAK": 1000.0},
            "after": {"THB": 30.0, "LAK": 1000.0},
        }
    ]
    assert history[1]["actor"] == history[0]["actor"]
    assert {c["key"]: c["before"] for c in history[1]["changes"]}["refundPeriod"] == "week"

    # Revert the first save: every key it changed goes back to its value before it.
    undo = await client.post(
        f"{RULES}/history/{history[1]['changeSet']}/revert", headers=bearer(token)
    )
    assert undo.status_code == 200, undo.text
    values = undo.json()["values"]
    assert (values["refundMinimum"], values["refundRateBp"], values["refundPeriod"]) == (
        {"THB": 1.0, "LAK": 1000.0},
        500,
        "week",
    )
    after = (await client.get(f"{RULES}/history", headers=bearer(token))).json()["items"]
    assert len(after) == 3
    assert after[0]["changeSet"] == undo.json()["changeSet"]
    assert {c["key"] for c in after[0]["changes"]} == {
        "refundMinimum",
        "refundRateBp",
        "refundPeriod",
    }
    reverts = await audit_rows(app, "settings.revert")
    assert len(reverts) == 1
    assert reverts[0].object_id == "rules"
    assert reverts[0].after == {
        "refundMinimum": {"$minor": {"THB": 100, "LAK": 1_000_00}},
        "refundRateBp": 500,
        "refundPeriod": "week",
    }


async def test_revert_is_revalidated_under_todays_rules(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    token = await token_of(app, Role.OWNER)
    # withdrawMax 100 → 300 baht, then the minimum raised to 200: reverting the first save
    # would put the maximum under the minimum.
    await client.put(
        SETTINGS, headers=bearer(token), json={"values": {"withdrawMax": {"THB": 100}}}
    )
    raised = await client.put(
        SETTINGS, headers=bearer(token), json={"values": {"withdrawMax": {"THB": 300}}}
    )
    await client.put(
        SETTINGS, headers=bearer(token), json={"values": {"withdrawMin": {"THB": 200}}}
    )
    r = await client.post(
        f"{SETTINGS}/history/{raised.json()['changeSet']}/revert", headers=bearer(token)
    )
    assert r.status_code == 422
    assert r.json()["message"] == "SETTING_RANGE"
    assert (await stored(app))["withdrawMax"] == {"THB": 300_00, "LAK": 20_000_000_00}
    missing = await client.post(f"{SETTINGS}/history/nosuchversion/revert", headers=bearer(token))
    assert (missing.status_code, missing.json()["message"]) == (404, "SETTING_CHANGE_NOT_FOUND")
    # A version of another group is not this group's to revert.
    other = await client.post(
        f"{RULES}/history/{raised.json()['changeSet']}/revert", headers=bearer(token)
    )
    assert other.status_code == 404


async def test_every_path_writes_history(client: httpx.AsyncClient, app: FastAPI) -> None:
    async with app.state.sessionmaker() as session:
        line = await set_setting_line(
            session, key="withdrawAutoApproveMax", raw_value="THB=250", actor="ops:alice"
        )
        await session.commit()
    assert "250" in line
    await set_site_setting(app, "registerOTP", False)
    await set_site_setting(app, "registerOTP", False)  # the same value again: no new version
    rows = await changes(app)
    assert [(r.key, r.before, r.after, r.actor) for r in rows] == [
        ("withdrawAutoApproveMax", None, {"THB": 250_00, "LAK": 0}, "ops:alice"),
        ("registerOTP", None, False, "test"),
    ]
    token = await token_of(app, Role.OWNER)
    history = (await client.get(f"{SETTINGS}/history", headers=bearer(token))).json()["items"]
    assert [v["actor"] for v in history] == ["test", "ops:alice"]
    # Before the first change the default applied: the history shows it.
    assert history[1]["changes"] == [
        {
            "key": "withdrawAutoApproveMax",
            "before": {"THB": 0.0, "LAK": 0.0},
            "after": {"THB": 250.0, "LAK": 0.0},
        }
    ]
    # Reverting the ops change puts the default back.
    r = await client.post(
        f"{SETTINGS}/history/{history[1]['changeSet']}/revert", headers=bearer(token)
    )
    assert r.json()["values"]["withdrawAutoApproveMax"] == {"THB": 0.0, "LAK": 0.0}


async def test_permissions(client: httpx.AsyncClient, app: FastAPI) -> None:
    manager = await token_of(app, Role.MANAGER)
    cashier = await token_of(app, Role.CASHIER)
    body = {"values": {"withdrawMin": {"THB": 50}}}
    assert (await client.put(SETTINGS, headers=bearer(manager), json=body)).status_code == 403
    assert (await client.get(SETTINGS, headers=bearer(manager))).status_code == 403
    for url in (CONTENT, RULES, SETTINGS):
        assert (await client.get(url, headers=bearer(cashier))).status_code == 403
    cashier_save = await client.put(
        RULES, headers=bearer(cashier), json={"values": {"refundEnabled": False}}
    )
    assert cashier_save.status_code == 403
    assert await stored(app) == {}


async def test_save_is_audited_with_before_and_after(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    owner = await add_staff(app, role=Role.OWNER)
    token = await open_token(app, owner)
    r = await client.put(
        SETTINGS,
        headers=bearer(token),
        json={
            "values": {
                "withdrawMin": {"THB": 150},
                "withdrawMax": {"THB": 50000},
                "gameLaunchIframe": True,
            }
        },
    )
    assert r.status_code == 200, r.text
    (row,) = await audit_rows(app, "settings.save")
    assert (row.actor, row.object_type, row.object_id) == (owner.login, "settings", "site")
    # Only what changed: withdrawMax kept its default.
    assert row.before == {
        "withdrawMin": {"$minor": {"THB": 100_00, "LAK": 50_000_00}},
        "gameLaunchIframe": False,
    }
    assert row.after == {
        "withdrawMin": {"$minor": {"THB": 150_00, "LAK": 50_000_00}},
        "gameLaunchIframe": True,
    }
    assert [c.actor for c in await changes(app)] == [owner.login, owner.login]
    # Saving the same values again changes nothing and writes nothing.
    again = await client.put(
        SETTINGS, headers=bearer(token), json={"values": {"withdrawMin": {"THB": 150}}}
    )
    assert again.json()["changeSet"] is None
    assert len(await audit_rows(app, "settings.save")) == 1


async def test_closing_the_site_from_the_back_office_and_reopening(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    token = await token_of(app, Role.OWNER)
    closed = await client.put(
        SETTINGS, headers=bearer(token), json={"values": {"terminated": True}}
    )
    assert closed.status_code == 200, closed.text
    assert (await client.get("/api/lookup/contact")).status_code == 410
    # The back office stays open, so the owner can reopen the site.
    reopened = await client.put(
        SETTINGS, headers=bearer(token), json={"values": {"terminated": False}}
    )
    assert reopened.status_code == 200, reopened.text
    assert (await client.get("/api/lookup/contact")).status_code == 200


async def test_each_currencys_value_is_edited_on_its_own(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    """The editor shows and takes every currency's amount; a save naming kip only keeps baht's,
    and null unsets a currency (withdrawals then not offered in it)."""
    token = await token_of(app, Role.OWNER)
    shown = (await client.get(SETTINGS, headers=bearer(token))).json()["values"]
    assert shown["withdrawMax"] == {"THB": 50000.0, "LAK": 20000000.0}
    saved = await client.put(
        SETTINGS,
        headers=bearer(token),
        json={
            "values": {"withdrawMax": {"LAK": 25_000_000}, "withdrawAutoApproveMax": {"LAK": None}}
        },
    )
    assert saved.status_code == 200, saved.text
    values = saved.json()["values"]
    assert values["withdrawMax"] == {"THB": 50000.0, "LAK": 25000000.0}
    assert values["withdrawAutoApproveMax"] == {"THB": 0.0, "LAK": None}
    assert (await stored(app))["withdrawMax"] == {"THB": 50_000_00, "LAK": 25_000_000_00}
