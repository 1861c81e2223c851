"""wallet: a member's whole withdrawal request as one PostgreSQL function (pao_withdraw; issue
36, ADR 0039, pao.wallet.ddl), beside pao_request_withdrawal, which it calls, with the login
(pao.identity.ddl) and the Idempotency-Key's record (pao.kit.idempotency_ddl) it asks as
functions. Nothing on SQLite.

Revision ID: 0040
Revises: 0039
Create Date: 2026-12-08 01:00:00
"""

from collections.abc import Sequence

from alembic import op

from pao.identity import ddl as identity_ddl
from pao.kit import idempotency_ddl
from pao.wallet import ddl

revision: str = "0040"
down_revision: str | None = "0039"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # The login and the key's record as functions, then the wallet's functions dropped and made
    # again, pao_withdraw (which calls them) with them.
    dialect = op.get_bind().dialect.name
    for module in (identity_ddl, idempotency_ddl, ddl):
        for statement in module.statements_for(dialect):
            op.execute(statement)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP FUNCTION IF EXISTS pao_withdraw")
        for statement in (*idempotency_ddl.DROP_POSTGRES, *identity_ddl.DROP_POSTGRES):
            op.execute(statement)
