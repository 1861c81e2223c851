"""wallet: a member's whole withdrawal request as one PostgreSQL function (pao_withdraw; issue
36, ADR 0039, pao.wallet.ddl), beside pao_request_withdrawal, which it calls. Nothing on
SQLite.

Revision ID: 0040
Revises: 0039
Create Date: 2026-12-08 01:00:00
"""

from collections.abc import Sequence

from alembic import op

from pao.wallet import ddl

revision: str = "0040"
down_revision: str | None = "0039"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # The wallet's functions dropped and made again, pao_withdraw with them.
    for statement in ddl.statements_for(op.get_bind().dialect.name):
        op.execute(statement)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP FUNCTION IF EXISTS pao_withdraw")
