"""backoffice: an idle staff session locks instead of ending (locked_at), and counts the
password tries reserved at its lock screen (unlock_attempts)

Revision ID: 0025
Revises: 0024
Create Date: 2026-12-06 14:10:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import pao.core.db

revision: str = "0025"
down_revision: str | None = "0024"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("staff_sessions") as batch:
        batch.add_column(
            sa.Column("locked_at", pao.core.db.UtcDateTime(timezone=True), nullable=True)
        )
        batch.add_column(
            sa.Column("unlock_attempts", sa.Integer(), nullable=False, server_default="0")
        )


def downgrade() -> None:
    with op.batch_alter_table("staff_sessions") as batch:
        batch.drop_column("unlock_attempts")
        batch.drop_column("locked_at")
