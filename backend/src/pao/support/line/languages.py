"""LINE's profile language as one of Pao's locales (Lao is ``lo`` in LINE); else Thai."""

from __future__ import annotations

from pao.kit.i18n import Locale

_LOCALES: dict[str, Locale] = {"th": "th", "lo": "la", "la": "la", "en": "en"}


def locale_of(language: str | None) -> Locale:
    return _LOCALES.get((language or "").split("-")[0].lower(), "th")
