"""Value types of operator content: multilingual texts, sanitised HTML, safe URLs, locales.

Texts shown to players are stored once per locale (``{"th": …, "la": …, "en": …}``) and a
lookup answers one locale's text. The locale of a request is, in order: the ``lang`` query
parameter, the best supported language of the ``Accept-Language`` header (``lo`` and ``la``
both mean Lao: ``lo`` is the ISO 639-1 code browsers send, ``la`` the code the app uses), then
the deployment default (``la`` in Lao mode, else ``th``). A locale whose text is empty falls
back to the default locale's text, then to any non-empty one, so a half-translated setting
never shows a blank.
"""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from pao.kit.urls import SITE_OR_WEB, check_url
from pao.site.sanitize import sanitize_html

Locale = Literal["th", "la", "en"]
LOCALES: tuple[Locale, ...] = ("th", "la", "en")

_LANGUAGE_TO_LOCALE: dict[str, Locale] = {"th": "th", "lo": "la", "la": "la", "en": "en"}


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


def _check_url(value: str) -> str:
    """Empty (not configured), an http(s) URL, or a URL on this site; nothing else."""
    return check_url(value, SITE_OR_WEB)


# A link or image address the browser will follow: never javascript:, data:, another host
# disguised as a path (``/\\evil.example``) or the like (pao.kit.urls).
SafeUrl = Annotated[str, AfterValidator(_check_url)]
# HTML that is sanitised whenever it is validated, i.e. when stored and again when loaded.
Html = Annotated[str, AfterValidator(sanitize_html)]

_HHMM = re.compile(r"(?:[01]\d|2[0-3]):[0-5]\d")


def _check_hhmm(value: str) -> str:
    if not _HHMM.fullmatch(value):
        raise ValueError("must be a time of day as HH:MM (00:00 to 23:59)")
    return value


# A wall-clock time of day in the operator's time zone.
TimeOfDay = Annotated[str, AfterValidator(_check_hhmm)]


class _Localized(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    def pick(self, locale: Locale, *, fallback: Locale) -> str:
        values: dict[str, str] = self.model_dump()
        for candidate in (locale, fallback, *LOCALES):
            if values[candidate]:
                return values[candidate]
        return ""


class LocalizedText(_Localized):
    """Plain text in each locale (rendered as text by the client, never as HTML)."""

    th: str = ""
    la: str = ""
    en: str = ""


class LocalizedHtml(_Localized):
    """Sanitised HTML in each locale."""

    th: Html = ""
    la: Html = ""
    en: Html = ""


class SourceOption(BaseModel):
    """A marketing source a member picks on registration ("how did you hear of us")."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    code: str = Field(pattern=r"^[A-Za-z0-9_-]{1,40}$")
    description: LocalizedText


def _unique_codes(sources: list[SourceOption]) -> list[SourceOption]:
    codes = [source.code for source in sources]
    if len(codes) != len(set(codes)):
        raise ValueError("source codes must be unique")
    return sources


SourceList = Annotated[list[SourceOption], AfterValidator(_unique_codes)]
