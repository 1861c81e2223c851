"""back office: staff, staff sessions and login challenges, audit log; chat agents become staff

Every chat agent becomes a staff member with the support role and the same id, login, name
and password (so ``chat_messages.agent_id`` keeps naming the same person and now points at
``staff``); a deactivated agent becomes a disabled staff member. Agents enrol an authenticator
at their next login (password, then the QR shown, then a first code). Open agent sessions end.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-25 09:00:00
"""

from collections.abc import Sequence
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

import pao.core.db
from pao.backoffice import ddl

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
UtcDateTime = pao.core.db.UtcDateTime


def _reset_sequence(table: str) -> None:
    """PostgreSQL: rows were inserted with explicit ids; the next id follows the largest."""
    if op.get_bind().dialect.name == "postgresql":
        op.execute(
            # The table name is one of this module's constants, never input.
            f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "  # noqa: S608
            f"COALESCE((SELECT MAX(id) FROM {table}), 0) + 1, false)"
        )


def upgrade() -> None:
    op.create_table(
        "staff",
        sa.Column("id", BigId, autoincrement=True, nullable=False),
        sa.Column("login", sa.String(length=40), nullable=False),
        sa.Column("display_name", sa.String(length=80), nullable=False),
        sa.Column("role", sa.String(length=20), nullable=False),
        sa.Column("password_hash", sa.String(length=200), nullable=False),
        sa.Column("totp_secret", sa.String(length=64), nullable=True),
        sa.Column("totp_enrolled_at", UtcDateTime(timezone=True), nullable=True),
        sa.Column("totp_last_step", sa.BigInteger(), nullable=True),
        sa.Column("disabled_at", UtcDateTime(timezone=True), nullable=True),
        sa.Column("created_at", UtcDateTime(timezone=True), nullable=False),
        sa.Column("last_login_at", UtcDateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_staff")),
        sa.UniqueConstraint("login", name=op.f("uq_staff_login")),
    )
    op.create_table(
        "audit_log",
        sa.Column("id", BigId, autoincrement=True, nullable=False),
        sa.Column("at", UtcDateTime(timezone=True), nullable=False),
        sa.Column("staff_id", BigId, nullable=True),
        sa.Column("staff_role", sa.String(length=20), nullable=True),
        sa.Column("actor", sa.String(length=80), nullable=False),
        sa.Column("action", sa.String(length=60), nullable=False),
        sa.Column("object_type", sa.String(length=40), nullable=True),
        sa.Column("object_id", sa.String(length=64), nullable=True),
        sa.Column("before", sa.JSON(), nullable=True),
        sa.Column("after", sa.JSON(), nullable=True),
        sa.Column("ip", sa.String(length=45), nullable=True),
        sa.Column("detail", sa.String(length=500), nullable=True),
        sa.ForeignKeyConstraint(
            ["staff_id"], ["staff.id"], name=op.f("fk_audit_log_staff_id_staff")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_audit_log")),
    )
    with op.batch_alter_table("audit_log", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_audit_log_action"), ["action"], unique=False)
        batch_op.create_index(batch_op.f("ix_audit_log_at"), ["at"], unique=False)
        batch_op.create_index("ix_audit_log_object", ["object_type", "object_id"], unique=False)
        batch_op.create_index("ix_audit_log_staff_at", ["staff_id", "at"], unique=False)
    op.create_table(
        "staff_login_challenges",
        sa.Column("id", BigId, autoincrement=True, nullable=False),
        sa.Column("staff_id", BigId, nullable=False),
        sa.Column("token_digest", sa.String(length=64), nullable=False),
        sa.Column("created_at", UtcDateTime(timezone=True), nullable=False),
        sa.Column("expires_at", UtcDateTime(timezone=True), nullable=False),
        sa.Column("used_at", UtcDateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["staff_id"], ["staff.id"], name=op.f("fk_staff_login_challenges_staff_id_staff")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_staff_login_challenges")),
        sa.UniqueConstraint("token_digest", name=op.f("uq_staff_login_challenges_token_digest")),
    )
    with op.batch_alter_table("staff_login_challenges", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_staff_login_challenges_staff_id"), ["staff_id"], unique=False
        )
    op.create_table(
        "staff_sessions",
        sa.Column("id", BigId, autoincrement=True, nullable=False),
        sa.Column("staff_id", BigId, nullable=False),
        sa.Column("token_digest", sa.String(length=64), nullable=False),
        sa.Column("created_at", UtcDateTime(timezone=True), nullable=False),
        sa.Column("last_seen_at", UtcDateTime(timezone=True), nullable=False),
        sa.Column("expires_at", UtcDateTime(timezone=True), nullable=False),
        sa.Column("revoked_at", UtcDateTime(timezone=True), nullable=True),
        sa.Column("ip", sa.String(length=45), nullable=True),
        sa.Column("user_agent", sa.String(length=300), nullable=True),
        sa.ForeignKeyConstraint(
            ["staff_id"], ["staff.id"], name=op.f("fk_staff_sessions_staff_id_staff")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_staff_sessions")),
        sa.UniqueConstraint("token_digest", name=op.f("uq_staff_sessions_token_digest")),
    )
    with op.batch_alter_table("staff_sessions", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_staff_sessions_staff_id"), ["staff_id"], unique=False)

    # The chat agents become support staff, keeping their ids.
    op.get_bind().execute(
        sa.text(
            "INSERT INTO staff (id, login, display_name, role, password_hash, disabled_at, "
            "created_at) SELECT id, login, display_name, 'support', password_hash, "
            "CASE WHEN active THEN NULL ELSE :now END, created_at FROM chat_agents"
        ).bindparams(sa.bindparam("now", datetime.now(UTC), type_=UtcDateTime()))
    )
    _reset_sequence("staff")
    with op.batch_alter_table("chat_messages", schema=None) as batch_op:
        batch_op.drop_constraint("fk_chat_messages_agent_id_chat_agents", type_="foreignkey")
        batch_op.create_foreign_key(
            batch_op.f("fk_chat_messages_agent_id_staff"), "staff", ["agent_id"], ["id"]
        )
    with op.batch_alter_table("chat_agent_sessions", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_chat_agent_sessions_agent_id"))
    op.drop_table("chat_agent_sessions")
    op.drop_table("chat_agents")

    # The audit log is append-only.
    for statement in ddl.statements_for(op.get_bind().dialect.name):
        op.execute(statement)


def downgrade() -> None:
    for statement in ddl.DROP[op.get_bind().dialect.name]:
        op.execute(statement)
    op.create_table(
        "chat_agents",
        sa.Column("id", BigId, autoincrement=True, nullable=False),
        sa.Column("login", sa.String(length=40), nullable=False),
        sa.Column("display_name", sa.String(length=80), nullable=False),
        sa.Column("password_hash", sa.String(length=200), nullable=False),
        sa.Column("active", sa.Boolean(), nullable=False),
        sa.Column("created_at", UtcDateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_chat_agents")),
        sa.UniqueConstraint("login", name=op.f("uq_chat_agents_login")),
    )
    op.create_table(
        "chat_agent_sessions",
        sa.Column("id", BigId, autoincrement=True, nullable=False),
        sa.Column("agent_id", BigId, nullable=False),
        sa.Column("token_digest", sa.String(length=64), nullable=False),
        sa.Column("created_at", UtcDateTime(timezone=True), nullable=False),
        sa.Column("expires_at", UtcDateTime(timezone=True), nullable=False),
        sa.Column("revoked_at", UtcDateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["agent_id"],
            ["chat_agents.id"],
            name=op.f("fk_chat_agent_sessions_agent_id_chat_agents"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_chat_agent_sessions")),
        sa.UniqueConstraint("token_digest", name=op.f("uq_chat_agent_sessions_token_digest")),
    )
    with op.batch_alter_table("chat_agent_sessions", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_chat_agent_sessions_agent_id"), ["agent_id"], unique=False
        )
    # Every staff member becomes an agent again (messages may name any of them).
    op.execute(
        "INSERT INTO chat_agents (id, login, display_name, password_hash, active, created_at) "
        "SELECT id, login, display_name, password_hash, disabled_at IS NULL, created_at FROM staff"
    )
    _reset_sequence("chat_agents")
    with op.batch_alter_table("chat_messages", schema=None) as batch_op:
        batch_op.drop_constraint("fk_chat_messages_agent_id_staff", type_="foreignkey")
        batch_op.create_foreign_key(
            batch_op.f("fk_chat_messages_agent_id_chat_agents"), "chat_agents", ["agent_id"], ["id"]
        )
    with op.batch_alter_table("staff_sessions", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_staff_sessions_staff_id"))
    op.drop_table("staff_sessions")
    with op.batch_alter_table("staff_login_challenges", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_staff_login_challenges_staff_id"))
    op.drop_table("staff_login_challenges")
    with op.batch_alter_table("audit_log", schema=None) as batch_op:
        batch_op.drop_index("ix_audit_log_staff_at")
        batch_op.drop_index("ix_audit_log_object")
        batch_op.drop_index(batch_op.f("ix_audit_log_at"))
        batch_op.drop_index(batch_op.f("ix_audit_log_action"))
    op.drop_table("audit_log")
    op.drop_table("staff")
