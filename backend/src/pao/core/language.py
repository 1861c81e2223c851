"""The language a client asks for: one FastAPI dependency for every route that serves text.

A route that answers operator text (bonuses, banners, the wheel, lookups, statement lines, the
chat bot) takes :data:`RequestLanguage` and passes its ``locale`` and ``fallback`` to
:func:`pao.kit.i18n.pick_text`. The app's API client sends ``Accept-Language`` with the UI's
language on every call; ``?lang=`` wins over it (links, caches, tests).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Header, Query, Request, Response

from pao.kit.i18n import LOCALES, Locale, default_locale, pick_text, resolve_locale

LANGUAGE_DOC = (
    "\n\nTexts are answered in one locale: the `lang` query parameter (th, la or en) if "
    "given, else the best of th, la (also `lo`) and en in the `Accept-Language` header, else "
    "the default locale (th, or la in Lao mode). A text not translated into the chosen locale "
    "falls back to the default locale's, then Thai, English, any. An unknown `lang` answers "
    "422 KEY_INVALID."
)


@dataclass(frozen=True)
class Language:
    """The locale to answer in and the site's default locale (the first fallback)."""

    locale: Locale
    fallback: Locale

    def pick(self, texts: dict[str, str] | str | None) -> str:
        return pick_text(texts, self.locale, fallback=self.fallback)


# What a response that depends on the language carries.
VARY_LANGUAGE = {"Vary": "Accept-Language"}


def request_language(
    request: Request,
    response: Response,
    lang: Annotated[Locale | None, Query(description="Locale of the texts: th, la or en.")] = None,
    accept_language: Annotated[
        str | None, Header(description="Used when `lang` is absent.")
    ] = None,
) -> Language:
    # Caches must not hand one language's answer to a client that asked for another.
    response.headers.update(VARY_LANGUAGE)
    return _language(request, lang, accept_language)


RequestLanguage = Annotated[Language, Depends(request_language)]


def _language(request: Request, lang: Locale | None, accept_language: str | None) -> Language:
    lao_mode = bool(request.app.state.settings.lao_mode)
    locale = resolve_locale(lang=lang, accept_language=accept_language, lao_mode=lao_mode)
    return Language(locale=locale, fallback=default_locale(lao_mode=lao_mode))


def lean_language(request: Request) -> Language | None:
    """:func:`request_language` outside FastAPI's dependency solving (a lean endpoint of
    :mod:`pao.core.fast_lane`, whose answer carries :data:`VARY_LANGUAGE`); ``None`` for a
    ``lang`` that is not a locale, which the lean endpoint leaves to FastAPI (its 422)."""
    lang = request.query_params.get("lang")
    if lang is not None and lang not in LOCALES:
        return None
    return _language(request, lang, request.headers.get("accept-language"))
