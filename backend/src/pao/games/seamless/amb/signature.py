"""``sapi-timestamp`` / ``sapi-signature``: hex HMAC-SHA256 keyed with the operator's
``signatureKey``. What exactly AMB signs is not in the documentation Pao's authors could read
(UNCONFIRMED): by default the timestamp's digits followed by the raw body, or the raw body alone
(``PAO_AMB_SIGNATURE_INPUT``). Unlike the reference operator (which checks nothing), Pao refuses
an unsigned or stale call: a forged callback must move nothing (ADR 0025)."""

from __future__ import annotations

import hashlib
import hmac
import time

from pao.core.settings import Settings

TIMESTAMP = "sapi-timestamp"
SIGNATURE = "sapi-signature"


def signed_input(settings: Settings, timestamp: str, body: bytes) -> bytes:
    if settings.amb_signature_input == "body":
        return body
    return timestamp.encode() + body


def sign(settings: Settings, timestamp: str, body: bytes) -> str:
    key = settings.amb_signature_key.encode()
    return hmac.new(key, signed_input(settings, timestamp, body), hashlib.sha256).hexdigest()


def verify(settings: Settings, timestamp: str | None, signature: str | None, body: bytes) -> bool:
    if not timestamp or not signature or not timestamp.isdigit() or len(timestamp) > 16:
        return False
    if abs(time.time() * 1000 - int(timestamp)) > settings.amb_timestamp_tolerance_seconds * 1000:
        return False
    return hmac.compare_digest(sign(settings, timestamp, body), signature.strip().lower())
