"""Deployment settings that must never go together are refused when they are read."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from pydantic import ValidationError
from typer.testing import CliRunner

from pao.cli import app
from pao.core.settings import Settings, get_settings


@pytest.fixture
def clean_settings(monkeypatch: pytest.MonkeyPatch) -> Iterator[pytest.MonkeyPatch]:
    for name in ("PAO_ENV", "PAO_SANDBOX", "PAO_DATABASE_URL"):
        monkeypatch.delenv(name, raising=False)
    get_settings.cache_clear()
    yield monkeypatch
    get_settings.cache_clear()


def test_the_sandbox_is_refused_in_production(clean_settings: pytest.MonkeyPatch) -> None:
    clean_settings.setenv("PAO_ENV", "production")
    clean_settings.setenv("PAO_SANDBOX", "1")
    clean_settings.setenv("PAO_BANK_WEBHOOK_SECRET", "a-real-secret")
    with pytest.raises(ValidationError) as refused:
        Settings()
    message = str(refused.value)
    assert "PAO_SANDBOX=1 is refused with PAO_ENV=production" in message
    # The refusal does not print the other settings (the secrets among them).
    assert "a-real-secret" not in message


@pytest.mark.parametrize(
    ("env", "sandbox"), [("production", False), ("development", True), ("test", True)]
)
def test_other_combinations_load(env: str, sandbox: bool) -> None:
    settings = Settings(env=env, sandbox=sandbox)
    assert (settings.env, settings.sandbox) == (env, sandbox)


def test_pao_serve_refuses_to_start_with_one_line(clean_settings: pytest.MonkeyPatch) -> None:
    clean_settings.setenv("PAO_ENV", "production")
    clean_settings.setenv("PAO_SANDBOX", "1")
    result = CliRunner().invoke(app, ["serve"])
    assert result.exit_code == 1
    assert result.output.startswith("error: ")
    assert "PAO_SANDBOX=1 is refused with PAO_ENV=production" in result.output
