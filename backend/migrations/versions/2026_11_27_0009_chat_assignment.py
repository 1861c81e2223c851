"""chat: a conversation can be assigned to a staff member (the back office's support inbox)

``assigned_staff_id`` names the staff member working the conversation (NULL: nobody yet) and
``assigned_at`` when they got it. Existing conversations start unassigned.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-27 09:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import pao.core.db

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
UtcDateTime = pao.core.db.UtcDateTime


FK_NAME = "fk_chat_conversations_assigned_staff_id_staff"
INDEX_NAME = "ix_chat_conversations_assigned_staff_id"


def _sqlite() -> bool:
    return op.get_bind().dialect.name == "sqlite"


def upgrade() -> None:
    # SQLite: ALTER TABLE in place, never the batch copy-and-swap, which would drop a table
    # chat_messages and chat_media point at (refused with foreign keys on and rows present).
    # SQLite adds a column with an inline, named REFERENCES clause.
    if _sqlite():
        op.execute(
            "ALTER TABLE chat_conversations ADD COLUMN assigned_staff_id INTEGER "
            f"CONSTRAINT {FK_NAME} REFERENCES staff (id)"
        )
    else:
        op.add_column("chat_conversations", sa.Column("assigned_staff_id", BigId, nullable=True))
        op.create_foreign_key(FK_NAME, "chat_conversations", "staff", ["assigned_staff_id"], ["id"])
    op.add_column("chat_conversations", sa.Column("assigned_at", UtcDateTime(), nullable=True))
    op.create_index(INDEX_NAME, "chat_conversations", ["assigned_staff_id"], unique=False)


def downgrade() -> None:
    op.drop_index(INDEX_NAME, table_name="chat_conversations")
    if _sqlite():
        # SQLite (3.35+) drops a column whose only constraint is its own REFERENCES clause.
        op.execute("ALTER TABLE chat_conversations DROP COLUMN assigned_at")
        op.execute("ALTER TABLE chat_conversations DROP COLUMN assigned_staff_id")
        return
    op.drop_constraint(FK_NAME, "chat_conversations", type_="foreignkey")
    op.drop_column("chat_conversations", "assigned_at")
    op.drop_column("chat_conversations", "assigned_staff_id")
