"""protection: members.limits_set, so that the money paths skip the limit lookups of members
who never set one

Revision ID: 0031
Revises: 0030
Create Date: 2026-12-06 18:50:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0031"
down_revision: str | None = "0030"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column(
        "members",
        sa.Column("limits_set", sa.Boolean(), nullable=False, server_default=sa.false()),
    )
    # Members who set a limit before this column existed.
    op.execute(
        "UPDATE members SET limits_set = true WHERE id IN (SELECT member_id FROM deposit_limits)"
    )


def downgrade() -> None:
    op.drop_column("members", "limits_set")
