"""reports: daily summary tables kept in step with the journal, their watermark (ADR 0015),
and the indexes the reports' range queries walk (members, withdrawals and bonuses by time)

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-27 16:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import pao.core.db

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

UtcDateTime = pao.core.db.UtcDateTime


def upgrade() -> None:
    op.create_table(
        "report_ledger_days",
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("currency", sa.String(length=3), nullable=False),
        sa.Column("account_kind", sa.String(length=40), nullable=False),
        sa.Column("owner", sa.String(length=64), nullable=False),
        sa.Column("entry_kind", sa.String(length=40), nullable=False),
        sa.Column("marked", sa.Boolean(), nullable=False),
        sa.Column("out_count", sa.BigInteger(), nullable=False),
        sa.Column("out_sum", sa.BigInteger(), nullable=False),
        sa.Column("in_count", sa.BigInteger(), nullable=False),
        sa.Column("in_sum", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint(
            "day",
            "currency",
            "account_kind",
            "owner",
            "entry_kind",
            "marked",
            name=op.f("pk_report_ledger_days"),
        ),
    )
    op.create_table(
        "report_member_days",
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("member_id", sa.BigInteger(), nullable=False),
        sa.Column("currency", sa.String(length=3), nullable=False),
        sa.Column("deposit_count", sa.BigInteger(), nullable=False),
        sa.Column("deposit_sum", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("day", "member_id", "currency", name=op.f("pk_report_member_days")),
    )
    op.create_index("ix_report_member_days_member_day", "report_member_days", ["member_id", "day"])
    op.create_table(
        "report_member_first_deposits",
        sa.Column("member_id", sa.BigInteger(), nullable=False),
        sa.Column("currency", sa.String(length=3), nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        sa.PrimaryKeyConstraint("member_id", name=op.f("pk_report_member_first_deposits")),
    )
    op.create_index(
        op.f("ix_report_member_first_deposits_day"), "report_member_first_deposits", ["day"]
    )
    op.create_table(
        "report_watermarks",
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("last_id", sa.BigInteger(), nullable=False),
        sa.Column("zone", sa.String(length=64), nullable=False),
        sa.Column("refreshed_at", UtcDateTime(), nullable=True),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_report_watermarks")),
    )
    op.create_table(
        "report_watermark_gaps",
        sa.Column("entry_id", sa.BigInteger(), nullable=False),
        sa.Column("noticed_at", UtcDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("entry_id", name=op.f("pk_report_watermark_gaps")),
    )
    op.create_index("ix_members_currency_created_at", "members", ["currency", "created_at"])
    op.create_index("ix_withdrawals_created_at", "withdrawals", ["created_at"])
    op.create_index("ix_promo_member_bonuses_received_at", "promo_member_bonuses", ["received_at"])


def downgrade() -> None:
    op.drop_index("ix_promo_member_bonuses_received_at", table_name="promo_member_bonuses")
    op.drop_index("ix_withdrawals_created_at", table_name="withdrawals")
    op.drop_index("ix_members_currency_created_at", table_name="members")
    op.drop_table("report_watermark_gaps")
    op.drop_table("report_watermarks")
    op.drop_index(
        op.f("ix_report_member_first_deposits_day"), table_name="report_member_first_deposits"
    )
    op.drop_table("report_member_first_deposits")
    op.drop_index("ix_report_member_days_member_day", table_name="report_member_days")
    op.drop_table("report_member_days")
    op.drop_table("report_ledger_days")
