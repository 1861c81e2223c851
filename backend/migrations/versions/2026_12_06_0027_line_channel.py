"""support: the LINE channel (issue 32): a conversation's LINE user, a message's delivery to
LINE, and the tables of webhook events, LINE contacts and the outbox

Revision ID: 0027
Revises: 0026
Create Date: 2026-12-06 17:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import pao.core.db

revision: str = "0027"
down_revision: str | None = "0026"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    # Plain ADD COLUMN (no batch copy): chat_conversations is referenced by other tables, and
    # SQLite's copy-and-swap would drop it under their foreign keys.
    op.add_column("chat_conversations", sa.Column("line_user_id", sa.String(64), nullable=True))
    op.create_index(
        op.f("ix_chat_conversations_line_user_id"),
        "chat_conversations",
        ["line_user_id"],
        unique=True,
    )
    op.add_column("chat_messages", sa.Column("delivery", sa.String(length=10), nullable=True))
    op.create_table(
        "line_webhook_events",
        sa.Column("webhook_event_id", sa.String(length=64), nullable=False),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("received_at", pao.core.db.UtcDateTime(timezone=True), nullable=False),
        sa.Column("processed_at", pao.core.db.UtcDateTime(timezone=True), nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_attempt_at", pao.core.db.UtcDateTime(timezone=True), nullable=False),
        sa.Column("last_error", sa.Text(), nullable=True),
        sa.PrimaryKeyConstraint("webhook_event_id", name=op.f("pk_line_webhook_events")),
    )
    op.create_index(
        op.f("ix_line_webhook_events_received_at"), "line_webhook_events", ["received_at"]
    )
    op.create_index(
        op.f("ix_line_webhook_events_processed_at"), "line_webhook_events", ["processed_at"]
    )
    op.create_table(
        "line_contacts",
        sa.Column("line_user_id", sa.String(length=64), nullable=False),
        sa.Column("display_name", sa.String(length=100), nullable=False),
        sa.Column("language", sa.String(length=2), nullable=False),
        sa.Column("following", sa.Boolean(), nullable=False),
        sa.Column("followed_at", pao.core.db.UtcDateTime(timezone=True), nullable=True),
        sa.Column("unfollowed_at", pao.core.db.UtcDateTime(timezone=True), nullable=True),
        sa.Column("reply_token", sa.String(length=255), nullable=True),
        sa.Column("reply_token_at", pao.core.db.UtcDateTime(timezone=True), nullable=True),
        sa.Column("created_at", pao.core.db.UtcDateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("line_user_id", name=op.f("pk_line_contacts")),
    )
    op.create_table(
        "line_outbox",
        sa.Column("message_id", BigId, nullable=False),
        sa.Column("line_user_id", sa.String(length=64), nullable=False),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("retry_key", sa.String(length=36), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_attempt_at", pao.core.db.UtcDateTime(timezone=True), nullable=False),
        sa.Column("sent_via", sa.String(length=5), nullable=True),
        sa.Column("sent_at", pao.core.db.UtcDateTime(timezone=True), nullable=True),
        sa.Column("last_error", sa.Text(), nullable=True),
        sa.Column("created_at", pao.core.db.UtcDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["message_id"],
            ["chat_messages.id"],
            name=op.f("fk_line_outbox_message_id_chat_messages"),
        ),
        sa.PrimaryKeyConstraint("message_id", name=op.f("pk_line_outbox")),
    )
    op.create_index(op.f("ix_line_outbox_line_user_id"), "line_outbox", ["line_user_id"])
    op.create_index(op.f("ix_line_outbox_status"), "line_outbox", ["status"])


def downgrade() -> None:
    op.drop_table("line_outbox")
    op.drop_table("line_contacts")
    op.drop_table("line_webhook_events")
    op.drop_column("chat_messages", "delivery")
    op.drop_index(op.f("ix_chat_conversations_line_user_id"), table_name="chat_conversations")
    op.drop_column("chat_conversations", "line_user_id")
