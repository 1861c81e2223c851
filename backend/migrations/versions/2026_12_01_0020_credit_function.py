"""ledger: the deposit credit's lock, entry, balances and postings as one PostgreSQL function
(pao_credit_wallet; ADR 0018, pao.ledger.credit_ddl). Nothing on SQLite.

Revision ID: 0020
Revises: 0019
Create Date: 2026-12-01 23:00:00
"""

from collections.abc import Sequence

from alembic import op

from pao.ledger import credit_ddl

revision: str = "0020"
down_revision: str | None = "0019"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    for statement in credit_ddl.statements_for(op.get_bind().dialect.name):
        op.execute(statement)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        for statement in credit_ddl.DROP_POSTGRES:
            op.execute(statement)
