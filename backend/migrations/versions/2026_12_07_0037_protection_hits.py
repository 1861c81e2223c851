"""protection: protection_hits, every refusal for a limit or an exclusion and every payment
credited over one (flagged to staff)

Revision ID: 0037
Revises: 0036
Create Date: 2026-12-07 00:10:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import pao.core.db

revision: str = "0037"
down_revision: str | None = "0036"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "protection_hits",
        sa.Column("id", BigId, autoincrement=True, nullable=False),
        sa.Column("member_id", BigId, nullable=False),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("outcome", sa.String(length=10), nullable=False),
        sa.Column("channel", sa.String(length=20), nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=True),
        sa.Column("currency", sa.String(length=3), nullable=False),
        sa.Column("reference", sa.String(length=120), nullable=True),
        sa.Column("at", pao.core.db.UtcDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["member_id"], ["members.id"], name=op.f("fk_protection_hits_member_id_members")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_protection_hits")),
    )
    op.create_index("ix_protection_hits_at", "protection_hits", ["at"], unique=False)
    op.create_index(
        "ix_protection_hits_member_at", "protection_hits", ["member_id", "at"], unique=False
    )


def downgrade() -> None:
    op.drop_index("ix_protection_hits_member_at", table_name="protection_hits")
    op.drop_index("ix_protection_hits_at", table_name="protection_hits")
    op.drop_table("protection_hits")
