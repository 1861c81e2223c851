"""payments: SCB's payment confirmations (PAO_BANK_API=scb), kept by SCB's transactionId
until SCB's inquiry confirms them (ADR 0029)

Revision ID: 0033
Revises: 0032
Create Date: 2026-12-07 00:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import pao.core.db

revision: str = "0033"
down_revision: str | None = "0032"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "scb_callbacks",
        sa.Column("id", BigId, autoincrement=True, nullable=False),
        sa.Column("transaction_id", sa.String(length=64), nullable=False),
        sa.Column("ref1", sa.String(length=20), nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.Column("paid_at", pao.core.db.UtcDateTime(timezone=True), nullable=False),
        sa.Column("payer_bank", sa.String(length=10), nullable=True),
        sa.Column("payer_account", sa.String(length=34), nullable=True),
        sa.Column("payer_name", sa.String(length=100), nullable=True),
        sa.Column("status", sa.String(length=12), nullable=False),
        sa.Column("attempts", sa.BigInteger(), nullable=False),
        sa.Column("next_check_at", pao.core.db.UtcDateTime(timezone=True), nullable=True),
        sa.Column("last_answer", sa.String(length=200), nullable=True),
        sa.Column("notification_id", BigId, nullable=True),
        sa.Column("created_at", pao.core.db.UtcDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["notification_id"],
            ["bank_notifications.id"],
            name=op.f("fk_scb_callbacks_notification_id_bank_notifications"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_scb_callbacks")),
        sa.UniqueConstraint("transaction_id", name=op.f("uq_scb_callbacks_transaction_id")),
    )
    op.create_index(
        "ix_scb_callbacks_status_next_check",
        "scb_callbacks",
        ["status", "next_check_at"],
        unique=False,
    )


def downgrade() -> None:
    op.drop_index("ix_scb_callbacks_status_next_check", table_name="scb_callbacks")
    op.drop_table("scb_callbacks")
