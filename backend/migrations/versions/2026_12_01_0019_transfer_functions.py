"""games: the wallet → game transfer's two money transactions as PostgreSQL functions
(pao_begin_transfer_in, pao_settle_transfer; ADR 0018, pao.games.ddl). Nothing on SQLite.

Revision ID: 0019
Revises: 0018
Create Date: 2026-12-01 22:00:00
"""

from collections.abc import Sequence

from alembic import op

from pao.games import ddl

revision: str = "0019"
down_revision: str | None = "0018"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    for statement in ddl.statements_for(op.get_bind().dialect.name):
        op.execute(statement)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        for statement in ddl.DROP_POSTGRES:
            op.execute(statement)
