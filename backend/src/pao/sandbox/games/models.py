"""The sandbox provider's own tables (in the sandbox database, not Pao's)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import BigInteger, Float, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from pao.core.db import UtcDateTime
from pao.kit.clock import utcnow
from pao.sandbox.store import SandboxBase


class SandboxGameAccount(SandboxBase):
    __tablename__ = "sandbox_game_accounts"
    __table_args__ = (UniqueConstraint("brand", "username"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    brand: Mapped[str] = mapped_column(String(20))
    username: Mapped[str] = mapped_column(String(80))
    password: Mapped[str] = mapped_column(String(80))
    member_ref: Mapped[str] = mapped_column(String(80))
    balance: Mapped[int] = mapped_column(BigInteger, default=0)  # minor units
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)


class SandboxGameTransfer(SandboxBase):
    """One processed transfer, keyed by the *client's* transfer id (idempotency key)."""

    __tablename__ = "sandbox_game_transfers"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    transfer_id: Mapped[str] = mapped_column(String(64), unique=True)
    brand: Mapped[str] = mapped_column(String(20))
    username: Mapped[str] = mapped_column(String(80))
    type: Mapped[str] = mapped_column(String(10))  # deposit | withdraw
    amount: Mapped[int] = mapped_column(BigInteger)
    status: Mapped[str] = mapped_column(String(10))  # SUCCESS | FAILED
    reason: Mapped[str | None] = mapped_column(String(40))
    balance_after: Mapped[int] = mapped_column(BigInteger)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)


class SandboxGameBet(SandboxBase):
    __tablename__ = "sandbox_game_bets"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    brand: Mapped[str] = mapped_column(String(20), index=True)
    username: Mapped[str] = mapped_column(String(80), index=True)
    bet: Mapped[int] = mapped_column(BigInteger)
    payout: Mapped[int] = mapped_column(BigInteger)
    reels: Mapped[str] = mapped_column(String(40))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)


class SandboxGameFault(SandboxBase):
    """An armed failure: the next ``remaining`` matching API calls misbehave."""

    __tablename__ = "sandbox_game_faults"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    brand: Mapped[str | None] = mapped_column(String(20))
    username: Mapped[str | None] = mapped_column(String(80))
    # transfer | deposit | withdraw | balance | status | account | launch | any
    operation: Mapped[str] = mapped_column(String(10))
    # timeout: no answer, nothing done · refuse: 400, nothing done · error: 500, nothing done ·
    # late: done, but the answer comes after delay_seconds (past the client's time-out) ·
    # down: 503 MAINTENANCE, nothing done, for every matching call until cleared
    mode: Mapped[str] = mapped_column(String(10))
    remaining: Mapped[int] = mapped_column(Integer, default=1)
    delay_seconds: Mapped[float] = mapped_column(Float, default=30.0)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)


class SandboxGameSession(SandboxBase):
    """A player's session in the sandbox game (from the login page or a launch link)."""

    __tablename__ = "sandbox_game_sessions"

    token: Mapped[str] = mapped_column(String(64), primary_key=True)
    brand: Mapped[str] = mapped_column(String(20))
    username: Mapped[str] = mapped_column(String(80))
    expires_at: Mapped[datetime] = mapped_column(UtcDateTime)
