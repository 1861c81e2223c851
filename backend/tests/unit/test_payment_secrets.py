"""Third parties' secrets (payments, game providers): sandbox defaults only in sandbox mode; a
real deployment refuses to start without them."""

from __future__ import annotations

from pathlib import Path

import pytest
from asgi_lifespan import LifespanManager

from pao.core.settings import PAYMENT_SECRETS, Settings
from pao.main import create_app


def test_sandbox_fills_well_known_secrets() -> None:
    settings = Settings(sandbox=True)
    assert all(getattr(settings, name).startswith("sandbox-") for name in PAYMENT_SECRETS)
    settings.require_third_party_secrets()


def test_configured_secret_is_kept() -> None:
    assert Settings(sandbox=True, bank_webhook_secret="s3cret").bank_webhook_secret == "s3cret"


def test_non_sandbox_without_secrets_refuses() -> None:
    settings = Settings(sandbox=False)
    assert settings.bank_webhook_secret == ""
    with pytest.raises(RuntimeError, match="PAO_BANK_WEBHOOK_SECRET"):
        settings.require_third_party_secrets()


def test_non_sandbox_without_game_provider_key_refuses() -> None:
    paid = Settings(sandbox=False).model_copy(update={name: "s3cret" for name in PAYMENT_SECRETS})
    with pytest.raises(RuntimeError, match="PAO_GAME_PROVIDER_KEY"):
        paid.require_third_party_secrets()
    paid.model_copy(update={"game_provider_key": "k3y"}).require_third_party_secrets()


async def test_app_refuses_to_start_without_secrets(tmp_path: Path) -> None:
    app = create_app(Settings(sandbox=False, data_dir=tmp_path, run_jobs=False))
    with pytest.raises(RuntimeError, match="refusing to start"):
        async with LifespanManager(app, startup_timeout=60, shutdown_timeout=60):
            pass
    await app.state.engine.dispose()


PAID = {**{name: "s3cret" for name in PAYMENT_SECRETS}, "game_provider_key": "k3y"}


@pytest.mark.parametrize(
    ("verifier", "needed"),
    [
        ("slipok", {"slipok_branch_id": "12345", "slipok_api_key": "slipok-key-value"}),
        ("easyslip", {"easyslip_api_key": "easyslip-key-value"}),
        ("scb", {"scb_api_key": "scb-key-value", "scb_api_secret": "scb-secret-value"}),
    ],
)
def test_slip_verifier_without_its_credentials_refuses(
    verifier: str, needed: dict[str, str]
) -> None:
    for left_out in needed:
        given = {k: v for k, v in needed.items() if k != left_out}
        settings = Settings(sandbox=False, slip_verifier=verifier, **PAID, **given)  # type: ignore[arg-type]
        with pytest.raises(RuntimeError, match=f"PAO_{left_out.upper()}") as refused:
            settings.require_third_party_secrets()
        # The refusal names settings, never a value.
        for name, value in given.items():
            assert value not in str(refused.value)
            if name != "slipok_branch_id":  # an id, not a secret
                assert value not in repr(settings)
    Settings(sandbox=False, slip_verifier=verifier, **PAID, **needed).require_third_party_secrets()  # type: ignore[arg-type]


def test_sandbox_fills_slip_verifier_credentials() -> None:
    settings = Settings(sandbox=True, slip_verifier="scb")
    assert settings.scb_api_secret.get_secret_value().startswith("sandbox-")
    assert settings.slipok_branch_id == "sandbox"
    settings.require_third_party_secrets()
    assert Settings(sandbox=False).slip_verifier == "pao"
