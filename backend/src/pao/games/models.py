"""Games tables: the catalogue of games, members' accounts at providers, transfers.

A :class:`Game` is one launch code of spec §9 (JOKER, PG, …) backed by a provider adapter.
A :class:`GameAccount` is a member's account at that game's provider (credentials and the last
balance the provider told us). A :class:`GameTransfer` is one movement of money between the
wallet and a game, run as a saga (see :mod:`pao.games.transfers`)::

    PENDING ──provider confirmed──► SUCCESS
       └─────provider refused─────► FAILED

PENDING also covers an unknown outcome (time-out, 5xx): the reconciler asks the provider
until it knows. ``transfer_id`` is *our* id, sent to the provider as its idempotency key.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from pao.core.db import Base, BigId, UtcDateTime
from pao.kit.clock import utcnow
from pao.kit.money import Currency


class GameCategory(StrEnum):
    SLOT = "slot"
    SPORT = "sport"  # sport plus casino
    LOTTO = "lotto"


class TransferDirection(StrEnum):
    IN = "in"  # wallet → game (a provider deposit)
    OUT = "out"  # game → wallet (a provider withdraw)


class GameTransferStatus(StrEnum):
    PENDING = "PENDING"
    SUCCESS = "SUCCESS"
    FAILED = "FAILED"


GAME_TRANSFER_TRANSITIONS: dict[GameTransferStatus, frozenset[GameTransferStatus]] = {
    GameTransferStatus.PENDING: frozenset({GameTransferStatus.SUCCESS, GameTransferStatus.FAILED}),
    GameTransferStatus.SUCCESS: frozenset(),
    GameTransferStatus.FAILED: frozenset(),
}


class Game(Base):
    __tablename__ = "games"

    code: Mapped[str] = mapped_column(String(20), primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    category: Mapped[GameCategory] = mapped_column(String(10))
    # Which adapter speaks to it ("sandbox" → the HTTP adapter against /sandbox/games).
    provider: Mapped[str] = mapped_column(String(20), default="sandbox")
    # A display factor (spec §2: card amount × ftWalletSlot); never used to move money.
    ft_wallet_slot: Mapped[float] = mapped_column(Float, default=1.0)
    logo: Mapped[str] = mapped_column(String(300))
    background: Mapped[str] = mapped_column(String(300))
    web: Mapped[str | None] = mapped_column(String(300))
    android: Mapped[str | None] = mapped_column(String(300))
    ios: Mapped[str | None] = mapped_column(String(300))
    sort_order: Mapped[int] = mapped_column(Integer, default=0)
    enabled: Mapped[bool] = mapped_column(Boolean, default=True)


class GameAccount(Base):
    __tablename__ = "game_accounts"
    __table_args__ = (
        UniqueConstraint("member_id", "game_code"),
        UniqueConstraint("game_code", "username"),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    member_id: Mapped[int] = mapped_column(ForeignKey("members.id"), index=True)
    game_code: Mapped[str] = mapped_column(ForeignKey("games.code"))
    username: Mapped[str] = mapped_column(String(80))
    # The member must be able to read it back (spec: credentials with copy), so it is kept as
    # the provider issued it; it opens only the member's own game account.
    password: Mapped[str] = mapped_column(String(80))
    # The provider's balance when we last asked (minor units); None before the first answer.
    last_balance: Mapped[int | None] = mapped_column(BigInteger)
    balance_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)


class GameTransfer(Base):
    __tablename__ = "game_transfers"
    __table_args__ = (
        CheckConstraint("amount > 0", name="positive"),
        Index("ix_game_transfers_status_check", "status", "next_check_at"),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    transfer_id: Mapped[str] = mapped_column(String(64), unique=True)
    member_id: Mapped[int] = mapped_column(ForeignKey("members.id"), index=True)
    game_code: Mapped[str] = mapped_column(ForeignKey("games.code"))
    direction: Mapped[TransferDirection] = mapped_column(String(3))
    amount: Mapped[int] = mapped_column(BigInteger)
    currency: Mapped[Currency] = mapped_column(String(3))
    status: Mapped[GameTransferStatus] = mapped_column(
        String(10), default=GameTransferStatus.PENDING
    )
    # Wallet → game: the ledger hold placed in transaction 1 (posted or voided in 2).
    hold_id: Mapped[int | None] = mapped_column(ForeignKey("ledger_holds.id"), unique=True)
    # Game → game goes through the wallet: leg one (out) names the game of leg two (in).
    then_to: Mapped[str | None] = mapped_column(String(20))
    parent_id: Mapped[int | None] = mapped_column(ForeignKey("game_transfers.id"))
    # What the member sees: the original from/to of the request.
    from_label: Mapped[str] = mapped_column(String(20))
    to_label: Mapped[str] = mapped_column(String(20))
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    # The reconciler's lease: a PENDING transfer is looked at again from this time on.
    next_check_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
    error: Mapped[str | None] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
    settled_at: Mapped[datetime | None] = mapped_column(UtcDateTime)


class ProviderMaintenance(Base):
    """A provider (game code) the operator put into maintenance (pao.games.maintenance).

    One row while it lasts; ending it deletes the row (the audit log keeps the history). A
    planned end (``until``) in the past ends it by itself."""

    __tablename__ = "provider_maintenance"

    game_code: Mapped[str] = mapped_column(ForeignKey("games.code"), primary_key=True)
    reason: Mapped[str] = mapped_column(String(200))
    until: Mapped[datetime | None] = mapped_column(UtcDateTime)
    set_by: Mapped[str] = mapped_column(String(80))
    set_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
