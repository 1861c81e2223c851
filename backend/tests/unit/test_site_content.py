"""Locale choice, per-locale texts, safe URLs, the slip window and setting-text parsing."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from pydantic import ValidationError

from pao.site.content import (
    LocalizedHtml,
    LocalizedText,
    SourceOption,
    locale_from_accept_language,
    resolve_locale,
)
from pao.site.exceptions import InvalidSettingValue
from pao.site.service import is_slip_upload_closed, parse_setting_text
from pao.site.settings import SiteSettings


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        (None, None),
        ("", None),
        ("th", "th"),
        ("th-TH,th;q=0.9", "th"),
        ("lo-LA,lo;q=0.9,en;q=0.8", "la"),
        ("la", "la"),
        ("en-US,en;q=0.9", "en"),
        ("fr-FR,fr;q=0.9,en;q=0.5,th;q=0.6", "th"),
        ("de, fr", None),
        ("en;q=0, th;q=0.1", "th"),
        ("en;q=abc, lo", "la"),
        ("*", None),
        ("en, th", "en"),
    ],
)
def test_accept_language(header: str | None, expected: str | None) -> None:
    assert locale_from_accept_language(header) == expected


def test_resolve_locale_order() -> None:
    assert resolve_locale(lang="en", accept_language="lo", lao_mode=False) == "en"
    assert resolve_locale(lang=None, accept_language="lo-LA", lao_mode=False) == "la"
    assert resolve_locale(lang=None, accept_language="de", lao_mode=False) == "th"
    assert resolve_locale(lang=None, accept_language=None, lao_mode=True) == "la"


def test_pick_falls_back_to_default_then_any() -> None:
    text = LocalizedText(th="ไทย", la="", en="English")
    assert text.pick("en", fallback="th") == "English"
    assert text.pick("la", fallback="th") == "ไทย"
    only_en = LocalizedText(en="English")
    assert only_en.pick("la", fallback="la") == "English"
    assert LocalizedText().pick("th", fallback="th") == ""


def test_localized_html_is_sanitised_and_strict() -> None:
    html = LocalizedHtml.model_validate({"th": "<p onclick='x'>ก</p><script>x</script>"})
    assert html.th == "<p>ก</p>"
    with pytest.raises(ValidationError):
        LocalizedHtml.model_validate({"th": "x", "fr": "y"})


def test_source_codes_are_checked() -> None:
    with pytest.raises(ValidationError):
        SourceOption.model_validate({"code": "a b", "description": {"th": "x"}})
    with pytest.raises(ValidationError):
        SiteSettings.model_validate(
            {"sources": [{"code": "a", "description": {}}, {"code": "a", "description": {}}]}
        )


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("lineQR", "javascript:alert(1)"),
        ("lineLink", "data:text/html,x"),
        ("website", "//evil.example"),
        # Browsers read these as //evil.example too (WHATWG URL parsing).
        ("website", "/\\evil.example"),
        ("lineQR", " //evil.example"),
        ("ufaHost", "/\t/evil.example"),
        ("lineLink", "java\tscript:alert(1)"),
        ("howtoWallet", "ftp://x"),
        ("slipClosedFrom", "24:00"),
        ("slipClosedTo", "7:05"),
        ("timezone", "Mars/Olympus"),
        ("withdrawMin", {"THB": -1}),
        ("withdrawMin", {"USD": 1}),
        # Money is per currency: a bare amount would be read in no currency.
        ("withdrawMin", 100_00),
        ("siteName", ""),
    ],
)
def test_settings_refuse_unsafe_or_malformed_values(key: str, value: Any) -> None:
    with pytest.raises(ValidationError):
        SiteSettings.model_validate({key: value})


def _at(hour: int, minute: int) -> datetime:
    # Bangkok is UTC+7 all year.
    return datetime(2025, 1, 1, (hour - 7) % 24, minute, tzinfo=UTC)


@pytest.mark.parametrize(
    ("hour", "minute", "closed"),
    [(23, 49, False), (23, 50, True), (23, 59, True), (0, 0, True), (0, 9, True),
     (0, 10, False), (12, 0, False)],
)  # fmt: skip
def test_slip_window_wraps_midnight_in_operator_time(hour: int, minute: int, closed: bool) -> None:
    settings = SiteSettings(slip_closed_from="23:50", slip_closed_to="00:10")
    assert is_slip_upload_closed(settings, at=_at(hour, minute)) is closed


def test_slip_window_within_a_day_and_empty_window() -> None:
    settings = SiteSettings(slip_closed_from="02:00", slip_closed_to="03:00")
    assert is_slip_upload_closed(settings, at=_at(2, 30))
    assert not is_slip_upload_closed(settings, at=_at(3, 0))
    never = SiteSettings(slip_closed_from="05:00", slip_closed_to="05:00")
    assert not is_slip_upload_closed(never, at=_at(5, 0))


def _parse(key: str, raw: str) -> Any:
    return parse_setting_text(SiteSettings.model_fields[key], key, raw)


@pytest.mark.parametrize(
    ("field", "raw", "expected"),
    [
        ("terminated", "true", True),
        ("terminated", " Yes ", True),
        ("register_otp", "off", False),
        ("register_otp", "0", False),
        ("withdraw_min", "THB=100", {"THB": 100_00}),
        ("withdraw_min", "THB=99.5 LAK=60000", {"THB": 99_50, "LAK": 60_000_00}),
        ("withdraw_max", "LAK=none,THB=50000.00", {"THB": 50_000_00, "LAK": None}),
        ("slip_upload_within_minutes", " 45 ", 45),
        ("site_name", "Pao Club", "Pao Club"),
        ("line_qr", "null", None),
        ("line_qr", "", None),
        ("line_qr", "/media/qr.png", "/media/qr.png"),
        ("notice", '{"th": "ก", "en": "e"}', {"th": "ก", "en": "e"}),
        ("conditions", "[]", []),
    ],
)
def test_parse_setting_text(field: str, raw: str, expected: Any) -> None:
    assert _parse(field, raw) == expected


@pytest.mark.parametrize(
    ("field", "raw", "reason"),
    [
        ("terminated", "maybe", "true or false"),
        ("withdraw_min", "THB=100.001", "major units"),
        ("withdraw_min", "THB=-5", "major units"),
        ("withdraw_min", "LAK=abc", "major units"),
        ("withdraw_min", "THB=NaN", "major units"),
        ("withdraw_min", "100", "per currency"),
        ("slip_upload_within_minutes", "1.5", "whole number"),
        ("notice", "{not json", "expected JSON"),
    ],
)
def test_parse_setting_text_refusals(field: str, raw: str, reason: str) -> None:
    with pytest.raises(InvalidSettingValue, match=reason):
        _parse(field, raw)
