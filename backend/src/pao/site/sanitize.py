"""The one HTML sanitiser of the server: operator HTML shown to players goes through here.

Operator texts (contact text, conditions, notices, banners, wheel descriptions) are HTML that
the browser renders as markup, so a stored value must never carry script. The allow-list is
deliberately small: text formatting, lists, headings, links and images, and no ``style``,
``class``, ``id`` or event handler attributes. Links may point only to http, https, tel and
mailto URLs (and get ``rel="noopener noreferrer"``); images only to http(s) URLs or to URLs
on this site (``/media/...``), both judged as a browser reads them (:mod:`pao.kit.urls`).
Content of script-like elements (script, style, svg, math, iframe, …) is dropped entirely
rather than kept as text.

Callers sanitise when storing and again when serving (ARCHITECTURE.md), which is safe
because the output of :func:`sanitize_html` is a fixed point of it.
"""

from __future__ import annotations

import nh3

from pao.kit.urls import LINK, SITE_OR_WEB, safe_url

ALLOWED_TAGS = frozenset(
    {
        "p", "br", "b", "strong", "i", "em", "u", "ul", "ol", "li",
        "a", "h1", "h2", "h3", "h4", "span", "div", "img",
    }
)  # fmt: skip
ALLOWED_ATTRIBUTES: dict[str, set[str]] = {"a": {"href"}, "img": {"src", "alt"}}
LINK_SCHEMES = LINK.schemes
# Removed together with their content: their text is never meant to be read as prose.
DROPPED_WITH_CONTENT = frozenset(
    {
        "script", "style", "svg", "math", "iframe", "frame", "frameset", "object", "embed",
        "noscript", "noembed", "noframes", "template", "textarea", "select", "title", "xmp",
    }
)  # fmt: skip
LINK_REL = "noopener noreferrer"


def _filter_attribute(tag: str, attribute: str, value: str) -> str | None:
    """Second line of defence after nh3's scheme check: the one URL check of the server.

    nh3 lets relative URLs through; links must be absolute (a relative link in a text shown
    inside the SPA would route nowhere useful), images may be absolute or on this site.
    Must never raise (:func:`safe_url` does not): nh3 would report it as an unraisable
    exception.
    """
    if tag == "a" and attribute == "href":
        return safe_url(value, LINK)
    if tag == "img" and attribute == "src":
        return safe_url(value, SITE_OR_WEB)
    return value


def sanitize_html(html: str) -> str:
    """Return ``html`` with everything outside the allow-list removed (see module doc)."""
    return nh3.clean(
        html,
        tags=set(ALLOWED_TAGS),
        clean_content_tags=set(DROPPED_WITH_CONTENT),
        attributes=ALLOWED_ATTRIBUTES,
        attribute_filter=_filter_attribute,
        strip_comments=True,
        link_rel=LINK_REL,
        generic_attribute_prefixes=set(),
        url_schemes=set(LINK_SCHEMES),
    )
