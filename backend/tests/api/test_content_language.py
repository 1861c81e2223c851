"""Operator texts in the player's language (ADR 0011): bonuses, promotion codes, banners, the
wheel and its coupons, statement notes, each answered in th, la or en with the fallback order
requested → site default → Thai → English → any; the writers validate and sanitise."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from pao.kit.clock import utcnow
from pao.kit.i18n import detect_locale, pick_text
from pao.kit.money import Currency
from pao.promotions.content import (
    InvalidText,
    set_bonus_texts,
    set_slice_texts,
    set_wheel_name,
)
from pao.promotions.exceptions import NoBonus
from pao.promotions.models import BonusKind, PrizeType
from pao.site.service import store_setting
from pao.wallet.models import StatementStatus, StatementType
from pao.wallet.statements import record_statement
from tests.promotions_helpers import (
    Player,
    add_bonus,
    add_wheel,
    deposit,
    fake_game_results,
    new_player,
)

LO = {"Accept-Language": "lo-LA,lo;q=0.9"}
EN = {"Accept-Language": "en-US,en;q=0.9"}


def _t(th: str, la: str, en: str) -> dict[str, str]:
    return {"th": th, "la": la, "en": en}


async def get(client: httpx.AsyncClient, path: str, player: Player, **headers: str) -> Any:
    response = await client.get(path, headers={**player.headers, **headers})
    assert response.status_code == 200, response.text
    return response.json()


async def statement_lines(
    client: httpx.AsyncClient, player: Player, headers: dict[str, str]
) -> list[dict[str, Any]]:
    response = await client.post(
        "/api/statement", json={"page": 1, "limit": 50}, headers={**player.headers, **headers}
    )
    assert response.status_code == 200, response.text
    assert response.headers["vary"] == "Accept-Language"
    lines: list[dict[str, Any]] = response.json()["statements"]
    return lines


def test_pick_falls_back_requested_default_thai_english_any() -> None:
    texts = _t("ไทย", "ລາວ", "English")
    assert pick_text(texts, "la", fallback="th") == "ລາວ"
    assert pick_text({"th": "ไทย", "en": "English"}, "la", fallback="en") == "English"
    assert pick_text({"th": "ไทย", "en": "English"}, "la", fallback="la") == "ไทย"
    assert pick_text({"en": "English"}, "th", fallback="la") == "English"
    assert pick_text({"la": "ລາວ"}, "en", fallback="th") == "ລາວ"
    assert pick_text({"th": "", "la": ""}, "th", fallback="th") == ""
    assert pick_text("plain", "la", fallback="th") == "plain"
    assert [detect_locale(t) for t in ("ໂບນັດ", "โบนัส", "Bonus 10", "")] == [
        "la", "th", "en", "en",
    ]  # fmt: skip


async def test_bonus_list_and_promotion_in_the_asked_language(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    await add_bonus(
        app,
        name=_t("โบนัสต้อนรับ", "ໂບນັດຕ້ອນຮັບ", "Welcome bonus"),
        description={"th": "ฝากแรกรับเพิ่ม", "en": "First deposit doubled"},  # no Lao
        banners=[
            {
                "image": "/b.svg",
                "html": _t("<p>ไทย</p>", "<p>ລາວ<script>x</script></p>", "<p>English</p>"),
                "title": {"la": "ປ້າຍໂບນັດ", "en": "Bonus banner"},
            }
        ],
    )
    await add_bonus(
        app,
        code="PROMO1",
        kind=BonusKind.PROMOTION,
        name={"en": "Promo"},
        description=_t("โปรไทย", "ໂປຣລາວ", "Promo English"),
    )
    player = await new_player(client)

    lao = (await get(client, "/api/bonus", player, **LO))[0]
    assert (lao["name"], lao["description"]) == ("ໂບນັດຕ້ອນຮັບ", "ฝากแรกรับเพิ่ม")
    assert lao["banners"] == [{"image": "/b.svg", "html": "<p>ລາວ</p>", "title": "ປ້າຍໂບນັດ"}]
    english = (await get(client, "/api/bonus?lang=en", player, **LO))[0]  # lang wins
    assert (english["name"], english["banners"][0]["title"]) == ("Welcome bonus", "Bonus banner")
    thai = (await get(client, "/api/bonus", player, **{"Accept-Language": "fr"}))[0]
    assert (thai["name"], thai["banners"][0]["html"]) == ("โบนัสต้อนรับ", "<p>ไทย</p>")
    # No Thai title: Thai falls back to English (site default th → th → en).
    assert thai["banners"][0]["title"] == "Bonus banner"

    found = await get(client, "/api/promotion/find/promo1", player, **LO)
    assert found["description"] == "ໂປຣລາວ"
    bad = await client.get("/api/bonus?lang=fr", headers=player.headers)
    assert (bad.status_code, bad.json()["message"]) == (422, "KEY_INVALID")

    # The active check names the bonus in the asked language too.
    await deposit(app, player.id, 100_00)
    assert (await client.get("/api/bonus/activate/WELCOME", headers=player.headers)).is_success
    active = await get(client, "/api/bonus/check/active", player, **LO)
    assert active["name"] == "ໂບນັດຕ້ອນຮັບ"
    lines = await statement_lines(client, player, LO)
    bonus_line = next(line for line in lines if line["statementType"] == "bonus")
    assert bonus_line["bonus"] == {
        "description": "ໂບນັດຕ້ອນຮັບ",
        "code": "bonus.received",
        "params": {"name": "ໂບນັດຕ້ອນຮັບ"},
    }
    english_line = next(
        line
        for line in await statement_lines(client, player, EN)
        if line["_id"] == bonus_line["_id"]
    )
    assert english_line["bonus"]["params"] == {"name": "Welcome bonus"}


async def test_invite_and_refund_banners_in_the_asked_language(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    async with app.state.sessionmaker() as session:
        await store_setting(
            session,
            key="inviteBanners",
            value=[
                {
                    "image": "/i.svg",
                    "html": _t("<p>ชวนเพื่อน</p>", "<p>ຊວນໝູ່</p>", "<p>Invite</p>"),
                    "title": _t("ชวนเพื่อน", "ຊວນໝູ່", "Invite friends"),
                }
            ],
            actor="test",
        )
        # One language only (as stored before ADR 0011): every locale falls back to it.
        await store_setting(
            session,
            key="refundBanners",
            value=[{"image": "/r.svg", "html": "<p>คืนยอดเสีย</p>"}],
            actor="test",
        )
        await session.commit()
    player = await new_player(client)
    invite = await get(client, "/api/invite/banners", player, **LO)
    assert invite == [{"image": "/i.svg", "html": "<p>ຊວນໝູ່</p>", "title": "ຊວນໝູ່"}]
    invite_en = await get(client, "/api/invite/banners", player, **EN)
    assert invite_en[0]["title"] == "Invite friends"
    refund = await get(client, "/api/refund/banners", player, **LO)
    assert refund == [{"image": "/r.svg", "html": "<p>คืนยอดเสีย</p>", "title": ""}]


async def test_wheel_coupons_and_notes_in_the_asked_language(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    wheel = await add_wheel(
        app, [("C10", 1, PrizeType.CREDIT, 10_00), ("NONE", 0, PrizeType.NONE, 0)]
    )
    async with app.state.sessionmaker() as session:
        await set_wheel_name(session, wheel_id=wheel.id, name=_t("วงล้อ", "ວົງລໍ້", "Wheel"))
        await set_slice_texts(
            session,
            wheel_id=wheel.id,
            code="C10",
            label=_t("10 บาท", "10 ບາດ", "10 baht"),
            html_description=_t("<p>ได้</p>", "<p>ໄດ້<img src=x onerror=y></p>", "<p>Won</p>"),
            prize_name=_t("เครดิต 10", "ເຄຣດິດ 10", "Credit 10"),
        )
        await set_slice_texts(
            session, wheel_id=wheel.id, code="NONE", label=_t("ลองใหม่", "ລອງໃໝ່", "Try again")
        )
        await session.commit()
    player = await new_player(client)
    await deposit(app, player.id, 100_00)

    setup = await get(client, "/api/spinwheel/setup", player, **LO)
    assert setup["name"] == "ວົງລໍ້"
    assert [s["label"] for s in setup["slice"]] == ["10 ບາດ", "ລອງໃໝ່"]
    assert setup["slice"][0]["htmlDescription"] == '<p>ໄດ້<img src="x"></p>'
    assert [o["label"] for o in setup["odds"]] == ["10 ບາດ", "ລອງໃໝ່"]
    spun = await client.post("/api/spinwheel/spin", headers={**player.headers, **LO})
    assert spun.json()["result"]["label"] == "10 ບາດ"
    coupons = await get(client, "/api/spinwheel/coupon?lang=en", player)
    assert coupons[0]["prize"] == {
        "name": "Credit 10",
        "slice": {"code": "C10", "label": "10 baht", "htmlDescription": "<p>Won</p>"},
    }
    claimed = await client.post(
        "/api/spinwheel/coupon/claim",
        json={"coupon": coupons[0]["coupon"]},
        headers={**player.headers, **LO},
    )
    assert claimed.status_code == 200, claimed.text
    assert claimed.json()["prize"]["name"] == "ເຄຣດິດ 10"

    prize_line = next(
        line for line in await statement_lines(client, player, LO) if "luckydraw" in line
    )
    assert prize_line["luckydraw"] == {
        "description": "ເຄຣດິດ 10",
        "code": "luckydraw.prize",
        "params": {"prize": "ເຄຣດິດ 10"},
    }


async def test_refund_and_old_notes(client: httpx.AsyncClient, app: FastAPI) -> None:
    games = fake_game_results(app)
    player = await new_player(client)
    games.bet(player.id, at=utcnow(), stake=1_000_00, payout=0)
    assert (await get(client, "/api/refund/receive", player))["message"] == "REFUND_SUCCESS"
    assert (await client.get("/api/refund/addWallet", headers=player.headers)).is_success
    async with app.state.sessionmaker() as session:
        # A line written before notes had codes keeps its description as it was.
        await record_statement(
            session,
            member_id=player.id,
            statement_type=StatementType.BONUS,
            status=StatementStatus.SUCCESS,
            amount=1_00,
            currency=Currency.THB,
            from_label="PROMOTION",
            to_label="WALLET",
            ref_type="old",
            ref_id=player.id,
            extra={"invite": {"description": "invite bonus"}},
        )
        await session.commit()
    lao = await statement_lines(client, player, LO)
    refund = next(line["refund"] for line in lao if "refund" in line)
    assert refund == {"description": "ຄືນຍອດເສຍ", "code": "refund.received", "params": {}}
    old = next(line["invite"] for line in lao if "invite" in line)
    assert old == {"description": "invite bonus"}
    english = await statement_lines(client, player, EN)
    assert next(line["refund"] for line in english if "refund" in line)["description"] == "Refund"
    thai = await statement_lines(client, player, {})
    assert next(line["refund"] for line in thai if "refund" in line)["description"] == "คืนยอดเสีย"


async def test_writers_validate_and_sanitise(client: httpx.AsyncClient, app: FastAPI) -> None:
    await add_bonus(app)
    async with app.state.sessionmaker() as session:
        bonus = await set_bonus_texts(
            session,
            code="welcome",
            name="ໂບນັດ",  # one language: filed under the one it is written in
            banners=[{"image": "/x.svg", "html": {"la": "<p onclick='x'>ກ</p>"}}],
        )
        assert bonus.name == {"la": "ໂບນັດ"}
        assert bonus.description == {"en": "Welcome bonus"}  # untouched
        assert bonus.banners == [{"image": "/x.svg", "html": {"la": "<p>ກ</p>"}, "title": {}}]
        with pytest.raises(InvalidText):
            await set_bonus_texts(session, code="WELCOME", name={"th": "x" * 121})
        with pytest.raises(InvalidText):
            await set_bonus_texts(session, code="WELCOME", name={"fr": "Bonus"})
        with pytest.raises(InvalidText):
            await set_bonus_texts(session, code="WELCOME", name={})
        with pytest.raises(InvalidText):
            await set_bonus_texts(
                session, code="WELCOME", banners=[{"image": "javascript:alert(1)"}]
            )
        with pytest.raises(NoBonus):
            await set_bonus_texts(session, code="NOPE", name="x")
