"""Process settings read from the environment (``PAO_*``).

These are the settings of the *deployment* (where the database is, which port to bind).
Operator settings that change at run time (withdraw limits, OTP on/off, texts) live in the
database and belong to :mod:`pao.site`.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

REPO_ROOT = Path(__file__).resolve().parents[4]
PAYMENT_SECRETS = (
    "bank_webhook_secret",
    "gateway_ww_secret",
    "gateway_paytimz_secret",
    "gateway_payonex_secret",
)
# What a deployment without the sandbox must be given to start: the payment secrets (the
# sandbox fills in well-known ones) and the game provider key (the sandbox has its own); without
# the key every game balance refresh would fail.
THIRD_PARTY_SECRETS = (*PAYMENT_SECRETS, "game_provider_key")
# What each slip verifier (PAO_SLIP_VERIFIER) needs to start without the sandbox (ADR 0026).
SLIP_VERIFIER_CREDENTIALS: dict[str, tuple[str, ...]] = {
    "pao": (),
    "slipok": ("slipok_branch_id", "slipok_api_key"),
    "easyslip": ("easyslip_api_key",),
    "scb": ("scb_api_key", "scb_api_secret"),
}
# Credentials the sandbox fills in with well-known values (its twins of the providers accept
# them); without the sandbox, the chosen provider's are required.
SANDBOX_FILLED_SECRETS = (
    "slipok_api_key",
    "easyslip_api_key",
    "scb_api_key",
    "scb_api_secret",
    "thaibulksms_api_key",
    "thaibulksms_api_secret",
    "thaibulksms_otp_key",
    "thaibulksms_otp_secret",
)
# What each bank API (PAO_BANK_API) needs to start without the sandbox (ADR 0029).
BANK_API_CREDENTIALS: dict[str, tuple[str, ...]] = {
    "pao": (),
    "scb": ("scb_api_key", "scb_api_secret", "scb_biller_id", "scb_ref3_prefix"),
}
# The sandbox SCB's biller of Pao's QRs (15 digits, like a real ppId) and its ref3 prefix.
SANDBOX_SCB_BILLER_ID = "010556012345601"
SANDBOX_SCB_REF3_PREFIX = "PAO"
SMS_PROVIDER_CREDENTIALS: dict[str, tuple[str, ...]] = {
    "pao": (),
    "thaibulksms": ("thaibulksms_api_key", "thaibulksms_api_secret"),
}
# Who makes and checks registration codes (PAO_OTP_PROVIDER, ADR 0030): ThaiBulkSMS's OTP API
# has its own key and secret, separate from its SMS API's.
OTP_PROVIDER_CREDENTIALS: dict[str, tuple[str, ...]] = {
    "pao": (),
    "thaibulksms": ("thaibulksms_otp_key", "thaibulksms_otp_secret"),
}
# The providers' public bases (providers.md §4, §6): the default of each *_url setting unless
# the sandbox is on, then this app's /sandbox/... twin.
SLIPOK_PUBLIC_URL = "https://api.slipok.com/api/line/apikey"
EASYSLIP_PUBLIC_URL = "https://api.easyslip.com/v2"
SCB_PUBLIC_URL = "https://api.partners.scb/partners"


class Settings(BaseSettings):
    # hide_input_in_errors: a refused setting's message must not print the others (secrets).
    model_config = SettingsConfigDict(env_prefix="PAO_", extra="ignore", hide_input_in_errors=True)

    env: Literal["development", "production", "test"] = "development"
    host: str = "127.0.0.1"
    port: int = 8000
    data_dir: Path = Path("var")
    database_url: str | None = None
    redis_url: str | None = None
    sandbox: bool = False
    # Lao variant, read at start by this same build (no rebuild per operator): Lao by default,
    # phone numbers not forced to 10 digits, members pick LAK or BAHT, Lao banks and Lao QR;
    # the SPA learns it from its document (pao.site.variant).
    lao_mode: bool = False
    # Where adapters reach third parties; in sandbox mode that is this very app.
    public_base_url: str | None = None
    # SMS gateway endpoint (JSON POST {phone, text, sender}); None → this app's sandbox outbox.
    sms_url: str | None = None
    sms_sender: str = "Pao"
    # Beyond the site's hourly SMS total, a reserve only OTP requests with a proof of work may
    # spend, and the proof's difficulty in leading zero bits (pao.identity.otp_proof).
    otp_reserve_per_hour: int = Field(default=30, ge=0)
    otp_proof_bits: int = Field(default=16, ge=8, le=28)
    # Who sends SMS: Pao's own dialect (sms_url) or ThaiBulkSMS (its SMS API; the URL defaults
    # to its public base, or this app's sandbox twin with PAO_SANDBOX=1; key and secret are
    # required without the sandbox).
    sms_provider: Literal["pao", "thaibulksms"] = "pao"
    thaibulksms_url: str | None = None
    thaibulksms_api_key: SecretStr = SecretStr("")
    thaibulksms_api_secret: SecretStr = SecretStr("")
    # Who makes and checks registration codes: Pao itself (sent through sms_provider) or
    # ThaiBulkSMS's OTP API (it makes, texts and checks the code; Pao's throttles and budgets
    # stay in front, ADR 0030). The URL defaults like thaibulksms_url's.
    otp_provider: Literal["pao", "thaibulksms"] = "pao"
    thaibulksms_otp_url: str | None = None
    thaibulksms_otp_key: SecretStr = SecretStr("")
    thaibulksms_otp_secret: SecretStr = SecretStr("")
    static_dir: Path = REPO_ROOT / "frontend" / "dist"
    session_ttl_hours: int = 24 * 14
    # Back office: a staff session unused for this long locks (the password unlocks it); it
    # ends 12 h after login.
    staff_idle_minutes: int = Field(default=30, ge=1, le=12 * 60)
    # Support chat: socket.io room names are this prefix + member id (or guest id).
    chat_prefix: str = Field(default="pao-chat-", pattern=r"^[A-Za-z0-9:_-]{1,40}$")
    # argon2id cost: OWASP's second recommended profile (19 MiB, t=2) by default.
    argon2_time_cost: int = 2
    argon2_memory_kib: int = 19 * 1024
    argon2_parallelism: int = 1
    db_pool_size: int = Field(default=10, ge=1)
    # Connections opened beyond the pool for a burst (closed again when returned).
    db_max_overflow: int = Field(default=10, ge=0)
    # Test each pooled connection before use. Off: on asyncpg a ping is three round trips
    # (BEGIN, a query, ROLLBACK) on every request (docs/benchmarks.md). Without it, a connection
    # broken by a database restart fails one request, and SQLAlchemy then drops the whole pool.
    db_pool_pre_ping: bool = False
    log_json: bool | None = None
    # The least level Pao's own log lines are written at; "debug" adds the routine ticks of the
    # background jobs (pao.kit.jobs). Other libraries stay at info or above.
    log_level: Literal["debug", "info", "warning", "error"] = "info"
    # Prometheus (/metrics): closed unless set, then only `Authorization: Bearer <token>`.
    metrics_token: str | None = Field(default=None, min_length=16)
    # On SIGTERM: how long requests in flight (and a job's tick) may take to finish before
    # they are cancelled (uvicorn's --timeout-graceful-shutdown). Longer than the slowest
    # third party's timeout, so that a payout or game transfer in flight gets its answer.
    shutdown_grace_seconds: float = Field(default=30.0, gt=0)
    # Background jobs (payouts, reconcilers) run in every process; tests call them directly.
    run_jobs: bool = True
    # Game providers (pao.games): API endpoint (None → this app's /sandbox/games/api), API key
    # (required when the sandbox is off), and how long a call may take before its outcome is
    # treated as unknown (transfers) or the last known balance is shown (balance refresh).
    game_provider_url: str | None = None
    game_provider_key: str | None = None
    game_provider_timeout_seconds: float = Field(default=8.0, gt=0)
    # Hub88, a seamless aggregator (pao.games.seamless.hub88; ADR 0025): its Games API base
    # (None → this app's /sandbox/hub88), Pao's operator id there, Hub88's public key (verifies
    # its wallet calls) and Pao's private key (signs Pao's calls), each PEM text or a file path.
    # Hub88 is on with the sandbox (its demo keys) or when the operator id is set; then a
    # missing key stops start-up (require_third_party_secrets).
    hub88_url: str | None = None
    hub88_operator_id: int | None = None
    hub88_public_key: str = ""
    hub88_private_key: str = ""
    # AMB SuperAPI "Common Flow" (pao.games.seamless.amb; ADR 0025): the HMAC key of its
    # sapi-signature header (on when set; a well-known one with the sandbox), what is signed
    # (the timestamp and the raw body, or the body alone: AMB's documentation was not read),
    # and how far its sapi-timestamp may be from Pao's clock.
    amb_signature_key: str = ""
    amb_signature_input: Literal["timestamp_body", "body"] = "timestamp_body"
    amb_timestamp_tolerance_seconds: int = Field(default=300, ge=10, le=3600)
    game_balance_timeout_seconds: float = Field(default=3.0, gt=0)
    # Provider health (pao.games.health, ADR 0013): a provider is marked down when at least
    # provider_health_failure_rate of its calls (and at least provider_health_min_calls) failed
    # or timed out within the last provider_health_window_seconds; after
    # provider_health_cooldown_seconds the next calls probe it again.
    provider_health_window_seconds: int = Field(default=60, ge=10, le=3600)
    provider_health_min_calls: int = Field(default=5, ge=1)
    provider_health_failure_rate: float = Field(default=0.5, gt=0, le=1)
    provider_health_cooldown_seconds: float = Field(default=30.0, gt=0, le=3600)
    # QR deposits (pao.payments.qr): the bank's incoming-transfer notification is signed with
    # hex(hmac_sha256(bank_webhook_secret, raw body)); each gateway signs its callbacks with
    # its own secret. Sandbox-only defaults are filled in below; a non-sandbox app refuses to
    # start without them (require_third_party_secrets, called by create_app).
    bank_webhook_secret: str = ""
    gateway_ww_secret: str = ""
    gateway_paytimz_secret: str = ""
    gateway_payonex_secret: str = ""
    # Gateways' and TrueMoney's base URLs; None → this app's sandbox (/sandbox/...).
    gateway_base_url: str | None = None
    truemoney_url: str | None = None
    # The bank's slip-verification and payout APIs (pao.payments.slips / .payouts);
    # None → this app's sandbox bank (/sandbox/bank/api/...). Payout calls taking longer than
    # the timeout are treated as an unknown outcome and settled by the reconciler.
    slip_verify_url: str | None = None
    payout_url: str | None = None
    payout_timeout_seconds: float = Field(default=10.0, gt=0)
    # Who checks slips (pao.payments.slips.providers, ADR 0026): Pao's own dialect (the
    # sandbox bank's, slip_verify_url), SlipOK, EasySlip (API v2) or SCB's slip verification.
    # The *_url settings default to the provider's public base, or to this app's sandbox twin
    # when PAO_SANDBOX=1; the credentials are required when the sandbox is off.
    slip_verifier: Literal["pao", "slipok", "easyslip", "scb"] = "pao"
    slip_verify_timeout_seconds: float = Field(default=15.0, gt=0, le=120)
    slipok_url: str | None = None
    slipok_branch_id: str = Field(default="", max_length=40)
    slipok_api_key: SecretStr = SecretStr("")
    easyslip_url: str | None = None
    easyslip_api_key: SecretStr = SecretStr("")
    # SCB Open API (pao.payments.scb): the app's API key and secret (OAuth client credentials).
    scb_url: str | None = None
    scb_api_key: SecretStr = SecretStr("")
    scb_api_secret: SecretStr = SecretStr("")
    # Who makes bank QRs and reports incoming payments (ADR 0005, ADR 0029): Pao's own dialect
    # (a PromptPay QR, the bank's signed notification) or SCB's QR payment API (QR create v2,
    # the payment-confirmation callback confirmed by SCB's inquiry API). SCB's needs the
    # biller id (ppId, 15 digits) and the registered 3-letter ref3 prefix that routes SCB's
    # callback to this app; the sandbox fills in its own.
    bank_api: Literal["pao", "scb"] = "pao"
    scb_biller_id: str = Field(default="", pattern=r"^([0-9]{15})?$")
    scb_ref3_prefix: str = Field(default="", pattern=r"^([A-Z0-9]{3})?$")
    # LINE Official Account (pao.support.line): the channel secret signs LINE's webhooks, the
    # access token authorises Pao's calls. LINE is off (its webhook answers 404) unless both
    # are set; the sandbox fills in well-known ones. The API URL is the line-bot-sdk's host:
    # None → LINE's own hosts (api.line.me, api-data.line.me), or this app's sandbox
    # (/sandbox/line) with PAO_SANDBOX=1.
    line_channel_secret: SecretStr = SecretStr("")
    line_channel_access_token: SecretStr = SecretStr("")
    line_api_url: str | None = None

    @model_validator(mode="after")
    def _no_sandbox_in_production(self) -> Settings:
        # The sandbox fills in well-known secrets and serves fake banks that "pay" anything:
        # in production it would let anyone forge a deposit. Refused before anything starts.
        if self.sandbox and self.env == "production":
            raise ValueError(
                "PAO_SANDBOX=1 is refused with PAO_ENV=production: the sandbox's fake third "
                "parties and well-known secrets would take real money; set PAO_SANDBOX=0"
            )
        return self

    @model_validator(mode="after")
    def _sandbox_payment_secrets(self) -> Settings:
        # Well-known values, acceptable only because the sandbox moves no real money.
        if self.sandbox:
            for name in (*PAYMENT_SECRETS, "amb_signature_key"):
                if not getattr(self, name):
                    setattr(self, name, f"sandbox-{name.replace('_', '-')}")
            # The sandbox's slip checkers accept these well-known credentials.
            if not self.slipok_branch_id:
                self.slipok_branch_id = "sandbox"
            if not self.scb_biller_id:
                self.scb_biller_id = SANDBOX_SCB_BILLER_ID
            if not self.scb_ref3_prefix:
                self.scb_ref3_prefix = SANDBOX_SCB_REF3_PREFIX
            for secret in SANDBOX_FILLED_SECRETS:
                if not getattr(self, secret).get_secret_value():
                    setattr(self, secret, SecretStr(f"sandbox-{secret.replace('_', '-')}"))
        return self

    @model_validator(mode="after")
    def _sandbox_line_channel(self) -> Settings:
        # Well-known too: the sandbox's LINE platform signs with the same secret (it is this app).
        if self.sandbox and not (self.line_secret or self.line_access_token):
            self.line_channel_secret = SecretStr("sandbox-line-channel-secret")
            self.line_channel_access_token = SecretStr("sandbox-line-channel-access-token")
        return self

    @property
    def line_secret(self) -> str:
        return self.line_channel_secret.get_secret_value()

    @property
    def line_access_token(self) -> str:
        return self.line_channel_access_token.get_secret_value()

    @property
    def line_enabled(self) -> bool:
        return bool(self.line_secret and self.line_access_token)

    @property
    def resolved_line_api_url(self) -> str | None:
        """The SDK's ``host``; None: the SDK's per-operation defaults (LINE's two hosts)."""
        if self.line_api_url:
            return self.line_api_url.rstrip("/")
        if self.sandbox:
            return f"{self.base_url}/sandbox/line"
        return None

    def require_third_party_secrets(self) -> None:
        if self.sandbox:
            return
        missing = [name for name in THIRD_PARTY_SECRETS if not getattr(self, name)]
        if self.hub88_operator_id is not None:
            keys = ("hub88_public_key", "hub88_private_key")
            missing += [name for name in keys if not getattr(self, name)]
        if missing:
            names = ", ".join(f"PAO_{name.upper()}" for name in missing)
            raise RuntimeError(f"refusing to start without {names} (PAO_SANDBOX is off)")
        self.require_slip_verifier_credentials()
        self.require_sms_provider_credentials()
        self.require_bank_api_credentials()
        self.require_otp_provider_credentials()

    def require_bank_api_credentials(self) -> None:
        """The chosen bank API's settings, when the sandbox is off (names only, never a value)."""
        if self.sandbox:
            return
        missing = [
            name
            for name in BANK_API_CREDENTIALS[self.bank_api]
            if not _secret_text(getattr(self, name))
        ]
        if missing:
            names = ", ".join(f"PAO_{name.upper()}" for name in missing)
            raise RuntimeError(
                f"refusing to start with PAO_BANK_API={self.bank_api} without {names}"
            )

    def require_otp_provider_credentials(self) -> None:
        if self.sandbox:
            return
        missing = [
            name
            for name in OTP_PROVIDER_CREDENTIALS[self.otp_provider]
            if not _secret_text(getattr(self, name))
        ]
        if missing:
            names = ", ".join(f"PAO_{name.upper()}" for name in missing)
            raise RuntimeError(
                f"refusing to start with PAO_OTP_PROVIDER={self.otp_provider} without {names}"
            )

    def require_sms_provider_credentials(self) -> None:
        if self.sandbox:
            return
        missing = [
            name
            for name in SMS_PROVIDER_CREDENTIALS[self.sms_provider]
            if not _secret_text(getattr(self, name))
        ]
        if missing:
            names = ", ".join(f"PAO_{name.upper()}" for name in missing)
            raise RuntimeError(
                f"refusing to start with PAO_SMS_PROVIDER={self.sms_provider} without {names}"
            )

    def require_slip_verifier_credentials(self) -> None:
        """The chosen slip verifier's credentials, when the sandbox is off (names only are
        printed, never a value)."""
        if self.sandbox:
            return
        missing = [
            name
            for name in SLIP_VERIFIER_CREDENTIALS[self.slip_verifier]
            if not _secret_text(getattr(self, name))
        ]
        if missing:
            names = ", ".join(f"PAO_{name.upper()}" for name in missing)
            raise RuntimeError(
                f"refusing to start with PAO_SLIP_VERIFIER={self.slip_verifier} without {names}"
            )

    def provider_url(self, configured: str | None, public: str, sandbox_path: str) -> str:
        """A provider's base URL: the setting, else this app's sandbox twin (sandbox on), else
        the provider's public base."""
        if configured:
            return configured.rstrip("/")
        if self.sandbox:
            return f"{self.base_url}{sandbox_path}"
        return public

    @property
    def resolved_database_url(self) -> str:
        if self.database_url:
            return self.database_url
        return f"sqlite+aiosqlite:///{(self.data_dir / 'pao.db').resolve()}"

    @property
    def hub88_enabled(self) -> bool:
        return self.sandbox or self.hub88_operator_id is not None

    @property
    def amb_enabled(self) -> bool:
        return bool(self.amb_signature_key)

    @property
    def is_sqlite(self) -> bool:
        return self.resolved_database_url.startswith("sqlite")

    @property
    def base_url(self) -> str:
        return self.public_base_url or f"http://{self.host}:{self.port}"

    @property
    def json_logs(self) -> bool:
        return self.log_json if self.log_json is not None else self.env == "production"


def _secret_text(value: object) -> str:
    return value.get_secret_value() if isinstance(value, SecretStr) else str(value or "")


@lru_cache
def get_settings() -> Settings:
    return Settings()
