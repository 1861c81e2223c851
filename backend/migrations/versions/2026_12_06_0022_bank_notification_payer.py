"""payments: who paid an incoming bank transfer (bank, account, name; all nullable), for staff
matching an UNMATCHED transfer by hand (pao.payments.qr.payer)

Revision ID: 0022
Revises: 0021
Create Date: 2026-12-06 11:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0022"
down_revision: str | None = "0021"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("bank_notifications") as batch:
        batch.add_column(sa.Column("payer_bank", sa.String(length=10), nullable=True))
        batch.add_column(sa.Column("payer_account", sa.String(length=34), nullable=True))
        batch.add_column(sa.Column("payer_name", sa.String(length=100), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("bank_notifications") as batch:
        batch.drop_column("payer_name")
        batch.drop_column("payer_account")
        batch.drop_column("payer_bank")
