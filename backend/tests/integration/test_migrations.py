"""The migrations build exactly the schema the models describe, on both databases, and the
database guards (the ledger's, the member changes' append-only triggers) come with them."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import make_url, text
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncSession, create_async_engine

import pao.models  # noqa: F401
from pao.core.db import Base, UtcDateTime, create_engine
from pao.core.migrate import alembic_config, upgrade
from pao.core.settings import Settings
from pao.site.settings import load_site_settings

from ..conftest import DATABASES, PG_URL

# Also on SQLite (tests/databases.py): migrations build both databases.
pytestmark = pytest.mark.sqlite

# The money recipes that are one PostgreSQL function (ADR 0018), by the revision that made each.
MONEY_FUNCTIONS = {
    "pao_request_withdrawal": "0018",
    "pao_begin_transfer_in": "0019",
    "pao_settle_transfer": "0019",
    "pao_credit_wallet": "0020",
    "pao_seamless_call": "0039",
}


async def _functions(conn: AsyncConnection) -> set[str]:
    """Which of the money functions the database has."""
    rows = await conn.execute(
        text("SELECT proname FROM pg_proc WHERE proname = ANY(:names)"),
        {"names": list(MONEY_FUNCTIONS)},
    )
    return {row[0] for row in rows}


@pytest.fixture(params=DATABASES)
async def empty_database(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'migrated.db'}"
        return
    assert PG_URL
    name = f"pao_migrations_{uuid.uuid4().hex[:8]}"
    admin = create_async_engine(
        make_url(PG_URL).set(database="postgres"), isolation_level="AUTOCOMMIT"
    )
    async with admin.connect() as conn:
        await conn.execute(text(f'CREATE DATABASE "{name}"'))
    yield make_url(PG_URL).set(database=name).render_as_string(hide_password=False)
    async with admin.connect() as conn:
        await conn.execute(text(f'DROP DATABASE "{name}" WITH (FORCE)'))
    await admin.dispose()


def _diff(connection: Connection) -> list[object]:
    context = MigrationContext.configure(connection, opts={"compare_type": True})
    return list(compare_metadata(context, Base.metadata))


async def test_migrations_match_the_models(empty_database: str, tmp_path: Path) -> None:
    settings = Settings(database_url=empty_database, data_dir=tmp_path)
    await upgrade(settings)
    await upgrade(settings)  # a second run is a no-op
    engine = create_async_engine(empty_database)
    async with engine.connect() as conn:
        assert await conn.run_sync(_diff) == []
        if conn.dialect.name == "postgresql":
            triggers = {
                row[0]
                for row in await conn.execute(
                    text("SELECT tgname FROM pg_trigger WHERE NOT tgisinternal")
                )
            }
            assert {
                "postings_balanced",
                "postings_append_only",
                "member_changes_append_only",
                "audit_log_append_only",
            } <= triggers
            # The money recipes in one statement each (ADR 0018), as the tests' schema has them.
            assert await _functions(conn) == set(MONEY_FUNCTIONS)
        else:
            triggers = {
                row[0]
                for row in await conn.execute(
                    text("SELECT name FROM sqlite_master WHERE type = 'trigger'")
                )
            }
            assert {
                "postings_no_update",
                "journal_entries_no_delete",
                "member_changes_no_update",
                "member_changes_no_delete",
                "audit_log_no_update",
                "audit_log_no_delete",
            } <= triggers
    await engine.dispose()


async def _downgrade(settings: Settings, revision: str) -> None:
    engine = create_engine(settings)

    def run(connection: Connection) -> None:
        config = alembic_config()
        config.attributes["connection"] = connection
        command.downgrade(config, revision)

    async with engine.begin() as connection:
        await connection.run_sync(run)
    await engine.dispose()


T0 = datetime(2026, 11, 20, 8, 0, tzinfo=UTC)
agents_table = sa.table(
    "chat_agents",
    sa.column("id"),
    sa.column("login"),
    sa.column("display_name"),
    sa.column("password_hash"),
    sa.column("active", sa.Boolean()),
    sa.column("created_at", UtcDateTime()),
)
conversations_table = sa.table(
    "chat_conversations",
    sa.column("id"),
    sa.column("display_name"),
    sa.column("guest_id"),
    sa.column("created_at", UtcDateTime()),
    sa.column("agent_unread"),
    sa.column("customer_unread"),
    sa.column("wants_agent", sa.Boolean()),
)
messages_table = sa.table(
    "chat_messages",
    sa.column("id"),
    sa.column("conversation_id"),
    sa.column("sender"),
    sa.column("agent_id"),
    sa.column("message_type"),
    sa.column("body", sa.JSON()),
    sa.column("created_at", UtcDateTime()),
)


async def test_chat_agents_become_support_staff_and_back(
    empty_database: str, tmp_path: Path
) -> None:
    settings = Settings(database_url=empty_database, data_dir=tmp_path)
    await upgrade(settings, "0002")
    engine = create_async_engine(empty_database)
    async with engine.begin() as conn:
        await conn.execute(
            sa.insert(agents_table),
            [
                {"id": 1, "login": "ann", "display_name": "Ann", "password_hash": "h1",
                 "active": True, "created_at": T0},
                {"id": 7, "login": "bob", "display_name": "Bob", "password_hash": "h2",
                 "active": False, "created_at": T0},
            ],
        )  # fmt: skip
        await conn.execute(
            sa.insert(conversations_table).values(
                id=1, display_name="Guest", guest_id="g", created_at=T0,
                agent_unread=0, customer_unread=1, wants_agent=False,
            )
        )  # fmt: skip
        await conn.execute(
            sa.insert(messages_table).values(
                id=1, conversation_id=1, sender="agent", agent_id=7, message_type="text",
                body={"message_type": "text", "payload": "hi"}, created_at=T0,
            )
        )  # fmt: skip

    await upgrade(settings)
    async with engine.begin() as conn:
        staff = (
            await conn.execute(
                text(
                    "SELECT id, login, display_name, role, password_hash, totp_secret, "
                    "disabled_at IS NOT NULL FROM staff ORDER BY id"
                )
            )
        ).all()
        assert [tuple(row) for row in staff] == [
            (1, "ann", "Ann", "support", "h1", None, False),
            (7, "bob", "Bob", "support", "h2", None, True),
        ]
        # The message names the same person, now a staff member.
        joined = await conn.execute(
            text("SELECT s.login FROM chat_messages m JOIN staff s ON s.id = m.agent_id")
        )
        assert joined.scalar_one() == "bob"
        # New staff ids continue after the migrated ones.
        await conn.execute(
            text(
                "INSERT INTO staff (login, display_name, role, password_hash, created_at) "
                "VALUES ('cara', 'Cara', 'owner', 'h3', :at)"
            ).bindparams(sa.bindparam("at", T0, type_=UtcDateTime()))
        )
        assert (
            await conn.execute(text("SELECT id FROM staff WHERE login = 'cara'"))
        ).scalar_one() == 8
        tables = await conn.run_sync(lambda c: sa.inspect(c).get_table_names())
        assert "chat_agents" not in tables
        assert "chat_agent_sessions" not in tables

    await _downgrade(settings, "0002")
    async with engine.connect() as conn:
        agents = (
            await conn.execute(text("SELECT id, login, active FROM chat_agents ORDER BY id"))
        ).all()
        assert [(row[0], row[1], bool(row[2])) for row in agents] == [
            (1, "ann", True),
            (7, "bob", False),
            (8, "cara", True),
        ]
        assert "staff" not in await conn.run_sync(lambda c: sa.inspect(c).get_table_names())
    await engine.dispose()
    await upgrade(settings)  # and up again


async def test_operator_texts_become_per_language_and_back(
    empty_database: str, tmp_path: Path
) -> None:
    """0010 files each single-language text under the language it is written in (Thai, Lao
    or English), gives banners, the bot tree and statement notes their per-language shape, and
    its downgrade gives every text back."""
    settings = Settings(database_url=empty_database, data_dir=tmp_path)
    await upgrade(settings, "0009")
    engine = create_async_engine(empty_database)
    at = sa.bindparam("at", T0, type_=UtcDateTime())
    async with engine.begin() as conn:
        await conn.execute(
            text(
                "INSERT INTO promo_bonuses (id, code, kind, type, name, description, "
                "max_received, percent, fixed_amount, max_amount, min_deposit, "
                "turnover_multiplier, percent_fail, claimed_count, banners, is_active, "
                "sort_order, created_at) VALUES (1, 'B1', 'bonus', 'limit', 'โบนัสต้อนรับ', "
                "'Double it', 1, 100, 0, 50000, 0, 1, 10, 0, :banners, true, 0, :at)"
            ).bindparams(
                at, sa.bindparam("banners", [{"image": "/b.svg", "html": "<p>ໂບນັດ</p>"}], sa.JSON())
            )
        )
        await conn.execute(
            text("INSERT INTO promo_wheels (id, name, is_active, created_at) "
                 "VALUES (1, 'Lucky', true, :at)").bindparams(at)
        )  # fmt: skip
        await conn.execute(
            text(
                "INSERT INTO promo_wheel_slices (id, wheel_id, position, code, label, bg_color, "
                "text_color, html_description, weight, prize_type, prize_name, prize_amount) "
                "VALUES (1, 1, 0, 'N', 'ລອງໃໝ່', '#000', '#fff', '', 1, 'none', '', 0)"
            )
        )
        await conn.execute(
            text(
                "INSERT INTO members (id, phone, name, password_hash, status, currency, "
                "bank_code, bank_account_name, bank_account_no, coin, created_at) VALUES "
                "(1, '0800000001', 'M', 'h', 'ACTIVE', 'THB', 'KBANK', 'M', '1234567890', 0, :at)"
            ).bindparams(at)
        )
        statements = sa.table(
            "statements", *(sa.column(c) for c in (
                "id", "member_id", "statement_type", "status", "from_label", "to_label",
                "amount", "currency", "ref_type", "ref_id")),
            sa.column("extra", sa.JSON()), sa.column("created_at", UtcDateTime()),
        )  # fmt: skip
        line = {"member_id": 1, "statement_type": "bonus", "status": "SUCCESS", "amount": 100,
                "currency": "THB", "from_label": "PROMOTION", "to_label": "WALLET",
                "created_at": T0}  # fmt: skip
        await conn.execute(
            sa.insert(statements),
            [
                {**line, "id": 1, "ref_type": "refund", "ref_id": "1",
                 "extra": {"refund": {"description": "refund"}}},
                {**line, "id": 2, "ref_type": "bonus", "ref_id": "1",
                 "extra": {"bonus": {"description": "โบนัสต้อนรับ"}}},
            ],
        )  # fmt: skip
        site = sa.table(
            "site_settings", sa.column("key"), sa.column("value", sa.JSON()),
            sa.column("updated_at", UtcDateTime()), sa.column("updated_by"),
        )  # fmt: skip
        menu = {"text": "สวัสดี", "replies": [{"title": "ok", "next": "menu"}]}
        tree = {"start": "menu", "handoverText": "wait", "nodes": {"menu": menu}}
        await conn.execute(
            sa.insert(site),
            [
                {"key": "chatBotTree", "value": tree, "updated_at": T0, "updated_by": "t"},
                {"key": "refundBanners", "value": [{"image": "/r.svg", "html": "<p>back</p>"}],
                 "updated_at": T0, "updated_by": "t"},
            ],
        )  # fmt: skip

    await upgrade(settings)
    bonus_row = sa.table(
        "promo_bonuses", sa.column("name", sa.JSON()), sa.column("description", sa.JSON()),
        sa.column("banners", sa.JSON()),
    )  # fmt: skip
    slice_row = sa.table(
        "promo_wheel_slices", sa.column("label", sa.JSON()), sa.column("prize_name", sa.JSON())
    )
    wheel_row = sa.table("promo_wheels", sa.column("name", sa.JSON()))
    async with engine.begin() as conn:
        name, description, banners = (await conn.execute(sa.select(bonus_row))).one()
        assert name == {"th": "โบนัสต้อนรับ"}
        assert description == {"en": "Double it"}
        assert banners == [{"image": "/b.svg", "html": {"la": "<p>ໂບນັດ</p>"}, "title": {}}]
        assert tuple((await conn.execute(sa.select(slice_row))).one()) == ({"la": "ລອງໃໝ່"}, {})
        assert (await conn.execute(sa.select(wheel_row))).scalar_one() == {"en": "Lucky"}
        extras = [row[0] for row in await conn.execute(
            sa.select(statements.c.extra).order_by(statements.c.id))]  # fmt: skip
        assert extras == [
            {"refund": {"code": "refund.received", "params": {}, "description": "refund"}},
            {"bonus": {"code": "bonus.received", "params": {"name": {"th": "โบนัสต้อนรับ"}},
                       "description": "โบนัสต้อนรับ"}},
        ]  # fmt: skip
        values = dict((await conn.execute(sa.select(site.c.key, site.c.value))).all())
        assert values["chatBotTree"]["nodes"]["menu"]["text"] == {"th": "สวัสดี"}
        assert values["chatBotTree"]["handoverText"] == {"en": "wait"}
        assert values["refundBanners"][0]["html"] == {"en": "<p>back</p>"}
        # A text per language written after the upgrade goes down as its Thai text.
        await conn.execute(
            text("INSERT INTO promo_wheels (id, name, is_active, created_at) "
                 "VALUES (2, :name, true, :at)").bindparams(
                at, sa.bindparam("name", {"th": "ก", "la": "ກ"}, sa.JSON()))
        )  # fmt: skip

    await _downgrade(settings, "0009")
    async with engine.connect() as conn:
        assert tuple(
            (await conn.execute(text("SELECT name, description FROM promo_bonuses"))).one()
        ) == ("โบนัสต้อนรับ", "Double it")
        assert (
            await conn.execute(text("SELECT label FROM promo_wheel_slices"))
        ).scalar_one() == "ລອງໃໝ່"
        names = [row[0] for row in await conn.execute(
            text("SELECT name FROM promo_wheels ORDER BY id"))]  # fmt: skip
        assert names == ["Lucky", "ก"]
        extras = [row[0] for row in await conn.execute(
            sa.select(statements.c.extra).order_by(statements.c.id))]  # fmt: skip
        assert extras[0] == {"refund": {"description": "refund"}}
    await engine.dispose()
    await upgrade(settings)


@pytest.mark.parametrize(
    ("revision", "before"),
    [
        ("0018", "0017"),  # the withdrawal
        ("0019", "0018"),  # the wallet → game transfer's two transactions
        ("0020", "0019"),  # the deposit credit
    ],
)
async def test_a_money_function_goes_down_and_up_again(
    empty_database: str, tmp_path: Path, revision: str, before: str
) -> None:
    """Downgrading past the revision that made a function drops it (and those of the later
    ones), and keeps the earlier ones; upgrading makes them again. SQLite has none."""
    settings = Settings(database_url=empty_database, data_dir=tmp_path)
    await upgrade(settings)
    await _downgrade(settings, before)
    engine = create_async_engine(empty_database)
    postgres = make_url(empty_database).drivername.startswith("postgresql")

    async def functions() -> set[str]:
        if not postgres:
            return set()
        async with engine.connect() as conn:
            return await _functions(conn)

    left = {name for name, made_in in MONEY_FUNCTIONS.items() if made_in <= before}
    assert await functions() == (left if postgres else set())
    await upgrade(settings)
    assert await functions() == (set(MONEY_FUNCTIONS) if postgres else set())
    await engine.dispose()


async def test_money_settings_become_per_currency_and_back(
    empty_database: str, tmp_path: Path
) -> None:
    """0021 keeps each money setting's amount as its baht value and gives kip a default of its
    own (never the baht number); the history's amounts name baht; existing bonuses and wheels
    are baht ones. The downgrade gives the baht amounts back."""
    settings = Settings(database_url=empty_database, data_dir=tmp_path)
    await upgrade(settings, "0020")
    engine = create_async_engine(empty_database)
    at = sa.bindparam("at", T0, type_=UtcDateTime())
    site = sa.table(
        "site_settings", sa.column("key"), sa.column("value", sa.JSON()),
        sa.column("updated_at", UtcDateTime()), sa.column("updated_by"),
    )  # fmt: skip
    history = sa.table(
        "site_setting_changes", sa.column("change_set"), sa.column("key"),
        sa.column("before", sa.JSON()), sa.column("after", sa.JSON()), sa.column("actor"),
        sa.column("at", UtcDateTime()),
    )  # fmt: skip
    stored = {"withdrawMin": 200_00, "withdrawMax": 80_000_00, "paytimzMinimum": 20_00,
              "spinDepositPerCoin": 100_00, "siteName": "Pao"}  # fmt: skip
    async with engine.begin() as conn:
        await conn.execute(
            sa.insert(site),
            [
                {"key": k, "value": v, "updated_at": T0, "updated_by": "t"}
                for k, v in stored.items()
            ],
        )
        await conn.execute(
            sa.insert(history),
            [
                {"change_set": "a", "key": "withdrawMin", "before": None, "after": 200_00,
                 "actor": "t", "at": T0},
                {"change_set": "a", "key": "siteName", "before": None, "after": "Pao",
                 "actor": "t", "at": T0},
            ],
        )  # fmt: skip
        await conn.execute(
            text(
                "INSERT INTO promo_bonuses (id, code, kind, type, name, description, "
                "max_received, percent, fixed_amount, max_amount, min_deposit, "
                "turnover_multiplier, percent_fail, claimed_count, banners, is_active, "
                "sort_order, created_at) VALUES (1, 'B1', 'bonus', 'limit', '{}', '{}', 1, 0, "
                "5000, 5000, 0, 1, 10, 0, '[]', true, 0, :at)"
            ).bindparams(at)
        )
        await conn.execute(
            text("INSERT INTO promo_wheels (id, name, is_active, created_at) "
                 "VALUES (1, '{}', true, :at)").bindparams(at)
        )  # fmt: skip

    await upgrade(settings)
    async with engine.connect() as conn:
        values = dict((await conn.execute(sa.select(site.c.key, site.c.value))).all())
        assert values == {
            "withdrawMin": {"THB": 200_00, "LAK": 50_000_00},
            "withdrawMax": {"THB": 80_000_00, "LAK": 20_000_000_00},
            "paytimzMinimum": {"THB": 20_00, "LAK": None},
            "spinDepositPerCoin": {"THB": 100_00, "LAK": 50_000_00},
            "siteName": "Pao",
        }
        changes = (
            await conn.execute(sa.select(history.c.key, history.c.before, history.c.after))
        ).all()
        assert sorted(tuple(row) for row in changes) == [
            ("siteName", None, "Pao"),
            ("withdrawMin", None, {"THB": 200_00}),
        ]
        for table in ("promo_bonuses", "promo_wheels"):
            currency = await conn.execute(text(f"SELECT currency FROM {table}"))
            assert currency.scalar_one() == "THB"
    # What the app reads: today's amounts for baht, kip's own defaults.
    async with AsyncSession(engine) as session:
        loaded = await load_site_settings(session)
        assert loaded.withdraw_max.for_currency("THB") == 80_000_00
        assert loaded.withdraw_max.for_currency("LAK") == 20_000_000_00

    await _downgrade(settings, "0020")
    async with engine.connect() as conn:
        values = dict((await conn.execute(sa.select(site.c.key, site.c.value))).all())
        assert values == stored
        down = (await conn.execute(sa.select(history.c.key, history.c.after))).all()
        assert sorted(tuple(row) for row in down) == [
            ("siteName", "Pao"),
            ("withdrawMin", 200_00),
        ]
        columns = await conn.run_sync(
            lambda c: {col["name"] for col in sa.inspect(c).get_columns("promo_bonuses")}
        )
        assert "currency" not in columns
    await engine.dispose()
    await upgrade(settings)  # and up again
