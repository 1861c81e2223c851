"""payments: SCB QR orders Pao asks SCB's inquiry about itself, for a payment confirmation
that never arrived (ADR 0029)

Revision ID: 0035
Revises: 0034
Create Date: 2026-12-07 00:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import pao.core.db

revision: str = "0035"
down_revision: str | None = "0034"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "scb_qr_orders",
        sa.Column("id", BigId, autoincrement=True, nullable=False),
        sa.Column("qr_deposit_id", BigId, nullable=False),
        sa.Column("checks", sa.BigInteger(), nullable=False),
        sa.Column("next_check_at", pao.core.db.UtcDateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["qr_deposit_id"],
            ["qr_deposits.id"],
            name=op.f("fk_scb_qr_orders_qr_deposit_id_qr_deposits"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_scb_qr_orders")),
        sa.UniqueConstraint("qr_deposit_id", name=op.f("uq_scb_qr_orders_qr_deposit_id")),
    )
    op.create_index(
        op.f("ix_scb_qr_orders_next_check_at"), "scb_qr_orders", ["next_check_at"], unique=False
    )


def downgrade() -> None:
    op.drop_index(op.f("ix_scb_qr_orders_next_check_at"), table_name="scb_qr_orders")
    op.drop_table("scb_qr_orders")
