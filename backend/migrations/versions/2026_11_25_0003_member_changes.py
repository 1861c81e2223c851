"""member changes: the append-only record of changes to a member's name, bank account, password

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-25 09:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import pao.core.db
from pao.identity.models import APPEND_ONLY_DDL

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "member_changes",
        sa.Column(
            "id",
            sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
            autoincrement=True,
            nullable=False,
        ),
        sa.Column(
            "member_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False
        ),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("old_value", sa.String(length=200), nullable=True),
        sa.Column("new_value", sa.String(length=200), nullable=True),
        sa.Column("ip", sa.String(length=64), nullable=True),
        sa.Column("user_agent", sa.String(length=300), nullable=True),
        sa.Column("created_at", pao.core.db.UtcDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["member_id"], ["members.id"], name=op.f("fk_member_changes_member_id_members")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_member_changes")),
    )
    with op.batch_alter_table("member_changes", schema=None) as batch_op:
        batch_op.create_index(
            "ix_member_changes_member_created", ["member_id", "created_at"], unique=False
        )
    # Append-only: UPDATE and DELETE raise.
    for statement in APPEND_ONLY_DDL.get(op.get_bind().dialect.name, []):
        op.execute(statement)


def downgrade() -> None:
    with op.batch_alter_table("member_changes", schema=None) as batch_op:
        batch_op.drop_index("ix_member_changes_member_created")
    op.drop_table("member_changes")  # its triggers go with it
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP FUNCTION IF EXISTS pao_member_changes_append_only()")
