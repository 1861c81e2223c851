"""The back office's bonus and promotion-code editor: list with usage, create, edit, retire and
re-activate, each audited; every bad value refused with its code and the database unchanged;
the validity window enforced for players; banner images checked by content and size."""

from __future__ import annotations

import json
from datetime import timedelta
from functools import cache
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import func, select

from pao.backoffice.models import AuditEntry
from pao.backoffice.staff.roles import Role
from pao.contract import CONTRACT
from pao.core.params import MAX_DB_INT32
from pao.kit.clock import utcnow
from pao.promotions.models import Bonus
from pao.site import images
from tests.chat_media import GIF, PDF, PNG, ZIP_TAIL, declaring, pixels
from tests.promotions_helpers import add_bonus, deposit, new_player
from tests.staff_helpers import add_staff, bearer, open_token

URL = "/api/backoffice/promotions"
BONUS: dict[str, Any] = {
    "code": "NEWBIE",
    "kind": "bonus",
    "type": "day",
    "name": {"th": "โบนัสสมาชิกใหม่", "la": "ໂບນັດສະມາຊິກໃໝ່", "en": "Newbie bonus"},
    "description": {"en": "20% of your deposit"},
    "percent": 20,
    "fixedAmount": 0,
    "maxAmount": 300,
    "minDeposit": 100,
    "maxReceived": 2,
    "turnoverMultiplier": 3,
    "percentFail": 15,
    "banners": [
        {"image": "/api/images/x.png", "html": {"en": "<p>Hi</p><script>alert(1)</script>"}}
    ],
}
CODE: dict[str, Any] = {
    "code": "spring50",
    "kind": "promotion",
    "name": {"en": "Spring"},
    "fixedAmount": 50,
    "maxAmount": 50,
    "totalLimit": 2,
}


async def token_of(app: FastAPI, role: Role = Role.MANAGER) -> dict[str, str]:
    return bearer(await open_token(app, await add_staff(app, role=role)))


async def rows(app: FastAPI) -> list[tuple[Any, ...]]:
    """Every bonus column that an edit could touch, to prove a refusal changed nothing."""
    async with app.state.sessionmaker() as s:
        found = (await s.execute(select(Bonus).order_by(Bonus.id))).scalars().all()
        return [
            (
                b.code,
                b.name,
                b.percent,
                b.fixed_amount,
                b.max_amount,
                b.min_deposit,
                b.max_received,
                b.turnover_multiplier,
                b.percent_fail,
                b.total_limit,
                b.valid_from,
                b.valid_until,
                b.sort_order,
                b.is_active,
            )
            for b in found
        ]


async def audit_trail(app: FastAPI) -> list[AuditEntry]:
    async with app.state.sessionmaker() as s:
        return list(
            (await s.execute(select(AuditEntry).where(AuditEntry.object_type == "bonus")))
            .scalars()
            .all()
        )


async def test_create_edit_retire_reactivate_audited(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    headers = await token_of(app)
    created = await client.post(URL, headers=headers, json=BONUS)
    assert created.status_code == 201, created.text
    bonus = created.json()
    assert (bonus["code"], bonus["maxAmount"], bonus["minDeposit"]) == ("NEWBIE", 300, 100)
    assert bonus["banners"][0]["html"] == {"en": "<p>Hi</p>"}  # sanitised when stored
    assert bonus["usage"] == {"granted": 0, "active": 0, "cleared": 0, "ended": 0, "cost": []}
    async with app.state.sessionmaker() as s:
        stored = await s.get(Bonus, bonus["id"])
        assert stored is not None
        assert stored.max_amount == 300_00

    player = await new_player(client)
    cards = (await client.get("/api/bonus", headers=player.headers)).json()
    assert [c["code"] for c in cards] == ["NEWBIE"]

    edited = await client.patch(
        f"{URL}/{bonus['id']}",
        headers=headers,
        json={"percent": 50, "name": {"en": "Big newbie"}, "validUntil": None},
    )
    assert edited.status_code == 200, edited.text
    assert (edited.json()["percent"], edited.json()["name"]) == (50, {"en": "Big newbie"})
    assert edited.json()["maxReceived"] == 2  # untouched
    cards = (await client.get("/api/bonus", headers=player.headers)).json()
    assert (cards[0]["percent"], cards[0]["name"]) == (50, "Big newbie")

    retired = await client.post(f"{URL}/{bonus['id']}/retire", headers=headers)
    assert retired.json()["isActive"] is False
    assert (await client.get("/api/bonus", headers=player.headers)).json() == []
    refused = await client.get("/api/bonus/activate/NEWBIE", headers=player.headers)
    assert (refused.status_code, refused.json()["message"]) == (404, "NO_DATA")
    back = await client.post(f"{URL}/{bonus['id']}/reactivate", headers=headers)
    assert back.json()["isActive"] is True
    listed = (await client.get(URL, headers=headers, params={"kind": "bonus"})).json()
    assert [b["code"] for b in listed["items"]] == ["NEWBIE"]

    trail = await audit_trail(app)
    assert [e.action for e in trail] == [
        "promotion.create",
        "promotion.update",
        "promotion.retire",
        "promotion.reactivate",
    ]
    assert trail[0].after is not None
    assert trail[0].after["code"] == "NEWBIE"
    update = trail[1]
    assert update.before == {"percent": 20, "name": BONUS["name"]}
    assert update.after == {"percent": 50, "name": {"en": "Big newbie"}}
    assert (trail[2].before, trail[2].after) == ({"isActive": True}, {"isActive": False})


async def test_promotion_code_usage_and_once_per_member(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    headers = await token_of(app)
    created = await client.post(URL, headers=headers, json=CODE)
    assert created.status_code == 201, created.text
    code = created.json()
    assert (code["code"], code["oncePerMember"], code["claimedCount"]) == ("SPRING50", True, 0)
    player = await new_player(client)
    redeemed = await client.get("/api/promotion/activate/spring50", headers=player.headers)
    assert redeemed.status_code == 200, redeemed.text

    listed = (await client.get(URL, headers=headers, params={"kind": "promotion"})).json()
    item = listed["items"][0]
    assert item["claimedCount"] == 1
    assert item["usage"]["granted"] == 1
    assert item["usage"]["active"] == 1
    assert item["usage"]["cost"] == [{"currency": "THB", "amount": 50}]

    # The limit cannot go under what was already claimed; at the claimed count it can.
    before = await rows(app)
    low = await client.patch(f"{URL}/{code['id']}", headers=headers, json={"totalLimit": 0})
    assert (low.status_code, low.json()["message"]) == (422, "BONUS_TOTAL_LIMIT_INVALID")
    assert await rows(app) == before
    async with app.state.sessionmaker() as s:
        row = await s.get(Bonus, code["id"])
        assert row is not None
        row.claimed_count = 2  # as if another member redeemed it too
        await s.commit()
    below = await client.patch(f"{URL}/{code['id']}", headers=headers, json={"totalLimit": 1})
    assert below.status_code == 422
    assert below.json() == {
        "message": "BONUS_LIMIT_BELOW_CLAIMED",
        "field": "totalLimit",
        "claimed": 2,
    }
    same = await client.patch(f"{URL}/{code['id']}", headers=headers, json={"totalLimit": 2})
    assert same.status_code == 200


BAD: list[tuple[dict[str, Any], int, str, str]] = [
    ({"fixedAmount": -1}, 422, "KEY_INVALID", "fixedAmount"),
    ({"minDeposit": -5}, 422, "KEY_INVALID", "minDeposit"),
    ({"percent": 1001}, 422, "BONUS_PERCENT_INVALID", "percent"),
    ({"percent": -1}, 422, "BONUS_PERCENT_INVALID", "percent"),
    ({"percent": 0, "fixedAmount": 0}, 422, "BONUS_AMOUNT_INVALID", "fixedAmount"),
    ({"maxAmount": 0}, 422, "BONUS_AMOUNT_INVALID", "maxAmount"),
    ({"percentFail": 101}, 422, "BONUS_PERCENT_FAIL_INVALID", "percentFail"),
    ({"percentFail": -1}, 422, "BONUS_PERCENT_FAIL_INVALID", "percentFail"),
    ({"turnoverMultiplier": 0}, 422, "BONUS_TURNOVER_INVALID", "turnoverMultiplier"),
    ({"maxReceived": 0}, 422, "BONUS_MAX_RECEIVED_INVALID", "maxReceived"),
    ({"name": {"th": " ", "la": "", "en": ""}}, 422, "BONUS_NAME_REQUIRED", "name"),
    ({"totalLimit": 5}, 422, "BONUS_TOTAL_LIMIT_INVALID", "totalLimit"),  # a bonus, not a code
    (
        {"validFrom": "2026-12-02T00:00:00+07:00", "validUntil": "2026-12-01T00:00:00+07:00"},
        422,
        "BONUS_WINDOW_INVALID",
        "validUntil",
    ),
    ({"banners": [{"image": "javascript:alert(1)"}]}, 422, "KEY_INVALID", "banners.0"),
]


@pytest.mark.parametrize(("change", "status", "message", "field"), BAD)
async def test_bad_values_refused_and_nothing_changed(
    client: httpx.AsyncClient,
    app: FastAPI,
    change: dict[str, Any],
    status: int,
    message: str,
    field: str,
) -> None:
    headers = await token_of(app)
    existing = (await client.post(URL, headers=headers, json=BONUS)).json()
    before = await rows(app)
    audited = len(await audit_trail(app))

    created = await client.post(URL, headers=headers, json={**BONUS, "code": "OTHER", **change})
    assert created.status_code == status, created.text
    assert created.json()["message"] == message
    assert created.json()["field"].startswith(field)

    edited = await client.patch(f"{URL}/{existing['id']}", headers=headers, json=change)
    assert edited.status_code == status, edited.text
    assert edited.json()["message"] == message

    assert await rows(app) == before
    assert len(await audit_trail(app)) == audited


# A count's one bound is what its INTEGER column holds (catalogue_admin.COUNT_MAX): the largest
# value is stored (on PostgreSQL a value past it would fail the insert, a 500), and the next one
# is refused with the field's own code, the same code however far over and however written.
COUNTS: list[tuple[str, dict[str, Any], str, int]] = [
    ("maxReceived", BONUS, "BONUS_MAX_RECEIVED_INVALID", 1),
    ("turnoverMultiplier", BONUS, "BONUS_TURNOVER_INVALID", 1),
    ("totalLimit", CODE, "BONUS_TOTAL_LIMIT_INVALID", 1),
    ("sortOrder", BONUS, "BONUS_SORT_INVALID", -MAX_DB_INT32),
]
OVER: list[Any] = [MAX_DB_INT32 + 1, 2**63, 10**30, 3e9, str(MAX_DB_INT32 + 1)]


@cache
def published_schemas() -> dict[str, Any]:
    """The contract's schemas: the app's own document (``make contract-check`` keeps them
    equal), read once rather than built by every case (≈ 1.5 s each)."""
    schemas: dict[str, Any] = json.loads(CONTRACT.read_text())["components"]["schemas"]
    return schemas


@pytest.mark.parametrize(("field", "body", "message", "lowest"), COUNTS)
async def test_a_count_has_one_bound_and_one_code(
    client: httpx.AsyncClient,
    app: FastAPI,
    field: str,
    body: dict[str, Any],
    message: str,
    lowest: int,
) -> None:
    headers = await token_of(app)
    # The contract publishes the bound the domain checks, on creation and on edit alike.
    schemas = published_schemas()
    for model in ("BonusCreateIn", "BonusUpdateIn"):
        prop = schemas[model]["properties"][field]
        integer = next(s for s in prop.get("anyOf", [prop]) if s.get("type") == "integer")
        assert (integer["minimum"], integer["maximum"]) == (-MAX_DB_INT32, MAX_DB_INT32), model

    largest = await client.post(
        URL, headers=headers, json={**body, "code": "LARGEST", field: MAX_DB_INT32}
    )
    assert largest.status_code == 201, largest.text
    assert largest.json()[field] == MAX_DB_INT32
    bonus_id = largest.json()["id"]
    lowered = await client.patch(f"{URL}/{bonus_id}", headers=headers, json={field: lowest})
    assert lowered.status_code == 200, lowered.text
    assert lowered.json()[field] == lowest

    refused = {"message": message, "field": field, "min": lowest, "max": MAX_DB_INT32}
    before = await rows(app)
    for value in [lowest - 1, *OVER]:
        created = await client.post(
            URL, headers=headers, json={**body, "code": "OVER", field: value}
        )
        assert (created.status_code, created.json()) == (422, refused), value
        edited = await client.patch(f"{URL}/{bonus_id}", headers=headers, json={field: value})
        assert (edited.status_code, edited.json()) == (422, refused), value
    assert await rows(app) == before


@pytest.mark.parametrize(
    ("code", "status", "message"),
    [
        ("NEWBIE", 409, "BONUS_CODE_TAKEN"),
        ("newbie", 409, "BONUS_CODE_TAKEN"),  # codes are upper-cased
        ("AB", 422, "BONUS_CODE_INVALID"),
        ("NO SPACE", 422, "BONUS_CODE_INVALID"),
        ("ไทย", 422, "BONUS_CODE_INVALID"),
    ],
)
async def test_code_format_and_code_already_used(
    client: httpx.AsyncClient, app: FastAPI, code: str, status: int, message: str
) -> None:
    headers = await token_of(app)
    assert (await client.post(URL, headers=headers, json=BONUS)).status_code == 201
    before = await rows(app)
    # A promotion code cannot take a bonus's code either (one namespace).
    response = await client.post(URL, headers=headers, json={**CODE, "code": code})
    assert (response.status_code, response.json()["message"]) == (status, message)
    assert response.json()["field"] == "code"
    assert await rows(app) == before


@pytest.mark.parametrize("role", [Role.CASHIER, Role.SUPPORT])
async def test_cashier_and_support_refused(
    client: httpx.AsyncClient, app: FastAPI, role: Role
) -> None:
    bonus = await add_bonus(app)
    headers = await token_of(app, role)
    calls = [
        client.get(URL, headers=headers),
        client.post(URL, headers=headers, json=BONUS),
        client.patch(f"{URL}/{bonus.id}", headers=headers, json={"percent": 5}),
        client.post(f"{URL}/{bonus.id}/retire", headers=headers),
        client.post(
            "/api/backoffice/images", headers=headers, files={"file": ("a.png", PNG, "image/png")}
        ),
    ]
    for call in calls:
        response = await call
        assert response.status_code == 403, response.text
    async with app.state.sessionmaker() as s:
        assert (await s.execute(select(func.count()).select_from(Bonus))).scalar_one() == 1


async def test_owner_allowed_and_unknown_bonus(client: httpx.AsyncClient, app: FastAPI) -> None:
    headers = await token_of(app, Role.OWNER)
    assert (await client.get(URL, headers=headers)).status_code == 200
    missing = await client.post(f"{URL}/999/retire", headers=headers)
    assert (missing.status_code, missing.json()["message"]) == (404, "NO_DATA")


async def test_validity_window_enforced_for_players(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    headers = await token_of(app)
    now = utcnow()
    later = (now + timedelta(days=1)).isoformat()
    bonus = (
        await client.post(URL, headers=headers, json={**BONUS, "minDeposit": 0, "validFrom": later})
    ).json()
    code = (await client.post(URL, headers=headers, json={**CODE, "validFrom": later})).json()
    player = await new_player(client)
    await deposit(app, player.id, 100_00)

    # Not yet: not listed, and the codes answer what an unknown code answers.
    assert (await client.get("/api/bonus", headers=player.headers)).json() == []
    early = await client.get("/api/bonus/activate/NEWBIE", headers=player.headers)
    assert (early.status_code, early.json()["message"]) == (404, "NO_DATA")
    early_code = await client.get("/api/promotion/activate/SPRING50", headers=player.headers)
    assert (early_code.status_code, early_code.json()["message"]) == (400, "NO_PROMOTION")
    assert (await client.get("/api/promotion/find/SPRING50", headers=player.headers)).json() == {}

    # Over: the window ended a minute ago.
    past = {
        "validFrom": (now - timedelta(days=2)).isoformat(),
        "validUntil": (now - timedelta(minutes=1)).isoformat(),
    }
    for item in (bonus, code):
        assert (
            await client.patch(f"{URL}/{item['id']}", headers=headers, json=past)
        ).status_code == 200
    assert (await client.get("/api/bonus", headers=player.headers)).json() == []
    late = await client.get("/api/promotion/activate/SPRING50", headers=player.headers)
    assert late.json()["message"] == "NO_PROMOTION"

    # Open now: both can be taken.
    current = {"validUntil": (now + timedelta(days=1)).isoformat()}
    for item in (bonus, code):
        assert (
            await client.patch(f"{URL}/{item['id']}", headers=headers, json=current)
        ).status_code == 200
    assert [c["code"] for c in (await client.get("/api/bonus", headers=player.headers)).json()] == [
        "NEWBIE"
    ]
    taken = await client.get("/api/promotion/activate/SPRING50", headers=player.headers)
    assert taken.status_code == 200, taken.text


async def test_image_upload_checked_by_content_and_served_publicly(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    headers = await token_of(app)
    url = "/api/backoffice/images"
    uploaded = await client.post(
        url, headers=headers, files={"file": ("banner.gif", GIF, "image/gif")}
    )
    assert uploaded.status_code == 201, uploaded.text
    image = uploaded.json()
    assert image["contentType"] == "image/gif"
    assert image["url"].startswith("/api/images/")
    assert image["url"].endswith(".gif")
    served = await client.get(image["url"])  # no token: players' pages show it
    assert served.status_code == 200
    assert pixels(served.content) == pixels(GIF)  # encoded again: the picture, not the bytes
    assert served.headers["content-type"] == "image/gif"

    # A decompression bomb's shape (20000 × 20000 px declared in a few bytes), and a polyglot.
    bomb = await client.post(
        url, headers=headers, files={"file": ("b.png", declaring(20_000, 20_000), "image/png")}
    )
    assert (bomb.status_code, bomb.json()) == (
        422,
        {"message": "IMAGE_DIMENSIONS_TOO_LARGE", "maxPixels": 4096 * 4096},
    )
    poly = await client.post(
        url, headers=headers, files={"file": ("p.png", PNG + ZIP_TAIL, "image/png")}
    )
    assert poly.status_code == 201, poly.text
    kept = (await client.get(poly.json()["url"])).content
    assert pixels(kept) == pixels(PNG)
    assert b"PK\x03\x04" not in kept
    # A PDF renamed .png: refused by its content.
    fake = await client.post(url, headers=headers, files={"file": ("x.png", PDF, "image/png")})
    assert (fake.status_code, fake.json()["message"]) == (400, "IMAGE_NOT_SUPPORTED")
    # Too large (the real PNG header, then padding past the limit).
    big = PNG + b"\x00" * images.MAX_BYTES
    large = await client.post(url, headers=headers, files={"file": ("big.png", big, "image/png")})
    assert (large.status_code, large.json()["message"]) == (413, "IMAGE_TOO_LARGE")
    stored = list((app.state.settings.data_dir / "uploads" / images.PREFIX).iterdir())
    assert sorted(p.name for p in stored) == sorted(
        u.rsplit("/", 1)[-1] for u in (image["url"], poly.json()["url"])
    )

    # Only names of the image store's shape are served: never another key of the store.
    for bad in ("../slips/x.png", "0" * 32 + ".pdf", "nothing.png"):
        assert (await client.get(f"/api/images/{bad}")).status_code == 404
    async with app.state.sessionmaker() as s:
        actions = (
            await s.execute(select(AuditEntry.action).where(AuditEntry.object_type == "image"))
        ).scalars()
        assert list(actions) == ["image.upload"] * 2  # the two stored; no refusal is audited


# Each refusal names the rule the field breaks, and its bound, for the form to say beside it.
RULES: list[tuple[dict[str, Any], str, dict[str, Any]]] = [
    ({"fixedAmount": -1}, "fixedAmount", {"rule": "min", "min": 0}),
    ({"maxAmount": 0}, "maxAmount", {"rule": "above", "min": 0}),
    ({"maxAmount": None}, "maxAmount", {"rule": "number"}),
    ({"percent": 0, "fixedAmount": 0}, "fixedAmount", {"rule": "needsAmount"}),
    ({"turnoverMultiplier": 0}, "turnoverMultiplier", {"min": 1, "max": 2_147_483_647}),
]


@pytest.mark.parametrize(("change", "field", "rule"), RULES)
async def test_a_refusal_names_the_rule(
    client: httpx.AsyncClient,
    app: FastAPI,
    change: dict[str, Any],
    field: str,
    rule: dict[str, Any],
) -> None:
    headers = await token_of(app)
    refused = await client.post(URL, headers=headers, json={**BONUS, "code": "RULES", **change})
    assert refused.status_code == 422, refused.text
    body = refused.json()
    assert body["field"] == field
    assert {key: body.get(key) for key in rule} == rule
