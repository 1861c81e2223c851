"""games: a member's transfer between the wallet and a game, up to the provider call, as one
PostgreSQL function (pao_transfer_begin; issue 36, ADR 0039, pao.games.ddl), beside
pao_begin_transfer_in, which it calls. Nothing on SQLite.

Revision ID: 0041
Revises: 0040
Create Date: 2026-12-08 01:30:00
"""

from collections.abc import Sequence

from alembic import op

from pao.games import ddl

revision: str = "0041"
down_revision: str | None = "0040"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # The games' functions dropped and made again, pao_transfer_begin with them.
    for statement in ddl.statements_for(op.get_bind().dialect.name):
        op.execute(statement)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP FUNCTION IF EXISTS pao_transfer_begin")
