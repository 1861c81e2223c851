"""games: seamless transactions found by their round (AMB's BY_ROUND settlements and cancels,
a round's transactions in the back office) without scanning the table

Revision ID: 0032
Revises: 0031
Create Date: 2026-12-06 19:20:00
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0032"
down_revision: str | None = "0031"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index("ix_seamless_round", "seamless_transactions", ["provider", "round_id"])


def downgrade() -> None:
    op.drop_index("ix_seamless_round", table_name="seamless_transactions")
