"""identity: an OTP request may be ThaiBulkSMS's (PAO_OTP_PROVIDER=thaibulksms, ADR 0030):
its token kept beside Pao's, and its refno (wider than Pao's 4-letter ref) as the ref

Revision ID: 0034
Revises: 0033
Create Date: 2026-12-06 23:50:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0034"
down_revision: str | None = "0033"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("otp_requests", sa.Column("provider_token", sa.String(255), nullable=True))
    # A batch: SQLite cannot alter a column in place (the table is copied); PostgreSQL alters.
    with op.batch_alter_table("otp_requests") as batch:
        batch.alter_column(
            "ref", type_=sa.String(16), existing_type=sa.String(8), existing_nullable=False
        )


def downgrade() -> None:
    with op.batch_alter_table("otp_requests") as batch:
        batch.alter_column(
            "ref", type_=sa.String(8), existing_type=sa.String(16), existing_nullable=False
        )
    op.drop_column("otp_requests", "provider_token")
