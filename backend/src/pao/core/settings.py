"""Process settings read from the environment (``PAO_*``).

These are the settings of the *deployment* (where the database is, which port to bind).
Operator settings that change at run time (withdraw limits, OTP on/off, texts) live in the
database and belong to :mod:`pao.site`.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

REPO_ROOT = Path(__file__).resolve().parents[4]


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="PAO_", extra="ignore")

    env: Literal["development", "production", "test"] = "development"
    host: str = "127.0.0.1"
    port: int = 8000
    data_dir: Path = Path("var")
    database_url: str | None = None
    redis_url: str | None = None
    sandbox: bool = False
    # Lao build: phone numbers are not forced to 10 digits and members pick LAK or BAHT.
    lao_mode: bool = False
    # Where adapters reach third parties; in sandbox mode that is this very app.
    public_base_url: str | None = None
    # SMS gateway endpoint (JSON POST {phone, text, sender}); None → this app's sandbox outbox.
    sms_url: str | None = None
    sms_sender: str = "Pao"
    static_dir: Path = REPO_ROOT / "frontend" / "dist"
    session_ttl_hours: int = 24 * 14
    # argon2id cost: OWASP's second recommended profile (19 MiB, t=2) by default.
    argon2_time_cost: int = 2
    argon2_memory_kib: int = 19 * 1024
    argon2_parallelism: int = 1
    db_pool_size: int = Field(default=10, ge=1)
    log_json: bool | None = None

    @property
    def resolved_database_url(self) -> str:
        if self.database_url:
            return self.database_url
        return f"sqlite+aiosqlite:///{(self.data_dir / 'pao.db').resolve()}"

    @property
    def is_sqlite(self) -> bool:
        return self.resolved_database_url.startswith("sqlite")

    @property
    def base_url(self) -> str:
        return self.public_base_url or f"http://{self.host}:{self.port}"

    @property
    def json_logs(self) -> bool:
        return self.log_json if self.log_json is not None else self.env == "production"


@lru_cache
def get_settings() -> Settings:
    return Settings()
