"""The one check of URLs the server hands to a browser: links, images, redirect targets.

A URL is judged the way a browser will read it, by a WHATWG URL Standard parser (ada, the parser
Node.js uses), never by string prefixes: browsers strip leading and trailing spaces and C0
controls, drop tabs and newlines anywhere, read ``\\`` as ``/`` in http(s) URLs and schemes in
any case, so ``/\\evil.example``, `` //evil.example`` and ``java\\tscript:`` mean
``//evil.example`` and ``javascript:``.

A value is allowed when either

* it is a **site URL**: resolved against the site's origin it stays on that origin, over
  http(s), or
* it is an **absolute URL** whose scheme the field allows (``http``/``https`` for off-site links
  and images; ``tel``/``mailto`` too for links in operator HTML).

The server does not know the origin browsers see it under (a proxy may serve it as
``https://…``), so a site URL must stay on the origin of two unrelated bases, one http and one
https: a value that names a host (``//x``, ``/\\x``) or switches scheme (``http:x``, which is
relative only under an http base) leaves at least one of them. An absolute URL to this very
site counts as absolute, not as a site URL.

The player app applies the same rule with the browser's own parser
(``frontend/src/lib/safe-url.ts``); both are tested against the same table of vectors,
``contract/url-vectors.json``.
"""

from __future__ import annotations

from dataclasses import dataclass

from ada_url import URL

WEB_SCHEMES = frozenset({"http", "https"})
LINK_SCHEMES = frozenset({"http", "https", "tel", "mailto"})

# Two unrelated origins standing in for the site's own (see the module doc).
_BASES = (
    ("http://site-a.invalid/", "http://site-a.invalid"),
    ("https://site-b.invalid/", "https://site-b.invalid"),
)
# What a browser strips from both ends of a URL before parsing it (C0 controls and space).
_C0_AND_SPACE = "".join(chr(code) for code in range(0x21))


@dataclass(frozen=True)
class UrlPolicy:
    """Which URLs a field accepts: site URLs or not, and the schemes of absolute ones."""

    site: bool
    schemes: frozenset[str]
    refusal: str


SITE = UrlPolicy(site=True, schemes=frozenset(), refusal="must be a path on this site")
"""A place on this site only (e.g. where to go after login)."""
WEB = UrlPolicy(site=False, schemes=WEB_SCHEMES, refusal="must be an absolute http(s) URL")
"""An absolute http(s) URL only (a chat button that opens a new tab)."""
SITE_OR_WEB = UrlPolicy(
    site=True, schemes=WEB_SCHEMES, refusal="must be an http(s) URL or a path on this site"
)
"""A site URL or an absolute http(s) URL (operator settings, images, videos, launch links)."""
LINK = UrlPolicy(
    site=False, schemes=LINK_SCHEMES, refusal="must be an absolute http(s), tel: or mailto: URL"
)
"""An absolute http(s), tel: or mailto: URL (links in operator HTML)."""

POLICIES: dict[str, UrlPolicy] = {"site": SITE, "web": WEB, "siteOrWeb": SITE_OR_WEB, "link": LINK}


def _parse(value: str, base: str | None = None) -> URL | None:
    try:
        return URL(value, base)
    except (ValueError, UnicodeError):  # not a URL, or a lone surrogate
        return None


def _is_site_url(value: str) -> bool:
    for base, origin in _BASES:
        resolved = _parse(value, base)
        if resolved is None or resolved.origin != origin:
            return False
    return True


def _absolute_scheme(value: str) -> str | None:
    parsed = _parse(value)
    return None if parsed is None else parsed.protocol.removesuffix(":")


def safe_url(value: str, policy: UrlPolicy) -> str | None:
    """``value`` as the browser will read it (ends trimmed, tabs and newlines removed) when
    ``policy`` allows it, else ``None``. Never raises."""
    cleaned = value.strip(_C0_AND_SPACE).replace("\t", "").replace("\n", "").replace("\r", "")
    scheme = _absolute_scheme(cleaned)
    if scheme is not None:
        return cleaned if scheme in policy.schemes else None
    return cleaned if policy.site and _is_site_url(cleaned) else None


def check_url(value: str, policy: UrlPolicy) -> str:
    """:func:`safe_url` for validators: the value to store, or ``ValueError``."""
    checked = safe_url(value, policy)
    if checked is None:
        raise ValueError(policy.refusal)
    return checked
