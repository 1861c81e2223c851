"""promotions: a validity window for bonuses and promotion codes (issue 18)

Two nullable columns: players see and take a bonus or code only from ``valid_from`` until
``valid_until`` (each end open when NULL), so existing rows stay valid as they were.

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-27 20:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import pao.core.db

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

UtcDateTime = pao.core.db.UtcDateTime


def upgrade() -> None:
    with op.batch_alter_table("promo_bonuses") as batch:
        batch.add_column(sa.Column("valid_from", UtcDateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("valid_until", UtcDateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("promo_bonuses") as batch:
        batch.drop_column("valid_until")
        batch.drop_column("valid_from")
