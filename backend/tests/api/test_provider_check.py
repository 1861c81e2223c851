"""The go-live check (``pao ops providers check``): against the sandbox's twins of every
provider (the same probes the command runs, its HTTP client on the sandbox app), against
refusals (a wrong key fails that line only), and the command itself (output, exit status,
no secret printed) on an ``httpx.MockTransport``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from pydantic import SecretStr
from typer.testing import CliRunner

import pao.ops.providers as providers_cli
from pao.cli import app as cli_app
from pao.core.settings import Settings, get_settings
from pao.ops.provider_check import Mark, Probe, check_providers

pytestmark = pytest.mark.sqlite


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return settings.model_copy(update={"sms_provider": "thaibulksms"})


def by_name(probes: list[Probe]) -> dict[str, Probe]:
    return {probe.provider: probe for probe in probes}


async def run_check(app: FastAPI, settings: Settings, **kw: Any) -> dict[str, Probe]:
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app)) as http:
        return by_name(await check_providers(settings, http, **kw))


@pytest.mark.parametrize("verifier", ["slipok", "easyslip", "scb"])
async def test_every_configured_provider_passes_against_the_sandbox(
    app: FastAPI, settings: Settings, verifier: str
) -> None:
    probes = await run_check(app, settings.model_copy(update={"slip_verifier": verifier}))
    assert set(probes) == {verifier, "thaibulksms", "line", "hub88", "game-provider", "bank-payout"}
    for probe in probes.values():
        assert not probe.failed, probe.line()
        assert (probe.reachable, probe.credentials, probe.shape) == (Mark.OK,) * 3
    assert "credits left" in probes["thaibulksms"].detail
    assert "one game-list call a minute" in probes["hub88"].detail
    assert probes["hub88"].detail.split()[1] == "games"


async def test_scb_bank_qr_is_checked_by_its_token(app: FastAPI, settings: Settings) -> None:
    scb_qr = settings.model_copy(update={"slip_verifier": "pao", "bank_api": "scb"})
    probes = await run_check(app, scb_qr, only={"scb"})
    assert set(probes) == {"scb"}
    assert not probes["scb"].failed, probes["scb"].line()
    wrong = scb_qr.model_copy(update={"scb_api_secret": SecretStr("wrong-secret-0123")})
    refused = (await run_check(app, wrong, only={"scb"}))["scb"]
    assert refused.failed
    assert refused.credentials is Mark.FAILED
    assert "wrong-secret-0123" not in refused.line()


async def test_pao_dialects_are_skipped_not_failed(app: FastAPI, settings: Settings) -> None:
    plain = settings.model_copy(update={"sms_provider": "pao", "slip_verifier": "pao"})
    probes = await run_check(app, plain, only={"slip-verifier", "sms"})
    assert all(p.skipped and not p.failed for p in probes.values())
    assert "skipped" in probes["sms"].line()


WRONG = "wrong-key-0123456789"


@pytest.mark.parametrize(
    ("provider", "update"),
    [
        ("slipok", {"slip_verifier": "slipok", "slipok_api_key": SecretStr(WRONG)}),
        ("slipok", {"slip_verifier": "slipok", "slipok_branch_id": "no-such-branch"}),
        ("easyslip", {"slip_verifier": "easyslip", "easyslip_api_key": SecretStr(WRONG)}),
        ("scb", {"slip_verifier": "scb", "scb_api_secret": SecretStr(WRONG)}),
        ("thaibulksms", {"thaibulksms_api_secret": SecretStr(WRONG)}),
        ("line", {"line_channel_access_token": SecretStr(WRONG)}),
        ("game-provider", {"game_provider_key": WRONG}),
    ],
)
async def test_a_wrong_credential_fails_that_line_only(
    app: FastAPI, settings: Settings, provider: str, update: dict[str, Any]
) -> None:
    probes = await run_check(app, settings.model_copy(update=update))
    bad = probes[provider]
    assert bad.failed
    assert (bad.reachable, bad.credentials) == (Mark.OK, Mark.FAILED), bad.line()
    assert WRONG not in bad.line()
    assert all(not p.failed for name, p in probes.items() if name != provider)


async def test_hub88_with_another_key_pair_is_refused(app: FastAPI, settings: Settings) -> None:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa

    other = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = other.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    ).decode()
    probes = await run_check(
        app, settings.model_copy(update={"hub88_private_key": pem}), only={"hub88"}
    )
    assert probes["hub88"].failed
    assert probes["hub88"].credentials is Mark.FAILED
    assert "BEGIN" not in probes["hub88"].line()


async def test_hub88_twice_in_a_minute_is_rate_limited(app: FastAPI, settings: Settings) -> None:
    assert not (await run_check(app, settings, only={"hub88"}))["hub88"].failed
    again = (await run_check(app, settings, only={"hub88"}))["hub88"]
    assert again.failed
    assert "wait a minute" in again.detail


async def test_a_quota_used_up_is_shown(app: FastAPI, settings: Settings) -> None:
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app)) as http:
        await http.post(
            "http://test/sandbox/slipcheck/controls",
            json={"provider": "slipok", "quotaExhausted": True},
        )
        probes = by_name(
            await check_providers(
                settings.model_copy(update={"slip_verifier": "slipok"}), http, only={"slipok"}
            )
        )
    assert not probes["slipok"].failed
    assert probes["slipok"].detail == "quota 0 left"


# The command itself, on a MockTransport (no app, no database).

runner = CliRunner()
SECRET = "slipok-secret-value-42"


@pytest.fixture
def slipok_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> Iterator[None]:
    monkeypatch.setenv("PAO_ENV", "test")
    monkeypatch.setenv("PAO_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("PAO_SLIP_VERIFIER", "slipok")
    monkeypatch.setenv("PAO_SLIPOK_BRANCH_ID", "4242")
    monkeypatch.setenv("PAO_SLIPOK_API_KEY", SECRET)
    get_settings.cache_clear()
    yield
    get_settings.cache_clear()


def on_mock(monkeypatch: pytest.MonkeyPatch, answer: httpx.Response) -> list[httpx.Request]:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return answer

    monkeypatch.setattr(
        providers_cli,
        "check_client",
        lambda: httpx.AsyncClient(transport=httpx.MockTransport(handler)),
    )
    return seen


def test_the_command_passes_and_exits_0(slipok_env: None, monkeypatch: pytest.MonkeyPatch) -> None:
    quota = {"success": True, "data": {"quota": 120, "overQuota": 0, "specialQuota": 0}}
    seen = on_mock(monkeypatch, httpx.Response(200, json=quota))
    result = runner.invoke(cli_app, ["ops", "providers", "check", "--only", "slipok"])
    assert result.exit_code == 0, result.output
    assert "slipok" in result.output
    assert "quota 120 left" in result.output
    assert "all configured providers answered as expected" in result.output
    assert SECRET not in result.output
    (request,) = seen
    assert request.method == "GET"
    assert str(request.url) == "https://api.slipok.com/api/line/apikey/4242/quota"
    assert request.headers["x-authorization"] == SECRET


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        (httpx.Response(401, json={"code": 1002, "message": "bad key"}), "credentials refused"),
        (httpx.Response(403, text="<html>Cloudflare</html>"), "credentials refused"),
        (httpx.Response(200, json={"success": True, "data": {}}), "unexpected answer"),
        (httpx.Response(502, text="Bad gateway"), "unexpected answer"),
    ],
)
def test_a_failed_line_exits_1(
    slipok_env: None, monkeypatch: pytest.MonkeyPatch, answer: httpx.Response, expected: str
) -> None:
    on_mock(monkeypatch, answer)
    result = runner.invoke(cli_app, ["ops", "providers", "check", "--only", "slipok"])
    assert result.exit_code == 1, result.output
    assert expected in result.output
    assert "FAILED: slipok" in result.output
    assert SECRET not in result.output


def test_an_unreachable_provider_exits_1(slipok_env: None, monkeypatch: pytest.MonkeyPatch) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError(f"cannot reach {request.url}")

    monkeypatch.setattr(
        providers_cli,
        "check_client",
        lambda: httpx.AsyncClient(transport=httpx.MockTransport(handler)),
    )
    result = runner.invoke(cli_app, ["ops", "providers", "check", "--only", "slipok"])
    assert result.exit_code == 1
    assert "reachable FAILED" in result.output
    assert "ConnectError" in result.output


async def test_the_thaibulksms_otp_api_is_checked_without_texting_anyone(
    app: FastAPI, client: httpx.AsyncClient, settings: Settings
) -> None:
    otp = settings.model_copy(update={"otp_provider": "thaibulksms"})
    [probe] = (await run_check(app, otp, only={"thaibulksms-otp"})).values()
    assert not probe.failed, probe.line()
    # No harmless call proves the OTP key: reachable and shaped, the credentials not proven.
    assert (probe.reachable, probe.credentials, probe.shape) == (Mark.OK, Mark.UNKNOWN, Mark.OK)
    assert "send one OTP to a staff phone" in probe.detail
    outbox = await client.get("/sandbox/sms")
    assert outbox.json() == []  # nobody was texted
    wrong = otp.model_copy(update={"thaibulksms_otp_secret": SecretStr(WRONG)})
    [refused] = (await run_check(app, wrong, only={"thaibulksms-otp"})).values()
    assert refused.failed
    assert refused.credentials is Mark.FAILED
    assert WRONG not in refused.line()
    unset = otp.model_copy(update={"thaibulksms_otp_key": SecretStr("")})
    [missing] = (await run_check(app, unset, only={"thaibulksms-otp"})).values()
    assert missing.failed
    assert "PAO_THAIBULKSMS_OTP_KEY" in missing.detail
