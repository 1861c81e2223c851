"""Strict parsing of a TrueMoney gift link: ``https://gift.truemoney.com/campaign/?v=<hash>``.

Only that scheme and host (no port, no user info, no fragment), the ``/campaign`` path, and
exactly one query parameter ``v`` holding the voucher hash (letters and digits) are accepted:
anything else could send the member's voucher elsewhere or smuggle a second value.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, urlsplit

HOST = "gift.truemoney.com"
VOUCHER_HASH = re.compile(r"[0-9A-Za-z]{10,64}")
MAX_LINK = 300


class InvalidGiftLink(ValueError):
    pass


def voucher_hash(link: str) -> str:
    text = link.strip()
    if not text or len(text) > MAX_LINK or not text.isascii() or any(c.isspace() for c in text):
        raise InvalidGiftLink("not a link")
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError as exc:
        raise InvalidGiftLink("not a link") from exc
    if parts.scheme != "https" or parts.hostname != HOST or parts.netloc.lower() != HOST:
        raise InvalidGiftLink("not a TrueMoney gift link")
    if port is not None or parts.fragment:
        raise InvalidGiftLink("unexpected port or fragment")
    if parts.path not in ("/campaign", "/campaign/"):
        raise InvalidGiftLink("unexpected path")
    try:
        params = parse_qsl(parts.query, keep_blank_values=True, strict_parsing=True)
    except ValueError as exc:
        raise InvalidGiftLink("bad query") from exc
    if len(params) != 1 or params[0][0] != "v":
        raise InvalidGiftLink("the link must carry exactly one parameter v")
    value = params[0][1]
    if not VOUCHER_HASH.fullmatch(value):
        raise InvalidGiftLink("bad voucher hash")
    return value
