"""The slip checkers' tables (in the sandbox's own database)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import JSON, Boolean, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from pao.core.db import UtcDateTime
from pao.kit.clock import utcnow
from pao.sandbox.store import SandboxBase


class SlipCheckControl(SandboxBase):
    """How a provider behaves (a test control; no row = the defaults)."""

    __tablename__ = "sandbox_slipcheck_controls"

    provider: Mapped[str] = mapped_column(String(20), primary_key=True)
    # A transfer younger than this is "too new, retry later" (0: never).
    too_new_seconds: Mapped[int] = mapped_column(Integer, default=0)
    # The switch: every check answers "quota used up".
    quota_exhausted: Mapped[bool] = mapped_column(Boolean, default=False)
    # SlipOK's branch accounts ("BANK:number"): when set, a slip paid elsewhere is 1014.
    receiver_accounts: Mapped[list[str]] = mapped_column(JSON, default=list)


class SlipCheckSeen(SandboxBase):
    """A slip a provider has checked and remembered (its duplicate flag)."""

    __tablename__ = "sandbox_slipcheck_seen"
    __table_args__ = (UniqueConstraint("provider", "sending_bank", "reference"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    provider: Mapped[str] = mapped_column(String(20))
    sending_bank: Mapped[str] = mapped_column(String(3))
    reference: Mapped[str] = mapped_column(String(40))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)


class ScbToken(SandboxBase):
    """An access token the sandbox SCB gave out."""

    __tablename__ = "sandbox_scb_tokens"

    token: Mapped[str] = mapped_column(String(64), primary_key=True)
    expires_at: Mapped[datetime] = mapped_column(UtcDateTime)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
