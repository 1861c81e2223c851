"""games: providers the operator put into maintenance (ADR 0013)

One row per game code while its maintenance lasts: the reason, the planned end (optional),
who set it and when. Ending it deletes the row; the audit log keeps the history.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-27 16:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import pao.core.db

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

UtcDateTime = pao.core.db.UtcDateTime


def upgrade() -> None:
    op.create_table(
        "provider_maintenance",
        sa.Column("game_code", sa.String(length=20), nullable=False),
        sa.Column("reason", sa.String(length=200), nullable=False),
        sa.Column("until", UtcDateTime(timezone=True), nullable=True),
        sa.Column("set_by", sa.String(length=80), nullable=False),
        sa.Column("set_at", UtcDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_code"], ["games.code"], name=op.f("fk_provider_maintenance_game_code_games")
        ),
        sa.PrimaryKeyConstraint("game_code", name=op.f("pk_provider_maintenance")),
    )


def downgrade() -> None:
    op.drop_table("provider_maintenance")
