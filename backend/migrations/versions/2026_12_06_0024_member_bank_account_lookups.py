"""identity: indexes on members' bank account number and holder name, for the withdrawal
queue's "linked accounts" flag (another member on the account a withdrawal pays to)

Revision ID: 0024
Revises: 0023
Create Date: 2026-12-06 14:00:00
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0024"
down_revision: str | None = "0023"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index("ix_members_bank_account_no", "members", ["bank_account_no"])
    op.create_index("ix_members_bank_account_name", "members", ["bank_account_name"])


def downgrade() -> None:
    op.drop_index("ix_members_bank_account_name", table_name="members")
    op.drop_index("ix_members_bank_account_no", table_name="members")
