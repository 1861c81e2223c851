"""Links to chat files for LINE: LINE fetches an image message's picture by URL itself.

A chat file has no public URL (the web chat fetches it with the caller's credentials); LINE has
none of those, so a file sent to LINE gets a link that carries its own proof:
``/api/line/media/{key}.{mac}``, ``mac`` = base64url(HMAC-SHA256(channel secret, key))[:22]
(128 bits). It opens only that file, only while the channel secret stays the same; the key
alone (which a LINE user never sees anyway) opens nothing.
"""

from __future__ import annotations

import base64
import hashlib
import hmac

_MAC_CHARS = 22


def _mac(secret: str, key: str) -> str:
    digest = hmac.new(secret.encode(), key.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode()[:_MAC_CHARS]


def media_token(secret: str, key: str) -> str:
    encoded = base64.urlsafe_b64encode(key.encode()).decode().rstrip("=")
    return f"{encoded}.{_mac(secret, key)}"


def key_of(secret: str, token: str) -> str | None:
    """The file key a token names, or None for a token Pao did not sign."""
    encoded, _, mac = token.partition(".")
    if not encoded or len(mac) != _MAC_CHARS:
        return None
    try:
        key = base64.urlsafe_b64decode(encoded + "=" * (-len(encoded) % 4)).decode()
    except (ValueError, UnicodeDecodeError):
        return None
    if not hmac.compare_digest(mac.encode(), _mac(secret, key).encode()):
        return None
    return key


def media_url(base_url: str, secret: str, key: str) -> str:
    return f"{base_url.rstrip('/')}/api/line/media/{media_token(secret, key)}"
