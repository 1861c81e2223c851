"""The operator's variant (Thai, or Lao with ``PAO_LAO_MODE``), told to the SPA at start.

One build serves every operator: the server writes the variant into the document it serves,
so the app knows it before its first request (no rebuild per operator, no lookup round trip
before the first paint). In the Lao variant both documents, the player's ``index.html`` and the
back office's ``backoffice.html``, get ``<meta name="pao-variant" content="la">``, read by
``frontend/src/lib/env.ts`` (the default language, the currency amounts are shown in) and by
the player document's inline preload script (its default language), and ``<html lang="lo">``.
The Thai variant's documents are served as built: no meta means Thai.
"""

from __future__ import annotations

import re

VARIANT_META = b'<meta name="pao-variant" content="la" />'
_HEAD = re.compile(rb"<head(\s[^>]*)?>", re.IGNORECASE)
_HTML_LANG = re.compile(rb'(<html\b[^>]*\blang=")[^"]*(")', re.IGNORECASE)


def variant_document(html: bytes, *, lao_mode: bool) -> bytes:
    """``html`` (a built document: ``index.html``, ``backoffice.html``) as served to this
    operator's players or staff."""
    if not lao_mode:
        return html
    head = _HEAD.search(html)
    if head is None:
        # The meta must come before the inline script that reads it, which sits in <head>.
        raise RuntimeError("a document of the SPA has no <head> to name the Lao variant in")
    html = html[: head.end()] + b"\n    " + VARIANT_META + html[head.end() :]
    # "lo" is Lao's language tag (the app's own code for it is "la").
    return _HTML_LANG.sub(rb"\1lo\2", html, count=1)
