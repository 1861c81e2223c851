"""Ledger tables: accounts with cached balances, append-only entries and postings, holds.

Sign convention: a posting's amount is signed and an entry's postings sum to zero per
currency. A *positive* balance on a player account is money Pao owes the player; system
accounts (clearing, float, expense) may go negative. See docs/domain/ledger.md.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    ForeignKey,
    Index,
    SmallInteger,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from pao.core.db import Base, BigId, UtcDateTime
from pao.kit.clock import utcnow
from pao.kit.money import Currency


class AccountKind(StrEnum):
    """The chart of accounts. ``owner`` says whose: a member id, a provider code or ''."""

    PLAYER_WALLET = "player_wallet"  # owner = member id; never negative
    BANK_CLEARING = "bank_clearing"  # money received into the operator's bank accounts
    GATEWAY_CLEARING = "gateway_clearing"  # owner = gateway code (WW, PAYTIMZ, …)
    WALLET_PROVIDER_CLEARING = "wallet_provider_clearing"  # TrueMoney
    PAYOUT_CLEARING = "payout_clearing"  # money paid out to members' banks
    WITHDRAWALS_PENDING = "withdrawals_pending"  # suspense: held withdrawals
    GAME_TRANSFERS_PENDING = "game_transfers_pending"  # suspense: transfers in flight
    PROVIDER_FLOAT = "provider_float"  # owner = game provider code: member money at providers
    # owner = seamless provider code: stakes its games took from wallets, less what they paid
    # back (the operator's gross gaming revenue with that provider).
    SEAMLESS_CLEARING = "seamless_clearing"
    BONUS_EXPENSE = "bonus_expense"  # promotions paid by the operator
    MANUAL_ADJUSTMENTS = "manual_adjustments"  # operator credits with who/why

    @property
    def may_go_negative(self) -> bool:
        return self is not AccountKind.PLAYER_WALLET

    @property
    def shared(self) -> bool:
        """An operator account that every member's movements touch: split into shard rows."""
        return self in _SHARED


_SHARED = frozenset(
    {
        AccountKind.BANK_CLEARING,
        AccountKind.GATEWAY_CLEARING,
        AccountKind.WALLET_PROVIDER_CLEARING,
        AccountKind.PAYOUT_CLEARING,
        AccountKind.PROVIDER_FLOAT,
        AccountKind.SEAMLESS_CLEARING,
        AccountKind.BONUS_EXPENSE,
        AccountKind.MANUAL_ADJUSTMENTS,
    }
)

# Rows per shared account (ADR 0014). A movement for member m uses shard m % SHARDS, so two
# members queue on the same row only when their ids agree modulo SHARDS. Raising it later is
# safe: new shards open on first use, and every reader sums an account over all its rows.
SHARDS = 32


def shard_of(kind: AccountKind, member_id: int | None) -> int:
    """The shard row of ``kind`` that a movement of ``member_id`` uses (0 if not shared)."""
    if member_id is None or not kind.shared:
        return 0
    return member_id % SHARDS


class HoldStatus(StrEnum):
    PENDING = "PENDING"
    POSTED = "POSTED"
    VOIDED = "VOIDED"


HOLD_TRANSITIONS: dict[HoldStatus, frozenset[HoldStatus]] = {
    HoldStatus.PENDING: frozenset({HoldStatus.POSTED, HoldStatus.VOIDED}),
    HoldStatus.POSTED: frozenset(),
    HoldStatus.VOIDED: frozenset(),
}


class LedgerAccount(Base):
    __tablename__ = "ledger_accounts"
    __table_args__ = (
        UniqueConstraint("kind", "owner", "currency", "shard"),
        CheckConstraint("may_go_negative OR balance >= 0", name="non_negative"),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    kind: Mapped[AccountKind] = mapped_column(String(40))
    owner: Mapped[str] = mapped_column(String(64), default="")
    currency: Mapped[Currency] = mapped_column(String(3))
    # One account (kind, owner, currency) may span several rows: see SHARDS.
    shard: Mapped[int] = mapped_column(SmallInteger, default=0, server_default="0")
    balance: Mapped[int] = mapped_column(BigInteger, default=0)
    may_go_negative: Mapped[bool] = mapped_column(Boolean)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)


class JournalEntry(Base):
    __tablename__ = "journal_entries"

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    kind: Mapped[str] = mapped_column(String(40), index=True)
    actor: Mapped[str] = mapped_column(String(80))
    memo: Mapped[str] = mapped_column(String(500), default="")
    reverses_id: Mapped[int | None] = mapped_column(
        ForeignKey("journal_entries.id"), unique=True, default=None
    )
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow, index=True)


class Posting(Base):
    __tablename__ = "postings"
    __table_args__ = (
        CheckConstraint("amount <> 0", name="non_zero"),
        Index("ix_postings_account_entry", "account_id", "entry_id"),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    entry_id: Mapped[int] = mapped_column(ForeignKey("journal_entries.id"), index=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("ledger_accounts.id"))
    currency: Mapped[Currency] = mapped_column(String(3))
    amount: Mapped[int] = mapped_column(BigInteger)


class Hold(Base):
    """A two-phase movement out of a player account: PENDING → POSTED | VOIDED, once."""

    __tablename__ = "ledger_holds"
    __table_args__ = (CheckConstraint("amount > 0", name="positive"),)

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("ledger_accounts.id"), index=True)
    suspense_id: Mapped[int] = mapped_column(ForeignKey("ledger_accounts.id"))
    currency: Mapped[Currency] = mapped_column(String(3))
    amount: Mapped[int] = mapped_column(BigInteger)
    status: Mapped[HoldStatus] = mapped_column(String(10), default=HoldStatus.PENDING)
    purpose: Mapped[str] = mapped_column(String(40))
    hold_entry_id: Mapped[int] = mapped_column(ForeignKey("journal_entries.id"))
    resolve_entry_id: Mapped[int | None] = mapped_column(ForeignKey("journal_entries.id"))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
    resolved_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
