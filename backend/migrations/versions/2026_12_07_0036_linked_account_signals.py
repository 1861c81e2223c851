"""identity and promotions: the device a login came from (the player app's id), looked up with
the login address to link members (pao.identity.links); the device a once-in-a-lifetime bonus
was received on (pao.promotions.device_claims)

Revision ID: 0036
Revises: 0035
Create Date: 2026-12-07 00:20:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import pao.core.db

revision: str = "0036"
down_revision: str | None = "0035"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.add_column("login_sessions", sa.Column("device_id", sa.String(64), nullable=True))
    op.create_index("ix_login_sessions_device_id", "login_sessions", ["device_id"])
    op.create_index("ix_login_sessions_ip_created_at", "login_sessions", ["ip", "created_at"])
    op.create_table(
        "promo_bonus_device_claims",
        sa.Column("bonus_id", BigId, nullable=False),
        sa.Column("device_id", sa.String(length=64), nullable=False),
        sa.Column("member_id", BigId, nullable=False),
        sa.Column("created_at", pao.core.db.UtcDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["bonus_id"],
            ["promo_bonuses.id"],
            name=op.f("fk_promo_bonus_device_claims_bonus_id_promo_bonuses"),
        ),
        sa.ForeignKeyConstraint(
            ["member_id"],
            ["members.id"],
            name=op.f("fk_promo_bonus_device_claims_member_id_members"),
        ),
        sa.PrimaryKeyConstraint("bonus_id", "device_id", name=op.f("pk_promo_bonus_device_claims")),
    )
    op.create_index(
        op.f("ix_promo_bonus_device_claims_member_id"), "promo_bonus_device_claims", ["member_id"]
    )


def downgrade() -> None:
    op.drop_index("ix_promo_bonus_device_claims_member_id", "promo_bonus_device_claims")
    op.drop_table("promo_bonus_device_claims")
    op.drop_index("ix_login_sessions_ip_created_at", "login_sessions")
    op.drop_index("ix_login_sessions_device_id", "login_sessions")
    op.drop_column("login_sessions", "device_id")
