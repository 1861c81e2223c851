"""manual adjustments: staff credits and debits of a member's wallet, with four eyes

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-27 09:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import pao.core.db

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BIG_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "manual_adjustments",
        sa.Column("id", BIG_ID, autoincrement=True, nullable=False),
        sa.Column("member_id", BIG_ID, nullable=False),
        sa.Column("direction", sa.String(length=6), nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.Column("currency", sa.String(length=3), nullable=False),
        sa.Column("reason", sa.String(length=500), nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("requested_by", sa.String(length=80), nullable=False),
        sa.Column("requested_by_staff_id", sa.BigInteger(), nullable=True),
        sa.Column("decided_by", sa.String(length=80), nullable=True),
        sa.Column("decided_by_staff_id", sa.BigInteger(), nullable=True),
        sa.Column("decision_reason", sa.String(length=500), nullable=True),
        sa.Column("entry_id", BIG_ID, nullable=True),
        sa.Column("created_at", pao.core.db.UtcDateTime(timezone=True), nullable=False),
        sa.Column("decided_at", pao.core.db.UtcDateTime(timezone=True), nullable=True),
        sa.CheckConstraint("amount > 0", name=op.f("ck_manual_adjustments_positive")),
        sa.CheckConstraint(
            "direction IN ('credit', 'debit')", name=op.f("ck_manual_adjustments_direction")
        ),
        sa.ForeignKeyConstraint(
            ["entry_id"],
            ["journal_entries.id"],
            name=op.f("fk_manual_adjustments_entry_id_journal_entries"),
        ),
        sa.ForeignKeyConstraint(
            ["member_id"], ["members.id"], name=op.f("fk_manual_adjustments_member_id_members")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_manual_adjustments")),
        sa.UniqueConstraint("entry_id", name=op.f("uq_manual_adjustments_entry_id")),
    )
    with op.batch_alter_table("manual_adjustments", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_manual_adjustments_member_id"), ["member_id"], unique=False
        )
        batch_op.create_index(
            "ix_manual_adjustments_status_created", ["status", "created_at"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("manual_adjustments", schema=None) as batch_op:
        batch_op.drop_index("ix_manual_adjustments_status_created")
        batch_op.drop_index(batch_op.f("ix_manual_adjustments_member_id"))
    op.drop_table("manual_adjustments")
