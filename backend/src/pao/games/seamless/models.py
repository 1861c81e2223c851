"""Seamless wallet tables: the provider's transactions (one per provider transaction id, kept
for months), rounds, and the session tokens a launch hands to the provider.

A :class:`SeamlessTransaction` is the record of one provider call that moved money (or, for a
rollback whose bet never arrived, the remembered refusal of that bet). Its columns are the data
a replay must repeat: the same ``(provider, txn_id)`` with different data is refused.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from sqlalchemy import BigInteger, Boolean, ForeignKey, Index, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from pao.core.db import Base, BigId, UtcDateTime
from pao.kit.clock import utcnow
from pao.kit.money import Currency


class TxnKind(StrEnum):
    BET = "bet"
    WIN = "win"
    ROLLBACK = "rollback"


class SeamlessTransaction(Base):
    __tablename__ = "seamless_transactions"
    __table_args__ = (
        UniqueConstraint("provider", "txn_id"),
        # A rollback names the transaction it undoes: at most one per referenced id, and a late
        # bet finds the rollback that came before it.
        Index("ix_seamless_reference", "provider", "reference_id"),
        Index("ix_seamless_member_time", "member_id", "created_at"),
        # A round's transactions (AMB settles and cancels BY_ROUND; the back office's round).
        Index("ix_seamless_round", "provider", "round_id"),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    provider: Mapped[str] = mapped_column(String(20))
    txn_id: Mapped[str] = mapped_column(String(100))
    kind: Mapped[TxnKind] = mapped_column(String(10))
    member_id: Mapped[int] = mapped_column(ForeignKey("members.id"))
    currency: Mapped[Currency] = mapped_column(String(3))
    # Minor units; a rollback carries the amount it gave back (0 when its bet never came).
    amount: Mapped[int] = mapped_column(BigInteger)
    round_id: Mapped[str] = mapped_column(String(100))
    game_code: Mapped[str] = mapped_column(String(100))
    # A win's bet, a rollback's target.
    reference_id: Mapped[str | None] = mapped_column(String(100))
    # A bet undone by a rollback; a bet a win settled (it may no longer be rolled back).
    rolled_back: Mapped[bool] = mapped_column(Boolean, default=False)
    settled: Mapped[bool] = mapped_column(Boolean, default=False)
    entry_id: Mapped[int | None] = mapped_column(ForeignKey("journal_entries.id"))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)


class SeamlessRound(Base):
    """A provider's round as Pao saw it: open until the provider closes it."""

    __tablename__ = "seamless_rounds"
    __table_args__ = (
        UniqueConstraint("provider", "round_id"),
        Index("ix_seamless_rounds_member", "member_id", "opened_at"),
        Index("ix_seamless_rounds_open", "closed_at", "opened_at"),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    provider: Mapped[str] = mapped_column(String(20))
    round_id: Mapped[str] = mapped_column(String(100))
    member_id: Mapped[int] = mapped_column(ForeignKey("members.id"))
    game_code: Mapped[str] = mapped_column(String(100))
    currency: Mapped[Currency] = mapped_column(String(3))
    bets: Mapped[int] = mapped_column(BigInteger, default=0)
    wins: Mapped[int] = mapped_column(BigInteger, default=0)
    opened_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
    closed_at: Mapped[datetime | None] = mapped_column(UtcDateTime)


class SeamlessSession(Base):
    """The token a game launch gives the provider: it names one member, provider, game and
    currency. Bets need it unexpired; wins and rollbacks never look at its age."""

    __tablename__ = "seamless_sessions"

    token: Mapped[str] = mapped_column(String(64), primary_key=True)
    provider: Mapped[str] = mapped_column(String(20))
    member_id: Mapped[int] = mapped_column(ForeignKey("members.id"), index=True)
    game_code: Mapped[str] = mapped_column(String(100))
    currency: Mapped[Currency] = mapped_column(String(3))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(UtcDateTime)


class SeamlessGame(Base):
    """A game of a seamless provider's catalogue, as its game list last said (synced)."""

    __tablename__ = "seamless_games"
    __table_args__ = (UniqueConstraint("provider", "game_code"),)

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    provider: Mapped[str] = mapped_column(String(20))
    game_code: Mapped[str] = mapped_column(String(100))
    name: Mapped[str] = mapped_column(String(120))
    category: Mapped[str] = mapped_column(String(40))
    thumbnail: Mapped[str] = mapped_column(String(500), default="")
    enabled: Mapped[bool] = mapped_column(Boolean, default=True)
    synced_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
