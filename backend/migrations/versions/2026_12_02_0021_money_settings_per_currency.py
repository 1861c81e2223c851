"""money per currency: operator money settings hold a value per currency; bonuses and wheels
name the currency they are defined in (issue 35 §1, ADR 0020)

* ``site_settings``: each money setting's stored amount (minor units) becomes
  ``{"THB": amount, "LAK": kip default}``: today's value is the baht value, and kip gets a
  default of its own (ADR 0020), never the baht number read as kip. ``paytimzMinimum`` (unset
  meant "the gateway's own") keeps its baht value and has none in kip.
* ``site_setting_changes``: the history's amounts become ``{"THB": amount}`` (the versions from
  before kip existed name baht only; a revert keeps the kip value in force).
* ``promo_bonuses.currency`` and ``promo_wheels.currency`` (NOT NULL, default ``'THB'`` as
  the rows written before it): every existing bonus, promotion code and wheel is a baht one, so kip members are offered none of them until the
  operator defines kip ones.

The downgrade keeps the baht values (kip's are dropped) and drops the columns.

Revision ID: 0021
Revises: 0020
Create Date: 2026-12-02 09:00:00
"""

import json
from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0021"
down_revision: str | None = "0020"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# The money settings as this migration found them, with the kip default each gets (minor
# units; ADR 0020). Frozen here: later changes of the defaults do not rewrite this step.
KIP_DEFAULTS: dict[str, int | None] = {
    "withdrawMin": 50_000_00,
    "withdrawMax": 20_000_000_00,
    "withdrawAutoApproveMax": 0,
    "manualAdjustmentApprovalAbove": 3_000_000_00,
    "slipMinimumDeposit": 1_000_00,
    "inviteMinDeposit": 50_000_00,
    "inviteMaxPerInvitee": 300_000_00,
    "refundMinimum": 1_000_00,
    "refundMaxPerPeriod": 3_000_000_00,
    "spinDepositPerCoin": 50_000_00,
    "paytimzMinimum": None,
}
CURRENCY_TABLES = ("promo_bonuses", "promo_wheels")

settings_table = sa.table("site_settings", sa.column("key"), sa.column("value", sa.JSON()))
changes_table = sa.table(
    "site_setting_changes",
    sa.column("id"),
    sa.column("key"),
    sa.column("before", sa.JSON()),
    sa.column("after", sa.JSON()),
)


def _load(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else value


def _is_amount(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _setting_up(key: str, value: Any) -> Any:
    if _is_amount(value) or value is None:
        return {"THB": value, "LAK": KIP_DEFAULTS[key]}
    return value


def _history_up(value: Any) -> Any:
    return {"THB": value} if _is_amount(value) else value


def _down(value: Any) -> Any:
    return value.get("THB") if isinstance(value, dict) else value


def _rewrite_settings(convert: Any) -> None:
    bind = op.get_bind()
    rows = bind.execute(
        sa.select(settings_table.c.key, settings_table.c.value).where(
            settings_table.c.key.in_(KIP_DEFAULTS)
        )
    ).all()
    for key, value in rows:
        value = _load(value)
        if convert(key, value) == value:
            continue
        bind.execute(
            sa.update(settings_table)
            .where(settings_table.c.key == key)
            .values(value=convert(key, value))
        )


def _rewrite_history(convert: Any) -> None:
    bind = op.get_bind()
    rows = bind.execute(
        sa.select(changes_table.c.id, changes_table.c.before, changes_table.c.after).where(
            changes_table.c.key.in_(KIP_DEFAULTS)
        )
    ).all()
    for row_id, before, after in rows:
        before, after = _load(before), _load(after)
        changed = {
            column: convert(value)
            for column, value in (("before", before), ("after", after))
            if convert(value) != value
        }
        if changed:
            bind.execute(
                sa.update(changes_table).where(changes_table.c.id == row_id).values(changed)
            )


def upgrade() -> None:
    _rewrite_settings(_setting_up)
    _rewrite_history(_history_up)
    for table in CURRENCY_TABLES:
        op.add_column(
            table,
            sa.Column("currency", sa.String(3), nullable=False, server_default=sa.text("'THB'")),
        )


def downgrade() -> None:
    for table in CURRENCY_TABLES:
        # SQLite ≥ 3.35 drops a column in place (a batch copy would drop the tables that point
        # at these, see 0009).
        op.execute(f"ALTER TABLE {table} DROP COLUMN currency")
    _rewrite_history(_down)
    _rewrite_settings(lambda _key, value: _down(value))
