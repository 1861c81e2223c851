"""operator texts per language: promotions' texts become {"th", "la", "en"} JSON (ADR 0011)

* ``promo_bonuses.name`` / ``description``, ``promo_wheels.name`` and
  ``promo_wheel_slices.label`` / ``html_description`` / ``prize_name`` change from one string
  to a JSON object per locale. The existing text is kept, filed under the language it is
  written in (Lao letters: la, Thai letters: th, otherwise en).
* Banners (a bonus's ``banners``, the ``inviteBanners`` / ``refundBanners`` settings) get
  their ``html`` per locale and an empty ``title``; the chat bot's tree (``chatBotTree``) its
  texts and reply titles per locale.
* Statement notes get a code and parameters (``bonus.received`` + the bonus's name, …) next
  to the description they had.
* ``chat_conversations.locale``: the language the customer last wrote in.

The column swap is add, copy, drop, rename on both databases: SQLite's batch copy-and-swap
would drop tables that others point at (see 0009).

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-27 16:00:00
"""

import json
from collections.abc import Callable, Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# (table, column, string length before)
TEXT_COLUMNS: tuple[tuple[str, str, int], ...] = (
    ("promo_bonuses", "name", 120),
    ("promo_bonuses", "description", 1000),
    ("promo_wheels", "name", 120),
    ("promo_wheel_slices", "label", 60),
    ("promo_wheel_slices", "html_description", 2000),
    ("promo_wheel_slices", "prize_name", 120),
)
BANNER_SETTINGS = ("inviteBanners", "refundBanners")
# What each statement detail said before it had a code.
NOTE_CODES = {
    "bonus": "bonus.received",
    "promotion": "promotion.received",
    "refund": "refund.received",
    "invite": "invite.collected",
    "luckydraw": "luckydraw.prize",
}


# Frozen copies of pao.kit.i18n's rules as they were when this migration was written.
def _locale_of(text: str) -> str:
    lao = sum(1 for char in text if 0x0E80 <= ord(char) < 0x0F00)
    thai = sum(1 for char in text if 0x0E00 <= ord(char) < 0x0E80)
    if lao or thai:
        return "la" if lao > thai else "th"
    return "en"


def _localized(value: Any) -> Any:
    if isinstance(value, str):
        return {_locale_of(value): value} if value else {}
    return value


def _one_text(value: Any) -> str:
    if isinstance(value, dict):
        for locale in ("th", "en", "la"):
            if value.get(locale):
                return str(value[locale])
        return next((str(v) for v in value.values() if v), "")
    return "" if value is None else str(value)


def _load(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else value


def _swap(table: str, column: str, new_type: sa.types.TypeEngine[Any], convert: Any) -> None:
    """Replace ``column`` by a NOT NULL column of ``new_type`` holding ``convert(old value)``."""
    bind = op.get_bind()
    temporary = f"{column}_new"
    default = "{}" if isinstance(new_type, sa.JSON) else ""
    op.add_column(
        table,
        sa.Column(temporary, new_type, nullable=False, server_default=sa.text(f"'{default}'")),
    )
    source = sa.table(table, sa.column("id"), sa.column(column))
    target = sa.table(table, sa.column("id"), sa.column(temporary, new_type))
    for row_id, value in bind.execute(sa.select(source.c.id, source.c[column])).all():
        bind.execute(
            sa.update(target).where(target.c.id == row_id).values({temporary: convert(value)})
        )
    op.execute(f"ALTER TABLE {table} DROP COLUMN {column}")
    op.execute(f"ALTER TABLE {table} RENAME COLUMN {temporary} TO {column}")
    if bind.dialect.name != "sqlite":
        # SQLite cannot drop a default in place; there it stays, harmless (every insert sets it).
        op.alter_column(table, column, server_default=None)


def _banners(value: Any, *, up: bool) -> Any:
    items = _load(value)
    if not isinstance(items, list):
        return items
    out = []
    for item in items:
        if not isinstance(item, dict):
            out.append(item)
            continue
        banner = dict(item)
        if up:
            banner["html"] = _localized(banner.get("html", ""))
            banner.setdefault("title", {})
        else:
            banner["html"] = _one_text(banner.get("html"))
            banner.pop("title", None)
        out.append(banner)
    return out


def _bot_tree(value: Any, *, up: bool) -> Any:
    tree = _load(value)
    if not isinstance(tree, dict):
        return tree
    change: Callable[[Any], Any] = _localized if up else _one_text
    tree = dict(tree)
    if "handoverText" in tree:
        tree["handoverText"] = change(tree["handoverText"])
    nodes = tree.get("nodes")
    if isinstance(nodes, dict):
        for node in nodes.values():
            if isinstance(node, dict):
                node["text"] = change(node.get("text", ""))
                for reply in node.get("replies") or []:
                    if isinstance(reply, dict):
                        reply["title"] = change(reply.get("title", ""))
    return tree


def _settings(*, up: bool) -> None:
    bind = op.get_bind()
    settings = sa.table("site_settings", sa.column("key"), sa.column("value", sa.JSON()))
    keys = (*BANNER_SETTINGS, "chatBotTree")
    for key, value in bind.execute(
        sa.select(settings.c.key, settings.c.value).where(settings.c.key.in_(keys))
    ).all():
        changed = _bot_tree(value, up=up) if key == "chatBotTree" else _banners(value, up=up)
        bind.execute(sa.update(settings).where(settings.c.key == key).values(value=changed))


def _note_up(detail: str, ref_type: str, note: Any) -> Any:
    if not isinstance(note, dict) or "code" in note:
        return note
    description = str(note.get("description", ""))
    code = NOTE_CODES.get(detail)
    if code is None:
        return note
    params: dict[str, Any] = {}
    if detail in ("bonus", "promotion"):
        if ref_type == "bonus_finish":
            code = "bonus.finished"
        params = {"name": _localized(description)}
    elif detail == "luckydraw":
        params = {"prize": _localized(description)}
    return {"code": code, "params": params, "description": description}


def _note_down(note: Any) -> Any:
    if not isinstance(note, dict):
        return note
    return {"description": str(note.get("description", ""))}


def _statements(*, up: bool) -> None:
    bind = op.get_bind()
    statements = sa.table(
        "statements", sa.column("id"), sa.column("ref_type"), sa.column("extra", sa.JSON())
    )
    rows = bind.execute(
        sa.select(statements.c.id, statements.c.ref_type, statements.c.extra).where(
            statements.c.extra.is_not(None)
        )
    ).all()
    for row_id, ref_type, extra in rows:
        extra = _load(extra)
        if not isinstance(extra, dict):
            continue
        changed = {
            detail: _note_up(detail, ref_type, note) if up else _note_down(note)
            for detail, note in extra.items()
        }
        if changed != extra:
            bind.execute(
                sa.update(statements).where(statements.c.id == row_id).values(extra=changed)
            )


def upgrade() -> None:
    for table, column, _length in TEXT_COLUMNS:
        _swap(table, column, sa.JSON(), _localized)
    bind = op.get_bind()
    bonuses = sa.table("promo_bonuses", sa.column("id"), sa.column("banners", sa.JSON()))
    for row_id, banners in bind.execute(sa.select(bonuses.c.id, bonuses.c.banners)).all():
        bind.execute(
            sa.update(bonuses)
            .where(bonuses.c.id == row_id)
            .values(banners=_banners(banners, up=True))
        )
    _settings(up=True)
    _statements(up=True)
    op.add_column("chat_conversations", sa.Column("locale", sa.String(2), nullable=True))


def downgrade() -> None:
    # Each text keeps one language: Thai, else English, else Lao (what 0009 showed everyone).
    op.drop_column("chat_conversations", "locale")
    _statements(up=False)
    _settings(up=False)
    bind = op.get_bind()
    bonuses = sa.table("promo_bonuses", sa.column("id"), sa.column("banners", sa.JSON()))
    for row_id, banners in bind.execute(sa.select(bonuses.c.id, bonuses.c.banners)).all():
        bind.execute(
            sa.update(bonuses)
            .where(bonuses.c.id == row_id)
            .values(banners=_banners(banners, up=False))
        )
    for table, column, length in TEXT_COLUMNS:
        _swap(table, column, sa.String(length), lambda value, n=length: _one_text(_load(value))[:n])
