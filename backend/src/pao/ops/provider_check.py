"""The go-live check (``pao ops providers check``): one harmless, authenticated call to each
configured third party, judged on three points: reachable, credentials accepted, answer shaped
as expected (docs/go-live.md).

Each probe takes the HTTP client as an argument (tests pass one on the sandbox app, or an
``httpx.MockTransport``) and returns a :class:`Probe`. A probe never raises for a provider's
answer and never puts a credential in its text: only HTTP statuses, the provider's codes and
exception class names.

What each probe calls (none moves money or sends a message):

============== =============================================================================
slipok         ``GET {PAO_SLIPOK_URL}/{branch}/quota`` (providers.md §4b; UNCONFIRMED
               officially): ``data.quota`` a number
easyslip       ``GET {PAO_EASYSLIP_URL}/info`` (API v2, §4a; fields not documented):
               ``success: true`` with a ``data`` object
scb            ``POST {PAO_SCB_URL}/v1/oauth/token`` (§6): status 1000 with an access token;
               with ``PAO_SLIP_VERIFIER=scb`` or ``PAO_BANK_API=scb`` (one app, one token:
               SCB answers no harmless QR call, a QR create would be a real order)
thaibulksms    ``GET {PAO_THAIBULKSMS_URL}/credit`` (§5): ``remaining_credit`` a number
thaibulksms-   ``POST {PAO_THAIBULKSMS_OTP_URL}/v2/otp/verify`` with a made-up token (§5): the
otp            OTP API has no harmless authenticated call (a request texts a code; it costs
               and reaches a phone), so this proves the host reachable, the key and secret set,
               and that a made-up token is refused with a 4xx (401/403: credentials refused);
               the credentials are otherwise shown as not proven (``-``): send one OTP to a
               staff phone (docs/go-live.md)
line           ``GET {LINE API}/v2/bot/info`` (LINE's bot info; not in providers.md):
               ``userId`` a string
hub88          ``POST {PAO_HUB88_URL}/operator/generic/v2/game/list`` signed (§1): a JSON
               list. Hub88 allows one game-list call a minute (shared with the hourly sync)
game-provider  ``GET {PAO_GAME_PROVIDER_URL}/CHECK/transfers/<unknown id>`` with the API key:
               404 ``NOT_FOUND`` (the key accepted, the transfer unknown, as asked)
bank-payout    ``GET {PAO_PAYOUT_URL}/<unknown id>``: 404 ``NOT_FOUND`` (Pao's dialect carries
               no credentials)
============== =============================================================================

Pao's own SMS and slip dialects (``pao``) have no harmless call: they are listed as skipped.
"""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import StrEnum
from types import SimpleNamespace
from typing import Any

import httpx

from pao.core.settings import EASYSLIP_PUBLIC_URL, SLIPOK_PUBLIC_URL, Settings
from pao.games.providers import ProviderNotConfigured, provider_api_key, provider_url
from pao.games.seamless.hub88 import games_api
from pao.identity.sms_providers.thaibulksms import thaibulksms_base_url
from pao.identity.sms_providers.thaibulksms_otp import thaibulksms_otp_base_url
from pao.payments.payouts.adapter import payout_base_url
from pao.payments.scb.oauth import MemoryTokenCache, ScbOAuth, ScbUnavailable

TIMEOUT_SECONDS = 10.0
LINE_PUBLIC_URL = "https://api.line.me"


class Mark(StrEnum):
    OK = "ok"
    FAILED = "FAILED"
    UNKNOWN = "-"  # not reached that far


@dataclass(frozen=True)
class Probe:
    provider: str
    reachable: Mark = Mark.UNKNOWN
    credentials: Mark = Mark.UNKNOWN
    shape: Mark = Mark.UNKNOWN
    detail: str = ""
    skipped: bool = False

    @property
    def failed(self) -> bool:
        return not self.skipped and self.shape is not Mark.OK

    def line(self) -> str:
        if self.skipped:
            return f"{self.provider:<14} skipped     {self.detail}"
        verdict = "FAILED" if self.failed else "ok"
        return (
            f"{self.provider:<14} {verdict:<11} reachable {self.reachable}, credentials "
            f"{self.credentials}, answer {self.shape}" + (f": {self.detail}" if self.detail else "")
        )


def unreachable(provider: str, exc: Exception) -> Probe:
    # The class name only: an exception's text may carry a URL with a key in it.
    return Probe(provider, Mark.FAILED, detail=f"unreachable ({type(exc).__name__})")


def refused(provider: str, response: httpx.Response, code: Any = None) -> Probe:
    named = f", code {code}" if code not in (None, "") else ""
    return Probe(
        provider,
        Mark.OK,
        Mark.FAILED,
        detail=f"credentials refused (HTTP {response.status_code}{named})",
    )


def misshaped(provider: str, response: httpx.Response, what: str) -> Probe:
    return Probe(
        provider,
        Mark.OK,
        Mark.OK,
        Mark.FAILED,
        detail=f"unexpected answer (HTTP {response.status_code}): {what}",
    )


def passed(provider: str, detail: str) -> Probe:
    return Probe(provider, Mark.OK, Mark.OK, Mark.OK, detail=detail)


def _json(response: httpx.Response) -> Any:
    try:
        return response.json()
    except ValueError:
        return None


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


Check = Callable[[Settings, httpx.AsyncClient], Awaitable[Probe]]


async def check_slipok(settings: Settings, http: httpx.AsyncClient) -> Probe:
    name = "slipok"
    base = settings.provider_url(
        settings.slipok_url, SLIPOK_PUBLIC_URL, "/sandbox/slipok/api/line/apikey"
    )
    headers = {"x-authorization": settings.slipok_api_key.get_secret_value()}
    try:
        response = await http.get(
            f"{base}/{settings.slipok_branch_id}/quota", headers=headers, timeout=TIMEOUT_SECONDS
        )
    except httpx.HTTPError as exc:
        return unreachable(name, exc)
    body = _json(response)
    code = body.get("code") if isinstance(body, dict) else None
    if response.status_code in (401, 403) or code in (1001, 1002, 1003, 1015):
        return refused(name, response, code)
    data = body.get("data") if isinstance(body, dict) else None
    if response.status_code != 200 or not isinstance(data, dict) or not _number(data.get("quota")):
        return misshaped(name, response, "no data.quota")
    return passed(name, f"quota {data['quota']} left")


async def check_easyslip(settings: Settings, http: httpx.AsyncClient) -> Probe:
    name = "easyslip"
    base = settings.provider_url(settings.easyslip_url, EASYSLIP_PUBLIC_URL, "/sandbox/easyslip/v2")
    headers = {"Authorization": f"Bearer {settings.easyslip_api_key.get_secret_value()}"}
    try:
        response = await http.get(f"{base}/info", headers=headers, timeout=TIMEOUT_SECONDS)
    except httpx.HTTPError as exc:
        return unreachable(name, exc)
    body = _json(response)
    error = body.get("error") if isinstance(body, dict) else None
    code = error.get("code") if isinstance(error, dict) else None
    if response.status_code in (401, 403):
        return refused(name, response, code)
    if (
        response.status_code != 200
        or not isinstance(body, dict)
        or body.get("success") is not True
        or not isinstance(body.get("data"), dict)
    ):
        return misshaped(name, response, "not success with data")
    return passed(name, "application info received")


async def check_scb(settings: Settings, http: httpx.AsyncClient) -> Probe:
    name = "scb"
    # A cache of its own: the check neither reuses nor replaces the running app's token.
    oauth = ScbOAuth(http, settings, MemoryTokenCache())
    try:
        await oauth.access_token()
    except ScbUnavailable as exc:
        cause = exc.__cause__
        if isinstance(cause, httpx.HTTPError):
            return unreachable(name, cause)
        # ScbUnavailable's text names the HTTP status and SCB's code, never a credential.
        return Probe(name, Mark.OK, Mark.FAILED, detail=f"token refused ({exc})")
    return passed(name, "OAuth token issued")


async def check_thaibulksms(settings: Settings, http: httpx.AsyncClient) -> Probe:
    name = "thaibulksms"
    auth = httpx.BasicAuth(
        settings.thaibulksms_api_key.get_secret_value(),
        settings.thaibulksms_api_secret.get_secret_value(),
    )
    try:
        response = await http.get(
            f"{thaibulksms_base_url(settings)}/credit", auth=auth, timeout=TIMEOUT_SECONDS
        )
    except httpx.HTTPError as exc:
        return unreachable(name, exc)
    body = _json(response)
    if response.status_code in (401, 403):
        error = body.get("error") if isinstance(body, dict) else None
        return refused(name, response, error.get("code") if isinstance(error, dict) else None)
    credit = body.get("remaining_credit") if isinstance(body, dict) else None
    if response.status_code != 200 or not _number(credit):
        return misshaped(name, response, "no remaining_credit")
    return passed(name, f"{credit} credits left")


async def check_thaibulksms_otp(settings: Settings, http: httpx.AsyncClient) -> Probe:
    name = "thaibulksms-otp"
    key = settings.thaibulksms_otp_key.get_secret_value()
    secret = settings.thaibulksms_otp_secret.get_secret_value()
    if not (key and secret):
        return Probe(
            name,
            detail="PAO_THAIBULKSMS_OTP_KEY/PAO_THAIBULKSMS_OTP_SECRET not set",
            shape=Mark.FAILED,
        )
    made_up = {"key": key, "secret": secret, "token": f"pao-check-{uuid.uuid4().hex}", "pin": "0"}
    try:
        response = await http.post(
            f"{thaibulksms_otp_base_url(settings)}/v2/otp/verify",
            json=made_up,
            timeout=TIMEOUT_SECONDS,
        )
    except httpx.HTTPError as exc:
        return unreachable(name, exc)
    if response.status_code in (401, 403):
        body = _json(response)
        error = body.get("error") if isinstance(body, dict) else None
        return refused(name, response, error.get("code") if isinstance(error, dict) else None)
    if not 400 <= response.status_code < 500:
        # A 2xx would "verify" a token that does not exist; a 5xx is the provider failing.
        return Probe(
            name,
            Mark.OK,
            Mark.UNKNOWN,
            Mark.FAILED,
            detail=f"a made-up token was not refused (HTTP {response.status_code})",
        )
    return Probe(
        name,
        Mark.OK,
        Mark.UNKNOWN,
        Mark.OK,
        detail=f"reachable, a made-up token refused (HTTP {response.status_code}); no harmless "
        "call proves the key and secret: send one OTP to a staff phone",
    )


async def check_line(settings: Settings, http: httpx.AsyncClient) -> Probe:
    name = "line"
    base = settings.resolved_line_api_url or LINE_PUBLIC_URL
    headers = {"Authorization": f"Bearer {settings.line_access_token}"}
    try:
        response = await http.get(f"{base}/v2/bot/info", headers=headers, timeout=TIMEOUT_SECONDS)
    except httpx.HTTPError as exc:
        return unreachable(name, exc)
    if response.status_code in (401, 403):
        return refused(name, response)
    body = _json(response)
    user_id = body.get("userId") if isinstance(body, dict) else None
    if response.status_code != 200 or not isinstance(user_id, str):
        return misshaped(name, response, "no userId")
    shown = body.get("basicId") or body.get("displayName") or ""
    return passed(name, f"bot {shown}".strip())


async def check_hub88(settings: Settings, http: httpx.AsyncClient) -> Probe:
    name = "hub88"
    note = "(Hub88 allows one game-list call a minute)"
    app = SimpleNamespace(state=SimpleNamespace(settings=settings, http=http))
    try:
        answer = await games_api.list_games(app)
    except games_api.Hub88Error as exc:
        if not exc.answered:
            return Probe(name, Mark.FAILED, detail=f"unreachable ({exc}) {note}")
        if exc.status == 429:
            return Probe(
                name,
                Mark.OK,
                detail="rate-limited (429): wait a minute and run it again",
                shape=Mark.FAILED,
            )
        if exc.status in (401, 403):
            return Probe(name, Mark.OK, Mark.FAILED, detail=f"signature refused ({exc}) {note}")
        return Probe(name, Mark.OK, Mark.UNKNOWN, Mark.FAILED, detail=f"{exc} {note}")
    except (OSError, ValueError, RuntimeError) as exc:  # a key missing or unreadable
        return Probe(
            name, Mark.UNKNOWN, Mark.FAILED, detail=f"keys unusable ({type(exc).__name__})"
        )
    if not isinstance(answer, list):
        return Probe(name, Mark.OK, Mark.OK, Mark.FAILED, detail=f"not a list {note}")
    return passed(name, f"{len(answer)} games {note}")


async def check_game_provider(settings: Settings, http: httpx.AsyncClient) -> Probe:
    name = "game-provider"
    try:
        key = provider_api_key(settings)
    except ProviderNotConfigured:
        return Probe(name, detail="PAO_GAME_PROVIDER_KEY is not set", shape=Mark.FAILED)
    probe_id = f"pao-check-{uuid.uuid4().hex[:12]}"
    url = f"{provider_url(settings).rstrip('/')}/CHECK/transfers/{probe_id}"
    try:
        response = await http.get(url, headers={"X-Api-Key": key}, timeout=TIMEOUT_SECONDS)
    except httpx.HTTPError as exc:
        return unreachable(name, exc)
    body = _json(response)
    if response.status_code in (401, 403):
        return refused(name, response, body.get("error") if isinstance(body, dict) else None)
    status = body.get("status") if isinstance(body, dict) else None
    if response.status_code != 404 or status != "NOT_FOUND":
        return misshaped(name, response, "an unknown transfer was not NOT_FOUND")
    return passed(name, "an unknown transfer is NOT_FOUND, as expected")


async def check_bank_payout(settings: Settings, http: httpx.AsyncClient) -> Probe:
    name = "bank-payout"
    probe_id = f"pao-check-{uuid.uuid4().hex[:12]}"
    try:
        response = await http.get(
            f"{payout_base_url(settings)}/{probe_id}", timeout=TIMEOUT_SECONDS
        )
    except httpx.HTTPError as exc:
        return unreachable(name, exc)
    if response.status_code in (401, 403):
        return refused(name, response)
    body = _json(response)
    code = body.get("code") if isinstance(body, dict) else None
    if response.status_code != 404 or code != "NOT_FOUND":
        return misshaped(name, response, "an unknown payout was not NOT_FOUND")
    return Probe(
        name,
        Mark.OK,
        Mark.OK,
        Mark.OK,
        detail="an unknown payout is NOT_FOUND (Pao's payout dialect has no credentials)",
    )


def skipped(provider: str, why: str) -> Probe:
    return Probe(provider, detail=why, skipped=True)


def planned(settings: Settings) -> list[tuple[str, Check | str]]:
    """Per third party: its check, or why it is skipped."""
    slips: dict[str, Check] = {
        "slipok": check_slipok,
        "easyslip": check_easyslip,
        "scb": check_scb,
    }
    plan: list[tuple[str, Check | str]] = []
    if settings.slip_verifier in slips:
        plan.append((settings.slip_verifier, slips[settings.slip_verifier]))
    else:
        plan.append(("slip-verifier", "PAO_SLIP_VERIFIER=pao: Pao's own dialect, no harmless call"))
    if settings.bank_api == "scb" and settings.slip_verifier != "scb":
        plan.append(("scb", check_scb))
    if settings.sms_provider == "thaibulksms":
        plan.append(("thaibulksms", check_thaibulksms))
    else:
        plan.append(("sms", "PAO_SMS_PROVIDER=pao: Pao's own dialect, no harmless call"))
    if settings.otp_provider == "thaibulksms":
        plan.append(("thaibulksms-otp", check_thaibulksms_otp))
    if settings.line_enabled:
        plan.append(("line", check_line))
    else:
        plan.append(("line", "off (PAO_LINE_CHANNEL_SECRET/ACCESS_TOKEN not set)"))
    if settings.hub88_enabled:
        plan.append(("hub88", check_hub88))
    else:
        plan.append(("hub88", "off (PAO_HUB88_OPERATOR_ID not set)"))
    if settings.game_provider_url or settings.sandbox:
        plan.append(("game-provider", check_game_provider))
    else:
        plan.append(("game-provider", "off (PAO_GAME_PROVIDER_URL not set)"))
    if settings.payout_url or settings.sandbox:
        plan.append(("bank-payout", check_bank_payout))
    else:
        plan.append(("bank-payout", "off (PAO_PAYOUT_URL not set)"))
    return plan


async def check_providers(
    settings: Settings, http: httpx.AsyncClient, *, only: set[str] | None = None
) -> list[Probe]:
    """Every configured third party's probe, one after the other (``only``: these names)."""
    results: list[Probe] = []
    for name, step in planned(settings):
        if only is not None and name not in only:
            continue
        if isinstance(step, str):
            results.append(skipped(name, step))
            continue
        results.append(await step(settings, http))
    return results
