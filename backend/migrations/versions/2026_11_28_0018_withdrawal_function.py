"""wallet: the withdrawal's hold, row and statement line as one PostgreSQL function
(pao_request_withdrawal; ADR 0018, pao.wallet.ddl). Nothing on SQLite.

Revision ID: 0018
Revises: 0017
Create Date: 2026-11-28 21:00:00
"""

from collections.abc import Sequence

from alembic import op

from pao.wallet import ddl

revision: str = "0018"
down_revision: str | None = "0017"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    for statement in ddl.statements_for(op.get_bind().dialect.name):
        op.execute(statement)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        for statement in ddl.DROP_POSTGRES:
            op.execute(statement)
