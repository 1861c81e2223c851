"""protection: members' deposit limits (with their history), time-outs and self-exclusions,
and the member's excluded_until every money path reads

Revision ID: 0028
Revises: 0027
Create Date: 2026-12-06 17:40:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import pao.core.db

revision: str = "0028"
down_revision: str | None = "0027"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def _time(name: str, nullable: bool = False) -> sa.Column:  # type: ignore[type-arg]
    return sa.Column(name, pao.core.db.UtcDateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    # Plain ALTER TABLE (no batch copy): SQLite adds and drops a column in place, where a copy
    # of members would have to drop a table every other table points at.
    op.add_column("members", _time("excluded_until", nullable=True))
    op.create_table(
        "play_exclusions",
        sa.Column("id", _ID, primary_key=True, autoincrement=True),
        sa.Column("member_id", _ID, sa.ForeignKey("members.id"), nullable=False),
        sa.Column("kind", sa.String(20), nullable=False),
        _time("starts_at"),
        _time("ends_at", nullable=True),
        _time("end_requested_at", nullable=True),
    )
    op.create_index("ix_play_exclusions_member_id", "play_exclusions", ["member_id"])
    op.create_table(
        "deposit_limits",
        sa.Column("id", _ID, primary_key=True, autoincrement=True),
        sa.Column("member_id", _ID, sa.ForeignKey("members.id"), nullable=False),
        sa.Column("period", sa.String(5), nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=True),
        sa.Column("currency", sa.String(3), nullable=False),
        _time("effective_from"),
        _time("created_at"),
    )
    op.create_index(
        "ix_deposit_limits_member_period", "deposit_limits", ["member_id", "period", "id"]
    )


def downgrade() -> None:
    op.drop_table("deposit_limits")
    op.drop_table("play_exclusions")
    op.drop_column("members", "excluded_until")
