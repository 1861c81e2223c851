"""site: the history of operator settings (who changed which key, from what to what, when)

One row per key per change, written by ``pao.site.settings.set_value`` whatever the path (the
back office's editors, ``pao ops settings set``, the wheel editor); ``change_set`` groups the
keys of one save so that it is one version to show and to revert.

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-27 20:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import pao.core.db

revision: str = "0015"
down_revision: str | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

UtcDateTime = pao.core.db.UtcDateTime
BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "site_setting_changes",
        sa.Column("id", BigId, autoincrement=True, nullable=False),
        sa.Column("change_set", sa.String(length=32), nullable=False),
        sa.Column("key", sa.String(length=80), nullable=False),
        sa.Column("before", sa.JSON(), nullable=True),
        sa.Column("after", sa.JSON(), nullable=True),
        sa.Column("actor", sa.String(length=80), nullable=False),
        sa.Column("at", UtcDateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_site_setting_changes")),
    )
    op.create_index(
        "ix_site_setting_changes_key_at", "site_setting_changes", ["key", "at"], unique=False
    )
    op.create_index(
        "ix_site_setting_changes_change_set", "site_setting_changes", ["change_set"], unique=False
    )


def downgrade() -> None:
    op.drop_index("ix_site_setting_changes_change_set", table_name="site_setting_changes")
    op.drop_index("ix_site_setting_changes_key_at", table_name="site_setting_changes")
    op.drop_table("site_setting_changes")
