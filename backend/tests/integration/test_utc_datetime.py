"""``UtcDateTime`` keeps the instant it is given, whatever its offset, on both databases:
SQLite drops the offset it stores, so a value is turned to UTC before it is bound."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import create_async_engine

from pao.core.db import UtcDateTime

# Also on SQLite (tests/databases.py): the database that drops the offset.
pytestmark = pytest.mark.sqlite

BANGKOK = timezone(timedelta(hours=7))
moments = sa.Table("utc_moments", sa.MetaData(), sa.Column("at", UtcDateTime()))


async def test_an_instant_with_an_offset_is_read_back_as_the_same_instant(
    database_url: str,
) -> None:
    # 17:19 in Bangkok: the evening hours whose UTC date is still the same day.
    paid = datetime(2026, 12, 7, 17, 19, 40, tzinfo=BANGKOK)
    engine = create_async_engine(database_url)
    try:
        async with engine.begin() as connection:
            await connection.run_sync(moments.create)
            await connection.execute(moments.insert().values(at=paid))
            stored = await connection.scalar(sa.select(moments.c.at))
            # Compared in SQL too: the bound value is the same instant as the stored one.
            found = await connection.scalar(
                sa.select(sa.func.count()).where(moments.c.at == paid.astimezone(UTC))
            )
            await connection.run_sync(moments.drop)
    finally:
        await engine.dispose()
    assert stored == paid
    assert stored.utcoffset() == timedelta(0)
    assert stored.astimezone(BANGKOK).date() == paid.date()
    assert found == 1


def test_a_naive_datetime_is_refused() -> None:
    with pytest.raises(ValueError, match="naive"):
        UtcDateTime().process_bind_param(datetime(2026, 12, 7, 17, 19), None)
