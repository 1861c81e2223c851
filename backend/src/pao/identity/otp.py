"""One-time passwords for registration (spec §7): send, verify, and use once.

Rules:

* the code is 6 digits from :mod:`secrets`, stored as HMAC-SHA256 keyed by the client's
  ``otpToken``; the token itself is stored as its SHA-256 only;
* a code is valid for 5 minutes; 5 wrong codes burn it (``OTP_BLOCK``), the count being
  committed with the refusal;
* a phone gets at most one SMS per 60 s (``REQUEST_LIMIT_1MIN``) and, per rolling 24 h, at
  most ``otpDailyCapPerPhone`` SMS per phone and ``otpDailyCapPerIp`` per client IP
  (``OTP_BLOCK``). The throttles count rows of ``otp_requests``, so they hold across restarts
  and processes;
* the SMS sender spends each SMS from hourly budgets per phone-number prefix and in total
  (:mod:`pao.identity.sms_budget`, also ``OTP_BLOCK``), which rotating IPs over many numbers
  does not get around;
* a verified OTP stays usable for registration for :data:`VERIFIED_TTL`, and a registration
  consumes it. While one is usable, sending again answers ``OTP_VERIFIED`` without an SMS.

On PostgreSQL concurrent sends for one phone are serialised by a transaction-scoped advisory
lock (SQLite serialises every writer anyway), so two racing sends cannot both pass the 60 s
check.

With an OTP provider (``PAO_OTP_PROVIDER=thaibulksms``, ADR 0030) every rule above still holds
and runs first; only the code changes hands: the provider makes and texts it (its budgets
spent first, :class:`pao.identity.sms.BudgetedOtpProvider`), Pao keeps the provider's token on
the row and shows its refno as the ref, and a verify asks the provider about a PIN only after
Pao's own checks (unknown, used, burned, expired). Every PIN put to the provider counts as a try
unless it answers a definite yes; no usable answer is ``OTP_VERIFY_FAIL``, never a pass. Once
verified, the code's HMAC is kept like Pao's own, so a retried verify is answered without the
provider.
"""

from __future__ import annotations

import hmac
import math
import re
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Literal

from sqlalchemy import ColumnElement, func, select, text
from sqlalchemy.ext.asyncio import AsyncSession

from pao.core.security import hmac_digest, new_token, token_digest
from pao.identity.exceptions import (
    OtpBlock,
    OtpCodeInvalid,
    OtpExpired,
    OtpNotExist,
    OtpTokenInvalid,
    OtpVerifyFail,
    RequestLimit1Min,
)
from pao.identity.models import OTP_TRANSITIONS, OtpRequest, OtpStatus
from pao.identity.otp_provider import OtpProvider, Verdict
from pao.identity.sms import SmsSender
from pao.kit.clock import utcnow
from pao.kit.states import transition

OTP_TTL = timedelta(minutes=5)
# How long a verified phone may take to finish the registration wizard.
VERIFIED_TTL = timedelta(minutes=30)
RESEND_INTERVAL = timedelta(seconds=60)
DAILY_WINDOW = timedelta(hours=24)
MAX_WRONG_ATTEMPTS = 5
CODE_DIGITS = 6
# No 0/O, 1/I: the ref is read off a phone screen.
REF_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
REF_LENGTH = 4
TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{16,128}")
# What is worth putting to an OTP provider (anything else is a wrong try without a call).
PROVIDER_PIN_SHAPE = re.compile(r"[0-9]{4,8}")


@dataclass(frozen=True)
class SentOtp:
    ref: str
    token: str | None  # None when the phone was already verified (nothing new was sent)
    code: Literal["OK", "OTP_VERIFIED"]


def new_code() -> str:
    return f"{secrets.randbelow(10**CODE_DIGITS):0{CODE_DIGITS}d}"


def new_ref() -> str:
    return "".join(secrets.choice(REF_ALPHABET) for _ in range(REF_LENGTH))


def otp_text(*, sender: str, code: str, ref: str) -> str:
    minutes = int(OTP_TTL.total_seconds() // 60)
    return f"{sender} OTP {code} (ref {ref}). Valid {minutes} minutes."


def _code_hmac(token: str, code: str) -> str:
    return hmac_digest(token, code)


async def _lock_phone(session: AsyncSession, phone: str) -> None:
    if session.get_bind().dialect.name == "postgresql":
        await session.execute(
            text("SELECT pg_advisory_xact_lock(hashtext(:key))"), {"key": f"otp:{phone}"}
        )


async def _count_since(session: AsyncSession, where: ColumnElement[Any], since: datetime) -> int:
    query = select(func.count()).select_from(OtpRequest).where(where, OtpRequest.created_at > since)
    return int((await session.execute(query)).scalar_one())


async def find_verified(
    session: AsyncSession, *, phone: str, token: str | None = None
) -> OtpRequest | None:
    """The phone's newest verified, not yet used OTP (the one given by ``token`` if set)."""
    query = select(OtpRequest).where(
        OtpRequest.phone == phone,
        OtpRequest.status == OtpStatus.VERIFIED,
        OtpRequest.verified_at > utcnow() - VERIFIED_TTL,
    )
    if token is not None:
        query = query.where(OtpRequest.token_digest == token_digest(token))
    query = query.order_by(OtpRequest.verified_at.desc()).limit(1)
    return (await session.execute(query)).scalar_one_or_none()


async def send_otp(
    session: AsyncSession,
    *,
    phone: str,
    ip: str,
    sms: SmsSender,
    sender_name: str,
    daily_cap_per_phone: int,
    daily_cap_per_ip: int,
    provider: OtpProvider | None = None,
) -> SentOtp:
    """Send a new code to ``phone`` (already validated) unless a throttle refuses; through
    ``provider`` when one makes the codes."""
    await _lock_phone(session, phone)
    verified = await find_verified(session, phone=phone)
    if verified is not None:
        return SentOtp(ref=verified.ref, token=None, code="OTP_VERIFIED")
    now = utcnow()
    if await _count_since(session, OtpRequest.phone == phone, now - DAILY_WINDOW) >= (
        daily_cap_per_phone
    ):
        raise OtpBlock()
    if await _count_since(session, OtpRequest.ip == ip, now - DAILY_WINDOW) >= daily_cap_per_ip:
        raise OtpBlock()
    last_sent = (
        await session.execute(
            select(func.max(OtpRequest.created_at)).where(OtpRequest.phone == phone)
        )
    ).scalar_one_or_none()
    if last_sent is not None and now - last_sent < RESEND_INTERVAL:
        # The seconds left, so that the app counts down to the moment a resend is taken.
        wait = RESEND_INTERVAL - (now - last_sent)
        raise RequestLimit1Min(retryAfter=max(1, math.ceil(wait.total_seconds())))
    if provider is not None:
        return await _send_through(session, provider, phone=phone, ip=ip, now=now)
    token, code, ref = new_token(), new_code(), new_ref()
    session.add(
        OtpRequest(
            phone=phone,
            ip=ip,
            ref=ref,
            token_digest=token_digest(token),
            code_hmac=_code_hmac(token, code),
            status=OtpStatus.PENDING,
            wrong_attempts=0,
            created_at=now,
            expires_at=now + OTP_TTL,
        )
    )
    await session.flush()
    # Sent last: if the gateway fails, the request rolls back and nothing was counted.
    await sms.send(phone=phone, text=otp_text(sender=sender_name, code=code, ref=ref))
    return SentOtp(ref=ref, token=token, code="OK")


async def _send_through(
    session: AsyncSession, provider: OtpProvider, *, phone: str, ip: str, now: datetime
) -> SentOtp:
    # The provider first (it returns the handle the row keeps); if it refuses, nothing is
    # stored and the request rolls back as with Pao's own SMS.
    sent = await provider.request(phone=phone)
    token = new_token()
    session.add(
        OtpRequest(
            phone=phone,
            ip=ip,
            ref=sent.refno,
            token_digest=token_digest(token),
            code_hmac="",
            provider_token=sent.token,
            status=OtpStatus.PENDING,
            wrong_attempts=0,
            created_at=now,
            expires_at=now + OTP_TTL,
        )
    )
    await session.flush()
    return SentOtp(ref=sent.refno, token=token, code="OK")


async def _provider_verdict(
    provider: OtpProvider | None, *, provider_token: str, code: str
) -> Verdict:
    if not PROVIDER_PIN_SHAPE.fullmatch(code):
        return Verdict.WRONG
    if provider is None:
        return Verdict.UNAVAILABLE
    return await provider.verify(token=provider_token, pin=code)


async def verify_otp(
    session: AsyncSession, *, token: str, code: str, provider: OtpProvider | None = None
) -> Literal["OK", "OTP_VERIFIED"]:
    """Check ``code`` against the OTP behind ``token``; ``OTP_VERIFIED`` on a repeat."""
    if not TOKEN_SHAPE.fullmatch(token):
        raise OtpTokenInvalid()
    # Row lock: two racing wrong guesses must both be counted.
    query = (
        select(OtpRequest).where(OtpRequest.token_digest == token_digest(token)).with_for_update()
    )
    otp = (await session.execute(query)).scalar_one_or_none()
    if otp is None or otp.status == OtpStatus.CONSUMED:
        raise OtpNotExist()
    if otp.status == OtpStatus.BURNED:
        raise OtpBlock()
    now = utcnow()
    matches = hmac.compare_digest(otp.code_hmac, _code_hmac(token, code))
    if otp.status == OtpStatus.VERIFIED:
        # A retried verify (lost answer) succeeds again while the verification is usable.
        if not matches:
            raise OtpCodeInvalid(keeps_changes=False)
        if otp.verified_at is None or otp.verified_at <= now - VERIFIED_TTL:
            raise OtpExpired()
        return "OTP_VERIFIED"
    if otp.expires_at <= now:
        raise OtpExpired()
    verdict = Verdict.VERIFIED if matches else Verdict.WRONG
    if otp.provider_token is not None:
        # Under the row lock: two racing verifies ask the provider once.
        verdict = await _provider_verdict(provider, provider_token=otp.provider_token, code=code)
    if verdict is not Verdict.VERIFIED:
        otp.wrong_attempts += 1
        if otp.wrong_attempts >= MAX_WRONG_ATTEMPTS:
            await transition(
                session,
                otp,
                OtpStatus.BURNED,
                OTP_TRANSITIONS,
                actor="otp-verify",
                reason="too many wrong codes",
            )
            raise OtpBlock(keeps_changes=True)
        if verdict is Verdict.UNAVAILABLE:
            raise OtpVerifyFail()
        raise OtpCodeInvalid()
    await transition(session, otp, OtpStatus.VERIFIED, OTP_TRANSITIONS, actor="otp-verify")
    otp.verified_at = now
    if otp.provider_token is not None:
        otp.code_hmac = _code_hmac(token, code)
    return "OK"


async def consume(session: AsyncSession, *, otp: OtpRequest) -> None:
    """Mark a verified OTP as used by a registration (single use)."""
    await transition(session, otp, OtpStatus.CONSUMED, OTP_TRANSITIONS, actor="registration")
    otp.consumed_at = utcnow()
