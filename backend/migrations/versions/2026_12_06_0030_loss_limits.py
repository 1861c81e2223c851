"""protection: loss limits beside deposit limits (deposit_limits.kind)

Revision ID: 0030
Revises: 0029
Create Date: 2026-12-06 18:05:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0030"
down_revision: str | None = "0029"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column(
        "deposit_limits",
        sa.Column("kind", sa.String(10), nullable=False, server_default="deposit"),
    )


def downgrade() -> None:
    op.drop_column("deposit_limits", "kind")
