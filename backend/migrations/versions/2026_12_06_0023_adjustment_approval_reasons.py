"""wallet: why a manual adjustment waits for a second staff member (amount, the requester's or
the member's total posted alone in 24 h), kept for the approver

Revision ID: 0023
Revises: 0022
Create Date: 2026-12-06 14:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0023"
down_revision: str | None = "0022"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("manual_adjustments") as batch:
        batch.add_column(sa.Column("approval_reasons", sa.String(length=60), nullable=True))
    # What waited before the reasons were kept waited for its amount: the one limit there was.
    op.execute(
        "UPDATE manual_adjustments SET approval_reasons = 'amount' "
        "WHERE requested_by_staff_id IS NOT NULL "
        "AND (decided_by_staff_id IS NULL OR decided_by_staff_id <> requested_by_staff_id)"
    )


def downgrade() -> None:
    with op.batch_alter_table("manual_adjustments") as batch:
        batch.drop_column("approval_reasons")
