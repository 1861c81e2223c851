"""chat: a conversation can be assigned to a staff member (the back office's support inbox)

``assigned_staff_id`` names the staff member working the conversation (NULL: nobody yet) and
``assigned_at`` when they got it. Existing conversations start unassigned.

Revision ID: 0009
Revises: 0005 (0004 before bo-members was merged in; the merger re-chains)
Create Date: 2026-11-27 09:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import pao.core.db

revision: str = "0009"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
UtcDateTime = pao.core.db.UtcDateTime


def upgrade() -> None:
    with op.batch_alter_table("chat_conversations", schema=None) as batch_op:
        batch_op.add_column(sa.Column("assigned_staff_id", BigId, nullable=True))
        batch_op.add_column(sa.Column("assigned_at", UtcDateTime(), nullable=True))
        batch_op.create_foreign_key(
            "fk_chat_conversations_assigned_staff_id_staff",
            "staff",
            ["assigned_staff_id"],
            ["id"],
        )
        batch_op.create_index(
            "ix_chat_conversations_assigned_staff_id", ["assigned_staff_id"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("chat_conversations", schema=None) as batch_op:
        batch_op.drop_index("ix_chat_conversations_assigned_staff_id")
        batch_op.drop_constraint(
            "fk_chat_conversations_assigned_staff_id_staff", type_="foreignkey"
        )
        batch_op.drop_column("assigned_at")
        batch_op.drop_column("assigned_staff_id")
