"""games: the seamless wallet's transactions, rounds, session tokens and game catalogue

Revision ID: 0026
Revises: 0025
Create Date: 2026-12-06 17:40:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import pao.core.db

revision: str = "0026"
down_revision: str | None = "0025"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def _time(name: str, nullable: bool = False) -> sa.Column:  # type: ignore[type-arg]
    return sa.Column(name, pao.core.db.UtcDateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    op.create_table(
        "seamless_transactions",
        sa.Column("id", _ID, primary_key=True, autoincrement=True),
        sa.Column("provider", sa.String(20), nullable=False),
        sa.Column("txn_id", sa.String(100), nullable=False),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("member_id", _ID, sa.ForeignKey("members.id"), nullable=False),
        sa.Column("currency", sa.String(3), nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.Column("round_id", sa.String(100), nullable=False),
        sa.Column("game_code", sa.String(100), nullable=False),
        sa.Column("reference_id", sa.String(100), nullable=True),
        sa.Column("rolled_back", sa.Boolean(), nullable=False),
        sa.Column("settled", sa.Boolean(), nullable=False),
        sa.Column("entry_id", _ID, sa.ForeignKey("journal_entries.id"), nullable=True),
        _time("created_at"),
        sa.UniqueConstraint("provider", "txn_id"),
    )
    op.create_index("ix_seamless_reference", "seamless_transactions", ["provider", "reference_id"])
    op.create_index("ix_seamless_member_time", "seamless_transactions", ["member_id", "created_at"])
    op.create_table(
        "seamless_rounds",
        sa.Column("id", _ID, primary_key=True, autoincrement=True),
        sa.Column("provider", sa.String(20), nullable=False),
        sa.Column("round_id", sa.String(100), nullable=False),
        sa.Column("member_id", _ID, sa.ForeignKey("members.id"), nullable=False),
        sa.Column("game_code", sa.String(100), nullable=False),
        sa.Column("currency", sa.String(3), nullable=False),
        sa.Column("bets", sa.BigInteger(), nullable=False),
        sa.Column("wins", sa.BigInteger(), nullable=False),
        _time("opened_at"),
        _time("closed_at", nullable=True),
        sa.UniqueConstraint("provider", "round_id"),
    )
    op.create_index("ix_seamless_rounds_member", "seamless_rounds", ["member_id", "opened_at"])
    op.create_index("ix_seamless_rounds_open", "seamless_rounds", ["closed_at", "opened_at"])
    op.create_table(
        "seamless_sessions",
        sa.Column("token", sa.String(64), primary_key=True),
        sa.Column("provider", sa.String(20), nullable=False),
        sa.Column("member_id", _ID, sa.ForeignKey("members.id"), nullable=False),
        sa.Column("game_code", sa.String(100), nullable=False),
        sa.Column("currency", sa.String(3), nullable=False),
        _time("created_at"),
        _time("expires_at"),
    )
    op.create_index("ix_seamless_sessions_member_id", "seamless_sessions", ["member_id"])
    op.create_table(
        "seamless_games",
        sa.Column("id", _ID, primary_key=True, autoincrement=True),
        sa.Column("provider", sa.String(20), nullable=False),
        sa.Column("game_code", sa.String(100), nullable=False),
        sa.Column("name", sa.String(120), nullable=False),
        sa.Column("category", sa.String(40), nullable=False),
        sa.Column("thumbnail", sa.String(500), nullable=False),
        sa.Column("enabled", sa.Boolean(), nullable=False),
        _time("synced_at"),
        sa.UniqueConstraint("provider", "game_code"),
    )


def downgrade() -> None:
    op.drop_table("seamless_games")
    op.drop_table("seamless_sessions")
    op.drop_table("seamless_rounds")
    op.drop_table("seamless_transactions")
