"""member notes: staff notes on a member (the back office's member page)

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-27 12:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import pao.core.db

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BIG_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "member_notes",
        sa.Column("id", BIG_ID, autoincrement=True, nullable=False),
        sa.Column("member_id", BIG_ID, nullable=False),
        sa.Column("author_id", BIG_ID, nullable=True),
        sa.Column("author", sa.String(length=80), nullable=False),
        sa.Column("body", sa.String(length=2000), nullable=False),
        sa.Column("created_at", pao.core.db.UtcDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["member_id"], ["members.id"], name=op.f("fk_member_notes_member_id_members")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_member_notes")),
    )
    with op.batch_alter_table("member_notes", schema=None) as batch_op:
        batch_op.create_index(
            "ix_member_notes_member_created", ["member_id", "created_at"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("member_notes", schema=None) as batch_op:
        batch_op.drop_index("ix_member_notes_member_created")
    op.drop_table("member_notes")
