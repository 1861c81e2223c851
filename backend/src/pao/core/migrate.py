"""Schema migrations: ``pao migrate`` runs Alembic to head on the configured database."""

from __future__ import annotations

import logging
from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy.engine import Connection

from pao.core.db import create_engine
from pao.core.settings import Settings

BACKEND_DIR = Path(__file__).resolve().parents[3]


def alembic_config() -> Config:
    config = Config(str(BACKEND_DIR / "alembic.ini"))
    config.set_main_option("script_location", str(BACKEND_DIR / "migrations"))
    return config


async def upgrade(settings: Settings, revision: str = "head") -> None:
    # Alembic narrates each step at INFO; the callers report the outcome themselves (the CLI's
    # logging set-up quiets it already, before alembic's import narrates its plugins).
    logging.getLogger("alembic").setLevel(logging.WARNING)
    engine = create_engine(settings)

    def run(connection: Connection) -> None:
        config = alembic_config()
        config.attributes["connection"] = connection
        command.upgrade(config, revision)

    try:
        async with engine.begin() as connection:
            await connection.run_sync(run)
    finally:
        await engine.dispose()
