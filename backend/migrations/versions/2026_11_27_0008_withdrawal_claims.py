"""withdrawal claims: a cashier claims a PENDING withdrawal before deciding it

``claimed_by_staff_id`` is the back office's staff id, kept without a foreign key: the wallet
domain does not know the staff table (it sits above the domains), and the label
``claimed_by`` names the claimer in every listing without a join.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-27 12:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import pao.core.db

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

UtcDateTime = pao.core.db.UtcDateTime


def upgrade() -> None:
    with op.batch_alter_table("withdrawals", schema=None) as batch_op:
        batch_op.add_column(sa.Column("claimed_by_staff_id", sa.BigInteger(), nullable=True))
        batch_op.add_column(sa.Column("claimed_by", sa.String(length=80), nullable=True))
        batch_op.add_column(
            sa.Column("claim_expires_at", UtcDateTime(timezone=True), nullable=True)
        )


def downgrade() -> None:
    with op.batch_alter_table("withdrawals", schema=None) as batch_op:
        batch_op.drop_column("claim_expires_at")
        batch_op.drop_column("claimed_by")
        batch_op.drop_column("claimed_by_staff_id")
