"""reports: the indexes the deposit requests' range queries walk (slips, QR codes and TrueMoney
vouchers by time; pao.reports.deposits)

Revision ID: 0017
Revises: 0016
Create Date: 2026-11-27 20:00:00
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0017"
down_revision: str | None = "0016"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index("ix_slips_created_at", "slips", ["created_at"])
    op.create_index("ix_qr_deposits_created_at", "qr_deposits", ["created_at"])
    op.create_index("ix_truemoney_redemptions_created_at", "truemoney_redemptions", ["created_at"])


def downgrade() -> None:
    op.drop_index("ix_truemoney_redemptions_created_at", table_name="truemoney_redemptions")
    op.drop_index("ix_qr_deposits_created_at", table_name="qr_deposits")
    op.drop_index("ix_slips_created_at", table_name="slips")
