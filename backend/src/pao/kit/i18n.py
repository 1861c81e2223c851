"""Operator text in the player's language: locales, the client's locale, one text per locale.

Every text an operator writes (bonus names, banners, the wheel, notices, bot answers, …) is
stored once per locale as a JSON object ``{"th": …, "la": …, "en": …}`` (ADR 0011) and served
in one locale by :func:`pick_text`, which falls back so that a half-translated text never
shows a blank: the requested locale, the site's default locale, Thai, English, then any
language that has a text.

The locale of a request (:func:`resolve_locale`) is, in order: the ``lang`` query parameter,
the best supported language of the ``Accept-Language`` header (``lo`` and ``la`` both mean
Lao: ``lo`` is the ISO 639-1 code browsers send, ``la`` the code the app uses), then the
deployment default (``la`` in Lao mode, else ``th``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, model_validator

Locale = Literal["th", "la", "en"]
LOCALES: tuple[Locale, ...] = ("th", "la", "en")

_LANGUAGE_TO_LOCALE: dict[str, Locale] = {"th": "th", "lo": "la", "la": "la", "en": "en"}
# Unicode blocks of the two scripts (Thai U+0E00–U+0E7F, Lao U+0E80–U+0EFF).
_THAI = range(0x0E00, 0x0E80)
_LAO = range(0x0E80, 0x0F00)


def default_locale(*, lao_mode: bool) -> Locale:
    return "la" if lao_mode else "th"


def locale_from_accept_language(header: str | None) -> Locale | None:
    """The supported locale the header prefers most, or ``None`` (RFC 9110 §12.5.4)."""
    if not header:
        return None
    ranked: list[tuple[float, int, Locale]] = []
    for position, item in enumerate(header.split(",")):
        tag, _, params = item.strip().partition(";")
        quality = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name.strip().lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        locale = _LANGUAGE_TO_LOCALE.get(tag.strip().lower().split("-")[0])
        if locale is not None and quality > 0:
            # Sort by quality, then by the order written (a stable tie-break).
            ranked.append((-quality, position, locale))
    return min(ranked)[2] if ranked else None


def resolve_locale(*, lang: Locale | None, accept_language: str | None, lao_mode: bool) -> Locale:
    return lang or locale_from_accept_language(accept_language) or default_locale(lao_mode=lao_mode)


def pick_text(texts: Mapping[str, str] | str | None, locale: Locale, *, fallback: Locale) -> str:
    """``texts`` in ``locale``, else in ``fallback`` (the site default), Thai, English, any.

    A plain string (a value stored before texts were per locale) is its own answer."""
    if texts is None:
        return ""
    if isinstance(texts, str):
        return texts
    for candidate in (locale, fallback, "th", "en"):
        value = texts.get(candidate)
        if value:
            return value
    return next((value for value in texts.values() if value), "")


def detect_locale(text: str) -> Locale:
    """The locale a single-language text is written in, judged by its script: Lao letters make
    it Lao, Thai letters Thai, anything else English. Used to file texts written before they
    were per locale under the right language (migration 0010, plain strings given to a
    setter)."""
    lao = thai = 0
    for char in text:
        code = ord(char)
        if code in _LAO:
            lao += 1
        elif code in _THAI:
            thai += 1
    if lao or thai:
        return "la" if lao > thai else "th"
    return "en"


def localized(value: Mapping[str, str] | str | None) -> dict[str, str]:
    """A per-locale dict from either a dict (unknown languages dropped) or a plain string
    (filed under the language it is written in)."""
    if value is None:
        return {}
    if isinstance(value, str):
        return {detect_locale(value): value} if value else {}
    return {locale: value[locale] for locale in LOCALES if value.get(locale)}


class LocalizedText(BaseModel):
    """Plain text in each locale (rendered as text by the client, never as HTML).

    A plain string validates too: it is filed under the language it is written in, so older
    stored values and one-language input keep working."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    th: str = ""
    la: str = ""
    en: str = ""

    @model_validator(mode="before")
    @classmethod
    def _from_string(cls, data: Any) -> Any:
        return localized(data) if isinstance(data, str) else data

    def pick(self, locale: Locale, *, fallback: Locale) -> str:
        return pick_text(self.as_dict(), locale, fallback=fallback)

    def as_dict(self) -> dict[str, str]:
        """The stored form: only the locales that have a text."""
        return {locale: getattr(self, locale) for locale in LOCALES if getattr(self, locale)}
