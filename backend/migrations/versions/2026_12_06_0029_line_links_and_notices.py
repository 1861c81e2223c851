"""support: LINE users linked to members (one-time link codes) and notices on LINE

Revision ID: 0029
Revises: 0028
Create Date: 2026-12-06 17:40:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import pao.core.db

revision: str = "0029"
down_revision: str | None = "0028"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    # A batch: SQLite adds a foreign key only by copying the table (nothing references it).
    with op.batch_alter_table("line_contacts") as batch:
        batch.add_column(sa.Column("member_id", BigId, nullable=True))
        batch.add_column(
            sa.Column("linked_at", pao.core.db.UtcDateTime(timezone=True), nullable=True)
        )
        batch.add_column(
            sa.Column("notices", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch.create_foreign_key(
            "fk_line_contacts_member_id_members", "members", ["member_id"], ["id"]
        )
        batch.create_index("ix_line_contacts_member_id", ["member_id"], unique=True)
    op.add_column("line_outbox", sa.Column("notice_key", sa.String(length=120), nullable=True))
    op.create_index(op.f("ix_line_outbox_notice_key"), "line_outbox", ["notice_key"], unique=True)
    op.create_table(
        "line_link_codes",
        sa.Column("code", sa.String(length=16), nullable=False),
        sa.Column("member_id", BigId, nullable=False),
        sa.Column("created_at", pao.core.db.UtcDateTime(timezone=True), nullable=False),
        sa.Column("expires_at", pao.core.db.UtcDateTime(timezone=True), nullable=False),
        sa.Column("used_at", pao.core.db.UtcDateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["member_id"], ["members.id"], name=op.f("fk_line_link_codes_member_id_members")
        ),
        sa.PrimaryKeyConstraint("code", name=op.f("pk_line_link_codes")),
    )
    op.create_index(op.f("ix_line_link_codes_member_id"), "line_link_codes", ["member_id"])


def downgrade() -> None:
    op.drop_table("line_link_codes")
    op.drop_index(op.f("ix_line_outbox_notice_key"), table_name="line_outbox")
    op.drop_column("line_outbox", "notice_key")
    with op.batch_alter_table("line_contacts") as batch:
        batch.drop_index("ix_line_contacts_member_id")
        batch.drop_constraint("fk_line_contacts_member_id_members", type_="foreignkey")
        batch.drop_column("notices")
        batch.drop_column("linked_at")
        batch.drop_column("member_id")
