"""games: a seamless callback's money transaction as one PostgreSQL function
(pao_seamless_call; ADR 0033, pao.games.seamless.ddl). Nothing on SQLite.

Revision ID: 0039
Revises: 0038
Create Date: 2026-12-07 13:00:00
"""

from collections.abc import Sequence

from alembic import op

from pao.games.seamless import ddl

revision: str = "0039"
down_revision: str | None = "0038"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    for statement in ddl.statements_for(op.get_bind().dialect.name):
        op.execute(statement)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        for statement in ddl.DROP_POSTGRES:
            op.execute(statement)
