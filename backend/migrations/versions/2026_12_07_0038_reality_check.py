"""protection: protection_settings, the member's reality-check interval (none: off)

Revision ID: 0038
Revises: 0037
Create Date: 2026-12-07 00:20:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import pao.core.db

revision: str = "0038"
down_revision: str | None = "0037"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "protection_settings",
        sa.Column("member_id", BigId, nullable=False),
        sa.Column("reality_check_minutes", sa.Integer(), nullable=True),
        sa.Column("updated_at", pao.core.db.UtcDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["member_id"], ["members.id"], name=op.f("fk_protection_settings_member_id_members")
        ),
        sa.PrimaryKeyConstraint("member_id", name=op.f("pk_protection_settings")),
    )


def downgrade() -> None:
    op.drop_table("protection_settings")
