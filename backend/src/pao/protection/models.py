"""What player protection remembers of its own: every time it refused a member (a deposit, a
transfer to a game or a bet over a limit, or while excluded) and every payment it could not
refuse but credited over a limit (flagged to staff). Rows are appended, never changed: the
report of members who hit limits and the member page read them."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from sqlalchemy import BigInteger, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from pao.core.db import Base, BigId, UtcDateTime
from pao.kit.clock import utcnow


class HitKind(StrEnum):
    """Which rule was hit."""

    DEPOSIT_LIMIT = "deposit_limit"
    LOSS_LIMIT = "loss_limit"
    EXCLUSION = "exclusion"


class HitOutcome(StrEnum):
    REFUSED = "refused"  # nothing moved
    # Money that had already left the member's bank (a paid QR, a slip, a voucher): credited,
    # never lost, and flagged for staff to look at.
    CREDITED = "credited"


class ProtectionHit(Base):
    __tablename__ = "protection_hits"
    __table_args__ = (
        Index("ix_protection_hits_at", "at"),
        Index("ix_protection_hits_member_at", "member_id", "at"),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    member_id: Mapped[int] = mapped_column(ForeignKey("members.id"))
    kind: Mapped[HitKind] = mapped_column(String(20))
    outcome: Mapped[HitOutcome] = mapped_column(String(10))
    # Where: qr | slip | truemoney | gateway | game | seamless | … (the deposit's channel).
    channel: Mapped[str] = mapped_column(String(20))
    # Minor units of ``currency``; None: not known when refused (a slip before it is read).
    amount: Mapped[int | None] = mapped_column(BigInteger)
    currency: Mapped[str] = mapped_column(String(3))
    # The credited payment (``qr:12``, ``slip:3``), for a flag.
    reference: Mapped[str | None] = mapped_column(String(120))
    at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)


class ProtectionSetting(Base):
    """A member's own protection choices that are not limits: the reality-check interval.
    A row only for members who chose one (none: off)."""

    __tablename__ = "protection_settings"

    member_id: Mapped[int] = mapped_column(ForeignKey("members.id"), primary_key=True)
    # Minutes between reminders while logged in; None: off.
    reality_check_minutes: Mapped[int | None] = mapped_column(Integer)
    updated_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
