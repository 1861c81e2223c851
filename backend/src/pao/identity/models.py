"""Members, their login sessions, the OTPs sent to phones, and the record of changes to who a
member is and where their money is paid out."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    Connection,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
    UniqueConstraint,
    event,
    false,
)
from sqlalchemy.orm import Mapped, mapped_column

from pao.core.db import Base, BigId, UtcDateTime
from pao.kit.clock import utcnow
from pao.kit.money import Currency


class MemberStatus(StrEnum):
    ACTIVE = "ACTIVE"
    # Suspended by the operator: no login, every session ended (pao.identity.admin).
    INACTIVE = "INACTIVE"


MEMBER_TRANSITIONS: dict[MemberStatus, frozenset[MemberStatus]] = {
    MemberStatus.ACTIVE: frozenset({MemberStatus.INACTIVE}),
    MemberStatus.INACTIVE: frozenset({MemberStatus.ACTIVE}),
}


class Member(Base):
    __tablename__ = "members"
    __table_args__ = (
        UniqueConstraint("bank_code", "bank_account_no"),
        # Registrations over a range of days (the reports).
        Index("ix_members_currency_created_at", "currency", "created_at"),
        # Other members on an account number or a holder name: the back office's withdrawal
        # queue flags every row with it ("linked accounts").
        Index("ix_members_bank_account_no", "bank_account_no"),
        Index("ix_members_bank_account_name", "bank_account_name"),
    )

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
    # Player protection (pao.identity.protection): no deposits, play or bonuses before this
    # time (a time-out or a self-exclusion; withdrawals stay open). Kept on the member so that
    # every money path reads it with the member it has loaded anyway.
    excluded_until: Mapped[datetime | None] = mapped_column(UtcDateTime)
    # Whether the member ever set a deposit or loss limit: without one, the money paths do not
    # look the limits up at all (no extra round trip on a deposit, a transfer or a bet).
    limits_set: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())

    @property
    def invite_code(self) -> str:
        return f"PR{self.id}"


class LoginSession(Base):
    """An opaque bearer token, stored as its SHA-256 digest; revocable."""

    __tablename__ = "login_sessions"
    __table_args__ = (
        # Members who logged in on one device, or from one address in a short window, are
        # linked (pao.identity.links): both are looked up from every login of a member.
        Index("ix_login_sessions_device_id", "device_id"),
        Index("ix_login_sessions_ip_created_at", "ip", "created_at"),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    member_id: Mapped[int] = mapped_column(ForeignKey("members.id"), index=True)
    token_digest: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(UtcDateTime)
    revoked_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
    ip: Mapped[str | None] = mapped_column(String(64))
    user_agent: Mapped[str | None] = mapped_column(String(300))
    # The player app's own id of the browser it runs in (pao.identity.device), when it sent one.
    device_id: Mapped[str | None] = mapped_column(String(64))


class MemberNote(Base):
    """A staff member's note on a member (support context: "called about a late payout").
    Notes are only added, never edited: the list is the history."""

    __tablename__ = "member_notes"
    __table_args__ = (Index("ix_member_notes_member_created", "member_id", "created_at"),)

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    member_id: Mapped[int] = mapped_column(ForeignKey("members.id"))
    # Who wrote it: the staff id (no FK: identity does not depend on the back office's
    # tables) and their login at the time.
    author_id: Mapped[int | None] = mapped_column(BigId)
    author: Mapped[str] = mapped_column(String(80))
    body: Mapped[str] = mapped_column(String(2000))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)


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
    # Pao's own ref, or the OTP provider's refno (ADR 0030).
    ref: Mapped[str] = mapped_column(String(16))
    token_digest: Mapped[str] = mapped_column(String(64), unique=True)
    # With an OTP provider: empty until the provider said yes, then the HMAC of that code (a
    # retried verify is then answered here, without asking the provider again).
    code_hmac: Mapped[str] = mapped_column(String(64))
    # The OTP provider's handle on its code (PAO_OTP_PROVIDER=thaibulksms); None: Pao's code.
    # Never logged or shown: with the OTP key and secret it checks a PIN.
    provider_token: Mapped[str | None] = mapped_column(String(255))
    status: Mapped[OtpStatus] = mapped_column(String(10), default=OtpStatus.PENDING)
    wrong_attempts: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(UtcDateTime)
    verified_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
    consumed_at: Mapped[datetime | None] = mapped_column(UtcDateTime)


class MemberChangeKind(StrEnum):
    """What a :class:`MemberChange` changed."""

    NAME = "NAME"
    BANK_ACCOUNT = "BANK_ACCOUNT"  # the bank and/or the account number
    BANK_ACCOUNT_NAME = "BANK_ACCOUNT_NAME"  # the account holder's name
    PASSWORD = "PASSWORD"  # the event only: no password or hash is ever stored


class MemberChange(Base):
    """One change of who a member is or where their money goes, with where it came from.

    Append-only: rows are only ever inserted (by :func:`pao.identity.changes.record_change`),
    and the database refuses UPDATE and DELETE (:data:`APPEND_ONLY_DDL`)."""

    __tablename__ = "member_changes"
    __table_args__ = (Index("ix_member_changes_member_created", "member_id", "created_at"),)

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    member_id: Mapped[int] = mapped_column(ForeignKey("members.id"))
    kind: Mapped[MemberChangeKind] = mapped_column(String(20))
    old_value: Mapped[str | None] = mapped_column(String(200))
    new_value: Mapped[str | None] = mapped_column(String(200))
    ip: Mapped[str | None] = mapped_column(String(64))
    user_agent: Mapped[str | None] = mapped_column(String(300))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)


# The guards of member_changes; migration 0003 runs the same statements. (TRUNCATE, used only
# by tests, is not a row operation.)
APPEND_ONLY_DDL: dict[str, list[str]] = {
    "postgresql": [
        """
        CREATE OR REPLACE FUNCTION pao_member_changes_append_only() RETURNS trigger AS $$
        BEGIN
          RAISE EXCEPTION 'member_changes is append-only' USING ERRCODE = 'restrict_violation';
        END $$ LANGUAGE plpgsql
        """,
        """
        CREATE TRIGGER member_changes_append_only BEFORE UPDATE OR DELETE ON member_changes
        FOR EACH ROW EXECUTE FUNCTION pao_member_changes_append_only()
        """,
    ],
    "sqlite": [
        """
        CREATE TRIGGER member_changes_no_update BEFORE UPDATE ON member_changes
        BEGIN SELECT RAISE(ABORT, 'member_changes is append-only'); END
        """,
        """
        CREATE TRIGGER member_changes_no_delete BEFORE DELETE ON member_changes
        BEGIN SELECT RAISE(ABORT, 'member_changes is append-only'); END
        """,
    ],
}


@event.listens_for(MemberChange.__table__, "after_create")
def _append_only(_table: Table, connection: Connection, **_kw: Any) -> None:
    """The guards come with the table wherever it is created from the models (tests)."""
    for statement in APPEND_ONLY_DDL.get(connection.dialect.name, []):
        connection.exec_driver_sql(statement)


class ExclusionKind(StrEnum):
    TIMEOUT = "timeout"  # 1 to 30 days, ends by itself
    SELF_EXCLUSION = "self_exclusion"  # 6 months to indefinite, ends only on request + 24 h


class PlayExclusion(Base):
    """A time-out or self-exclusion the member took (kept: the history staff read)."""

    __tablename__ = "play_exclusions"

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    member_id: Mapped[int] = mapped_column(ForeignKey("members.id"), index=True)
    kind: Mapped[ExclusionKind] = mapped_column(String(20))
    starts_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
    # The period's end; None: indefinite.
    ends_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
    # A self-exclusion whose period is over ends 24 h after the member asks.
    end_requested_at: Mapped[datetime | None] = mapped_column(UtcDateTime)


class DepositLimit(Base):
    """A member's deposit limit (``kind`` deposit) or loss limit (``kind`` loss: deposits less
    withdrawals) over one period, as set at ``created_at`` and in force from ``effective_from``
    (a decrease at once, an increase or removal 24 h later). Rows are never changed: the latest
    one in force is the limit, the rest its history."""

    __tablename__ = "deposit_limits"
    __table_args__ = (Index("ix_deposit_limits_member_period", "member_id", "period", "id"),)

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    member_id: Mapped[int] = mapped_column(ForeignKey("members.id"))
    period: Mapped[str] = mapped_column(String(5))  # day | week | month
    kind: Mapped[str] = mapped_column(String(10), default="deposit")  # deposit | loss
    amount: Mapped[int | None] = mapped_column(BigInteger)  # minor units; None: no limit
    currency: Mapped[Currency] = mapped_column(String(3))
    effective_from: Mapped[datetime] = mapped_column(UtcDateTime)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
