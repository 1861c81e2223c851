"""The prize wheel editor in the back office: a manager saves the wheel's slices and coin rules
in one change, sees each slice's probability and the expected payout per spin, and players'
odds follow at once; bad input is refused with a code and changes nothing; a slice a spin used
is retired, not deleted; every save is audited with before and after."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import select

from pao.backoffice.models import AuditEntry
from pao.backoffice.staff.roles import Role
from pao.promotions.models import PrizeType, WheelSlice, WheelSpin
from pao.site.settings import load_site_settings
from tests.promotions_helpers import add_wheel, deposit, new_player
from tests.staff_helpers import add_staff, bearer, open_token

URL = "/api/backoffice/wheel"
NAME = {"th": "วงล้อ", "la": "ວົງລໍ້", "en": "Wheel"}


def label(text: str) -> dict[str, str]:
    return {"th": f"{text} th", "la": f"{text} la", "en": text}


def slice_(
    weight: int,
    *,
    id: int | None = None,
    prize_type: str = "none",
    amount: float = 0,
    text: str = "Again",
    bg: str = "#ff0000",
) -> dict[str, Any]:
    return {
        "id": id,
        "label": label(text),
        "bgColor": bg,
        "textColor": "#fff",
        "weight": weight,
        "prizeType": prize_type,
        "prizeAmount": amount,
        "prizeName": {"en": f"Prize {text}"},
        "htmlDescription": {"en": "<p>ok</p><script>alert(1)</script>"},
    }


async def token_of(app: FastAPI, role: Role = Role.MANAGER) -> str:
    return await open_token(app, await add_staff(app, role=role))


async def slices_in_db(app: FastAPI) -> list[tuple[str, int, bool]]:
    async with app.state.sessionmaker() as session:
        rows = (await session.execute(select(WheelSlice).order_by(WheelSlice.id))).scalars()
        return [(r.code, r.weight, r.retired_at is not None) for r in rows]


async def test_save_computes_odds_and_expected_payout_and_players_follow(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    await add_wheel(app)
    token = await token_of(app)
    wheel = (await client.get(URL, headers=bearer(token))).json()
    assert [s["code"] for s in wheel["slices"]] == ["C10", "NONE"]
    assert wheel["expectedPayout"] == 10.0  # C10 has all the weight
    c10, none = wheel["slices"]

    body = {
        "name": NAME,
        "slices": [
            slice_(1, id=c10["id"], prize_type="credit", amount=10, text="Ten"),
            slice_(2, id=none["id"]),
            slice_(1, prize_type="credit", amount=50, text="Fifty", bg="#0A0"),
            slice_(4, prize_type="item", amount=0, text="Bag"),
        ],
        "coinRules": {"spinEnabled": True, "spinDepositPerCoin": {"THB": 50}, "couponValidDays": 3},
    }
    saved = await client.put(URL, headers=bearer(token), json=body)
    assert saved.status_code == 200, saved.text
    out = saved.json()
    assert [s["probability"] for s in out["slices"]] == [0.125, 0.25, 0.125, 0.5]
    assert out["totalWeight"] == 8
    # (10 + 50) / 8 baht per spin; the bag is an item prize, listed apart.
    assert out["expectedPayout"] == 7.5
    assert out["itemPrizes"] == [{"code": out["slices"][3]["code"], "probability": 0.5}]
    assert out["slices"][2]["bgColor"] == "#0a0"
    assert out["slices"][0]["htmlDescription"] == {"en": "<p>ok</p>"}
    assert out["coinRules"] == {
        "spinEnabled": True,
        # Per currency: the save named baht only, kip keeps its own.
        "spinDepositPerCoin": {"THB": 50.0, "LAK": 50000.0},
        "couponValidDays": 3,
    }

    player = await new_player(client)
    setup = (await client.get("/api/spinwheel/setup", headers=player.headers)).json()
    assert setup["name"] == "วงล้อ"
    assert [o["probability"] for o in setup["odds"]] == [0.125, 0.25, 0.125, 0.5]
    assert [o["label"] for o in setup["odds"]] == ["Ten th", "Again th", "Fifty th", "Bag th"]
    await deposit(app, player.id, 120_00)  # 50 baht a coin now: 2 coins
    assert (await client.get("/api/spinwheel/setup", headers=player.headers)).json()[
        "userCoin"
    ] == 2

    async with app.state.sessionmaker() as session:
        entries = (
            (await session.execute(select(AuditEntry).where(AuditEntry.action == "wheel.update")))
            .scalars()
            .all()
        )
    assert len(entries) == 1
    entry = entries[0]
    assert entry.object_type == "wheel"
    assert entry.before is not None
    assert entry.after is not None
    assert entry.before["slice:C10"]["label"] == {"en": "L-C10"}
    assert entry.after["slice:C10"]["label"] == label("Ten")
    assert (entry.before["slice:NONE"]["weight"], entry.after["slice:NONE"]["weight"]) == (0, 2)
    assert (entry.before["spinDepositPerCoin"], entry.after["spinDepositPerCoin"]) == (
        {"$minor": {"THB": 100_00, "LAK": 50_000_00}},
        {"$minor": {"THB": 50_00, "LAK": 50_000_00}},
    )
    assert "couponValidDays" in entry.after
    assert "spinEnabled" not in entry.after  # unchanged: not in the row
    assert len([k for k in entry.after if k.startswith("slice:")]) == 4


@pytest.mark.parametrize(
    ("change", "code", "field"),
    [
        (lambda b: [s.update(weight=0) for s in b["slices"]], "WHEEL_WEIGHTS_ZERO", "slices"),
        (lambda b: b["slices"][1].update(weight=-1), "WHEEL_INVALID", "slices.1.weight"),
        (lambda b: b["slices"][0].update(bgColor="red"), "WHEEL_INVALID", "slices.0.bgColor"),
        (
            lambda b: b["slices"][1].update(textColor="#12345"),
            "WHEEL_INVALID",
            "slices.1.textColor",
        ),
        (
            lambda b: b["slices"][0]["label"].update(la="  "),
            "WHEEL_INVALID",
            "slices.0.label.la",
        ),
        (lambda b: b["slices"][0].update(prizeAmount=0), "WHEEL_INVALID", "slices.0.prizeAmount"),
        (lambda b: b["slices"][1].update(prizeAmount=5), "WHEEL_INVALID", "slices.1.prizeAmount"),
        (lambda b: b.update(slices=b["slices"][:1]), "WHEEL_SLICE_COUNT", "slices"),
        (lambda b: b["slices"][1].update(id=999_999), "WHEEL_INVALID", "slices.1.id"),
        (
            lambda b: b["coinRules"].update(couponValidDays=0),
            "WHEEL_INVALID",
            "couponValidDays",
        ),
    ],
)
async def test_bad_input_is_refused_and_changes_nothing(
    client: httpx.AsyncClient, app: FastAPI, change: Any, code: str, field: str
) -> None:
    await add_wheel(app)
    token = await token_of(app)
    wheel = (await client.get(URL, headers=bearer(token))).json()
    c10, none = wheel["slices"]
    body = {
        "name": NAME,
        "slices": [
            slice_(5, id=c10["id"], prize_type="credit", amount=10),
            slice_(5, id=none["id"]),
            slice_(5),
        ],
        "coinRules": {
            "spinEnabled": False,
            "spinDepositPerCoin": {"THB": 10},
            "couponValidDays": 2,
        },
    }
    before = await slices_in_db(app)
    change(body)
    refused = await client.put(URL, headers=bearer(token), json=body)
    assert refused.status_code == 400, refused.text
    assert refused.json() == {"message": code, "field": field}
    assert await slices_in_db(app) == before
    async with app.state.sessionmaker() as session:
        settings = await load_site_settings(session)
        assert (settings.spin_enabled, settings.coupon_valid_days) == (True, 7)
        audited = (
            await session.execute(select(AuditEntry.id).where(AuditEntry.action == "wheel.update"))
        ).all()
    assert audited == []


async def test_negative_prize_amount_is_refused_by_the_wire(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    await add_wheel(app)
    token = await token_of(app)
    body = {"name": NAME, "slices": [slice_(1, prize_type="item", amount=-1), slice_(1)]}
    refused = await client.put(URL, headers=bearer(token), json=body)
    assert refused.status_code == 422
    assert refused.json()["message"] == "KEY_INVALID"
    assert len(await slices_in_db(app)) == 2


async def test_a_used_slice_is_retired_not_deleted(client: httpx.AsyncClient, app: FastAPI) -> None:
    await add_wheel(app)
    player = await new_player(client)
    await deposit(app, player.id, 100_00)
    spun = await client.post("/api/spinwheel/spin", headers=player.headers)
    assert spun.json()["result"]["code"] == "C10"
    before = (await client.get("/api/spinwheel/setup", headers=player.headers)).json()
    won_description = before["slice"][0]["htmlDescription"]
    assert won_description
    token = await token_of(app)
    wheel = (await client.get(URL, headers=bearer(token))).json()
    assert [s["code"] for s in wheel["slices"]] == ["C10", "NONE"]
    # C10 (used by the spin) and NONE (never drawn) both leave the wheel.
    body = {"name": NAME, "slices": [slice_(3, text="New A"), slice_(1)]}
    saved = await client.put(URL, headers=bearer(token), json=body)
    assert saved.status_code == 200, saved.text
    rows = await slices_in_db(app)
    assert ("C10", 1, True) in rows  # retired, still there for the spin and its coupon
    assert not any(code == "NONE" for code, _, _ in rows)  # nobody used it: deleted
    async with app.state.sessionmaker() as session:
        spin = (await session.execute(select(WheelSpin))).scalar_one()
        kept = await session.get(WheelSlice, spin.slice_id)
        assert kept is not None
        assert kept.code == "C10"

    setup = (await client.get("/api/spinwheel/setup", headers=player.headers)).json()
    assert [o["label"] for o in setup["odds"]] == ["New A th", "Again th"]
    assert [o["probability"] for o in setup["odds"]] == [0.75, 0.25]
    coupons = (await client.get("/api/spinwheel/coupon", headers=player.headers)).json()
    assert coupons[0]["prize"]["slice"]["code"] == "C10"
    # Off the wheel, the coupon's prize still reads its own slice's description.
    assert coupons[0]["prize"]["slice"]["htmlDescription"] == won_description
    async with app.state.sessionmaker() as session:
        entry = (
            await session.execute(select(AuditEntry).where(AuditEntry.action == "wheel.update"))
        ).scalar_one()
    assert entry.after is not None
    assert entry.after["slice:C10"] == "retired"
    assert entry.after["slice:NONE"] == "deleted"

    # A new slice may take a retired slice's place; the wheel's live codes stay unique.
    async with app.state.sessionmaker() as session:
        codes = [
            s.code
            for s in (
                await session.execute(select(WheelSlice).where(WheelSlice.retired_at.is_(None)))
            ).scalars()
        ]
    assert len(set(codes)) == 2


async def test_first_save_creates_the_wheel(client: httpx.AsyncClient, app: FastAPI) -> None:
    token = await token_of(app)
    empty = (await client.get(URL, headers=bearer(token))).json()
    assert (empty["id"], empty["slices"], empty["expectedPayout"]) == (None, [], 0.0)
    body = {"name": NAME, "slices": [slice_(1, prize_type="credit", amount=2.5), slice_(3)]}
    saved = await client.put(URL, headers=bearer(token), json=body)
    assert saved.status_code == 200, saved.text
    assert saved.json()["expectedPayout"] == 0.625
    assert saved.json()["slices"][0]["prizeAmount"] == 2.5


async def test_the_largest_wheel_fits_the_body_limit(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    """16 slices, each with the longest HTML description in three languages, all in Thai
    (a client may escape every letter as \\uXXXX): over the default 64 KiB, still taken."""
    token = await token_of(app)
    html = "<p>" + "ก" * 3_990 + "</p>"
    slices = [
        {**slice_(1, text=f"S{n}"), "htmlDescription": {"th": html, "la": html, "en": html}}
        for n in range(16)
    ]
    body = json.dumps({"name": NAME, "slices": slices}, ensure_ascii=True)
    assert len(body) > 64 * 1024
    saved = await client.put(
        URL, headers={**bearer(token), "Content-Type": "application/json"}, content=body
    )
    assert saved.status_code == 200, saved.text[:200]
    assert len(await slices_in_db(app)) == 16


@pytest.mark.parametrize("role", [Role.CASHIER, Role.SUPPORT, Role.VIEWER])
async def test_only_promotion_managers(client: httpx.AsyncClient, app: FastAPI, role: Role) -> None:
    await add_wheel(app)
    token = await token_of(app, role)
    assert (await client.get(URL, headers=bearer(token))).json() == {"message": "STAFF_FORBIDDEN"}
    body = {"name": NAME, "slices": [slice_(1), slice_(1)]}
    refused = await client.put(URL, headers=bearer(token), json=body)
    assert refused.status_code == 403
    assert [w for _, w, _ in await slices_in_db(app)] == [1, 0]
    owner = await token_of(app, Role.OWNER)
    assert (await client.get(URL, headers=bearer(owner))).status_code == 200


async def test_prize_type_stays_typed(client: httpx.AsyncClient, app: FastAPI) -> None:
    await add_wheel(app, [("A", 1, PrizeType.ITEM, 0), ("B", 1, PrizeType.NONE, 0)])
    token = await token_of(app)
    wheel = (await client.get(URL, headers=bearer(token))).json()
    assert [s["prizeType"] for s in wheel["slices"]] == ["item", "none"]
    assert wheel["itemPrizes"] == [{"code": "A", "probability": 0.5}]
    assert wheel["expectedPayout"] == 0.0
