"""Tables of the back office: staff, their sessions and login challenges, the audit log.

Staff tokens live in ``staff_sessions`` only (a SHA-256 digest, like members' tokens in
``login_sessions``): a member token is never found where a staff route looks, and a staff
token never where a member route does. ``audit_log`` is append-only (database triggers,
:mod:`pao.backoffice.ddl`).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from pao.core.db import Base, BigId, UtcDateTime
from pao.kit.clock import utcnow


class Staff(Base):
    """Someone who works on the operator's side (chat agents are staff with the support role).

    ``totp_secret`` is set and not yet enrolled (``totp_enrolled_at`` NULL) between creation
    (or a 2FA reset) and the first code confirmed at login; NULL after a reset until the next
    login generates a new one. ``totp_last_step`` is the time step of the last code accepted:
    a code is accepted only for a later step, so a code cannot log in twice.
    """

    __tablename__ = "staff"

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    login: Mapped[str] = mapped_column(String(40), unique=True)
    display_name: Mapped[str] = mapped_column(String(80))
    role: Mapped[str] = mapped_column(String(20))
    password_hash: Mapped[str] = mapped_column(String(200))
    totp_secret: Mapped[str | None] = mapped_column(String(64))
    totp_enrolled_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
    totp_last_step: Mapped[int | None] = mapped_column(BigInteger)
    disabled_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
    last_login_at: Mapped[datetime | None] = mapped_column(UtcDateTime)

    @property
    def active(self) -> bool:
        return self.disabled_at is None

    @property
    def enrolled(self) -> bool:
        return self.totp_enrolled_at is not None and self.totp_secret is not None


class StaffLoginChallenge(Base):
    """The step between a right password and the TOTP code: a short-lived, single-use ticket.

    No session exists before the code is confirmed; the ticket proves only the password."""

    __tablename__ = "staff_login_challenges"

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    staff_id: Mapped[int] = mapped_column(ForeignKey("staff.id"), index=True)
    token_digest: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(UtcDateTime)
    used_at: Mapped[datetime | None] = mapped_column(UtcDateTime)


class StaffSession(Base):
    """A staff member's bearer token (its digest), with an absolute expiry; idle, it locks
    (``locked_at``) until its password is given again (pao.backoffice.sessions.lock), and
    ``unlock_attempts`` counts the tries reserved at the lock screen since it locked."""

    __tablename__ = "staff_sessions"

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    staff_id: Mapped[int] = mapped_column(ForeignKey("staff.id"), index=True)
    token_digest: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
    last_seen_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(UtcDateTime)
    revoked_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
    locked_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
    unlock_attempts: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    ip: Mapped[str | None] = mapped_column(String(45))
    user_agent: Mapped[str | None] = mapped_column(String(300))


class AuditEntry(Base):
    """One thing a staff member (or an operator at the shell) did or opened. Append-only.

    ``actor`` names who acted even without a staff row (``ops:<OS user>`` for ``pao ops``);
    ``before``/``after`` hold the changed fields' values, never secrets (no password hash, no
    TOTP secret)."""

    __tablename__ = "audit_log"
    __table_args__ = (
        Index("ix_audit_log_object", "object_type", "object_id"),
        Index("ix_audit_log_staff_at", "staff_id", "at"),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow, index=True)
    staff_id: Mapped[int | None] = mapped_column(ForeignKey("staff.id"))
    staff_role: Mapped[str | None] = mapped_column(String(20))
    actor: Mapped[str] = mapped_column(String(80))
    action: Mapped[str] = mapped_column(String(60), index=True)
    object_type: Mapped[str | None] = mapped_column(String(40))
    object_id: Mapped[str | None] = mapped_column(String(64))
    before: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    after: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    ip: Mapped[str | None] = mapped_column(String(45))
    detail: Mapped[str | None] = mapped_column(String(500))
