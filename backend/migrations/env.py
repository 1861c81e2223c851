"""Alembic environment: runs on the connection handed over by ``pao.core.migrate`` or, for
``alembic revision --autogenerate``, on the database of Pao's settings."""

from __future__ import annotations

import asyncio

from alembic import context
from sqlalchemy.engine import Connection

import pao.models  # noqa: F401  (registers every table)
from pao.core.db import Base, create_engine
from pao.core.settings import get_settings

target_metadata = Base.metadata


def run_on(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


async def run_standalone() -> None:
    engine = create_engine(get_settings())
    async with engine.connect() as connection:
        await connection.run_sync(run_on)
        await connection.commit()
    await engine.dispose()


connection = context.config.attributes.get("connection")
if connection is not None:
    run_on(connection)
else:
    asyncio.run(run_standalone())
