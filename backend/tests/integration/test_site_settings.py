"""Operator settings in the database: ``set_setting`` parsing and refusals, the demo seed."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import AsyncSession, create_async_engine

from pao.kit.clock import clock
from pao.kit.money import Currency, PerCurrency
from pao.site import settings as site_settings
from pao.site.demo_content import DEMO_SETTINGS, seed_site_content
from pao.site.exceptions import InvalidSettingValue, UnknownSetting
from pao.site.models import SiteSetting
from pao.site.service import reopen_site, set_setting, setting_keys, terminate_site
from pao.site.settings import SiteSettings, load_site_settings, set_value

# Also on SQLite (tests/databases.py): settings read under SQLite's write lock.
pytestmark = pytest.mark.sqlite


async def rows(session: AsyncSession) -> dict[str, tuple[Any, Any, str]]:
    result = await session.execute(select(SiteSetting))
    return {r.key: (r.value, r.updated_at, r.updated_by) for r in result.scalars()}


@pytest.mark.parametrize(
    ("key", "raw", "stored", "attribute", "loaded"),
    [
        ("withdrawMin", "THB=150", {"THB": 150_00, "LAK": 50_000_00}, "withdraw_min",
         PerCurrency(THB=150_00, LAK=50_000_00)),
        ("withdraw_max", "LAK=7500000.25 THB=75000", {"THB": 75_000_00, "LAK": 7_500_000_25},
         "withdraw_max", PerCurrency(THB=75_000_00, LAK=7_500_000_25)),
        ("paytimzMinimum", "THB=20, LAK=none", {"THB": 20_00, "LAK": None}, "paytimz_minimum",
         PerCurrency(THB=20_00)),
        ("registerOTP", "no", False, "register_otp", False),
        ("enableChatWidget", "TRUE", True, "enable_chat_widget", True),
        ("slipClosedFrom", "22:30", "22:30", "slip_closed_from", "22:30"),
        ("siteName", "Pao Club", "Pao Club", "site_name", "Pao Club"),
        ("lineQR", "https://cdn.example/qr.png", "https://cdn.example/qr.png", "line_qr",
         "https://cdn.example/qr.png"),
        ("lineQR", "null", None, "line_qr", None),
        ("timezone", "Asia/Vientiane", "Asia/Vientiane", "timezone", "Asia/Vientiane"),
    ],
)  # fmt: skip
async def test_set_setting_parses_and_stores(
    session: AsyncSession, key: str, raw: str, stored: Any, attribute: str, loaded: Any
) -> None:
    assert await set_setting(session, key=key, raw_value=raw, actor="ops:alice") == stored
    await session.commit()
    settings = await load_site_settings(session)
    assert getattr(settings, attribute) == loaded
    canonical = SiteSettings.model_fields[attribute].alias or attribute
    assert (await rows(session))[canonical][0] == stored
    assert (await rows(session))[canonical][2] == "ops:alice"


async def test_set_setting_json_values_are_normalised(session: AsyncSession) -> None:
    sources = (
        '[{"code": "facebook", "description": {"th": "เฟซบุ๊ก", "en": "Facebook"}},'
        ' {"code": "walk-in", "description": {"la": "ຍ່າງເຂົ້າມາ"}}]'
    )
    stored = await set_setting(session, key="sources", raw_value=sources, actor="ops")
    assert stored == [
        {"code": "facebook", "description": {"th": "เฟซบุ๊ก", "la": "", "en": "Facebook"}},
        {"code": "walk-in", "description": {"th": "", "la": "ຍ່າງເຂົ້າມາ", "en": ""}},
    ]
    notice = await set_setting(
        session,
        key="notice",
        raw_value='{"th": "<p>ต่ำกว่า %percentFail%%<img src=x onerror=alert(1)></p>"}',
        actor="ops",
    )
    assert notice == {"th": '<p>ต่ำกว่า %percentFail%%<img src="x"></p>', "la": "", "en": ""}


async def test_field_name_replaces_a_stray_row_under_the_field_name(
    session: AsyncSession,
) -> None:
    await set_value(session, "withdraw_min", 1, actor="sql")
    await set_setting(session, key="withdraw_min", raw_value="THB=200", actor="ops")
    await session.commit()
    stored = await rows(session)
    assert "withdraw_min" not in stored
    assert stored["withdrawMin"][0] == {"THB": 200_00, "LAK": 50_000_00}
    assert (await load_site_settings(session)).withdraw_min.for_currency("THB") == 200_00


async def test_unknown_key_is_refused_clearly(session: AsyncSession) -> None:
    with pytest.raises(UnknownSetting) as caught:
        await set_setting(session, key="withdrawMinimum", raw_value="1", actor="ops")
    assert isinstance(caught.value, ValueError)
    message = str(caught.value)
    assert "unknown setting 'withdrawMinimum'" in message
    assert "withdrawMin" in message
    assert await rows(session) == {}


@pytest.mark.parametrize(
    ("key", "raw", "fragment"),
    [
        ("terminated", "perhaps", "expected true or false"),
        ("withdrawMin", "THB=10.555", "major units"),
        ("withdrawMin", "THB=-1", "major units"),
        ("withdrawMin", "THB=60000", "must not exceed withdrawMax in THB"),
        ("withdrawMax", "THB=50", "must not exceed withdrawMax in THB"),
        ("withdrawMin", "LAK=30000000", "must not exceed withdrawMax in LAK"),
        # Money is per currency: a bare amount names none.
        ("withdrawMin", "100", "per currency"),
        ("withdrawMin", "EUR=100", "per currency"),
        ("slipUploadWithinMinutes", "0", "greater than or equal to 1"),
        ("slipClosedTo", "25:00", "HH:MM"),
        ("lineQR", "javascript:alert(1)", "http(s) URL"),
        ("lineQR", "/\\evil.example/qr.png", "http(s) URL"),
        ("lineLink", "data:text/html,hi", "http(s) URL"),
        ("howtoWallet", "file:///etc/passwd", "http(s) URL"),
        ("timezone", "Nowhere/City", "unknown time zone"),
        ("conditions", "not json", "expected JSON"),
        ("conditions", '{"th": "x"}', "list"),
        ("notice", '{"th": "x", "fr": "y"}', "fr"),
        ("sources", '[{"code": "bad code!", "description": {}}]', "pattern"),
        ("siteName", "", "at least 1 character"),
    ],
)
async def test_invalid_values_are_refused_and_nothing_is_stored(
    session: AsyncSession, key: str, raw: str, fragment: str
) -> None:
    with pytest.raises(InvalidSettingValue) as caught:
        await set_setting(session, key=key, raw_value=raw, actor="ops")
    assert isinstance(caught.value, ValueError)
    assert fragment in str(caught.value)
    assert str(caught.value).startswith("invalid value for ")
    assert await rows(session) == {}


async def test_one_currency_is_set_alone(session: AsyncSession) -> None:
    """``pao ops settings set withdrawMax 25000000 --currency LAK``: kip's value changes, the
    baht one stays; ``none`` unsets a currency's value."""
    stored = await set_setting(
        session, key="withdrawMax", raw_value="25000000", actor="ops", currency=Currency.LAK
    )
    assert stored == {"THB": 50_000_00, "LAK": 25_000_000_00}
    stored = await set_setting(
        session, key="withdrawAutoApproveMax", raw_value="none", actor="ops", currency=Currency.LAK
    )
    assert stored == {"THB": 0, "LAK": None}
    await session.commit()
    settings = await load_site_settings(session)
    assert settings.withdraw_max == PerCurrency(THB=50_000_00, LAK=25_000_000_00)
    assert settings.withdraw_auto_approve_max.for_currency(Currency.LAK) is None
    with pytest.raises(InvalidSettingValue, match="only a money setting"):
        await set_setting(
            session, key="siteName", raw_value="x", actor="ops", currency=Currency.LAK
        )


def test_every_money_setting_has_its_own_kip_default() -> None:
    """ADR 0020: each money setting's kip default is a kip amount of its own, never the baht
    number read as kip (only "nothing" — 0 or unset — may be the same)."""
    defaults = SiteSettings()
    money = [name for name, field in SiteSettings.model_fields.items()
             if isinstance(getattr(defaults, name), PerCurrency)]  # fmt: skip
    assert len(money) == 13
    for name in money:
        value = getattr(defaults, name)
        baht, kip = value.for_currency("THB"), value.for_currency("LAK")
        assert kip != baht or not baht, name


def test_setting_keys_are_the_stored_spellings() -> None:
    keys = setting_keys()
    assert {"terminated", "withdrawMin", "registerOTP", "contactText", "howtoEndBonus"} <= set(keys)
    assert "withdraw_min" not in keys


async def test_terminate_and_reopen_record_who(session: AsyncSession) -> None:
    await terminate_site(session, actor="ops:alice")
    await session.commit()
    assert (await load_site_settings(session)).terminated is True
    assert (await rows(session))["terminated"][2] == "ops:alice"
    await reopen_site(session, actor="ops:bob")
    await session.commit()
    assert (await load_site_settings(session)).terminated is False
    assert (await rows(session))["terminated"][2] == "ops:bob"


async def test_seed_fills_every_setting_once(session: AsyncSession) -> None:
    await seed_site_content(session)
    await session.commit()
    first = await rows(session)
    assert set(first) == set(DEMO_SETTINGS)
    assert all(updated_by == "demo" for _v, _t, updated_by in first.values())
    settings = await load_site_settings(session)
    assert len(settings.sources) == 5
    assert 3 <= len(settings.conditions) <= 5
    for text in [settings.contact_text, settings.notice, *settings.conditions,
                 *settings.agreements, *(s.description for s in settings.sources)]:  # fmt: skip
        assert all(text.model_dump().values()), text
    assert all("%percentFail%" in text for text in settings.notice.model_dump().values())

    clock.advance(timedelta(hours=1))
    await seed_site_content(session, actor="someone-else")
    await session.commit()
    assert await rows(session) == first
    count = await session.scalar(select(func.count()).select_from(SiteSetting))
    assert count == len(DEMO_SETTINGS)


async def test_seed_keeps_operator_changes(session: AsyncSession) -> None:
    await set_setting(session, key="withdrawMin", raw_value="THB=300", actor="ops")
    await session.commit()
    await seed_site_content(session)
    await session.commit()
    assert (await load_site_settings(session)).withdraw_min.for_currency("THB") == 300_00
    stored = await rows(session)
    assert stored["withdrawMin"][2] == "ops"
    assert set(stored) == set(DEMO_SETTINGS)


async def test_loaded_settings_follow_every_change_and_are_not_shared(
    session: AsyncSession,
) -> None:
    # Parsed settings are reused while the stored values are the same (pao.site.settings):
    # a change must still show at once, and no caller may see another's modifications.
    await set_value(session, "loginWindowSeconds", 300_00, actor="test")
    first = await load_site_settings(session)
    assert first.login_window_seconds == 300_00
    first.login_window_seconds = 1
    again = await load_site_settings(session)
    assert again.login_window_seconds == 300_00
    assert again is not first
    await set_value(session, "loginWindowSeconds", 400_00, actor="test")
    assert (await load_site_settings(session)).login_window_seconds == 400_00


async def test_a_change_by_another_process_shows_within_the_cache_time(
    session: AsyncSession, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(site_settings, "CACHE_SECONDS", 0.05)
    await set_value(session, "loginAccountWindowSeconds", 900_00, actor="test")
    assert (await load_site_settings(session)).login_account_window_seconds == 900_00
    # Written as `pao ops` in another process would: no set_value here to drop the cache.
    await session.execute(
        update(SiteSetting)
        .where(SiteSetting.key == "loginAccountWindowSeconds")
        .values(value=800_00)
    )
    await asyncio.sleep(0.06)
    assert (await load_site_settings(session)).login_account_window_seconds == 800_00


class OtherPool:
    """A second database pool of this process, as another reader of the settings.

    Plain (no ``BEGIN IMMEDIATE``): on SQLite the app's own sessions cannot read while the
    ``session`` fixture has its write transaction open."""

    def __init__(self, url: str) -> None:
        self.engine = create_async_engine(url)

    async def login_window(self) -> int:
        """loginWindowSeconds as loaded here: cached by this pool, refreshed only once dropped."""
        async with AsyncSession(self.engine) as reader:
            return (await load_site_settings(reader)).login_window_seconds

    async def store_login_window(self, value: int) -> None:
        """Store loginWindowSeconds as another process would: no cache of this one is dropped."""
        async with self.engine.begin() as connection:
            await connection.execute(
                update(SiteSetting)
                .where(SiteSetting.key == "loginWindowSeconds")
                .values(value=value)
            )


@pytest.fixture
async def other_pool(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[OtherPool]:
    # A cached copy outlives the test: only a drop can refresh it.
    monkeypatch.setattr(site_settings, "CACHE_SECONDS", 3600.0)
    pool = OtherPool(database_url)
    yield pool
    await pool.engine.dispose()


async def test_each_committed_change_shows_to_the_other_pools_at_once(
    session: AsyncSession, other_pool: OtherPool
) -> None:
    # The session's first transaction and its later ones, each changing two settings.
    for amount in (300_00, 400_00, 500_00):
        await set_value(session, "loginWindowSeconds", amount, actor="test")
        await set_value(session, "loginAccountWindowSeconds", amount * 10, actor="test")
        # Read, and cached, before the commit: the old value.
        assert await other_pool.login_window() != amount
        await session.commit()
        assert await other_pool.login_window() == amount, amount


async def test_a_savepoints_release_is_not_the_commit(
    session: AsyncSession, other_pool: OtherPool
) -> None:
    await set_value(session, "loginWindowSeconds", 300_00, actor="test")
    async with session.begin_nested():
        await set_value(session, "loginAccountWindowSeconds", 3_000_00, actor="test")
    # Released, not committed: still the old value, and cached again.
    assert await other_pool.login_window() != 300_00
    await session.commit()
    assert await other_pool.login_window() == 300_00


async def test_a_rolled_back_change_drops_nothing_later(
    session: AsyncSession, other_pool: OtherPool
) -> None:
    await set_value(session, "loginWindowSeconds", 300_00, actor="test")
    await session.commit()
    assert await other_pool.login_window() == 300_00
    await set_value(session, "loginWindowSeconds", 400_00, actor="test")
    await session.rollback()
    assert await other_pool.login_window() == 300_00
    # A change by another process shows within the cache time, not sooner...
    await other_pool.store_login_window(350_00)
    # ...and the session's next commit, which changed no setting, does not drop the cache.
    await session.execute(select(func.count()).select_from(SiteSetting))
    await session.commit()
    assert await other_pool.login_window() == 300_00
