"""deposit review: the staff review of failed slips, the bank lookup's answer on each slip,
and who matched an unmatched bank transfer or gateway payment by hand

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-27 09:00:00.000000
"""

from collections.abc import Sequence
from datetime import timedelta

import sqlalchemy as sa
from alembic import op

import pao.core.db
from pao.kit.clock import utcnow

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

UtcDateTime = pao.core.db.UtcDateTime
BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
# The reasons of pao.payments.slips.models.REVIEWABLE_REASONS at the time of this revision.
REVIEWABLE = (
    "IMG_SIZE_UNABLE_TO_PROCESS",
    "CANNOT_READ_CROPPED_IMAGE",
    "UNSTABLE_REFNO_ON_SLIP",
    "INVALID_SLIP",
    "NOT_MATCH",
    "EXPIRED_SLIP",
    "UNKNOW_ERROR",
    "BELOW_MINIMUM_DEPOSIT",
)
# Failed slips of the last week enter the new queue; older ones were settled by other means.
BACKFILL = timedelta(days=7)


def upgrade() -> None:
    with op.batch_alter_table("slips", schema=None) as batch_op:
        batch_op.add_column(sa.Column("bank_lookup", sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column("review_status", sa.String(length=10), nullable=True))
        batch_op.add_column(sa.Column("reviewed_by", sa.String(length=80), nullable=True))
        batch_op.add_column(sa.Column("reviewed_at", UtcDateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("review_note", sa.String(length=500), nullable=True))
        batch_op.create_index(
            "ix_slips_review_created", ["review_status", "created_at"], unique=False
        )
    slips = sa.table(
        "slips",
        sa.column("status", sa.String()),
        sa.column("reason", sa.String()),
        sa.column("review_status", sa.String()),
        sa.column("created_at", UtcDateTime(timezone=True)),
    )
    op.execute(
        slips.update()
        .where(
            slips.c.status == "FAILED",
            slips.c.reason.in_(REVIEWABLE),
            slips.c.created_at >= utcnow() - BACKFILL,
        )
        .values(review_status="OPEN")
    )
    for table in ("bank_notifications", "gateway_payments"):
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.add_column(sa.Column("member_id", BigId, nullable=True))
            batch_op.add_column(sa.Column("matched_by", sa.String(length=80), nullable=True))
            batch_op.add_column(sa.Column("matched_at", UtcDateTime(timezone=True), nullable=True))
            batch_op.create_foreign_key(
                op.f(f"fk_{table}_member_id_members"), "members", ["member_id"], ["id"]
            )
            batch_op.create_index(op.f(f"ix_{table}_outcome"), ["outcome"], unique=False)


def downgrade() -> None:
    for table in ("bank_notifications", "gateway_payments"):
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.drop_index(op.f(f"ix_{table}_outcome"))
            batch_op.drop_constraint(op.f(f"fk_{table}_member_id_members"), type_="foreignkey")
            batch_op.drop_column("matched_at")
            batch_op.drop_column("matched_by")
            batch_op.drop_column("member_id")
    with op.batch_alter_table("slips", schema=None) as batch_op:
        batch_op.drop_index("ix_slips_review_created")
        batch_op.drop_column("review_note")
        batch_op.drop_column("reviewed_at")
        batch_op.drop_column("reviewed_by")
        batch_op.drop_column("review_status")
        batch_op.drop_column("bank_lookup")
