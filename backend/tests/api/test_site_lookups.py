"""Every lookup of spec §7 over HTTP: shapes and values after the demo seed, locales, HTML."""

from __future__ import annotations

import io
import re
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
import zxingcpp
from asgi_lifespan import LifespanManager
from PIL import Image
from sqlalchemy.ext.asyncio import AsyncSession

from pao.core.settings import Settings
from pao.main import create_app
from pao.site.banks import BANKS
from pao.site.demo_content import DEMO_SETTINGS, seed_site_content
from pao.site.line_qr import LINE_QR_PATH
from pao.site.service import set_setting
from pao.site.settings import set_value
from tests.helpers import registration_payload

LAO = re.compile(r"[\u0e80-\u0eff]")
THAI = re.compile(r"[\u0e00-\u0e7f]")


@pytest.fixture
async def seeded(session: AsyncSession) -> AsyncSession:
    await seed_site_content(session)
    await session.commit()
    return session


async def get(client: httpx.AsyncClient, path: str, **params: str) -> Any:
    response = await client.get(f"/api/lookup/{path}", params=params)
    assert response.status_code == 200, response.text
    return response.json()


async def test_banks_thai_only_with_both_names(client: httpx.AsyncClient) -> None:
    banks = await get(client, "banks")
    assert isinstance(banks, list)
    assert len(banks) == len([bank for bank in BANKS if bank.country == "TH"])
    assert banks[0] == {
        "code": "KBANK",
        "nameTH": "ธนาคารกสิกรไทย",
        "nameEN": "Kasikornbank",
        "country": "TH",
    }
    codes = [b["code"] for b in banks]
    assert {"KTB", "TMB", "BBL"} <= set(codes)
    # The Thai site lists no Lao bank (issue 17), and does not take one either.
    assert {b["country"] for b in banks} == {"TH"}
    assert "BCEL" not in codes
    lao_bank = registration_payload(
        phone="0812345678", bank_code="BCEL", bank_account_no="010120000123456001"
    )
    refused = await client.post("/api/account", json=lao_bank)
    assert (refused.status_code, refused.json()) == (400, {"message": "INVALID_BANK"})


async def test_the_line_qr_is_rendered_from_the_line_link(
    client: httpx.AsyncClient, seeded: AsyncSession
) -> None:
    # Issue 17, finding 2: the contact QR pointed at a file nobody made. It is the QR of the
    # operator's LINE link, so scanning it opens the link shown beside it.
    contact = await get(client, "contact")
    image = await client.get(contact["lineQR"])
    assert image.status_code == 200
    assert image.headers["content-type"] == "image/png"
    decoded = zxingcpp.read_barcodes(Image.open(io.BytesIO(image.content)))
    assert [code.text for code in decoded] == [contact["lineLink"]]

    await set_setting(seeded, key="lineLink", raw_value="https://line.me/R/ti/p/@other", actor="t")
    await seeded.commit()
    changed = zxingcpp.read_barcodes(
        Image.open(io.BytesIO((await client.get(LINE_QR_PATH)).content))
    )
    assert [code.text for code in changed] == ["https://line.me/R/ti/p/@other"]
    await set_setting(seeded, key="lineLink", raw_value="", actor="t")
    await seeded.commit()
    missing = await client.get(LINE_QR_PATH)
    assert (missing.status_code, missing.json()) == (404, {"message": "NO_DATA"})


async def test_seeded_lookups_in_thai(client: httpx.AsyncClient, seeded: AsyncSession) -> None:
    assert await get(client, "info") == {"name": "Pao", "website": "https://pao.example"}

    sources = await get(client, "sources")
    assert [s["code"] for s in sources] == ["facebook", "line", "google", "friend", "tiktok"]
    assert sources[0] == {"code": "facebook", "description": "เฟซบุ๊ก"}

    contact = await get(client, "contact")
    assert set(contact) == {"contactText", "lineLink", "lineName", "lineQR"}
    assert contact["lineName"] == "@pao.support"
    assert contact["lineLink"] == "https://line.me/R/ti/p/@pao.support"
    assert contact["lineQR"] == "/media/contact/line-qr.png"
    assert "@pao.support" in contact["contactText"]
    assert 'rel="noopener noreferrer"' in contact["contactText"]
    assert THAI.search(contact["contactText"])

    conditions = await get(client, "conditions")
    assert 3 <= len(conditions) <= 5
    assert all(c.startswith("<p>") and THAI.search(c) for c in conditions)

    agreements = await get(client, "agreements")
    assert len(agreements) == 4
    assert all(isinstance(a, str) and THAI.search(a) and "<" not in a for a in agreements)

    notice = await get(client, "notice")
    assert "%percentFail%" in notice["notice"]

    assert await get(client, "withdraw") == {"withdrawMin": 100, "withdrawMax": 50000}
    assert await get(client, "slip") == {
        "minimumDeposit": 1,
        "closedFrom": "23:50",
        "closedTo": "00:10",
        "uploadWithinMinutes": 60,
    }
    assert await get(client, "active") == {"terminated": False}
    assert await get(client, "registerOTP") == {"registerOTP": True}
    assert await get(client, "enableChatWidget") == {"enableChatWidget": False}
    assert await get(client, "howto") == [
        {"key": key, "url": f"/media/howto/{key}.webm"}
        for key in ("wallet", "enter_game", "check_balance", "receive_bonus", "end_bonus")
    ]


@pytest.mark.parametrize("path", ["sources", "contact", "conditions", "agreements", "notice"])
async def test_locale_selection(client: httpx.AsyncClient, seeded: AsyncSession, path: str) -> None:
    thai = await get(client, path)
    lao = await get(client, path, lang="la")
    english = await get(client, path, lang="en")
    assert THAI.search(str(thai))
    assert not LAO.search(str(thai))
    assert LAO.search(str(lao))
    assert not THAI.search(str(lao))
    assert not LAO.search(str(english))
    assert not THAI.search(str(english))
    assert await get(client, path, lang="th") == thai

    # Accept-Language (lo is what browsers send for Lao) when no lang parameter.
    response = await client.get(f"/api/lookup/{path}", headers={"Accept-Language": "lo-LA,lo"})
    assert response.json() == lao
    assert "accept-language" in response.headers["vary"].lower()
    response = await client.get(
        f"/api/lookup/{path}", params={"lang": "en"}, headers={"Accept-Language": "lo"}
    )
    assert response.json() == english  # the parameter wins


async def test_english_texts_are_the_demo_ones(
    client: httpx.AsyncClient, seeded: AsyncSession
) -> None:
    sources = await get(client, "sources", lang="en")
    assert sources[-1] == {"code": "tiktok", "description": "TikTok"}
    notice = await get(client, "notice", lang="en")
    assert notice == {"notice": DEMO_SETTINGS["notice"]["en"]}


async def test_unknown_lang_is_refused(client: httpx.AsyncClient) -> None:
    response = await client.get("/api/lookup/conditions", params={"lang": "fr"})
    assert response.status_code == 422
    assert response.json()["message"] == "KEY_INVALID"


async def test_missing_translation_falls_back_to_default_locale(
    client: httpx.AsyncClient, session: AsyncSession
) -> None:
    await set_setting(session, key="notice", raw_value='{"th": "<p>ไทย</p>"}', actor="t")
    await session.commit()
    assert await get(client, "notice", lang="en") == {"notice": "<p>ไทย</p>"}


async def test_defaults_without_any_setting(client: httpx.AsyncClient) -> None:
    assert await get(client, "info") == {"name": "Pao", "website": ""}
    assert await get(client, "sources") == []
    assert await get(client, "conditions") == []
    assert await get(client, "contact") == {
        "contactText": "",
        "lineLink": "",
        "lineName": "",
        "lineQR": None,
    }
    assert await get(client, "withdraw") == {"withdrawMin": 100, "withdrawMax": 50000}
    assert (await get(client, "howto"))[0] == {"key": "wallet", "url": None}


async def test_operator_changes_show_at_once(
    client: httpx.AsyncClient, session: AsyncSession
) -> None:
    await set_setting(session, key="withdrawMin", raw_value="THB=250.50", actor="ops")
    await set_setting(session, key="enableChatWidget", raw_value="on", actor="ops")
    await set_setting(session, key="registerOTP", raw_value="false", actor="ops")
    await session.commit()
    assert await get(client, "withdraw") == {"withdrawMin": 250.5, "withdrawMax": 50000}
    assert await get(client, "enableChatWidget") == {"enableChatWidget": True}
    assert await get(client, "registerOTP") == {"registerOTP": False}


async def test_html_is_sanitised_when_stored(
    client: httpx.AsyncClient, session: AsyncSession
) -> None:
    payload = '[{"th": "<p onclick=\\"x()\\">ok</p><script>alert(1)</script>"}]'
    stored = await set_setting(session, key="conditions", raw_value=payload, actor="ops")
    await session.commit()
    assert stored == [{"th": "<p>ok</p>", "la": "", "en": ""}]
    assert await get(client, "conditions") == ["<p>ok</p>"]


async def test_html_is_sanitised_again_when_served(
    client: httpx.AsyncClient, session: AsyncSession
) -> None:
    # A row written around the service (by hand, or by an older version) is cleaned on the way out.
    await set_value(
        session,
        "contactText",
        {"th": '<img src=/\\evil.example onerror="a()"><a href="javascript:alert(1)">LINE</a>'},
        actor="sql",
    )
    await set_value(
        session, "notice", {"en": "<svg onload=alert(1)></svg><b>%percentFail%</b>"}, actor="sql"
    )
    await session.commit()
    contact = await get(client, "contact")
    assert contact["contactText"] == '<img><a rel="noopener noreferrer">LINE</a>'
    assert await get(client, "notice", lang="en") == {"notice": "<b>%percentFail%</b>"}


async def test_a_broken_row_falls_back_to_the_default(
    client: httpx.AsyncClient, session: AsyncSession
) -> None:
    await set_value(session, "withdrawMax", "lots", actor="sql")
    await set_value(session, "lineQR", "javascript:alert(1)", actor="sql")
    await set_value(session, "lineLink", "/\\evil.example", actor="sql")
    await set_value(session, "withdrawMin", {"THB": 500_00, "LAK": 50_000_00}, actor="sql")
    await session.commit()
    assert await get(client, "withdraw") == {"withdrawMin": 500, "withdrawMax": 50000}
    contact = await get(client, "contact")
    assert (contact["lineQR"], contact["lineLink"]) == (None, "")


@pytest.fixture
async def lao_client(settings: Settings) -> AsyncIterator[httpx.AsyncClient]:
    app = create_app(settings.model_copy(update={"lao_mode": True}))
    async with LifespanManager(app, startup_timeout=60, shutdown_timeout=60):
        async with app.state.sessionmaker() as session:
            await seed_site_content(session)
            await session.commit()
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            yield client


async def test_lao_mode_defaults_to_lao_and_lists_lao_banks_first(
    lao_client: httpx.AsyncClient,
) -> None:
    banks = await get(lao_client, "banks")
    assert banks[0]["code"] == "BCEL"
    assert banks[0]["country"] == "LA"
    assert {b["country"] for b in banks} == {"LA", "TH"}
    assert LAO.search(banks[0]["nameTH"])
    sources = await get(lao_client, "sources")
    assert sources[0]["description"] == "ເຟສບຸກ"
    assert (await get(lao_client, "sources", lang="th"))[0]["description"] == "เฟซบุ๊ก"
