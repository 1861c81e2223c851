"""promotions: wheel slices the editor retired instead of deleting

A slice that spins or coupons refer to cannot be deleted; the back office's wheel editor sets
``retired_at`` instead, and the player's wheel shows only slices without it. The unique code per
wheel now holds among live slices only, so a new slice may reuse a retired slice's code.

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-27 19:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import pao.core.db

revision: str = "0016"
down_revision: str | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

UtcDateTime = pao.core.db.UtcDateTime
TABLE = "promo_wheel_slices"
INDEX = "uq_promo_wheel_slices_wheel_code"
LIVE = sa.text("retired_at IS NULL")


def upgrade() -> None:
    op.add_column(TABLE, sa.Column("retired_at", UtcDateTime(timezone=True), nullable=True))
    op.drop_index(INDEX, table_name=TABLE)
    op.create_index(
        INDEX,
        TABLE,
        ["wheel_id", "code"],
        unique=True,
        sqlite_where=LIVE,
        postgresql_where=LIVE,
    )


def downgrade() -> None:
    # Retired slices go back to being slices of their wheel; a code shared since then would
    # break the old unique index, so a retired slice sharing its code gets its id appended.
    op.execute(
        sa.text(
            "UPDATE promo_wheel_slices SET code = code || '~' || CAST(id AS VARCHAR(20)) "
            "WHERE retired_at IS NOT NULL AND EXISTS (SELECT 1 FROM promo_wheel_slices AS other "
            "WHERE other.wheel_id = promo_wheel_slices.wheel_id "
            "AND other.code = promo_wheel_slices.code AND other.id <> promo_wheel_slices.id)"
        )
    )
    op.drop_index(INDEX, table_name=TABLE)
    op.create_index(INDEX, TABLE, ["wheel_id", "code"], unique=True)
    with op.batch_alter_table(TABLE) as batch:
        batch.drop_column("retired_at")
