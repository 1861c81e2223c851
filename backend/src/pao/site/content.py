"""Value types of operator content: multilingual texts, sanitised HTML, safe URLs.

Texts shown to players are stored once per locale (``{"th": …, "la": …, "en": …}``) and a
lookup answers one locale's text; the locale rules and the fallback live in
:mod:`pao.kit.i18n` (re-exported here), HTML per locale in :class:`LocalizedHtml`.
"""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from pao.kit.i18n import (
    LOCALES,
    Locale,
    LocalizedText,
    default_locale,
    locale_from_accept_language,
    resolve_locale,
)
from pao.kit.urls import SITE_OR_WEB, check_url
from pao.site.sanitize import sanitize_html

__all__ = [
    "LOCALES",
    "Banner",
    "Html",
    "Locale",
    "LocalizedHtml",
    "LocalizedText",
    "SafeUrl",
    "default_locale",
    "locale_from_accept_language",
    "resolve_locale",
]


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


class LocalizedHtml(LocalizedText):
    """Sanitised HTML in each locale (a plain string validates as one language's HTML)."""

    th: Html = ""
    la: Html = ""
    en: Html = ""


class Banner(BaseModel):
    """A banner of the bonus, invite and refund carousels: an image, sanitised HTML below it
    and a short title (the image's alternative text), the texts per locale. Banners stored
    before texts were per locale (``html`` a string) still validate."""

    model_config = ConfigDict(extra="forbid")

    image: SafeUrl
    html: LocalizedHtml = Field(default_factory=LocalizedHtml)
    title: LocalizedText = Field(default_factory=LocalizedText)


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
