"""ledger: shared operator accounts are split into shard rows (issue 19, ADR 0014)

``ledger_accounts.shard`` numbers the rows of one account (kind, owner, currency): a shared
operator account (bank clearing, payout clearing, a provider's float, bonus expense, …) has up
to ``pao.ledger.models.SHARDS`` rows, chosen by member id, so that members' movements do not
queue on one row lock. Member-owned accounts keep shard 0. Existing rows become shard 0; their
balances and postings are unchanged, and every report sums an account over its shards.

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-27 16:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

OLD = "uq_ledger_accounts_kind_owner_currency"
NEW = "uq_ledger_accounts_kind_owner_currency_shard"


def upgrade() -> None:
    with op.batch_alter_table("ledger_accounts", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("shard", sa.SmallInteger(), nullable=False, server_default="0")
        )
        batch_op.drop_constraint(OLD, type_="unique")
        batch_op.create_unique_constraint(NEW, ["kind", "owner", "currency", "shard"])


def downgrade() -> None:
    # Only possible while no account has a second shard (the unique key would refuse it).
    with op.batch_alter_table("ledger_accounts", schema=None) as batch_op:
        batch_op.drop_constraint(NEW, type_="unique")
        batch_op.create_unique_constraint(OLD, ["kind", "owner", "currency"])
        batch_op.drop_column("shard")
