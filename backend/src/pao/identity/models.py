"""Members, their login sessions and the OTPs sent to phones."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from sqlalchemy import ForeignKey, Index, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from pao.core.db import Base, BigId, UtcDateTime
from pao.kit.clock import utcnow
from pao.kit.money import Currency


class MemberStatus(StrEnum):
    ACTIVE = "ACTIVE"
    INACTIVE = "INACTIVE"


class Member(Base):
    __tablename__ = "members"
    __table_args__ = (UniqueConstraint("bank_code", "bank_account_no"),)

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    phone: Mapped[str] = mapped_column(String(20), unique=True)
    name: Mapped[str] = mapped_column(String(100))
    password_hash: Mapped[str] = mapped_column(String(200))
    status: Mapped[MemberStatus] = mapped_column(String(10), default=MemberStatus.ACTIVE)
    currency: Mapped[Currency] = mapped_column(String(3), default=Currency.THB)
    bank_code: Mapped[str] = mapped_column(String(10))
    bank_account_name: Mapped[str] = mapped_column(String(100))
    bank_account_no: Mapped[str] = mapped_column(String(20))
    source_code: Mapped[str | None] = mapped_column(String(40))
    inviter_id: Mapped[int | None] = mapped_column(ForeignKey("members.id"), index=True)
    # Prize-wheel coins; earned and spent by the promotions domain.
    coin: Mapped[int] = mapped_column(Integer, default=0)
    agreement_accepted_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)

    @property
    def invite_code(self) -> str:
        return f"PR{self.id}"


class LoginSession(Base):
    """An opaque bearer token, stored as its SHA-256 digest; revocable."""

    __tablename__ = "login_sessions"

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    member_id: Mapped[int] = mapped_column(ForeignKey("members.id"), index=True)
    token_digest: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(UtcDateTime)
    revoked_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
    ip: Mapped[str | None] = mapped_column(String(64))
    user_agent: Mapped[str | None] = mapped_column(String(300))


class OtpStatus(StrEnum):
    PENDING = "PENDING"  # sent, waiting for the code (until it expires)
    VERIFIED = "VERIFIED"  # the right code was given; registration may use it
    BURNED = "BURNED"  # too many wrong codes
    CONSUMED = "CONSUMED"  # used by a registration


OTP_TRANSITIONS: dict[OtpStatus, frozenset[OtpStatus]] = {
    OtpStatus.PENDING: frozenset({OtpStatus.VERIFIED, OtpStatus.BURNED}),
    OtpStatus.VERIFIED: frozenset({OtpStatus.CONSUMED}),
    OtpStatus.BURNED: frozenset(),
    OtpStatus.CONSUMED: frozenset(),
}


class OtpRequest(Base):
    """One OTP sent by SMS. Send throttles count these rows, so they survive restarts.

    The client holds ``otpToken``; the table keeps its SHA-256 and the code as
    HMAC-SHA256 keyed by the token, so neither a code nor a usable token can be read back
    from the database.
    """

    __tablename__ = "otp_requests"
    __table_args__ = (
        Index("ix_otp_requests_phone_created_at", "phone", "created_at"),
        Index("ix_otp_requests_ip_created_at", "ip", "created_at"),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    phone: Mapped[str] = mapped_column(String(20))
    ip: Mapped[str] = mapped_column(String(64))
    ref: Mapped[str] = mapped_column(String(8))
    token_digest: Mapped[str] = mapped_column(String(64), unique=True)
    code_hmac: Mapped[str] = mapped_column(String(64))
    status: Mapped[OtpStatus] = mapped_column(String(10), default=OtpStatus.PENDING)
    wrong_attempts: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(UtcDateTime)
    verified_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
    consumed_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
