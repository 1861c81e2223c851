"""Time-based one-time passwords (RFC 6238, through pyotp) for the staff's second factor.

Codes are 6 digits over 30-second steps with HMAC-SHA1, which every authenticator app reads
from an ``otpauth://`` URI (shown as a QR code rendered by segno). A code is accepted for the
current step and one step either side (clock drift), and only for a step later than the last
one accepted (``after_step``), so an observed code cannot be replayed within its window.
Time comes from :mod:`pao.kit.clock`, so tests move it.
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass
from datetime import datetime

import pyotp
import segno

from pao.kit.clock import utcnow

ISSUER = "Pao"
DIGITS = 6
STEP_SECONDS = 30
# Steps either side of now that are still accepted (RFC 6238 §5.2: one step of drift).
WINDOW = 1


@dataclass(frozen=True)
class Enrolment:
    """What a staff member scans: the secret, its otpauth URI and the URI as a QR code."""

    secret: str
    uri: str
    qr_svg_data_uri: str


def new_secret() -> str:
    """A random base32 secret of 160 bits (RFC 4226's recommended key length)."""
    return pyotp.random_base32(32)


def is_valid_secret(secret: str) -> bool:
    try:
        pyotp.TOTP(secret).at(0)
    except (ValueError, TypeError):
        return False
    # 80 bits at least: an authenticator accepts shorter keys, an attacker likes them too.
    return len(secret.rstrip("=")) >= 16


def enrolment(*, secret: str, account: str) -> Enrolment:
    uri = pyotp.TOTP(secret, digits=DIGITS, interval=STEP_SECONDS).provisioning_uri(
        name=account, issuer_name=ISSUER
    )
    qr = segno.make(uri, error="m").svg_data_uri(scale=4, border=2)
    return Enrolment(secret=secret, uri=uri, qr_svg_data_uri=qr)


def step_at(at: datetime) -> int:
    return int(at.timestamp()) // STEP_SECONDS


def code_at(secret: str, at: datetime | int, *, digits: int = DIGITS) -> str:
    """The code of ``secret`` at a time (a datetime or Unix seconds)."""
    return pyotp.TOTP(secret, digits=digits, interval=STEP_SECONDS).at(at)


def matching_step(
    secret: str, code: str, *, at: datetime | None = None, after_step: int | None = None
) -> int | None:
    """The time step whose code ``code`` is, within the window around ``at`` (default: now)
    and later than ``after_step``; ``None`` when there is none."""
    code = code.strip()
    if len(code) != DIGITS or not code.isdigit():
        return None
    totp = pyotp.TOTP(secret, digits=DIGITS, interval=STEP_SECONDS)
    now = step_at(at or utcnow())
    found = None
    # Every candidate is compared (constant work), the latest accepted step wins.
    for step in range(now - WINDOW, now + WINDOW + 1):
        if after_step is not None and step <= after_step:
            continue
        if hmac.compare_digest(totp.generate_otp(step), code):
            found = step
    return found
